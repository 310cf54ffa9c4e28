"""Time that tells the truth (issue 32, item 2): once Mastra's trace of a run is known, a step's and a
tool call's durations come from the server's spans, in the view (the card's duration, with a tooltip
saying so), in ``RunResult.timing``, ``mn.compare`` and ``to_dataframe``; what only the kernel saw
(time to first token, the streaming rate, the run's total) stays by arrival, and says so. A replay's
figures never grow with the wall clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mastra_notebook.analysis.compare import compare
from mastra_notebook.analysis.dataframe import row
from mastra_notebook.core import state as state_module
from mastra_notebook.core.captions import ARRIVAL_SOURCE, TRACE_SOURCE
from mastra_notebook.core.request import ToolCallPart, ToolResultPart
from mastra_notebook.core.request_bounded import bounded_request
from mastra_notebook.core.run import Run
from mastra_notebook.core.trace import (
    ABBREVIATED,
    FROM_RUN,
    filled_from_run,
    read_trace,
    traced_requests,
    traced_times,
)
from mastra_notebook.runs.stream import RunStream
from mastra_notebook.widget.replay import replay

FIXTURES = Path(__file__).parent / "fixtures"
ANSWER = json.loads((FIXTURES / "traces" / "weather_memory.json").read_text())
TRACE = read_trace(ANSWER, ANSWER["traceId"])
CALL_ID = "call_weather_50c5a555"  # the trace's getWeather call
TOOL_SPAN_MS = 81.0  # its tool_call span: 00:07:03.374 to 00:07:03.455
STEP_SPANS_MS = [471.0, 83.0]  # its model_step spans
TOOL_ARRIVAL_MS = 108.0  # the kernel saw its result 108 ms after its call


def weather_chunks() -> list[dict[str, Any]]:
    """The weather agent's stream (tests/fixtures/tool-call.jsonl) with the trace's tool call id and
    arrival times: 4 ms apart, and the tool's result 108 ms after its call."""
    chunks = [json.loads(line) for line in (FIXTURES / "tool-call.jsonl").read_text().splitlines()]
    at = 0.0
    for chunk in chunks:
        at += TOOL_ARRIVAL_MS if chunk["type"] == "tool-result" else 4.0
        chunk["mnReceivedMs"] = at
        payload = chunk.get("payload") or {}
        if payload.get("toolCallId") == "call_weather_1":
            payload["toolCallId"] = CALL_ID
    return chunks


def fed_run() -> Run:
    run = Run()
    run.start(recorded=True)
    for chunk in weather_chunks():
        run.feed(chunk)
    run.end()
    return run


def tool_node(run: Run) -> dict[str, Any]:
    [fields] = [op[2] for op in run.snapshot() if op[0] == "add" and op[2].get("kind") == "tool"]
    return dict(fields)


def test_the_trace_gives_each_tool_call_step_and_request_its_span() -> None:
    times = traced_times(TRACE)
    start, end = times.tools[CALL_ID]
    assert end - start == TOOL_SPAN_MS
    assert [b - a for a, b in times.steps[""]] == STEP_SPANS_MS
    assert times.request is not None


def test_before_the_trace_every_figure_is_by_arrival_and_says_so() -> None:
    run = fed_run()
    card = tool_node(run)
    # the card's: from its arguments' first characters (28 ms of streaming) to its result
    assert (card["duration"], card["duration_source"]) == ("136 ms", "arrival")
    assert card["duration_title"] == ARRIVAL_SOURCE
    assert "trace()" in ARRIVAL_SOURCE
    result = run.result
    [call] = result.tool_calls
    assert call.timing_source == "arrival"
    # datetimes keep microseconds: each end is rounded to one, so the wall clock's start moves the
    # difference by up to 2 us
    assert call.tool_time == pytest.approx(TOOL_ARRIVAL_MS / 1000, abs=2e-6)
    assert result.timing.source == "arrival"
    assert [s.source for s in result.timing.steps] == ["arrival", "arrival"]


