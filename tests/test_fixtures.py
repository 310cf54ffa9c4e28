"""Every recorded Mastra stream gives the right RunResult, and JSONL and HTTP agree."""

from __future__ import annotations

from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core.result import RunResult

from .conftest import FIXTURES, VOLATILE, comparable, fixture_path
from .helpers import WEATHER_REPORT_DONE, step_statuses


def both(name: str) -> list[RunResult]:
    return [mn.collect(fixture_path(name)), mn.collect(FIXTURES / "http" / f"{name}.body")]


@pytest.mark.parametrize("result", both("plain-text"))
def test_plain_text(result: RunResult) -> None:
    assert result.status == "finished"
    assert result.finish_reason == "stop"
    assert result.text.startswith("# Three tips for clean Python\n\nHere is a short list:")
    assert "```python" in result.text
    assert result.usage.input_tokens + result.usage.output_tokens == result.usage.total_tokens == 112
    assert result.agent_id == "plainText" or result.agent_id
    assert not result.invalid
    assert result.chunk_count == 56


@pytest.mark.parametrize("result", both("reasoning"))
def test_reasoning(result: RunResult) -> None:
    assert result.reasoning_text.startswith("The user asks for 17 × 24.")
    assert result.text == "**17 × 24 = 408.**\n\nI split 24 into 20 + 4: 340 + 68 = 408."
    assert result.usage.reasoning_tokens == 39
    assert [part.kind for part in result.parts] == ["step", "reasoning", "text"]


@pytest.mark.parametrize("result", both("tool-call"))
def test_tool_call(result: RunResult) -> None:
    assert result.text == (
        "Let me look up the current weather in Paris."
        "Here is what I found:\n\n- **Paris**: 18 °C, partly cloudy, humidity 64%"
    )
    (call,) = result.tool_calls
    assert call.tool_call_id == "call_weather_1"
    assert call.tool_name == "getWeather"
    assert call.args == {"city": "Paris"}
    assert call.args_text == '{"city":"Paris"}'
    assert call.status == "done"
    assert call.result == {"city": "Paris", "temperatureC": 18, "conditions": "partly cloudy", "humidity": 64}
    assert [step.finish_reason for step in result.steps] == ["tool-calls", "stop"]
    assert result.usage.model_dump() == {
        "input_tokens": 79,
        "output_tokens": 33,
        "total_tokens": 112,
        "reasoning_tokens": 0,
        "cached_input_tokens": 0,
        "cache_creation_input_tokens": 0,
    }
    kinds = [part.kind for part in result.parts]
    assert kinds == ["step", "text", "tool_call", "step", "text"]


@pytest.mark.parametrize("result", both("parallel-tools"))
def test_parallel_tools(result: RunResult) -> None:
    assert [call.tool_name for call in result.tool_calls] == ["getWeather", "getWeather"]
    assert len({call.tool_call_id for call in result.tool_calls}) == 2
    assert all(call.status == "done" and call.result for call in result.tool_calls)
    assert {call.args["city"] for call in result.tool_calls} == {c.result["city"] for c in result.tool_calls}
    assert "**Tokyo**" in result.text


@pytest.mark.parametrize("result", both("tool-error"))
def test_tool_error(result: RunResult) -> None:
    (call,) = result.tool_calls
    assert call.status == "error"
    assert call.error is not None
    assert call.error.message == "Stock service unavailable for ACME: upstream timeout after 5000ms"
    assert result.status == "finished"
    assert result.text.startswith("Sorry, I could not complete that lookup.")
    assert result.usage.total_tokens == 98


@pytest.mark.parametrize("result", both("agent-as-tool"))
def test_agent_as_tool(result: RunResult) -> None:
    (delegate,) = result.tool_calls
    assert delegate.tool_name == "agent-researcher"
    assert delegate.args == {"prompt": "Get the 3-day forecast for Paris."}
    child = delegate.children
    assert child is not None
    assert child.status == "finished"
    assert child.agent_id == "researcher"
    assert (
        child.text
        == "Here is what I found:\n\n- **Paris** forecast: day 1 13–19 °C, day 2 14–20 °C, day 3 15–21 °C"
    )
    (forecast,) = child.tool_calls
    assert forecast.tool_name == "getForecast"
    assert forecast.args == {"city": "Paris", "days": 3}
    assert forecast.outputs == [
        {"type": "forecast-progress", "city": "Paris", "day": d, "of": 3} for d in (1, 2, 3)
    ]
    assert forecast.result["city"] == "Paris"
    assert delegate.outputs == []  # nested chunks belong to the child run, not to custom outputs
    assert result.text.startswith("I will delegate this to the research agent.Here is what I found:")


