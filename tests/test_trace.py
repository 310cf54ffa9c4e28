"""Mastra's trace as data (core/trace.py), fetching it (client/observability.py) with a fake clock and a fake
server under the transport, and what a redacted stream's steps take from it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

import mastra_notebook as mn
from mastra_notebook.client.bodies import body_options, chosen_trace_id
from mastra_notebook.client.observability import TraceUnavailable, fetch_trace, new_trace_id, traced_body
from mastra_notebook.client.transport import Transport
from mastra_notebook.core.trace import Trace, read_trace, settled, traced_requests, with_trace

from .fake_clock import run_on_fake_clock

TRACE = json.loads((Path(__file__).parent / "fixtures" / "traces" / "weather_memory.json").read_text())
TRACE_ID = TRACE["traceId"]


class FakeTime:
    """A clock that moves only when slept on: polls are counted, never waited."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


def server(*answers: tuple[int, Any]) -> tuple[Transport, list[str]]:
    """A transport to a fake server that gives ``answers`` in turn (the last one again after)."""
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        status, body = answers[min(len(asked), len(answers)) - 1]
        return httpx.Response(status, json=body)

    return Transport("http://mastra.test", wire=httpx.MockTransport(answer)), asked


def unfinished(answer: dict[str, Any]) -> dict[str, Any]:
    """The trace as stored before its root span ended."""
    spans = [{**span, "endedAt": None} if span["parentSpanId"] is None else span for span in answer["spans"]]
    return {**answer, "spans": spans}


# ---- the trace as data -----------------------------------------------------------------------------


def test_a_trace_reads_every_span_in_start_order() -> None:
    trace = read_trace(TRACE, TRACE_ID)
    assert trace.trace_id == TRACE_ID
    assert trace.complete
    assert len(trace.spans) == len(TRACE["spans"])
    starts = [span.start for span in trace.spans]
    assert starts == sorted(starts)  # type: ignore[type-var]
    [root] = trace.roots
    assert (root.type, root.name, root.parent) == ("agent_run", "agent run: 'weatherMemory'", None)
    assert root.attributes["instructions"] == "Be brief."
    assert root.duration is not None
    assert root.duration > 0
    [tool] = trace.spans_of("tool_call")
    assert tool.input == {"city": "Paris"}
    assert tool.status == "success"
    assert tool.error is None
    assert [span.name for span in trace.spans_of("memory_operation")] == ["memory: recall", "memory: save"]
    assert [span.type for span in trace.children(root)][:2] == ["processor_run", "memory_operation"]
    assert any(span.is_event for span in trace.spans_of("model_chunk"))
    assert repr(trace).startswith(f"Trace({TRACE_ID}, 13 spans [agent_run 1, processor_run 1,")
    assert repr(trace).endswith("complete)")


def test_a_trace_as_a_dataframe_has_one_row_per_span() -> None:
    pytest.importorskip("pandas")
    frame = read_trace(TRACE, TRACE_ID).to_dataframe()
    assert len(frame) == 13
    assert list(frame.columns) == [
        "id", "parent", "name", "type", "start", "end", "duration_s", "status", "error",
        "input", "output", "attributes",
    ]  # fmt: skip
    assert frame["type"].value_counts()["model_step"] == 2


def test_each_step_s_request_comes_from_the_generation_and_its_steps() -> None:
    first, second = traced_requests(read_trace(TRACE, TRACE_ID))
    for request in (first, second):
        assert request.source == "trace"
        assert request.system == "Be brief."
        assert request.provider == "mock-provider"
        assert request.settings.model == "mock-weatherMemory"
        assert request.settings.temperature == 0.3
        assert request.settings.tool_choice == "auto"
        assert request.settings.other == {"maxRetries": 0}
        [tool] = request.tools
        assert tool.name == "getWeather"
        assert tool.description == "Current weather for a city"
        assert tool.input_schema["properties"] == {"city": {"type": "string"}}
    assert [(m.role, m.text) for m in first.messages] == [("user", "Weather in Paris?")]
    # later steps as Mastra's model_step span records them (a call and its result in short: read
    # as tool parts noted so, which a run's result fills from its own calls)
    assert [(m.role, [(p.type, getattr(p, "name", None)) for p in m.parts]) for m in second.messages] == [
        ("user", [("text", None)]),
        ("assistant", [("tool-call", "getWeather")]),
        ("tool", [("tool-result", "getWeather")]),
    ]


