"""Issue 9: runs readable from Python (repr, HTML, help, dir), decisions on waiting tools, galleries."""

from __future__ import annotations

import asyncio
import pydoc
import re
import threading
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.client.session import Kind, RunSession
from mastra_notebook.render.transcript import render_html
from mastra_notebook.widget.gallery import Gallery

from .conftest import RecordingComm, fixture_path

APPROVAL = fixture_path("tool-approval")


class Recorded(RunSession):
    """A run session whose continuations are recorded instead of sent."""

    def __init__(self, view: mn.StreamView, kind: Kind, posts: list[tuple[str, dict[str, Any]]]) -> None:
        transport = mn.MastraClient("http://127.0.0.1:9").transport
        super().__init__(transport, view.stream, "/api/agents/approver", kind)
        self.posts = posts

    def post(self, path: str, body: dict[str, Any]) -> None:
        """Recorded, not sent."""
        self.posts.append((path, body))


def _live(recording: Any, posts: list[tuple[str, dict[str, Any]]], kind: Kind = "agent") -> mn.StreamView:
    """A client's view fed a recording, whose continuations are recorded instead of sent."""
    view = mn.StreamView(title="agent approver")
    Recorded(view, kind, posts)
    for item in recording:
        view.feed(item)
    view.end()
    return view


def _suspended_tool() -> list[dict[str, Any]]:
    return [
        {"type": "start", "runId": "r1", "from": "AGENT", "payload": {}},
        {"type": "tool-call", "runId": "r1", "from": "AGENT",
         "payload": {"toolCallId": "c1", "toolName": "askUser", "args": {}}},
        {"type": "tool-call-suspended", "runId": "r1", "from": "AGENT",
         "payload": {"toolCallId": "c1", "toolName": "askUser", "suspendPayload": {"question": "<b>Which city?</b>"},
                     "resumeSchema": '{"type":"object","properties":{"answer":{"type":"string"}}}'}},
    ]  # fmt: skip


def test_repr_is_one_short_line() -> None:
    result = mn.collect(fixture_path("tool-call"))
    text = repr(result)
    assert "\n" not in text
    assert len(text) < 300
    assert text.startswith("RunResult(finished, text=")
    assert "tool_calls=1 [getWeather done]" in text
    assert "usage=in 79 / out 33" in text
    assert str(result) == text
    assert repr(result.tool_calls[0]).startswith("ToolCall('getWeather', done")


def test_repr_html_is_the_static_transcript() -> None:
    result = mn.collect(fixture_path("tool-call"))
    assert result._repr_html_() == render_html(result)
    assert 'class="mastra-notebook-transcript"' in result._repr_html_()


def test_dir_lists_the_whole_public_api() -> None:
    names = dir(mn)
    assert set(mn.__all__) <= set(names)
    assert {"view", "MastraClient", "compare", "replay", "to_dataframe"} <= set(names)
    for name in mn.__all__:
        assert getattr(mn, name) is not None


def test_tab_completion_offers_the_views_own_api(recording_comm: RecordingComm) -> None:
    view = mn.view(fixture_path("tool-call"))
    public = [name for name in dir(view) if not name.startswith("_")]
    assert {"result", "wait", "stop", "save", "to_html", "feed", "approve", "resume"} <= set(public)
    assert "add_traits" not in public
    assert "hold_trait_notifications" not in public
    assert len(public) <= 30  # export_otel (issue 33) made it 30
    assert view.observe  # the ipywidgets API still works


def test_help_explains_the_views() -> None:
    view = mn.StreamView(title="t")
    RunSession(mn.MastraClient("http://127.0.0.1:9").transport, view.stream, "/api/agents/a")
    page = pydoc.render_doc(view, renderer=pydoc.plaintext)
    assert "class StreamView(anywidget.widget.AnyWidget)" in page
    assert "class StreamView(StreamView)" not in page
    for method in (
        mn.StreamView.approve,
        mn.StreamView.decline,
        mn.StreamView.resume,
        mn.RunStream.attach,
        RunSession.resume,
        mn.view,
        mn.replay,
    ):
        assert method.__doc__
        assert len(method.__doc__) > 40
    assert "approve()" in (mn.StreamView.__doc__ or "")


