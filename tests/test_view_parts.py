"""The parts a StreamView is made of, each alone with no widget: the op sync (widget/sync.py), the
inspector, the answers to the browser, labels given in the view and the transcript outputs. What the
view does with them together: tests/test_view.py; when batches leave: tests/test_flush_policy.py."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core.feedback import NO_TRACE, Feedback
from mastra_notebook.runs.stream import RunStream
from mastra_notebook.widget.answers import Answers, request_answer
from mastra_notebook.widget.contract import ChunkJsonMsg, HelloMsg, InspectMsg, LabelMsg, RequestMsg, StopMsg
from mastra_notebook.widget.conversation import Conversation
from mastra_notebook.widget.inspector import Inspector, chunk_json, entries
from mastra_notebook.widget.labels import LabelsFromView
from mastra_notebook.widget.sync import OpSync
from mastra_notebook.widget.transcripts import Transcripts, saved_face
from mastra_notebook.widget.wire import MIN_GAP

from .conftest import fixture_path
from .fake_clock import run_on_fake_clock
from .helpers import Displayed, browser_state, replay

ROOT = ["add", None, {"id": "r", "kind": "run"}]


def delta(text: str) -> dict[str, Any]:
    return {"type": "text-delta", "payload": {"id": "t", "text": text}}


def fed(count: int) -> RunStream:
    """A stream fed the first ``count`` chunks of a recording by hand."""
    stream = RunStream()
    for item in list(mn.read_chunks(fixture_path("tool-call")))[:count]:
        stream.feed(item)
    return stream


# ---- the op sync ----------------------------------------------------------------------------------


def test_ops_leave_at_once_then_a_timer_sends_what_came_within_the_gap() -> None:
    async def scenario() -> list[tuple[float, Any]]:
        loop = asyncio.get_running_loop()
        sent: list[tuple[float, Any]] = []
        sync = OpSync(lambda msg: sent.append((loop.time(), msg)), lambda: loop, clock=loop.time)
        sync.add(ROOT)  # the first change leaves at once
        sync.add(["set", "r", "status", "running"])
        sync.add(["set", "r", "status", "finished"])  # joins the waiting set
        assert len(sent) == 1
        await asyncio.sleep(1)
        return sent

    sent = run_on_fake_clock(scenario())
    assert [(at, msg["seq"]) for at, msg in sent] == [(0.0, 1), (pytest.approx(MIN_GAP), 2)]
    assert sent[1][1]["ops"] == [["set", "r", "status", "finished"]]


def test_with_no_loop_to_time_them_ops_wait_for_the_next_flush() -> None:
    sent: list[Any] = []
    now = [0.0]
    sync = OpSync(sent.append, lambda: None, clock=lambda: now[0])
    sync.add(ROOT)
    sync.add(["set", "r", "status", "running"])
    now[0] = 10.0  # long past due, but no timer was set
    assert len(sent) == 1
    sync.flush()
    assert [msg["seq"] for msg in sent] == [1, 2]


def test_a_change_inside_a_fold_waits_for_changed() -> None:
    sent: list[Any] = []
    sync = OpSync(sent.append, lambda: None, clock=lambda: 0.0)
    sync.add(ROOT, True)
    assert sent == []
    sync.changed()
    assert [msg["t"] for msg in sent] == ["ops"]


def test_a_snapshot_follows_what_waited_and_a_restart_drops_it() -> None:
    sent: list[Any] = []
    flushes: list[int] = []
    sync = OpSync(sent.append, lambda: None, lambda: flushes.append(len(sent)), clock=lambda: 0.0)
    sync.add(ROOT)  # sent at once: seq 1
    sync.add(["set", "r", "status", "running"])  # waits for the gap
    snapshot = sync.snapshot([ROOT])
    assert [msg["seq"] for msg in sent] == [1, 2]  # what waited left first
    assert (snapshot["t"], snapshot["seq"]) == ("snapshot", 2)  # a late view applies it, then seq 3...
    assert flushes == [1, 2]  # after every flush (the inspector's new rows)
    sync.add(["set", "r", "status", "finished"])
    assert "another_run" not in snapshot  # the same run: the reader's folding stays
    restarted = sync.restart([ROOT], another_run=True)
    assert (restarted["t"], restarted["seq"]) == ("snapshot", 3)  # newer than all sent: the view resets
    assert restarted.get("another_run") is True  # and forgets what the reader folded
    sync.flush()
    assert len(sent) == 2  # the dropped op never leaves
    assert browser_state([*sent, restarted]) == replay([ROOT])


# ---- the inspector --------------------------------------------------------------------------------


def test_entries_list_each_chunk_folded_in_and_a_row_gets_its_chunk() -> None:
    stream = fed(5)
    rows = entries(stream)
    assert [row["i"] for row in rows] == [0, 1, 2, 3, 4]
    assert [row["type"] for row in rows] == [item.type for item in stream.recording.items]
    assert all(row["nodes"] for row in rows)  # each names the view nodes it changed
    assert entries(stream, 3) == rows[3:]
    reply = chunk_json(stream, 2)
    assert reply is not None
    assert (reply["t"], reply["i"], reply["json"]["type"]) == ("chunk-json", 2, rows[2]["type"])
    assert chunk_json(stream, 5) is None
    assert chunk_json(stream, -1) is None


def test_an_open_inspector_gets_all_rows_then_only_the_new_ones() -> None:
    stream = fed(3)
    sent: list[Any] = []
    inspector = Inspector(sent.append, lambda: stream)
    inspector.catch_up()
    assert sent == []  # closed: nothing is listed
    inspector.answer(InspectMsg(t="inspect", open=True))
    assert [(m["start"], len(m["entries"])) for m in sent] == [(0, 3)]
    inspector.catch_up()
    assert len(sent) == 1  # nothing new
    stream.feed(delta("hi"))
    inspector.catch_up()
    assert [(m["start"], len(m["entries"])) for m in sent[1:]] == [(3, 1)]
    inspector.answer(ChunkJsonMsg(t="chunk-json", i=0))
    assert sent[-1]["t"] == "chunk-json"
    inspector.answer(InspectMsg(t="inspect", open=False))
    stream.feed(delta("!"))
    inspector.catch_up()
    assert sent[-1]["t"] == "chunk-json"  # closed again: no rows


def test_another_run_is_listed_now_a_rebuilt_one_at_the_next_catch_up() -> None:
    first, second = fed(4), fed(2)
    shown = [first]
    sent: list[Any] = []
    inspector = Inspector(sent.append, lambda: shown[0])
    inspector.relist()
    inspector.rewind()
    inspector.catch_up()
    assert sent == []  # closed: neither lists
    inspector.answer(InspectMsg(t="inspect", open=True))
    shown[0] = second
    inspector.relist()
    assert [(m["start"], len(m["entries"])) for m in sent] == [(0, 4), (0, 2)]
    second.rebuild(1)
    inspector.rewind()
    assert len(sent) == 2
    inspector.catch_up()
    assert [(m["start"], len(m["entries"])) for m in sent[2:]] == [(0, 1)]


# ---- the answers ------------------------------------------------------------------------------------


def test_a_step_not_in_the_result_is_answered_with_why() -> None:
    answer = request_answer(fed(3), "no-such-step")
    assert answer == {
        "t": "request",
        "id": "no-such-step",
        "request": None,
        "where": None,
        "reason": "This step is not in the run's result.",
    }


def test_each_message_goes_to_its_part() -> None:
    stream = fed(6)
    sent: list[Any] = []
    stopped: list[bool] = []
    sync = OpSync(sent.append, lambda: None, clock=lambda: 0.0)
    inspector = Inspector(sent.append, lambda: stream)
    labels = LabelsFromView(lambda: stream, lambda: None, sync.flush)
    answers = Answers(
        sent.append,
        lambda: stream,
        lambda: stopped.append(True),
        sync=sync,
        inspector=inspector,
        labels=labels,
    )
    answers.answer(HelloMsg(t="hello"))
    assert sent[-1]["t"] == "snapshot"
    assert replay(sent[-1]["ops"]) == replay(stream.run.snapshot())
    answers.answer(StopMsg(t="stop"))
    assert stopped == [True]
    answers.answer(InspectMsg(t="inspect", open=True))
    assert sent[-1]["t"] == "chunks"
    answers.answer(RequestMsg(t="request", id="nothing"))
    assert sent[-1]["t"] == "request"
    answers.answer(LabelMsg(t="label", thumbs="up"))
    assert stream.result.feedback is not None
    assert stream.result.feedback.thumbs == "up"


# ---- labels from the view -------------------------------------------------------------------------


class Sender:
    """Mastra's feedback route, answering when the test lets it."""

    def __init__(self) -> None:
        self.answer = asyncio.Event()
        self.sent: list[Feedback] = []

    def send(self, label: Feedback) -> Feedback:
        raise AssertionError("a label given in the view is never sent blocking")

    async def asend(self, label: Feedback) -> Feedback:
        await self.answer.wait()
        self.sent.append(label)
        return label.model_copy(update={"sent_to_mastra": True})