def test_a_redacted_stream_takes_each_step_s_request_from_the_trace() -> None:
    run = mn.Run()
    for chunk in [
        {"type": "start", "runId": "r", "payload": {}},
        {"type": "step-start", "runId": "r", "payload": {"request": {}}},
        {"type": "step-finish", "runId": "r", "payload": {"stepResult": {"reason": "tool-calls"}}},
        {"type": "step-start", "runId": "r", "payload": {"request": {}}},
        {"type": "finish", "runId": "r", "payload": {"stepResult": {"reason": "stop"}}},
    ]:
        run.feed(chunk)
    assert [step.request for step in run.result.steps] == [None, None]
    assert all("redact" in (step.request_reason or "") for step in run.result.steps)
    run.fill_requests(traced_requests(read_trace(TRACE, TRACE_ID)))
    steps = run.result.steps
    assert [step.request.source if step.request else None for step in steps] == ["trace", "trace"]
    assert [step.request_reason for step in steps] == [None, None]
    assert steps[1].request is not None
    assert len(steps[1].request.messages) == 3


def redacted_deep(value: Any) -> Any:
    """``value`` as a redacting server sends it: every step-start's request ``{}``, a sub-agent's
    (inside its tool-output envelopes) too."""
    if isinstance(value, dict):
        if value.get("type") == "step-start" and isinstance(value.get("payload"), dict):
            value = {**value, "payload": {**value["payload"], "request": {}}}
        return {key: redacted_deep(item) for key, item in value.items()}
    return [redacted_deep(item) for item in value] if isinstance(value, list) else value


def test_a_sub_agents_steps_take_their_requests_from_the_trace_too() -> None:
    """The nested supervisor's recording, redacted, with its trace: each step of the supervisor, of the
    researcher it runs as a tool and of the analyst the researcher runs takes its request from its own
    run's model generation, and each step's Request toggle says so in the view."""
    recording = Path(__file__).parents[1] / "examples" / "recordings" / "supervisor.jsonl"
    lines = [redacted_deep(json.loads(line)) for line in recording.read_text().splitlines() if line.strip()]
    run = mn.Run()
    for line in lines:
        run.feed(line)
    supervisor = run.result
    researcher = supervisor.tool_calls[0].children
    assert researcher is not None
    analyst = researcher.tool_calls[-1].children
    assert analyst is not None
    for result in (supervisor, researcher, analyst):
        assert [step.request.source if step.request else step.request_reason for step in result.steps] == [
            "trace"
        ] * len(result.steps)
    assert (len(supervisor.steps), len(researcher.steps), len(analyst.steps)) == (2, 3, 1)
    systems = [result.steps[0].request.system for result in (supervisor, researcher, analyst)]  # type: ignore[union-attr]
    assert len(set(systems)) == 3  # each agent's own instructions
    steps = [op[2] for op in run.snapshot() if op[0] == "add" and op[2].get("kind") == "step"]
    assert len(steps) == 6
    assert all(step.get("request_summary") and not step.get("request_reason") for step in steps)


def test_a_body_from_the_stream_wins_over_the_trace() -> None:
    run = mn.Run()
    body = {"model": "m", "messages": [{"role": "system", "content": "From the stream."}]}
    run.feed({"type": "step-start", "runId": "r", "payload": {"request": {"body": body}}})
    run.fill_requests(traced_requests(read_trace(TRACE, TRACE_ID)))
    [step] = run.result.steps
    assert step.request is not None
    assert (step.request.source, step.request.system) == ("stream", "From the stream.")


