"""Mastra's trace drawn as a lane of the run's timeline, against the bundled server (issue 19, item 4):
after ``view.trace()`` the view's run carries the lane, its spans on the run's own axis."""

from __future__ import annotations

import uuid

import pytest

import mastra_notebook as mn
from mastra_notebook.render.timeline import layout
from mastra_notebook.render.transcript import render_html

pytestmark = pytest.mark.server


def test_a_memory_agent_s_trace_draws_under_its_run(client: mn.MastraClient) -> None:
    memory = {"thread": f"lane-{uuid.uuid4()}", "resource": "lane-user"}
    view = client.agent("weatherMemory").stream("Weather in Paris?", memory=memory)
    assert view.wait(60).status == "finished"
    trace = view.trace(timeout=30)
    assert trace.complete

    (root,) = [op[2] for op in view.run.snapshot() if op[0] == "add" and op[1] is None]
    drawn = root["trace"]
    assert drawn["trace_id"] == view.result.trace_id
    assert drawn["message"] is None
    names = [span["name"] for span in drawn["spans"]]
    assert {"memory: recall", "memory: save", "tool: 'getWeather'"} <= set(names)
    assert {"agent_run", "model_generation", "memory_operation", "tool_call"} <= {
        s["type"] for s in drawn["spans"]
    }
    assert drawn["hidden"] == len(trace.spans) - len(drawn["spans"])  # the chunk spans

    plan = layout({"root": root}, {"root": []})
    spans = [bar for bar in plan.bars if bar.kind == "span"]
    assert len(spans) == len(drawn["spans"])
    # one machine, one clock: the trace's spans fall within the run, give or take the server's own work
    assert all(-1000 < bar.start <= bar.end <= plan.total for bar in spans)
    assert "Mastra's trace" in render_html(view.result)
