"""Issue 21, "everywhere the view goes": a tool's result drawn as data (a registered renderer's table,
the built-in table of flat records, an image part) in an experiment cell's opened view and in
``mn.compare``, side by side. The browser's drawing of the same nodes is tests/e2e/test_rich_frontends.py."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import items_of
from mastra_notebook.widget.experiment_view import Experiment

from .conftest import RecordingComm
from .helpers import start_tags

RICH = Path(__file__).parent / "fixtures" / "tool-rich-results.jsonl"
LINES = RICH.read_text().splitlines()


@pytest.fixture
def frame_renderer() -> Iterator[None]:
    """queryOrders' rows drawn by a registered renderer (pandas' own HTML table), for this test only."""
    mn.renderer("queryOrders", pd.DataFrame)
    yield
    mn.renderer("queryOrders", None)


def displays(state: dict[str, Any]) -> dict[str, Any]:
    """The tool nodes' displays in a view's final state (its snapshot on the wire), by tool name."""
    ops = json.loads(state["_final"])["ops"]
    return {
        op[2]["tool_name"]: op[2].get("display")
        for op in ops
        if op[0] == "add" and op[2].get("kind") == "tool"
    }


def replay(item: Any, variant: str, repeat: int) -> tuple[mn.StreamView, Callable[[], Awaitable[None]]]:
    view = mn.StreamView(title="rich")

    async def work() -> None:
        await asyncio.sleep(0)
        for line in LINES:
            view.feed(line)

    return view, work


async def test_an_experiment_cells_opened_view_draws_the_renderers_table(
    recording_comm: RecordingComm, frame_renderer: None
) -> None:
    exp = await Experiment(items_of(["orders?"]), {"a": {}, "b": {}}, start=replay, name="rich")
    for cell in exp.cells:
        view = exp.grid.open(cell)
        assert view is not None
        finals = [state for state in recording_comm.states() if "_final" in state]
        shown = displays(finals[-1])
        table = shown["queryOrders"]
        assert table["source"] == "renderer"
        assert "<table" in table["data"]["text/html"]
        assert len(view.result.tool_calls[0].result) == 57  # the JSON one click away, whole


def test_compare_draws_rich_results_side_by_side(frame_renderer: None) -> None:
    html = mn.compare(RICH, RICH)._repr_html_()
    assert html.count('class="mn-compare-rich"') == 8  # four calls, two runs
    calls = html.split('class="mn-compare-call"')[1:]
    query = [
        call for call in calls if re.search(r"<code[^>]*>(<bdi[^>]*>)?queryOrders(</bdi>)?</code>", call)
    ]
    assert len(query) == 2
    for call in query:
        assert "→ 57 rows" in call  # the table's size, not its records' JSON cut at 400 characters
        assert "<table" in call
        assert "Result as JSON" in call
    chart = next(
        call for call in calls if re.search(r"<code[^>]*>(<bdi[^>]*>)?chartRevenue(</bdi>)?</code>", call)
    )
    images = [attrs for tag, attrs in start_tags(chart) if tag == "img"]
    assert images
    assert str(images[0]["src"]).startswith("data:image/png;base64,")
    assert "<script" not in html


def test_compare_keeps_plain_results_as_text() -> None:
    tool_call = Path(__file__).parent / "fixtures" / "tool-call.jsonl"
    html = mn.compare(tool_call, tool_call)._repr_html_()
    assert "mn-compare-rich" not in html
