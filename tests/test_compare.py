"""Compare runs side by side; runs as a DataFrame."""

from __future__ import annotations

import pytest

import mastra_notebook as mn

from .conftest import RecordingComm, fixture_path


def test_compare_recordings_views_and_results(recording_comm: RecordingComm) -> None:
    view = mn.view(fixture_path("tool-error"))
    view.wait(10)
    comparison = mn.compare(fixture_path("tool-call"), view, mn.collect(fixture_path("parallel-tools")),
                            labels=["weather", "stock", "parallel"])  # fmt: skip
    rows = dict(comparison.rows())
    assert rows["status"] == ["finished", "finished", "finished"]
    assert rows["tokens in / out"][0] == "79 / 33"
    assert rows["tool call 1"][0].startswith('getWeather({"city": "Paris"}) [done] →')
    assert "Stock service unavailable" in rows["tool call 1"][1]
    assert rows["tool call 2"] == ["", "", rows["tool call 2"][2]]
    assert rows["tool call 2"][2].startswith("getWeather(")
    diff = comparison.text_diff()
    assert diff.startswith("--- weather\n+++ stock\n")
    assert "+Sorry, I could not complete that lookup." in diff


def test_compare_html_is_escaped() -> None:
    hostile = [{"type": "text-delta", "payload": {"id": "t", "text": "<script>alert(1)</script>"}}]
    html = mn.compare(
        hostile, [{"type": "text-delta", "payload": {"id": "t", "text": "<b>x</b>"}}]
    )._repr_html_()
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "<b>x</b>" not in html


def test_compare_needs_two() -> None:
    with pytest.raises(ValueError, match="at least two"):
        mn.compare(fixture_path("tool-call"))


def test_to_dataframe_one_row_per_run() -> None:
    frame = mn.to_dataframe([fixture_path("tool-call"), fixture_path("error"), fixture_path("reasoning")])
    assert list(frame["status"]) == ["finished", "error", "finished"]
    assert frame.loc[0, "tool_calls"] == ["getWeather"]
    assert frame.loc[0, "total_tokens"] == 112
    assert frame.loc[1, "error"] == "Mock upstream connection reset (ECONNRESET)"
    assert frame.loc[2, "reasoning_tokens"] == 39
    assert {"prompt", "text", "duration_s", "time_to_first_token_s"} <= set(frame.columns)