def test_a_decision_is_recorded_with_who_and_the_wait(capsys: pytest.CaptureFixture[str]) -> None:
    posts: list[tuple[str, dict[str, Any]]] = []
    view = _live(mn.read_chunks(APPROVAL), posts)
    call = view.result.tool_calls[0]
    assert call.status == "awaiting-approval"
    assert (
        call.continue_with == 'view.approve("call_delete_1")  or  view.decline("call_delete_1", reason="...")'
    )
    view._handle_browser_message({"t": "approve", "tool_call_id": "call_delete_1"})  # the button
    assert [path for path, _ in posts] == ["/api/agents/approver/approve-tool-call"]
    decided = view.result.tool_calls[0]
    assert decided.decision is not None
    assert decided.decision.action == "approve"
    assert decided.decision.by == "view"
    assert decided.decision.at is not None
    assert decided.decision.waited is not None
    assert decided.decision.waited >= 0
    assert decided.continue_with is None
    view.approve()  # the notebook's next cell: a no-op with a message
    assert len(posts) == 1
    assert "already approved in the view: nothing sent" in capsys.readouterr().out
    view.decline(reason="no")
    assert len(posts) == 1
    assert "already approved" in capsys.readouterr().out


def test_python_decision_then_the_button_sends_once(capsys: pytest.CaptureFixture[str]) -> None:
    posts: list[tuple[str, dict[str, Any]]] = []
    view = _live(mn.read_chunks(APPROVAL), posts)
    view.decline(reason="not today")
    assert posts == [
        ("/api/agents/approver/decline-tool-call",
         {"runId": "2ce53b55-db7c-4274-8b1e-8bd53afa28a8", "toolCallId": "call_delete_1", "reason": "not today"})
    ]  # fmt: skip
    decision = view.result.tool_calls[0].decision
    assert decision is not None
    assert (decision.action, decision.by) == ("decline", "python")
    view._handle_browser_message({"t": "approve", "tool_call_id": "call_delete_1"})
    assert len(posts) == 1
    assert "already declined from Python" in capsys.readouterr().out


def test_no_waiting_call_is_still_an_error() -> None:
    view = _live(mn.read_chunks(fixture_path("tool-call")), [])
    with pytest.raises(RuntimeError, match="no tool call is waiting for approval"):
        view.approve()
    with pytest.raises(RuntimeError, match="no tool call 'nope'"):
        view.approve("nope")


def test_the_human_wait_is_kept_apart_from_the_tool_time() -> None:
    run = mn.Run()
    for chunk in mn.read_chunks(APPROVAL):
        run.feed(chunk)
    node = run.state.calls["call_delete_1"]
    node.fields["waiting_since"] -= 8_000  # the person took eight seconds
    run.decide("approve", "python", tool_call_id="call_delete_1")
    for chunk in mn.read_chunks(fixture_path("tool-approval-approved")):
        run.feed(chunk)
    run.end()
    result = run.result
    call = result.tool_call("call_delete_1")
    assert call.status == "done"
    assert call.decision is not None
    assert call.decision.waited is not None
    assert 8.0 <= call.decision.waited < 9.0
    assert result.human_wait == call.decision.waited
    assert call.tool_time is not None
    assert call.called_at is not None
    assert call.finished_at is not None
    assert call.tool_time == pytest.approx(  # from the call (its arguments complete), not their streaming
        (call.finished_at - call.called_at).total_seconds() - call.decision.waited
    )
    waits = run.state.node.fields["human_waits"]
    assert len(waits) == 1
    assert waits[0][1] - waits[0][0] == pytest.approx(call.decision.waited * 1000)
    html = render_html(result)
    # the widget's words (render/human.ts); the card's time in its head leaves the wait out
    assert re.search(r"Approved from Python · waited 8\.\d s for a person", html)


def test_a_suspended_tool_shows_its_payload_and_the_resume_call() -> None:
    posts: list[tuple[str, dict[str, Any]]] = []
    view = _live(_suspended_tool(), posts)
    call = view.result.tool_calls[0]
    assert view.result.status == "suspended"
    assert call.continue_with == 'view.resume({"answer": "..."}, tool_call_id="c1")'
    html = render_html(view.result)
    assert re.search(r"<details [^>]*data-kind=\"tool\"[^>]* open>", html)  # a waiting card stays open
    assert "&lt;b&gt;Which city?&lt;/b&gt;" in html
    assert "<b>Which city" not in html
    assert 'view.resume({"answer": "..."}, tool_call_id="c1")' in html
    view.resume({"answer": "Lisbon"})
    assert posts == [("/api/agents/approver/resume-stream",
                      {"runId": "r1", "toolCallId": "c1", "resumeData": {"answer": "Lisbon"}})]  # fmt: skip
    decision = view.result.tool_calls[0].decision
    assert decision is not None
    assert (decision.action, decision.by) == ("resume", "python")


