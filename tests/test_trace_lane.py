"""Mastra's trace as a lane of the run's timeline (issue 19, item 4): the lane's data (core/trace.py
``lane``: tree order, depth, bounded details), ``view.trace()`` putting it on the view's run (the
browser's state, the saved state and the transcript), and the sentence a server without
observability gets instead of an empty lane."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mastra_notebook.core.bounding import bounded
from mastra_notebook.core.trace import (
    LANE_CHARS,
    SPAN_VALUE,
    VALUE_CHARS,
    Trace,
    TraceUnavailable,
    lane,
    read_trace,
)
from mastra_notebook.render.transcript import render_html
from mastra_notebook.widget.streamview import StreamView

from .conftest import RecordingComm

TRACE_JSON = json.loads((Path(__file__).parent / "fixtures" / "traces" / "weather_memory.json").read_text())
TRACE = read_trace(TRACE_JSON, TRACE_JSON["traceId"])


class Controls:
    """A server's session of the run, as far as ``view.trace()`` goes: it gives ``found`` or raises it."""

    def __init__(self, found: Trace | Exception) -> None:
        self.found = found

    def trace(self, timeout: float) -> Trace:
        if isinstance(self.found, Exception):
            raise self.found
        return self.found

    def approve(self, tool_call_id: str | None, by: str) -> None: ...
    def decline(self, tool_call_id: str | None, reason: str | None, by: str) -> None: ...
    def resume(self, resume_data: Any, tool_call_id: str | None, step: str | None) -> None: ...
    def stopping(self) -> None: ...


def ended_view(found: Trace | Exception) -> StreamView:
    """A run that streamed (timed at the trace's own start) and ended, attached to ``Controls``."""
    view = StreamView(title="weatherMemory")
    start = TRACE.spans[0].start
    assert start is not None
    view.run.describe(trace_id=TRACE.trace_id)
    view.stream.attach(Controls(found))
    for chunk in (
        {"type": "start", "runId": "r1", "from": "AGENT", "payload": {}},
        {"type": "text-delta", "runId": "r1", "from": "AGENT", "payload": {"id": "1", "text": "Sunny."}},
        {"type": "finish", "runId": "r1", "from": "AGENT", "payload": {"stepResult": {"reason": "stop"}}},
    ):
        view.feed(chunk)
    view.end()
    return view


def root_of(view: StreamView, final: bool = False) -> dict[str, Any]:
    ops = json.loads(view._final)["ops"] if final else view.run.snapshot()
    (root,) = [op[2] for op in ops if op[0] == "add" and op[1] is None]
    return dict(root)


def test_the_lane_draws_every_span_but_the_chunks_in_tree_order_with_its_depth() -> None:
    drawn = lane(TRACE)
    assert drawn["trace_id"] == TRACE.trace_id
    assert drawn["complete"] is True
    assert drawn["message"] is None
    assert [(span["depth"], span["type"]) for span in drawn["spans"]] == [
        (0, "agent_run"),
        (1, "processor_run"),
        (1, "memory_operation"),
        (1, "model_generation"),
        (2, "model_step"),
        (3, "model_inference"),
        (3, "tool_call"),
        (2, "model_step"),
        (3, "model_inference"),
        (1, "memory_operation"),
    ]
    assert drawn["hidden"] == 3  # the chunk spans
    [tool] = [span for span in drawn["spans"] if span["type"] == "tool_call"]
    assert tool["input"] == {"city": "Paris"}
    assert tool["status"] == "success"
    assert tool["start"] == TRACE.spans_of("tool_call")[0].start.timestamp() * 1000  # type: ignore[union-attr]
    assert not any(span["cut"] for span in drawn["spans"])


