"""Memory, turn by turn, against the bundled server: ``workingMemory`` writes working memory through
the scripted model, ``memoryChat`` keeps threads without working memory, ``toolUser`` has no memory.
Each chat turn says what it recalled and how the working memory changed; what has no memory says
what to turn on."""

from __future__ import annotations

import uuid

import httpx
import pytest

import mastra_notebook as mn
from mastra_notebook.client.chat import Chat
from mastra_notebook.core.turn_memory import RecalledMessage, TurnMemory

pytestmark = pytest.mark.server

PROMPTS = ("Hi, my name is Ada.", "I live in Lyon.", "What do you know about me?")
NAMED = "# User\n- Name: Ada\n- Location:\n- Likes:"
PLACED = "# User\n- Name: Ada\n- Location: Lyon\n- Likes:"


def route(mastra_url: str, chat: Chat) -> str | None:
    """The working memory as Mastra's route gives it, asked without the client."""
    params = {"agentId": chat.agent.id, "resourceId": chat.resource}
    url = f"{mastra_url}/api/memory/threads/{chat.thread}/working-memory"
    value: str | None = httpx.get(url, params=params, timeout=30).json()["workingMemory"]
    return value


def test_three_turns_show_what_they_recalled_and_the_working_memory_they_changed(
    client: mn.MastraClient, mastra_url: str
) -> None:
    chat = client.agent("workingMemory").chat(resource=f"user-{uuid.uuid4().hex[:8]}")
    assert chat.working_memory is None  # nothing written yet
    for prompt in PROMPTS:
        chat.send(prompt).wait(30)
    first, second, third = (turn.memory for turn in chat.turns)
    answers = [turn.result.text for turn in chat.turns]
    assert first is not None
    assert second is not None
    assert (first.recalled, first.working_before, first.working_after) == ([], None, NAMED)
    assert second.recalled == [
        RecalledMessage(role="user", text=PROMPTS[0]),
        RecalledMessage(role="assistant", text=answers[0]),
    ]
    assert (second.working_before, second.working_after) == (NAMED, PLACED)
    assert third is not None
    assert third.recalled == [
        RecalledMessage(role="user", text=PROMPTS[0]),
        RecalledMessage(role="assistant", text=answers[0]),
        RecalledMessage(role="user", text=PROMPTS[1]),
        RecalledMessage(role="assistant", text=answers[1]),
    ]
    assert (third.working_before, third.working_after, third.note) == (PLACED, PLACED, None)
    assert chat.working_memory == route(mastra_url, chat) == PLACED
    assert [turn.result for turn in chat.turns] == chat.history  # history stays one RunResult a turn
    assert [result.memory for result in chat.history] == [first, second, third]  # chat.history[i].memory
    assert all(isinstance(result, mn.RunResult) for result in chat.history)
    assert "memory" not in chat.history[1].model_dump()  # its JSON is the run's

    shown = chat.widget.memories  # what the conversation draws under each answer
    assert "Recalled" not in shown[0]
    assert "Working memory: +4 -0 lines" in shown[0]
    assert "Recalled 2 messages" in shown[1]
    assert "Working memory: +1 -1 lines" in shown[1]
    assert "Recalled 4 messages" in shown[2]
    assert "Working memory: unchanged" in shown[2]
    assert all(memory in chat.widget.transcript_html() for memory in shown)  # saved notebooks too


def test_a_fork_keeps_what_memory_did_in_the_turns_it_shares(client: mn.MastraClient) -> None:
    chat = client.agent("workingMemory").chat(resource=f"user-{uuid.uuid4().hex[:8]}")
    chat.send(PROMPTS[0]).wait(30)
    branch = chat.fork()
    assert branch.turns[0].memory == chat.turns[0].memory
    branch.send(PROMPTS[1]).wait(30)
    assert branch.turns[1].memory is not None
    assert branch.turns[1].memory.working_before == NAMED
    assert branch.turns[1].memory.working_after == PLACED
    assert chat.working_memory == PLACED  # resource scope (the default): one per owner, fork or not
    assert "Recalled 2 messages" in branch.widget.memories[1]


def lookup(city: str) -> dict[str, object]:
    """The temperature in a city."""
    return {"city": city, "temperature": 7}


def test_memory_without_working_memory_recalls_and_says_what_to_turn_on(client: mn.MastraClient) -> None:
    chat = client.agent("memoryChat").chat(resource=f"user-{uuid.uuid4().hex[:8]}")
    chat.send('call lookup with {"city": "Oslo"}', tools=[lookup]).wait(30)  # two requests, one turn
    chat.send("two").wait(30)
    first, second = (turn.memory for turn in chat.turns)
    assert first is not None
    assert second is not None
    assert (
        first.note
        == second.note
        == (
            "agent memoryChat keeps no working memory: turn it on in its Memory's options on the server "
            "(new Memory({options: {workingMemory: {enabled: true}}}))"
        )
    )
    assert first.recalled == []  # the tool round's request recalls the turn's own messages: not memory's
    # as Mastra stores a client tool's turn: the call before its round, with no result, then again
    assert [(message.role, message.text) for message in second.recalled] == [
        ("user", 'call lookup with {"city": "Oslo"}'),
        ("assistant", 'called lookup({"city":"Oslo"})'),
        ("tool", "(no content)"),
        ("assistant", 'called lookup({"city":"Oslo"})'),
        ("tool", 'lookup returned {"city":"Oslo","temperature":7}'),
        ("assistant", chat.turns[0].result.text),
    ]
    assert chat.working_memory is None
    assert "keeps no working memory" in chat.widget.memories[0]
    assert "keeps no working memory" not in chat.widget.memories[1]  # said once, not every turn
    assert "Recalled 6 messages" in chat.widget.memories[1]


def test_an_agent_without_memory_says_so_instead_of_an_empty_panel(client: mn.MastraClient) -> None:
    chat = client.agent("toolUser").chat()
    chat.send("hello").wait(30)
    memory = chat.turns[0].memory
    assert memory == TurnMemory(
        note="agent toolUser has no memory: give it a Memory (new Agent({memory: new Memory()})) on the "
        "server to recall earlier turns and keep working memory"
    )
    assert chat.working_memory is None
    assert "has no memory: give it a Memory" in chat.widget.memories[0]