def test_a_resumed_run_s_first_step_is_the_one_that_waited() -> None:
    """An approval's continuation is a run nested under the step that waited; its first step only
    finishes that step (the tool runs), so it gives no request of its own."""

    def span(span_id: str, parent: str | None, kind: str, name: str, at: int, **more: Any) -> dict[str, Any]:
        started = f"2026-01-01T00:00:0{at}.000Z"
        return {"spanId": span_id, "parentSpanId": parent, "spanType": kind, "name": name,
                "startedAt": started, "endedAt": started, **more}  # fmt: skip

    messages = {"messages": [{"role": "user", "content": "hi"}]}
    answer = {
        "traceId": "t",
        "spans": [
            span("a", None, "agent_run", "agent run: 'x'", 1),
            span("g", "a", "model_generation", "llm", 1, input=messages),
            span("s0", "g", "model_step", "step: 0", 2, attributes={"stepIndex": 0}),
            span("b", "s0", "agent_run", "agent run: 'x' (resumed)", 3),
            span("h", "b", "model_generation", "llm", 3, input=messages),
            span("t0", "h", "model_step", "step: 0", 4, attributes={"stepIndex": 0}, input=[]),
            span("t1", "h", "model_step", "step: 1", 5, attributes={"stepIndex": 1},
                 input=[{"role": "user", "content": "hi"}, {"role": "tool", "content": "[tool-result: x]"}]),
        ],
    }  # fmt: skip
    trace = read_trace(answer, "t")
    assert [span.id for span in trace.requests] == ["a", "b"]
    assert [[m.role for m in request.messages] for request in traced_requests(trace)] == [
        ["user"],
        ["user", "tool"],
    ]
    assert settled(answer, requests=2)
    assert not settled(answer, requests=3)


# ---- fetching it -------------------------------------------------------------------------------------


def test_the_trace_is_polled_with_a_growing_pause_until_its_root_ended() -> None:
    transport, asked = server((404, {"error": "not found"}), (200, unfinished(TRACE)), (200, TRACE))
    time = FakeTime()
    trace = run_on_fake_clock(fetch_trace(transport, TRACE_ID, 10, clock=time.clock, sleep=time.sleep))
    assert isinstance(trace, Trace)
    assert trace.complete
    assert asked == [f"/api/observability/traces/{TRACE_ID}"] * 3
    assert time.pauses == [0.1, 0.2]


def test_a_trace_still_incomplete_at_the_timeout_is_returned_and_says_so() -> None:
    transport, asked = server((200, unfinished(TRACE)))
    time = FakeTime()
    trace = run_on_fake_clock(fetch_trace(transport, TRACE_ID, 3, clock=time.clock, sleep=time.sleep))
    assert not trace.complete
    assert "still being traced after 3 s" in (trace.message or "")
    assert "view.trace(timeout=...)" in (trace.message or "")
    assert len(trace.spans) == 13
    assert "INCOMPLETE" in repr(trace)
    assert time.now == 3
    assert max(time.pauses) == 1.0  # the pause grows to a second, no more
    assert len(asked) == len(time.pauses) + 1


def test_a_trace_waits_for_every_request_of_the_run() -> None:
    transport, _ = server((200, TRACE))
    time = FakeTime()
    trace = run_on_fake_clock(
        fetch_trace(transport, TRACE_ID, 2, requests=2, clock=time.clock, sleep=time.sleep)
    )
    assert not trace.complete  # one root stored: the second request's is not there yet


def test_no_trace_at_the_timeout_says_what_to_turn_on() -> None:
    transport, _ = server((404, {"error": f"Trace with ID '{TRACE_ID}' not found"}))
    time = FakeTime()
    with pytest.raises(TraceUnavailable) as raised:
        run_on_fake_clock(fetch_trace(transport, TRACE_ID, 5, clock=time.clock, sleep=time.sleep))
    message = str(raised.value)
    assert f"no trace {TRACE_ID} after 5 s" in message
    assert "new Observability(" in message
    assert "MastraStorageExporter" in message
    assert "maxBatchWaitMs: 500" in message