def test_a_label_with_nowhere_to_go_is_kept_at_once() -> None:
    stream = fed(3)
    shown: list[bool] = []
    labels = LabelsFromView(lambda: stream, lambda: shown.append(True), lambda: None)
    labels.given(LabelMsg(t="label", thumbs="down", comment="too long"))
    assert labels.sending is None
    assert stream.result.feedback is not None
    assert (stream.result.feedback.comment, stream.result.feedback.reason) == ("too long", NO_TRACE)
    assert shown == [True]
    assert len(stream.recording) == 4  # in the recording, as a line of its own


def test_a_label_is_shown_as_sending_then_as_sent_without_blocking() -> None:
    async def scenario() -> None:
        stream, sender = fed(3), Sender()
        stream.labels = sender
        flushed: list[str] = []
        shown: list[bool] = []

        def flush() -> None:
            flushed.append(stream.run.state.node.fields["feedback_note"])

        labels = LabelsFromView(lambda: stream, lambda: shown.append(True), flush)
        labels.given(LabelMsg(t="label", thumbs="up", score=3))
        assert flushed == ["sending to Mastra…"]  # shown at once
        assert labels.sending is not None
        assert shown == []
        sender.answer.set()
        await labels.sending  # type: ignore[misc]
        assert [label.thumbs for label in sender.sent] == ["up"]
        assert stream.run.state.node.fields["feedback_note"] == "sent to Mastra"
        assert shown == [True]

    asyncio.run(scenario())


