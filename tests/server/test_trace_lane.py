"""Mastra's trace drawn as a lane of the run's timeline, against the bundled server (issue 19, item 4):
after ``view.trace()`` the view's run carries the lane, its spans on the run's own axis."""

from __future__ import annotations

import re
import uuid

import pytest

import mastra_notebook as mn
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

    html = render_html(view.result)
    assert "Mastra's trace" in html
    # one machine, one clock: each span's bar falls on the run's axis (js/src/render/timeline.ts clamps
    # what falls before it to 0%); every span drawn has its row
    rows = re.findall(
        r'data-span-ref="[^"]*".*?class="mn-tl-bar mn-tl-span"[^>]*style="[^"]*left:([\d.]+)%;width:([\d.]+)%',
        html,
        re.S,
    )
    assert len(rows) == len(drawn["spans"])
    assert all(float(left) + float(width) <= 100.001 for left, width in rows)
