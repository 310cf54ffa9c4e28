"""Time that tells the truth (issue 32, item 2), against the bundled server: once ``view.trace()``
read Mastra's trace, the weather agent's tool duration on its card, its timeline bar, ``timing``,
``compare`` and ``to_dataframe`` is the trace's tool span; a supervisor's sub-agent's too."""

from __future__ import annotations

from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.compare import compare
from mastra_notebook.analysis.dataframe import row
from mastra_notebook.core.numbers import format_duration

pytestmark = pytest.mark.server


def _nodes(view: Any, kind: str) -> list[dict[str, Any]]:
    return [dict(op[2]) for op in view.run.snapshot() if op[0] == "add" and op[2].get("kind") == kind]


def test_the_weather_agent_s_tool_time_is_its_span_everywhere(client: mn.MastraClient) -> None:
    view = client.agent("weather").stream("Weather in Paris?")
    assert view.wait(60).status == "finished"
    assert view.result.timing.source == "arrival"  # before the trace: the kernel's figures, said so
    trace = view.trace(timeout=30)
    [span] = trace.spans_of("tool_call")
    span_ms = (span.duration or 0) * 1000
    [card] = _nodes(view, "tool")
    assert card["duration_source"] == "trace"
    assert card["duration"] == format_duration(span_ms)  # the card, and the timeline's bar:
    assert abs(card["trace_end"] - card["trace_start"] - span_ms) <= 2
    result = view.result
    [call] = result.tool_calls
    assert call.timing_source == "trace"
    assert abs((call.tool_time or 0) * 1000 - span_ms) <= 2
    assert abs(result.timing.tool_time * 1000 - span_ms) <= 2
    assert abs(row(result)["tool_time_s"] * 1000 - span_ms) <= 2
    [tool_time] = [cells for what, cells in compare(result, result).rows() if what == "tool time"]
    assert tool_time[0] == f"{format_duration(span_ms)} (by Mastra's trace)"
    # what only the kernel saw stays by arrival
    assert result.timing.time_to_first_token is not None
    assert all(step.source == "trace" for step in result.timing.steps)


def test_a_sub_agent_s_duration_is_its_tool_span(client: mn.MastraClient) -> None:
    view = client.agent("supervisor").stream("Forecast for Paris")
    assert view.wait(90).status == "finished"
    trace = view.trace(timeout=30)
    spans = {str(span.attributes.get("toolCallId")): span for span in trace.spans_of("tool_call")}
    cards = _nodes(view, "tool")
    traced = [card for card in cards if card.get("tool_call_id") in spans]
    assert traced, (list(spans), [card.get("tool_call_id") for card in cards])
    for card in traced:
        span = spans[card["tool_call_id"]]
        assert card["duration_source"] == "trace"
        assert abs(card["trace_end"] - card["trace_start"] - (span.duration or 0) * 1000) <= 2
    nested = [node for node in _nodes(view, "run") if node.get("nested")]
    assert any(node.get("trace_start") is not None for node in nested)  # the sub-agent's own run span