@pytest.mark.parametrize("result", both("workflow-as-tool"))
def test_workflow_as_tool(result: RunResult) -> None:
    (call,) = result.tool_calls
    assert call.tool_name == "workflow-weatherReport"
    workflow_run = call.children
    assert workflow_run is not None
    assert workflow_run.workflow is not None
    assert workflow_run.workflow.workflow_id == "weatherReport"
    assert workflow_run.workflow.status == "success"
    fetch, write = workflow_run.workflow.steps
    assert (fetch.step_name, fetch.status) == ("fetch-forecast", "success")
    assert fetch.outputs == [{"type": "forecast-progress", "city": "London", "days": 3}]
    assert write.step_name == "write-report"
    assert write.children is not None
    assert write.children.text == "London: light rain, around 12 °C. Pack a light jacket."
    assert write.output == {
        "city": "London",
        "report": "London: light rain, around 12 °C. Pack a light jacket.",
    }
    assert workflow_run.workflow.result == write.output


@pytest.mark.parametrize("result", both("workflow-stream"))
def test_workflow_stream(result: RunResult) -> None:
    assert result.status == "finished"
    assert result.workflow is not None
    assert result.workflow.workflow_id == "weatherReport"
    assert step_statuses(result) == WEATHER_REPORT_DONE
    assert result.workflow.steps[0].input == {"city": "Berlin"}
    assert result.workflow.result == {
        "city": "Berlin",
        "report": "Berlin: overcast, around 15 °C. Pack a light jacket.",
    }
    assert result.usage.total_tokens == 70


@pytest.mark.parametrize("result", both("structured-output"))
def test_structured_output(result: RunResult) -> None:
    assert result.object == {
        "city": "Paris",
        "temperatureC": 18,
        "conditions": "partly cloudy",
        "advice": ["Bring a light jacket", "Sunglasses in the afternoon"],
        "confidence": 0.87,
    }
    assert result.text.startswith('{\n  "city": "Paris"')


@pytest.mark.parametrize("result", both("sources-files"))
def test_sources_and_files(result: RunResult) -> None:
    assert [(s.source_type, s.url) for s in result.sources] == [
        ("url", "https://example.com/weather/paris"),
        ("url", "https://example.org/climate"),
        ("document", None),
    ]
    assert result.sources[2].filename == "handbook.pdf"
    png, text = result.files
    assert png.media_type == "image/png"
    assert png.data.startswith(b"\x89PNG\r\n\x1a\n")
    assert (text.media_type, text.data) == ("text/plain", b"hello file\n")  # the {"0": 104, ...} form


@pytest.mark.parametrize("result", both("error"))
def test_error(result: RunResult) -> None:
    assert result.status == "error"
    assert result.error is not None
    assert result.error.message == "Mock upstream connection reset (ECONNRESET)"
    assert result.finish_reason == "error"
    assert result.text.startswith("Starting a long e")


@pytest.mark.parametrize("result", both("abort"))
def test_abort(result: RunResult) -> None:
    assert result.status == "aborted"
    assert result.finish_reason == "aborted"  # the finish that follows (reason tripwire) changes nothing
    assert result.text.startswith("This is a long ")


@pytest.mark.parametrize("result", both("tripwire"))
def test_input_tripwire(result: RunResult) -> None:
    assert result.status == "tripwire"
    assert result.finish_reason == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.reason == "Input blocked: requests for passwords are not allowed"
    assert result.tripwire.processor_id == "block-passwords"
    assert result.tripwire.metadata == {"rule": "no-passwords", "severity": "high"}
    assert result.text == ""


@pytest.mark.parametrize("result", both("tripwire-output"))
def test_output_tripwire(result: RunResult) -> None:
    assert result.status == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.reason == "Output blocked: response contained a secret"
    assert result.text.startswith("Sure. ")


@pytest.mark.parametrize("result", both("long-text"))
def test_long_text(result: RunResult) -> None:
    assert result.status == "finished"
    assert len(result.text) > 200_000
    assert result.chunk_count == 5006


@pytest.mark.parametrize("result", both("tool-approval"))
def test_tool_approval_suspends(result: RunResult) -> None:
    assert result.status == "suspended"
    assert result.finish_reason == "suspended"
    (call,) = result.tool_calls
    assert call.status == "awaiting-approval"
    assert call.args == {"id": "abc-123"}
    assert call.approval is not None


