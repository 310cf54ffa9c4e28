"""Tool results as data against the real server (agent ``toolUser``, issue 21): a Python tool returns
a DataFrame or a figure; the scripted model quotes what it was sent (``<tool> returned <json>``), the
card's node has the display, and ``call.value`` keeps the object in the kernel."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import matplotlib
import pandas as pd
import pytest

import mastra_notebook as mn
from mastra_notebook.core.result import view_snapshot

matplotlib.use("Agg")
import matplotlib.pyplot as plt

pytestmark = pytest.mark.server


def orders(n: int) -> pd.DataFrame:
    """The latest orders."""
    return pd.DataFrame({"order": list(range(n)), "total": [9.5] * n})


def tool_node(result: mn.RunResult) -> dict[str, Any]:
    """The tool call's node, as the view (and the transcript) draw it."""
    (node,) = [op[2] for op in view_snapshot(result) or () if op[0] == "add" and op[2]["kind"] == "tool"]
    return node


def test_a_dataframe_is_records_for_the_model_a_table_for_the_person_and_the_value_in_the_kernel(
    client: mn.MastraClient, tmp_path: Path
) -> None:
    view = client.agent("toolUser").stream('call orders with {"n": 3}', tools=[orders])
    result = view.wait(30)
    assert result.status == "finished"
    (call,) = result.tool_calls
    assert call.result == [{"order": 0, "total": 9.5}, {"order": 1, "total": 9.5}, {"order": 2, "total": 9.5}]
    assert 'orders returned [{"order":0,"total":9.5},{"order":1,"total":9.5}' in result.text
    assert isinstance(call.value, pd.DataFrame)
    assert call.value.equals(orders(3))
    display = tool_node(result)["display"]
    assert display["source"] == "value"
    assert "<table" in display["data"]["text/html"]
    # a replay of the recording draws the table too (the display rides on the result chunk)
    replayed = mn.collect(view.save(tmp_path / "run.jsonl"))
    assert tool_node(replayed)["display"] == display
    assert replayed.tool_calls[0].value is None  # the object itself stayed in this kernel


def test_to_model_sends_a_summary_and_the_card_still_has_the_table(client: mn.MastraClient) -> None:
    summarised = mn.tool(orders, to_model=lambda frame: {"rows": len(frame), "sum": float(frame.total.sum())})
    result = client.agent("toolUser").stream('call orders with {"n": 4}', tools=[summarised]).wait(30)
    (call,) = result.tool_calls
    assert call.result == {"rows": 4, "sum": 38.0}
    assert 'orders returned {"rows":4,"sum":38}' in result.text
    assert isinstance(call.value, pd.DataFrame)
    assert "<td>3</td>" in tool_node(result)["display"]["data"]["text/html"]


def test_a_matplotlib_figure_is_an_image_and_a_description_for_the_model(client: mn.MastraClient) -> None:
    def chart(title: str) -> Any:
        """A chart of the orders."""
        figure, axes = plt.subplots(figsize=(3, 2))
        axes.bar(["a", "b"], [3, 5])
        axes.set_title(title)
        return figure

    result = client.agent("toolUser").stream('call chart with {"title": "Orders"}', tools=[chart]).wait(30)
    (call,) = result.tool_calls
    assert call.result.startswith("a matplotlib figure, ")
    assert "'Orders'" in call.result
    assert "chart returned" in result.text
    png = base64.b64decode(tool_node(result)["display"]["data"]["image/png"])
    assert png.startswith(b"\x89PNG")
    assert call.value is not None
    assert hasattr(call.value, "savefig")


def test_a_registered_renderer_draws_a_server_tools_result(client: mn.MastraClient) -> None:
    """A per-stream renderer of a tool the server runs (the weather agent's own tool)."""
    seen: list[Any] = []

    def table(result: Any) -> pd.DataFrame:
        seen.append(result)
        return pd.DataFrame([result])

    result = client.agent("weather").stream("weather in Paris", renderers={"getWeather": table}).wait(30)
    display = tool_node(result)["display"]
    assert seen == [result.tool_calls[0].result]
    assert display["source"] == "renderer"
    assert "<table" in display["data"]["text/html"]


def test_a_raising_renderer_shows_its_error_and_the_run_goes_on(client: mn.MastraClient) -> None:
    def broken(result: Any) -> Any:
        raise ValueError("no table for you")

    result = client.agent("weather").stream("weather in Paris", renderers={"getWeather": broken}).wait(30)
    assert result.status == "finished"
    assert tool_node(result)["display"]["error"] == "ValueError: no table for you"


def test_a_batchs_renderers_draw_every_tile(client: mn.MastraClient) -> None:
    gallery = client.agent("weather").stream_many(
        ["weather in Paris", "weather in Oslo"],
        renderers={"getWeather": lambda result: pd.DataFrame([result])},
    )
    results = gallery.wait(60)
    assert [r.status for r in results] == ["finished", "finished"]
    assert all("<table" in tool_node(r)["display"]["data"]["text/html"] for r in results)


def test_a_50_mb_plain_result_is_sent_cut_and_the_run_finishes(client: mn.MastraClient) -> None:
    """Issue 33: a 50 MB dict was sent whole and the server failed the run (a RangeError). The model is
    sent about 64 kB with a note; the card shows it cut; the kernel keeps the whole value."""
    text = "x" * 10_000
    rows = {"rows": [{"id": i, "text": text} for i in range(5_000)]}  # 50 MB of JSON, one string shared

    def everything() -> dict[str, Any]:
        """Every row."""
        return rows

    result = client.agent("toolUser").stream("call everything with {}", tools=[everything]).wait(60)
    assert result.status == "finished", result.error
    (call,) = result.tool_calls
    assert call.value is rows
    assert "to_model=" in call.result["note"]
    assert "This tool's result is 48 MB of JSON" in result.text  # what the scripted model was sent
    assert tool_node(result)["result_cut"]["where"] == "result.tool_call('" + call.tool_call_id + "').value"