class Answerer:
    """Mastra's feedback route, answering each label when the test says, in any order."""

    def __init__(self) -> None:
        self.waiting: dict[str | None, asyncio.Event] = {}

    def send(self, label: Feedback) -> Feedback:
        raise AssertionError("a label given in the view is never sent blocking")

    async def asend(self, label: Feedback) -> Feedback:
        await self.waiting.setdefault(label.comment, asyncio.Event()).wait()
        return label.model_copy(update={"sent_to_mastra": True})

    def answer(self, comment: str | None) -> None:
        self.waiting.setdefault(comment, asyncio.Event()).set()


def test_the_last_label_given_stands_whatever_order_mastra_answers_in_and_on_its_own_run() -> None:
    async def scenario() -> None:
        first, other, route = fed(3), fed(2), Answerer()
        first.labels = other.labels = route
        shown = [first]
        labels = LabelsFromView(lambda: shown[0], lambda: None, lambda: None)
        labels.given(LabelMsg(t="label", thumbs="up", score=4))
        earlier = labels.sending
        labels.given(LabelMsg(t="label", thumbs="up", score=4, comment="short"))
        later = labels.sending
        shown[0] = other  # the grid's detail shows another run before Mastra answers
        route.answer("short")
        await later  # type: ignore[misc]
        route.answer(None)  # the earlier label's answer comes last
        await earlier  # type: ignore[misc]
        kept = first.result.feedback
        assert kept is not None
        assert (kept.comment, kept.sent_to_mastra) == ("short", True)
        assert other.result.feedback is None  # the other run was never labelled

    asyncio.run(scenario())