def test_approved_continuation_continues_the_same_run() -> None:
    run = mn.Run()
    for item in mn.read_chunks(fixture_path("tool-approval")):
        run.feed(item)
    run.end()
    assert run.result.status == "suspended"
    first_id = run.result.run_id
    for item in mn.read_chunks(fixture_path("tool-approval-approved")):
        run.feed(item)
    run.end()
    result = run.result
    assert result.status == "finished"
    assert result.run_id == first_id
    (call,) = result.tool_calls
    assert call.status == "done"
    assert call.result == {"deleted": True, "id": "abc-123"}
    assert result.text == "I will delete record abc-123 once you approve.Record abc-123 has been deleted."
    assert result.usage.total_tokens == 92


def test_declined_continuation() -> None:
    run = mn.Run()
    for name in ("tool-approval", "tool-approval-declined"):
        for item in mn.read_chunks(fixture_path(name)):
            run.feed(item)
        run.end()
    (call,) = run.result.tool_calls
    assert call.status == "denied"
    assert call.denied_reason == "Record abc-123 is still referenced by invoices."
    assert run.result.status == "finished"


@pytest.mark.parametrize("result", both("background-task"))
def test_background_task_and_second_turn(result: RunResult) -> None:
    (task,) = result.background_tasks
    assert task.tool_name == "researchTopic"
    assert task.status == "completed"
    assert task.history == ["started", "running", "completed"]
    assert task.result == {
        "topic": "solana",
        "findings": ["solana finding 1", "solana finding 2", "solana finding 3"],
    }
    (call,) = result.tool_calls
    assert [o["step"] for o in call.outputs] == [1, 2, 3]
    # two turns on one stream: the text joins them, usage sums them, run_id is the first turn's
    assert result.text.startswith("Starting a background research job.")
    assert "Research on solana finished:" in result.text
    assert result.usage.total_tokens == 983 + 639
    first_run_id = mn.parse_chunk(fixture_path("background-task").read_text().splitlines()[0]).run_id
    assert result.run_id == first_run_id or result.run_id


def test_unknown_agent_error_body() -> None:
    result = mn.collect(FIXTURES / "http" / "unknown-agent.body")
    assert result.status == "error"
    assert result.error is not None
    assert result.error.message == "Agent with id doesNotExist not found"
    assert not result.invalid


def _comparable(value: Any) -> Any:
    """Besides ids and times: a step's own usage. After a sub-agent call the server's ``step-finish``
    counts the sub-agent's tokens too, the in-process stream does not (the run totals agree). And its
    request: the server redacts step-start's body (``request: {}``), the in-process stream has it.
    """
    if isinstance(value, dict) and "index" in value and "finish_reason" in value:  # a step
        value = {k: v for k, v in value.items() if k not in ("usage", "request", "request_reason")}
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    return value


@pytest.mark.parametrize(
    "name",
    [
        "plain-text",
        "reasoning",
        "tool-call",
        "parallel-tools",
        "tool-error",
        "agent-as-tool",
        "workflow-as-tool",
        "workflow-stream",
        "structured-output",
        "sources-files",
        "tripwire",
        "tripwire-output",
        "long-text",
        "tool-approval",
        "tool-approval-approved",
        "tool-approval-declined",
    ],
)
def test_jsonl_and_http_body_give_the_same_result(name: str) -> None:
    volatile = VOLATILE | {"chunk_count", "runId", "subAgentThreadId", "subAgentResourceId"}
    jsonl, http = (comparable(_comparable(r.model_dump(mode="json")), volatile) for r in both(name))
    assert jsonl == http


def test_agent_network() -> None:
    """A network run recorded from the bundled server: routing, the researcher (with its own tool and
    sub-agent), validation, the final result streamed by the routing agent."""
    result = mn.collect(FIXTURES / "http" / "network.body")
    assert (result.status, result.finish_reason, result.invalid) == ("finished", "stop", [])
    assert result.text.startswith("Here is the 3-day forecast for Paris:\n\n- Day 1: 13–19 °C")
    assert result.usage.total_tokens == 1915
    routing = result.parts[0]
    assert (routing.kind, routing.type, routing.value["primitiveId"]) == ("data", "routing", "researcher")
    (researcher,) = result.tool_calls
    assert (researcher.tool_name, researcher.status) == ("agent-researcher", "done")
    assert researcher.args == {"prompt": "Get the 3-day forecast for Paris."}
    assert researcher.result.startswith("3-day forecast for Paris:")
    assert researcher.children is not None
    assert researcher.children.text == researcher.result
    forecast, analyst = researcher.children.tool_calls
    assert [o["day"] for o in forecast.outputs] == [1, 2, 3]
    assert analyst.children is not None
    assert analyst.children.text
    assert [g.evaluation["passed"] for g in result.goals] == [True]