def test_a_server_that_cannot_keep_traces_says_so_at_once() -> None:
    transport, asked = server((501, {"error": "Observability storage domain is not available"}))
    time = FakeTime()
    with pytest.raises(TraceUnavailable) as raised:
        run_on_fake_clock(fetch_trace(transport, TRACE_ID, 5, clock=time.clock, sleep=time.sleep))
    assert "(Observability storage domain is not available): to keep traces" in str(raised.value)
    assert "new Observability(" in str(raised.value)
    assert len(asked) == 1
    assert time.pauses == []


# ---- what the client sends -----------------------------------------------------------------------


def test_a_trace_id_is_32_lowercase_hex_digits_and_every_body_names_it() -> None:
    trace_id = new_trace_id()
    assert len(trace_id) == 32
    assert trace_id == trace_id.lower()
    int(trace_id, 16)
    body = traced_body({"messages": [], "tracingOptions": {"tags": ["a"]}}, trace_id)
    assert body["tracingOptions"] == {"tags": ["a"], "traceId": trace_id}


def test_overrides_are_mastra_s_body_fields() -> None:
    body = body_options(
        {
            "instructions": "Be brief.",
            "system": "Say hi.",
            "context": [{"role": "user", "content": "earlier"}],
            "model_settings": {"temperature": 0.2, "max_output_tokens": 50},
            "request_context": {"user_tier": "pro"},
            "model": "openai/gpt-4o-mini",
            "tracing_options": {"trace_id": "ab" * 16},
        }
    )
    assert body == {
        "instructions": "Be brief.",
        "system": "Say hi.",
        "context": [{"role": "user", "content": "earlier"}],
        "modelSettings": {"temperature": 0.2, "maxOutputTokens": 50},
        "requestContext": {"user_tier": "pro"},  # the user's own keys, as given
        "model": "openai/gpt-4o-mini",
        "tracingOptions": {"traceId": "ab" * 16},
    }
    assert chosen_trace_id(body) == "ab" * 16
    assert chosen_trace_id({"tracingOptions": {"traceId": "not-hex"}}) is None


def test_a_run_keeps_its_trace_id_and_overrides() -> None:
    run = mn.Run()
    run.describe(trace_id="cd" * 16, overrides={"instructions": "Be brief.", "model": "a/b"})
    result = run.result
    assert result.trace_id == "cd" * 16
    assert result.overrides == {"instructions": "Be brief.", "model": "a/b"}
    assert run.state.node.fields["overrides"] == ["instructions", "model"]
    assert mn.RunResult.model_validate_json(result.model_dump_json()).trace_id == "cd" * 16


def test_the_transcript_s_header_says_when_the_instructions_were_overridden() -> None:
    def drawn(overrides: dict[str, Any]) -> str:
        run = mn.Run()
        run.describe(overrides=overrides)
        run.feed({"type": "start", "runId": "r", "payload": {}})
        run.feed({"type": "finish", "runId": "r", "payload": {"stepResult": {"reason": "stop"}}})
        run.end()
        return run.result._repr_html_()

    assert "instructions overridden" in drawn({"instructions": "Be brief."})
    assert "instructions overridden" not in drawn({"model_settings": {"temperature": 0}})


def test_a_result_read_back_takes_its_requests_from_a_trace() -> None:
    run = mn.Run()
    for chunk in [
        {"type": "step-start", "runId": "r", "payload": {"request": {}}},
        {"type": "step-finish", "runId": "r", "payload": {"stepResult": {"reason": "tool-calls"}}},
        {"type": "step-start", "runId": "r", "payload": {"request": {}}},
        {"type": "finish", "runId": "r", "payload": {"stepResult": {"reason": "stop"}}},
    ]:
        run.feed(chunk)
    stored = mn.RunResult.model_validate_json(run.result.model_dump_json())
    filled = with_trace(stored, read_trace(TRACE, TRACE_ID))
    assert [step.request.system if step.request else None for step in filled.steps] == ["Be brief."] * 2
    assert [step.request_reason for step in filled.steps] == [None, None]
    assert stored.steps[0].request is None  # a copy: the result read back is left as it was
