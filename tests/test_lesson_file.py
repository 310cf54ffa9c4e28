"""One lesson file (issue 32, item 1): a run saved after its trace was read keeps the trace in its
recording (a line of its own), so a replay in a kernel with no server shows each step's request from
the start, the trace lane once it reaches the end, and ``trace()`` returns the trace."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mastra_notebook.core.trace import TRACE_LINE, TraceUnavailable, read_trace, read_trace_line, trace_line
from mastra_notebook.runs.stream import RunStream
from mastra_notebook.widget.replay import ReplayView, replay

TRACE_ANSWER = json.loads((Path(__file__).parent / "fixtures" / "traces" / "weather_memory.json").read_text())
TRACE = read_trace(TRACE_ANSWER, TRACE_ANSWER["traceId"])
REDACTED = [  # two steps whose stream bodies the server redacted (its default)
    {"type": "start", "runId": "r", "payload": {}, "mnReceivedMs": 0},
    {"type": "step-start", "runId": "r", "payload": {"request": {}}, "mnReceivedMs": 5},
    {"type": "text-delta", "runId": "r", "payload": {"id": "t", "text": "Looking."}, "mnReceivedMs": 9},
    {
        "type": "step-finish",
        "runId": "r",
        "payload": {"stepResult": {"reason": "tool-calls"}},
        "mnReceivedMs": 12,
    },
    {"type": "step-start", "runId": "r", "payload": {"request": {}}, "mnReceivedMs": 20},
    {"type": "text-delta", "runId": "r", "payload": {"id": "u", "text": "Sunny."}, "mnReceivedMs": 25},
    {"type": "finish", "runId": "r", "payload": {"stepResult": {"reason": "stop"}}, "mnReceivedMs": 30},
]


def saved_with_trace(tmp_path: Path) -> Path:
    """A run fed the redacted stream, its trace kept (as ``view.trace()`` keeps it), then saved."""
    stream = RunStream()
    stream.run.start(recorded=True)
    for chunk in REDACTED:
        stream.recording.add(chunk)
        stream.fold_next()
    stream.keep_trace(TRACE)
    return stream.save(tmp_path / "run.jsonl")


def test_a_trace_line_reads_back_the_same_trace() -> None:
    line = trace_line(TRACE)
    assert line["type"] == TRACE_LINE
    assert read_trace_line(json.loads(json.dumps(line))) == TRACE
    assert read_trace_line({"type": TRACE_LINE, "payload": {"trace": {"spans": "no"}}}) is None
    assert read_trace_line({"type": "text-delta"}) is None


def test_the_saved_file_ends_with_the_trace_and_the_live_run_has_its_requests(tmp_path: Path) -> None:
    path = saved_with_trace(tmp_path)
    last: dict[str, Any] = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == TRACE_LINE
    assert "mnReceivedMs" not in last  # untimed: no chunk of the stream said it


def test_a_replay_paused_before_the_end_shows_each_step_s_request_from_the_trace(tmp_path: Path) -> None:
    view = replay(saved_with_trace(tmp_path), autoplay=False)
    assert isinstance(view, ReplayView)
    view.seek(3)  # inside step 1, long before the trace line
    [step] = view.result.steps
    assert step.request is not None
    assert step.request.source == "trace"
    assert step.request_reason is None
    view.seek(6)  # step 2 started after the trace was read: it is filled too
    assert [s.request.source if s.request else None for s in view.result.steps] == ["trace", "trace"]
    assert "trace" not in _root_fields(view)  # the lane comes at the end, as the live view had it
    assert view.trace() == TRACE  # no server: the trace saved with the recording
    view.seek(view.total)
    assert _root_fields(view)["trace"]["trace_id"] == TRACE.trace_id
    view.seek(2)  # back again: a fresh run, requests still from the trace
    view.seek(5)
    assert view.result.steps[-1].request is not None


def test_a_recording_saved_without_its_trace_says_how_to_keep_it(tmp_path: Path) -> None:
    path = tmp_path / "plain.jsonl"
    path.write_text("\n".join(json.dumps(chunk) for chunk in REDACTED) + "\n")
    view = replay(path, autoplay=False)
    view.seek(view.total)
    with pytest.raises(TraceUnavailable, match=r"view\.trace\(\) on the live run before view\.save\(\)"):
        view.trace()


def _root_fields(view: ReplayView) -> dict[str, Any]:
    [root] = [op[2] for op in view.run.snapshot() if op[0] == "add" and op[1] is None]
    return dict(root)