# ---- the transcript outputs -------------------------------------------------------------------------


class Handle:
    def __init__(self) -> None:
        self.shown: list[dict[str, str]] = []

    def update(self, bundle: dict[str, str], raw: bool = False) -> None:
        assert raw
        self.shown.append(bundle)


class Events:
    def __init__(self) -> None:
        self.callbacks: dict[str, list[Any]] = {}

    def register(self, event: str, callback: Any) -> None:
        self.callbacks.setdefault(event, []).append(callback)

    def unregister(self, event: str, callback: Any) -> None:
        self.callbacks[event].remove(callback)


class Shell:
    def __init__(self) -> None:
        self.events = Events()


class Parts:
    """A Transcripts with what it is given recorded: the drawings, the final states sent again."""

    def __init__(self) -> None:
        self.ended = False
        self.drawn = 0
        self.resent = 0
        self.transcripts = Transcripts(self.draw, self.resend, lambda: self.ended)

    def draw(self) -> str:
        self.drawn += 1
        return f"transcript {self.drawn}"

    def resend(self) -> None:
        self.resent += 1


def test_settling_updates_every_output_and_the_final_state_is_sent_again_once() -> None:
    parts, first, second = Parts(), Handle(), Handle()
    parts.transcripts.add(first)
    parts.transcripts.add(second)
    parts.transcripts.publish()
    assert parts.resent == 0  # not ended: nothing to publish
    parts.ended = True
    parts.transcripts.settled()
    assert first.shown == second.shown == [saved_face("transcript 1")]  # drawn once for both
    parts.transcripts.publish()
    parts.transcripts.publish()
    assert parts.resent == 1
    assert first.shown[-1] == saved_face("transcript 2")


def test_a_run_that_ended_during_a_cell_is_published_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    shell = Shell()
    monkeypatch.setattr("IPython.get_ipython", lambda: shell)
    parts, handle = Parts(), Handle()
    parts.transcripts.add(handle)
    parts.transcripts.add(Handle())
    (after_cell,) = shell.events.callbacks["post_run_cell"]  # watched once
    after_cell(None)
    assert (parts.resent, shell.events.callbacks["post_run_cell"]) == (0, [after_cell])  # still running
    parts.ended = True
    parts.transcripts.settled()
    after_cell(None)
    assert parts.resent == 1
    assert shell.events.callbacks["post_run_cell"] == []  # no longer watched


def test_shown_is_the_widget_then_the_transcript_saved_with_no_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[tuple[dict[str, Any], Any, bool]] = []
    handle = Handle()

    def display(
        bundle: dict[str, Any], raw: bool = False, display_id: bool = False, metadata: Any = None
    ) -> Any:
        shown.append((bundle, metadata, display_id))
        return handle if display_id else None

    monkeypatch.setattr("IPython.display.display", display)
    parts = Parts()
    widget = {"application/vnd.jupyter.widget-view+json": {"model_id": "m"}, "text/plain": "StreamView(...)"}
    parts.transcripts.show((widget, {"meta": 1}))
    assert shown == [
        ({**widget, "text/plain": ""}, {"meta": 1}, False),  # nbconvert and untrusted: no stray line
        (saved_face("transcript 1"), None, True),
    ]
    parts.transcripts.settled()
    assert handle.shown == [saved_face("transcript 2")]


def test_a_conversation_is_shown_as_a_view_is_its_transcript_following_its_turns(
    recording_comm: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    displayed = Displayed(monkeypatch)
    view = mn.StreamView()
    chat = Conversation(title="a chat")
    chat.add_turn("what is the weather?", view)
    chat._ipython_display_()
    assert "partly cloudy" not in displayed.saved_face(view.view_key)
    for item in mn.read_chunks(fixture_path("tool-call")):
        view.feed(item)
    view.end()
    assert "partly cloudy, humidity 64%" in displayed.updated_face(view.view_key)  # the turn ended