def test_a_suspended_workflow_step_shows_the_resume_call() -> None:
    chunks = [
        {"type": "workflow-start", "runId": "w1", "from": "WORKFLOW", "payload": {"workflowId": "approvalFlow"}},
        {"type": "workflow-step-start", "runId": "w1", "from": "WORKFLOW", "payload": {"stepName": "request"}},
        {"type": "workflow-step-suspended", "runId": "w1", "from": "WORKFLOW",
         "payload": {"stepName": "request", "suspendPayload": {"question": 'Approve "laptop"?'}}},
    ]  # fmt: skip
    posts: list[tuple[str, dict[str, Any]]] = []
    view = _live(chunks, posts, "workflow")
    assert view.result.workflow is not None
    step = view.result.workflow.steps[0]
    assert step.status == "suspended"
    assert step.continue_with == 'view.resume(resume_data, step="request")'
    html = render_html(view.result)
    assert "Suspended with" in html
    assert "laptop" in html
    assert 'view.resume(resume_data, step="request")' in html
    view.resume({"approved": True})
    assert posts[0][0].endswith("/resume-stream?runId=w1")
    assert view.result.workflow is not None
    decision = view.result.workflow.steps[0].decision
    assert decision is not None
    assert decision.action == "resume"


def test_gallery_tiles_are_titled_by_prompt_and_queued_until_their_turn(
    recording_comm: RecordingComm,
) -> None:
    gallery = Gallery(concurrency=1)
    started: list[str] = []
    queued_then: list[list[bool]] = []
    views = []
    # Set once both tiles are added (queued): the first run, started on the private loop's thread as
    # soon as it is added, reads the tiles only then. Polling `len(views)` instead raced the second
    # `add`, which marks its tile queued after the view is appended (seen under load: [[False, False], ...])
    both_added = threading.Event()
    for prompt in ("What is the weather in Paris?\nThanks", "And in Lisbon?"):
        view = mn.StreamView(title="agent weather", prompt=prompt)

        async def work(view: mn.StreamView = view, prompt: str = prompt) -> None:
            await asyncio.to_thread(both_added.wait, 60)
            started.append(prompt)
            queued_then.append([v.queued for v in views])
            view.feed(
                {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": "Sunny"}}
            )
            view.feed({"type": "finish", "runId": "r", "from": "AGENT",
                       "payload": {"output": {"usage": {"inputTokens": 3, "outputTokens": 4, "totalTokens": 7}}}})  # fmt: skip

        views.append(view)
        gallery.add(view, work)
    both_added.set()
    assert [v.title for v in views] == ["What is the weather in Paris?", "And in Lisbon?"]
    assert views[0].subtitle == "#1 · agent weather"  # its number in the batch (from 1), then what runs it
    assert views[0].max_height == "480px"  # as it shows when opened below the grid
    results = gallery.wait(60)
    assert started == ["What is the weather in Paris?\nThanks", "And in Lisbon?"]
    assert queued_then == [[False, True], [False, False]]  # the second waited for the first
    assert [r.status for r in results] == ["finished", "finished"]
    assert not any(v.queued for v in views)
    assert gallery.counts() == {"queued": 0, "running": 0, "done": 2, "stopped": 0, "error": 0}
    assert gallery.summary() == "2 done · 14 tokens (2 runs, 1 at a time)"
    assert "2 done · 14 tokens" in gallery._progress.value


def test_gallery_summary_counts_errors_and_escapes() -> None:
    gallery = Gallery(concurrency=2)
    view = mn.StreamView(title="<script>")
    gallery.add(view, _fail)
    gallery.wait(60)
    assert gallery.counts()["error"] == 1
    assert "1 error" in gallery.summary()
    assert "<script>" not in gallery._progress.value


async def _fail() -> None:
    raise ValueError("boom")
