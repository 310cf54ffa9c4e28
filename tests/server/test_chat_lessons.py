"""A chat as a lesson, against the bundled server (issue 32, item 6): sends in one cell are turns in
order; each ended turn's trace is read, so its view shows its requests and trace lane, and its memory
(recalled, saved, working before and after) sets its counts beside the trace's; a new chat owns its
resource; a chat saved to one file replays turn by turn, and exports as one page, with no server."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

import mastra_notebook as mn
from mastra_notebook.client.chat import Chat
from mastra_notebook.core.turn_memory import RecalledMessage
from mastra_notebook.widget.replay import ChatReplay

pytestmark = pytest.mark.server

PROMPTS = ("Hi, my name is Ada.", "I live in Lyon.", "What do you know about me?")
NAMED = "# User\n- Name: Ada\n- Location:\n- Likes:"


def three_turns(client: mn.MastraClient) -> Chat:
    """Three sends in one go, no wait between them (as three lines of one cell), then ``wait()``."""
    chat = client.agent("workingMemory").chat(resource=f"user-{uuid.uuid4().hex[:8]}")
    for prompt in PROMPTS:
        chat.send(prompt)
    chat.wait(30)
    return chat


@pytest.fixture(scope="module")
def lesson(mastra_url: str) -> Chat:
    return three_turns(mn.MastraClient(mastra_url))


def test_three_sends_without_a_wait_are_three_turns_in_order(lesson: Chat) -> None:
    assert [turn.result.status for turn in lesson.turns] == ["finished"] * 3
    third = lesson.turns[2].memory
    assert third is not None
    assert [message.text for message in third.recalled if message.role == "user"] == list(PROMPTS[:2])


def test_each_turn_shows_its_requests_and_its_trace(lesson: Chat) -> None:
    for view in lesson.views:
        assert view.stream.recorded_trace() is not None  # read once the turn ended, kept in its recording
        assert view.result.steps
        assert all(step.request is not None and step.request.source == "trace" for step in view.result.steps)
        assert view.run.trace is not None  # the lane the view draws


def test_memory_per_turn_says_what_it_saved_and_counts_beside_the_trace(lesson: Chat) -> None:
    memories = [turn.memory for turn in lesson.turns]
    assert all(memory is not None for memory in memories)
    third = memories[2]
    assert third is not None
    assert third.saved == [
        RecalledMessage(role="user", text=PROMPTS[2]),
        RecalledMessage(role="assistant", text=lesson.turns[2].result.text),
    ]
    for memory in memories:
        assert memory is not None
        assert memory.traced_recalled is not None
        assert memory.traced_saved is not None
        mine = (len(memory.recalled), len(memory.saved))
        if (memory.traced_recalled, memory.traced_saved) == mine:
            assert memory.counts == f"the trace agrees: {mine[0]} recalled, {mine[1]} saved"
        else:  # the sentence says why
            assert memory.counts is not None
            assert "the trace counts stored messages" in memory.counts
    assert (third.traced_recalled, third.traced_saved) == (4, 2)
    shown = lesson.widget.memories[2]
    assert "Saved 2 messages" in shown
    assert "the trace agrees: 4 recalled, 2 saved" in shown
    assert "Recalled 4 messages" in shown


def test_a_new_chat_has_a_resource_of_its_own(client: mn.MastraClient) -> None:
    first = client.agent("workingMemory").chat()
    first.send(PROMPTS[0]).wait(30)
    assert first.working_memory == NAMED
    second = client.agent("workingMemory").chat()
    assert second.resource != first.resource
    second.send("Hello.")
    (turn,) = second.wait(30)
    assert turn.memory is not None
    assert turn.memory.working_before is None  # not the first chat's working memory
    shared = client.agent("workingMemory").chat(resource=first.resource)  # given: shared
    assert shared.working_memory == NAMED  # a thread of its own, the resource's working memory


def test_a_saved_chat_replays_turn_by_turn_with_its_trace_and_memory(lesson: Chat, tmp_path: Path) -> None:
    path = lesson.save(tmp_path / "chat.jsonl")
    played = mn.replay(path, autoplay=False)
    assert isinstance(played, ChatReplay)
    assert played.prompts == list(PROMPTS)
    assert played.memories == [turn.memory for turn in lesson.turns]
    (first,) = played.views  # one turn shown, held at its start
    assert first.position == 0
    assert played.widget.memories == [""]  # its memory shows once its replay reaches the end
    first.seek(first.total)
    assert "Saved" in played.widget.memories[0]
    assert first.trace().spans == lesson.views[0].trace().spans  # the kept trace, no server asked
    for index in (1, 2):
        view = played.next()
        assert view is not None
        view.seek(view.total)
        assert [step.request for step in view.result.steps] == [
            step.request for step in lesson.views[index].result.steps
        ]
    assert played.next() is None
    assert "the trace agrees: 4 recalled, 2 saved" in played.widget.memories[2]


def test_a_saved_chat_plays_through_on_its_own(lesson: Chat, tmp_path: Path) -> None:
    played = mn.replay(lesson.save(tmp_path / "chat.jsonl"), speed=50)
    assert isinstance(played, ChatReplay)
    while len(played.views) < 3 or played.views[-1].position < played.views[-1].total:
        played.views[-1].wait(30)  # each turn's playback; the next is added as it ends
    assert [view.result.text for view in played.views] == [turn.result.text for turn in lesson.turns]
    assert all(shown for shown in played.widget.memories)


def test_a_chat_exports_as_one_page_of_every_turn(lesson: Chat) -> None:
    page = lesson.to_html()
    data = json.loads(page.split('<script type="application/json" id="mn-data">')[1].split("</script>")[0])
    assert [view["id"] for view in data["views"]] == ["mn-view-0", "mn-view-1", "mn-view-2"]
    assert all(view["requests"] for view in data["views"])  # each turn's requests, from its trace
    for prompt in PROMPTS:
        assert prompt in page
    assert "Saved 2 messages" in page
