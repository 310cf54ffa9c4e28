"""Conversations against the real server: ``memoryChat`` keeps threads in LibSQL, ``toolUser`` has
no memory (the chat resends the history). Both answer a prompt that names no tool with
``Turn N: you said "...". Before that you said: ... Earlier tools said: ...``: what the model saw."""

from __future__ import annotations

import re
import uuid

import ipywidgets
import pytest

import mastra_notebook as mn
from mastra_notebook.client.chat import has_memory
from mastra_notebook.client.transport import MastraError

pytestmark = pytest.mark.server


def lookup(city: str) -> dict[str, object]:
    """The temperature in a city."""
    return {"city": city, "temperature": 7}


def resource() -> str:
    return f"user-{uuid.uuid4().hex[:8]}"  # each test its own owner: threads() sees only its threads


@pytest.mark.parametrize("agent_id", ["memoryChat", "toolUser"])
def test_turn_two_sees_turn_one_and_its_tool_call(client: mn.MastraClient, agent_id: str) -> None:
    chat = client.agent(agent_id).chat(resource=resource())
    assert chat.memory is (agent_id == "memoryChat")
    assert (chat.thread is not None) is chat.memory
    first = chat.send('call lookup with {"city": "Oslo"}', tools=[lookup]).wait(30)
    assert first.tool_calls[0].ran_in == "notebook"
    second = chat.send("and what did I ask?").wait(30)
    assert second.text.startswith(
        'Turn 2: you said "and what did I ask?". Before that you said: "call lookup with'
    )
    assert 'Earlier tools said: lookup returned {"city":"Oslo","temperature":7}' in second.text
    assert [r.status for r in chat.history] == ["finished", "finished"]
    assert chat.history[1] == second


def test_memory_is_asked_of_the_server_or_given(client: mn.MastraClient) -> None:
    assert has_memory(client.agent("memoryChat"))
    assert not has_memory(client.agent("toolUser"))
    forced = client.agent("memoryChat").chat(memory=False)
    assert forced.thread is None
    forced.send("one").wait(30)
    assert 'Before that you said: "one"' in forced.send("two").wait(30).text  # resent history


def test_a_server_that_does_not_answer_or_a_missing_thread_is_said_plainly(client: mn.MastraClient) -> None:
    unreachable = mn.MastraClient("http://127.0.0.1:9").agent("memoryChat")
    with pytest.raises(MastraError, match=r"^GET /api/memory/status: cannot connect to the Mastra server"):
        unreachable.chat()
    with pytest.raises(RuntimeError, match=r"answered HTTP 404: Thread not found$"):
        client.agent("memoryChat").thread("no-such-thread")


def test_two_chats_on_one_explicit_thread_share_memory(client: mn.MastraClient) -> None:
    owner, thread = resource(), f"shared-{uuid.uuid4().hex[:8]}"
    agent = client.agent("memoryChat")
    agent.chat(thread=thread, resource=owner).send("I am chat A").wait(30)
    other = agent.chat(thread=thread, resource=owner)
    assert other.thread == thread
    answer = other.send("who spoke first?").wait(30)
    assert answer.text.startswith('Turn 2: you said "who spoke first?". Before that you said: "I am chat A"')


@pytest.mark.parametrize("agent_id", ["memoryChat", "toolUser"])
def test_a_fork_diverges(client: mn.MastraClient, agent_id: str) -> None:
    chat = client.agent(agent_id).chat(resource=resource())
    chat.send("the common start").wait(30)
    branch = chat.fork()
    assert branch.thread != chat.thread or not chat.memory
    assert [v.result for v in branch.views] == chat.history  # the same turns so far
    main_reply = chat.send("go left").wait(30).text
    branch_reply = branch.send("go right").wait(30).text
    assert main_reply == 'Turn 2: you said "go left". Before that you said: "the common start".'
    assert branch_reply == 'Turn 2: you said "go right". Before that you said: "the common start".'
    later = chat.send("where did I go?").wait(30).text
    assert '"go left"' in later
    assert "go right" not in later
    assert len(chat.history) == 3
    assert len(branch.history) == 2


def test_threads_and_a_stored_thread_drawn_read_only(client: mn.MastraClient) -> None:
    owner = resource()
    agent = client.agent("memoryChat")
    chat = agent.chat(resource=owner)
    chat.send('call lookup with {"city": "Lima"}', tools=[lookup]).wait(30)
    chat.send("<img src=x onerror=alert(1)> thanks").wait(30)
    assert [t["id"] for t in agent.threads(resource=owner)] == [chat.thread]
    assert chat.thread is not None
    stored = agent.thread(chat.thread)
    assert len(stored.views) == 2
    first, second = (view.result for view in stored.views)
    assert (first.tool_calls[0].tool_name, first.tool_calls[0].result) == (
        "lookup",
        {"city": "Lima", "temperature": 7},
    )
    assert "lookup returned" in first.text
    assert second.text.startswith('Turn 2: you said "<img src=x onerror=alert(1)> thanks"')
    turns = [c.value for c in stored.children if isinstance(c, ipywidgets.HTML) and "mn-user-turn" in c.value]
    assert turns[1].endswith("&lt;img src=x onerror=alert(1)&gt; thanks</div>")  # drawn inert
    assert all(not view.can_approve for view in stored.views)  # read-only: no live continuation


def test_a_displayed_chat_holds_every_turn_in_order(client: mn.MastraClient) -> None:
    chat = client.agent("toolUser").chat()
    views = []
    for prompt in ("first", "second"):
        views.append(chat.send(prompt))
        views[-1].wait(30)
    kinds = [type(c).__name__ for c in chat.widget.children]
    assert kinds == [
        "HTML",
        "HTML",
        "StreamView",
        "HTML",  # under the first answer: the agent has no memory, and what to turn on
        "HTML",
        "StreamView",
    ]  # title, then prompt and answer per turn
    assert chat.widget.children[2] is views[0]
    assert "first</div>" in chat.widget.children[1].value
    assert repr(chat) == "<Chat with 'toolUser': 2 turns, history resent each turn>"


def test_a_saved_chat_keeps_a_static_transcript_of_every_turn(
    mastra_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nbclient import NotebookClient
    from nbformat.v4 import new_code_cell, new_notebook

    from ..helpers import kernel_sees_the_package

    kernel_sees_the_package(monkeypatch)
    notebook = new_notebook(
        cells=[
            new_code_cell(
                f"import mastra_notebook as mn\nchat = mn.MastraClient({mastra_url!r}).agent('toolUser').chat()\n"
                "chat.send('hello <script>alert(1)</script>').wait(30)\nchat.send('and again').wait(30)\nchat"
            )
        ]
    )
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert "application/vnd.jupyter.widget-view+json" in outputs[0]["data"]
    saved = outputs[1]["data"]["text/html"]
    # hidden where the turns' views draw: it names both of them
    assert re.match(  # after the rule that hides the widget's output when it cannot draw
        r'<style>[^<]*</style><div class="mastra-notebook-transcript( mn-transcript-of-[0-9a-f]{32}){2}'
        r' mn-conversation-transcript"',
        saved,
    )
    assert "hello &lt;script&gt;alert(1)&lt;/script&gt;</div>" in saved
    assert "<script>" not in saved
    assert saved.count('class="mn-user-turn"') == 2
    assert "Turn 2: you said" in saved