def test_with_the_trace_the_tool_s_duration_is_its_span_everywhere() -> None:
    run = fed_run()
    arrival = run.result.timing
    run.keep_trace(TRACE)
    card = tool_node(run)
    assert (card["duration"], card["duration_source"], card["duration_title"]) == (
        "81 ms",
        "trace",
        TRACE_SOURCE,
    )
    assert card["trace_end"] - card["trace_start"] == TOOL_SPAN_MS  # what the timeline's bar spans
    result = run.result
    [call] = result.tool_calls
    assert call.timing_source == "trace"
    assert abs(call.tool_time * 1000 - TOOL_SPAN_MS) <= 2  # type: ignore[operator]
    timing = result.timing
    assert timing.source == "trace"
    assert abs(timing.tool_time * 1000 - TOOL_SPAN_MS) <= 2
    assert [s.source for s in timing.steps] == ["trace", "trace"]
    assert [round(s.duration * 1000) for s in timing.steps if s.duration is not None] == STEP_SPANS_MS
    # what only the kernel saw stays by arrival: the same figures as before the trace
    assert timing.time_to_first_token == arrival.time_to_first_token is not None
    assert timing.total == arrival.total is not None
    assert [s.streaming for s in timing.steps] == [s.streaming for s in arrival.steps]
    assert abs(row(result)["tool_time_s"] * 1000 - TOOL_SPAN_MS) <= 2
    assert row(result)["tool_time_source"] == "trace"
    rows = dict(compare(result, fed_run().result).rows())
    assert rows["tool time"] == ["81 ms (by Mastra's trace)", "108 ms"]


def test_a_replay_takes_its_durations_from_the_kept_trace_before_reaching_it(tmp_path: Path) -> None:
    stream = RunStream()
    stream.run.start(recorded=True)
    for chunk in weather_chunks():
        stream.recording.add(chunk)
        stream.fold_next()
    stream.keep_trace(TRACE)
    path = stream.save(tmp_path / "weather.jsonl")
    view = replay(path, autoplay=False)
    view.seek(19)  # just after the tool's result: the trace line (the last) is not reached yet
    [call] = view.result.tool_calls
    assert call.timing_source == "trace"
    assert abs(call.tool_time * 1000 - TOOL_SPAN_MS) <= 2  # type: ignore[operator]


def test_a_paused_replay_s_figures_stay_the_same_as_the_wall_clock_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "weather.jsonl"
    path.write_text("\n".join(json.dumps(chunk) for chunk in weather_chunks()) + "\n")
    wall = [1_000_000.0]  # the injected wall clock, in seconds
    monkeypatch.setattr(state_module.time, "time", lambda: wall[0])
    view = replay(path, autoplay=False)
    view.seek(18)  # paused while the tool runs: the run, its step and its call are open
    root = [op[2] for op in view.run.snapshot() if op[0] == "add" and op[1] is None][0]
    assert root["clock"] == "recorded"  # the view's "so far" is the recording's, never the wall clock
    before = (view.result.timing, view.result.figures, view.run.snapshot())
    for _ in range(10):
        wall[0] += 1.0
        view.seek(18)
        assert (view.result.timing, view.result.figures, view.run.snapshot()) == before


# ---- a request that teaches (issue 32, item 3) ------------------------------------------------------


def redacted_run() -> Run:
    """The weather run whose stream bodies the server redacted: its requests come from the trace."""
    run = Run()
    run.start(recorded=True)
    for chunk in weather_chunks():
        if chunk["type"] == "step-start":
            chunk["payload"]["request"] = {}
        run.feed(chunk)
    run.end()
    run.keep_trace(TRACE)
    return run


