"""Mastra's trace beside the run (issue 19, item 4), against the bundled server: every request of a
run names one trace the client chose, and ``view.trace()`` reads it once the exporter flushed."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from typing import Any

import httpx
import pytest

import mastra_notebook as mn
from mastra_notebook.client.transport import InjectedTransport

pytestmark = pytest.mark.server


def recording_wire(url: str, bodies: list[dict[str, Any]]) -> InjectedTransport:
    """A wire under the client that forwards each request to the real server and keeps the JSON
    body of each POST it carried."""

    def copy(real: httpx.Client | httpx.AsyncClient, request: httpx.Request) -> httpx.Request:
        headers = {"content-type": request.headers.get("content-type", "application/json")}
        path = request.url.raw_path.decode()
        return real.build_request(request.method, path, content=request.content, headers=headers)

    async def forward(request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.content:
            bodies.append(json.loads(request.content))
        async with httpx.AsyncClient(base_url=url, timeout=60) as real:
            answer = await real.send(copy(real, request))
            content = await answer.aread()
        return httpx.Response(answer.status_code, headers=_plain(answer.headers), content=content)

    def forward_sync(request: httpx.Request) -> httpx.Response:
        with httpx.Client(base_url=url, timeout=60) as real:
            answer = real.send(copy(real, request))
            return httpx.Response(answer.status_code, headers=_plain(answer.headers), content=answer.read())

    def handler(request: httpx.Request) -> Any:  # a response, or a coroutine on the async path
        return forward(request) if _in_async(request) else forward_sync(request)

    return httpx.MockTransport(handler)


def _plain(headers: httpx.Headers) -> dict[str, str]:
    """The answer's headers, less those of its encoding on the wire (its body is passed decoded)."""
    dropped = {"content-encoding", "transfer-encoding", "content-length"}
    return {key: value for key, value in headers.items() if key.lower() not in dropped}


def _in_async(request: httpx.Request) -> bool:
    """Sent by the client's async path (streams run on an event loop; ``view.trace()`` is sync)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_a_memory_agent_that_calls_a_tool_has_model_memory_and_tool_spans(client: mn.MastraClient) -> None:
    memory = {"thread": f"trace-{uuid.uuid4()}", "resource": "trace-user"}
    view = client.agent("weatherMemory").stream("Weather in Paris?", memory=memory)
    result = view.wait(60)
    assert result.status == "finished"
    assert re.fullmatch(r"[0-9a-f]{32}", result.trace_id or "")

    trace = view.trace(timeout=30)
    assert trace.complete
    assert trace.message is None
    assert trace.trace_id == result.trace_id
    [root] = trace.roots
    assert root.type == "agent_run"
    assert root.end is not None
    [generation] = trace.spans_of("model_generation")
    assert generation.input["messages"][-1]["content"][0]["text"] == "Weather in Paris?"
    assert generation.attributes["model"] == "mock-weatherMemory"
    assert {span.name for span in trace.spans_of("memory_operation")} == {"memory: recall", "memory: save"}
    [tool] = trace.spans_of("tool_call")
    assert tool.name == "tool: 'getWeather'"
    assert tool.input == {"city": "Paris"}
    assert tool.status == "success"
    assert all(span.start is not None for span in trace.spans)
    assert "model_generation 1" in repr(trace)

    frame = trace.to_dataframe()
    assert len(frame) == len(trace.spans)
    assert {"model_generation", "memory_operation", "tool_call"} <= set(frame["type"])


def test_a_client_tool_round_trip_keeps_one_trace_id(mastra_url: str) -> None:
    bodies: list[dict[str, Any]] = []
    client = mn.MastraClient(mastra_url, wire=recording_wire(mastra_url, bodies))

    def lookup(city: str) -> str:
        """Look a city up."""
        return f"{city}: 21 degrees"

    view = client.agent("toolUser").stream('call lookup with {"city": "Paris"}', tools=[lookup])
    result = view.wait(60)
    assert result.status == "finished"
    assert "21 degrees" in result.text

    streams = [body for body in bodies if "clientTools" in body]
    assert len(streams) == 2  # the first request, and the round that sends the tool's result
    assert [body["tracingOptions"]["traceId"] for body in streams] == [result.trace_id] * 2

    trace = view.trace(timeout=30)
    assert trace.complete
    assert [root.type for root in trace.roots] == ["agent_run", "agent_run"]  # both requests, one trace
    assert len(trace.spans_of("model_generation")) == 2


def test_an_approval_continues_in_the_same_trace(mastra_url: str) -> None:
    bodies: list[dict[str, Any]] = []
    client = mn.MastraClient(mastra_url, wire=recording_wire(mastra_url, bodies))
    view = client.agent("weather").stream("What is the weather in Paris?", require_tool_approval=True)
    waiting = view.wait(60)
    assert waiting.status == "suspended"
    view.approve()
    result = view.wait(60)
    assert result.status == "finished"
    assert len(bodies) == 2  # the stream, and the approval
    assert "toolCallId" in bodies[1]
    assert [body["tracingOptions"]["traceId"] for body in bodies] == [result.trace_id] * 2
    trace = view.trace(timeout=30)
    assert {span.type for span in trace.spans} >= {"agent_run", "model_generation", "tool_call"}
    assert trace.trace_id == result.trace_id
    # Mastra nests the approved continuation under the step that waited, as a resumed run
    assert [span.name for span in trace.requests] == [
        "agent run: 'weather'",
        "agent run: 'weather' (resumed)",
    ]
    assert [step.request is not None for step in view.result.steps] == [True] * len(view.result.steps)


def test_a_workflow_run_is_traced_and_an_observed_one_names_no_trace(client: mn.MastraClient) -> None:
    view = client.workflow("weatherReport").stream(input_data={"city": "Lisbon"})
    result = view.wait(60)
    assert result.trace_id is not None
    trace = view.trace(timeout=30)
    assert [root.type for root in trace.roots] == ["workflow_run"]
    observed = client.workflow("weatherReport").run(result.run_id or "").view()
    observed.wait(60)
    assert observed.result.trace_id is None
    with pytest.raises(RuntimeError, match="names no trace"):
        observed.trace(timeout=0)