def test_a_span_s_details_are_bounded_and_say_when_they_were_cut() -> None:
    big = {"messages": [{"role": "user", "content": "x" * 200_000}] * 300, "deep": [[[[[[[[[[1]]]]]]]]]]}
    kept, cut = bounded(big, SPAN_VALUE)
    assert cut
    assert len(json.dumps(kept)) < 2 * VALUE_CHARS
    assert kept["messages"][0]["content"] == "x" * 1_000 + "… [199,000 more characters]"
    assert bounded({"a": [1, "two", None]}, SPAN_VALUE) == ({"a": [1, "two", None]}, False)
    many = TRACE.model_copy(
        update={
            "spans": [TRACE.spans[3].model_copy(update={"input": big, "id": f"s{i}"}) for i in range(100)]
        }
    )
    drawn = lane(many)
    assert len(json.dumps(drawn)) < LANE_CHARS + 100 * 2_000  # a trace of many big spans stays cheap
    assert all(span["cut"] for span in drawn["spans"])


def test_view_trace_puts_the_lane_on_the_run_its_saved_state_and_its_transcript(
    recording_comm: RecordingComm,
) -> None:
    view = ended_view(TRACE)
    assert view.trace(timeout=1) is TRACE
    root = root_of(view)
    assert [span["name"] for span in root["trace"]["spans"]][:3] == [
        "agent run: 'weatherMemory'",
        "input processor: memory-input-filter",
        "memory: recall",
    ]
    assert root_of(view, final=True)["trace"] == root["trace"]  # a saved notebook keeps the lane
    sent = [op for msg in recording_comm.custom() if msg.get("t") == "ops" for op in msg["ops"]]
    assert any(op[0] == "set" and op[2] == "trace" for op in sent)  # the open view gets it at once
    html = render_html(view.result)
    assert "Mastra's trace" in html
    assert 'data-span-ref="' in html
    assert "tool: 'getWeather'" in html


def test_the_lane_sits_on_the_run_s_axis() -> None:
    """The lane's spans are bars on the run's own axis (js/test/timeline.test.ts has the layout's
    rules): in the transcript, each span row's bar starts within the axis, coloured by its type."""
    view = ended_view(TRACE)
    view.trace(timeout=1)
    html = render_html(view.result)
    rows = re.findall(
        r'data-span-ref="[^"]*".*?class="mn-tl-seg mn-tl-(\w+)"[^>]*style="[^"]*left:(-?[\d.]+)%', html, re.S
    )
    assert [phase for phase, _ in rows][:4] == ["run", "processor", "memory", "model"]
    assert all(0 <= float(left) <= 100 for _, left in rows)


def test_a_server_without_observability_gets_a_sentence_not_an_empty_lane(
    recording_comm: RecordingComm,
) -> None:
    sentence = "Mastra's server has no trace: serve Mastra with observability on storage"
    view = ended_view(TraceUnavailable(sentence))
    with pytest.raises(TraceUnavailable):
        view.trace(timeout=0)
    drawn = root_of(view)["trace"]
    assert (drawn["spans"], drawn["message"], drawn["complete"]) == ([], sentence, False)
    html = render_html(view.result)
    assert sentence in html
    assert 'data-span-ref="' not in html


def test_a_trace_incomplete_at_the_timeout_says_so_in_the_lane() -> None:
    message = "the run was still being traced after 1 s"
    view = ended_view(TRACE.model_copy(update={"complete": False, "message": message}))
    view.trace(timeout=1)
    html = render_html(view.result)
    assert message in html
    assert 'data-span-ref="' in html  # with the spans stored so far


HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</details><script>x</script>"]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_span_s_name_and_message_are_text_in_the_transcript(hostile: str) -> None:
    spans = [span.model_copy(update={"name": hostile}) for span in TRACE.spans]
    view = ended_view(TRACE.model_copy(update={"spans": spans, "complete": False, "message": hostile}))
    view.trace(timeout=1)
    html = render_html(view.result)
    assert "<script" not in html.lower()
    assert "<img" not in html.lower()


def test_the_exported_page_carries_the_lane(recording_comm: RecordingComm) -> None:
    view = ended_view(TRACE)
    view.trace(timeout=1)
    page = view.to_html()
    assert '"trace"' in page  # the snapshot the page's own renderer draws, its lane and span details
    assert "memory: recall" in page