def test_the_trace_s_abbreviated_tool_call_and_result_are_filled_from_the_run_s_call() -> None:
    result = redacted_run().result
    [call] = result.tool_calls
    request = result.steps[1].request
    assert request is not None
    assert request.source == "trace"
    parts = [part for message in request.messages for part in message.parts]
    [called] = [part for part in parts if isinstance(part, ToolCallPart)]
    [answered] = [part for part in parts if isinstance(part, ToolResultPart)]
    assert (called.id, called.name, called.args, called.note) == (
        CALL_ID,
        "getWeather",
        {"city": "Paris"},
        FROM_RUN,
    )
    assert (answered.id, answered.result, answered.note) == (CALL_ID, call.result, FROM_RUN)
    shown = bounded_request(request)  # what the view's Request toggle draws
    drawn = [part for message in shown["messages"] for part in message["parts"]]
    assert [part.get("note") for part in drawn if part["type"] in ("tool-call", "tool-result")] == [
        FROM_RUN
    ] * 2


def test_an_abbreviated_call_the_run_did_not_make_stays_abbreviated_and_says_so() -> None:
    request = traced_requests(TRACE)[1]
    alone = filled_from_run(request, [])  # an earlier turn's call: not this run's
    parts = [part for message in alone.messages for part in message.parts]
    notes = [part.note for part in parts if isinstance(part, (ToolCallPart, ToolResultPart))]
    assert notes == [ABBREVIATED, ABBREVIATED]
    assert [p.name for p in parts if isinstance(p, ToolCallPart)] == ["getWeather"]
    [call] = redacted_run().result.tool_calls
    other = filled_from_run(request, [call.model_copy(update={"tool_name": "getForecast"})])
    assert [p.note for m in other.messages for p in m.parts if isinstance(p, ToolCallPart)] == [ABBREVIATED]


def _span(span_id: str, parent: str | None, kind: str, name: str, **more: Any) -> dict[str, Any]:
    return {
        "spanId": span_id,
        "parentSpanId": parent,
        "spanType": kind,
        "name": name,
        "startedAt": f"2026-12-02T00:00:0{len(span_id)}.000Z",
        "endedAt": "2026-12-02T00:00:09.000Z",
        **more,
    }


def test_each_system_message_is_apart_with_the_agent_it_came_from() -> None:
    """A sub-agent's generation is given its own instructions and its supervisor's (the bundled
    supervisor's trace has that shape): each is shown apart, named by its agent."""
    given = [
        {"role": "system", "content": "You are the analyst."},
        {"role": "system", "content": "You are the supervisor."},
        {"role": "user", "content": "Analyse Paris."},
    ]
    answer = {
        "traceId": "t",
        "spans": [
            _span(
                "a",
                None,
                "agent_run",
                "agent run: 'analyst'",
                attributes={"instructions": "You are the analyst."},
            ),
            _span(
                "bb",
                None,
                "agent_run",
                "agent run: 'supervisor'",
                attributes={"instructions": "You are the supervisor."},
            ),
            _span("ccc", "a", "model_generation", "llm: 'mock'", input={"messages": given}),
        ],
    }
    [request] = traced_requests(read_trace(answer, "t"))
    assert request.system == "You are the analyst.\n\nYou are the supervisor."
    assert [(m.text, m.agent) for m in request.system_messages] == [
        ("You are the analyst.", "analyst"),
        ("You are the supervisor.", "supervisor"),
    ]
    shown = bounded_request(request)["system_messages"]
    assert [m["agent"] for m in shown] == ["analyst", "supervisor"]


def test_steps_are_numbered_from_1_everywhere() -> None:
    run = redacted_run()
    assert [step.index for step in run.result.steps] == [1, 2]  # result.steps[0] is "Step 1"
    assert [s.index for s in run.result.timing.steps] == [1, 2]
    [root] = [op[2] for op in run.snapshot() if op[0] == "add" and op[1] is None]
    names = [span["name"] for span in root["trace"]["spans"] if span["type"] == "model_step"]
    assert names == ["step 1", "step 2"]  # Mastra's "step: 0" and "step: 1"
