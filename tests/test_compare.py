"""Compare runs side by side; runs as a DataFrame."""

from __future__ import annotations

import re

import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.compare import word_diff_html

from .conftest import FIXTURES, RecordingComm, fixture_path


def test_compare_recordings_views_and_results(recording_comm: RecordingComm) -> None:
    view = mn.view(fixture_path("tool-error"))
    view.wait(60)
    comparison = mn.compare(fixture_path("tool-call"), view, mn.collect(fixture_path("parallel-tools")),
                            labels=["weather", "stock", "parallel"])  # fmt: skip
    rows = dict(comparison.rows())
    assert rows["status"] == ["finished", "finished", "finished"]
    assert rows["tokens in / out"][0] == "79 / 33"
    # calls aligned by tool and arguments, not by index: the same getWeather call shares a row
    assert rows["tool call 1"][0].startswith('getWeather({"city": "Paris"}) [done] →')
    assert rows["tool call 1"][2] == rows["tool call 1"][0]
    assert rows["tool call 1"][1] == "—"
    assert rows["tool call 2"] == ["—", "—", rows["tool call 2"][2]]
    assert rows["tool call 2"][2].startswith('getWeather({"city": "Tokyo"})')
    assert rows["tool call 3"][0] == rows["tool call 3"][2] == "—"
    assert "Stock service unavailable" in rows["tool call 3"][1]
    diff = comparison.text_diff()
    assert diff.startswith("--- weather\n+++ stock\n")
    assert "+Sorry, I could not complete that lookup." in diff


def test_compare_writes_the_views_figures_and_a_dash_where_there_is_none(
    recording_comm: RecordingComm,
) -> None:
    live = mn.view()  # fed by hand, then saved with its arrival times
    for item in mn.read_chunks(fixture_path("tool-call")):
        live.feed(item)
    live.end()
    timed = live.wait()
    rows = dict(mn.compare(timed, fixture_path("tool-call")).rows())
    # the same string the view's header and footer show ("3 ms", not "0.00 s"); untimed: a dash
    assert rows["time to first token"] == [timed.figures["first_token"], "—"]
    assert rows["duration"] == [timed.figures["duration"], "—"]
    assert rows["time to first token"][0].endswith(" ms")
    assert rows["error"] == ["—", "—"]
    assert "" not in [cell for _, cells in rows.items() for cell in cells]


def test_compare_shows_the_nested_total_when_a_run_has_sub_agents() -> None:
    rows = dict(mn.compare(FIXTURES / "nested" / "supervisor.body", fixture_path("tool-call")).rows())
    assert rows["tokens in / out"] == ["371 / 82", "79 / 33"]
    assert rows["tokens with sub-agents"] == ["1,378", "—"]


def test_text_diff_of_equal_texts_says_so() -> None:
    comparison = mn.compare(fixture_path("tool-call"), fixture_path("tool-call"), labels=["a", "b"])
    assert comparison.text_diff() == "the texts are the same (a, b)\n"


def test_compare_html_is_escaped() -> None:
    hostile = [{"type": "text-delta", "payload": {"id": "t", "text": "<script>alert(1)</script>"}}]
    html = mn.compare(
        hostile, [{"type": "text-delta", "payload": {"id": "t", "text": "<b>x</b>"}}]
    )._repr_html_()
    assert "<script" not in html
    assert "&lt;<del" in html  # the diff splits it into escaped words
    assert "<b>" not in html


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


def _text_run(text: str) -> list[dict[str, object]]:
    return [{"type": "text-delta", "payload": {"id": "t", "text": text}}, {"type": "finish", "payload": {}}]


def test_word_diff_marks_changed_words_only() -> None:
    html = word_diff_html("The sky is blue today.", "The sky is grey today.")
    assert re.findall(r"<del[^>]*>(.*?)</del>", html) == ["blue"]
    assert re.findall(r"<ins[^>]*>(.*?)</ins>", html) == ["grey"]
    assert "The sky is " in html
    assert " today." in html
    assert "text-align:left" in html


def test_word_diff_is_escaped_and_has_no_stray_markers() -> None:
    html = word_diff_html("a\n<b>x</b>\tend", "a\n<i>y</i>\tend")
    assert "<b>" not in html
    assert "<i>" not in html
    assert re.findall(r"<del[^>]*>(.*?)</del>", html) == ["b", "x", "b"]
    assert re.findall(r"<ins[^>]*>(.*?)</ins>", html) == ["i", "y", "i"]
    text = re.sub(r"<[^>]+>", "", html)  # what a reader sees
    assert text.startswith("a\n&lt;")  # the newline is kept, no "n"/"t" markers added
    assert text.endswith("\tend")


def test_word_diff_insertion_and_deletion_alone() -> None:
    added = word_diff_html("one two", "one two three")
    assert "<del" not in added
    assert re.findall(r"<ins[^>]*>(.*?)</ins>", added) == [" three"]
    removed = word_diff_html("one two three", "one three")
    assert "<ins" not in removed
    assert re.findall(r"<del[^>]*>(.*?)</del>", removed) == ["two "]


def test_word_diff_shortens_long_unchanged_stretches() -> None:
    same = "word " * 1000
    html = word_diff_html(same + "old", same + "new")
    assert "unchanged characters" in html
    assert len(html) < 2_000


def test_compare_html_shows_the_word_diff_with_colours() -> None:
    html = mn.compare(_text_run("Paris is sunny.\nBye"), _text_run("Paris is rainy.\nBye"))._repr_html_()
    assert "difflib_chg" not in html  # not HtmlDiff's table
    assert re.findall(r"<del[^>]*>(.*?)</del>", html)[-1] == "sunny"
    assert re.findall(r"<ins[^>]*>(.*?)</ins>", html)[-1] == "rainy"
    assert "background:rgba(" in html  # translucent: readable on light and dark
    same = mn.compare(_text_run("x"), _text_run("x"))._repr_html_()
    assert "the same text" in same


def test_text_diff_never_glues_the_last_line() -> None:
    comparison = mn.compare(_text_run("a\nb"), _text_run("a\nc"), labels=["v1", "v2"])
    assert comparison.text_diff().splitlines() == ["--- v1", "+++ v2", "@@ -1,2 +1,2 @@", " a", "-b", "+c"]
