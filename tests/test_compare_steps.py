"""Issue 20, item 4: runs compared step by step. The alignment (analysis/align.py) as pure functions,
then ``mn.compare`` of runs built from chunks: where they part, inserted calls, argument, request,
cost and score diffs, N runs, and hostile strings drawn inert."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import orjson
from hypothesis import given
from hypothesis import strategies as st

import mastra_notebook as mn
from mastra_notebook.analysis.align import (
    NEAR,
    NONE,
    SAME,
    ArgChange,
    align,
    arg_diff,
    canonical,
    pair,
    pair_table,
    request_diff,
)
from mastra_notebook.core.request import ModelRequest, OfferedTool, RequestSettings

from .compare_runs import LYON, PARIS, body, run
from .conftest import fixture_path
from .helpers import parse, texts_of


def steps_rows(html: str) -> list[list[str]]:
    """The step table's rows as cell texts (the facts table comes first, then this one)."""
    table = html.split('mn-compare-steps"', 1)[1].split("</table>", 1)[0]
    return parse("<table " + table + "</table>").rows


# ---- the alignment, pure ------------------------------------------------------------------------


def _letters(a: str, b: str) -> int:
    if a == b:
        return SAME
    return NEAR if a[0] == b[0] else NONE


def test_pair_is_a_longest_common_subsequence_with_gaps_in_order() -> None:
    a, b = ["x", "y", "z"], ["x", "q", "y", "z"]
    assert pair(3, 4, lambda i, j: _letters(a[i], b[j])) == [(0, 0), (None, 1), (1, 2), (2, 3)]
    assert pair(0, 2, lambda i, j: NONE) == [(None, 0), (None, 1)]
    assert pair(2, 0, lambda i, j: NONE) == [(0, None), (1, None)]


def test_pair_prefers_exact_matches_then_near_ones() -> None:
    a, b = ["s1", "t"], ["s2", "t"]  # s1 and s2 are near (the same tool, other arguments)
    assert pair(2, 2, lambda i, j: _letters(a[i], b[j])) == [(0, 0), (1, 1)]
    # one exact match outweighs two near ones: "ab" lines up with the last "ab", not two near "a"s
    a, b = ["a1", "a2", "ab"], ["ab"]
    assert pair(3, 1, lambda i, j: _letters(a[i], b[j])) == [(0, None), (1, None), (2, 0)]


@given(
    st.lists(st.sampled_from(["a1", "a2", "b1", "c1"]), max_size=8),
    st.lists(st.sampled_from(["a1", "a2", "b1", "c1"]), max_size=8),
)
def test_pair_matching_equal_ends_first_loses_nothing(a: list[str], b: list[str]) -> None:
    def weight(pairs: list[tuple[int | None, int | None]]) -> tuple[int, int]:
        matched = [_letters(a[i], b[j]) for i, j in pairs if i is not None and j is not None]
        return matched.count(SAME), matched.count(NEAR)

    fast = pair(len(a), len(b), lambda i, j: _letters(a[i], b[j]))
    whole = pair_table(len(a), len(b), lambda i, j: _letters(a[i], b[j]))
    assert weight(fast) == weight(whole)
    assert [i for i, _ in fast if i is not None] == list(range(len(a)))  # every item once, in order
    assert [j for _, j in fast if j is not None] == list(range(len(b)))
    assert all(_letters(a[i], b[j]) != NONE for i, j in fast if i is not None and j is not None)


def test_align_n_sequences_progressively() -> None:
    rows = align([["x", "z"], ["x", "y", "z"], ["x", "y", "z"], ["x", "z"]], _letters)
    assert rows == [[0, 0, 0, 0], [None, 1, 1, None], [1, 2, 2, 1]]
    assert align([["a"], ["b"]], _letters) == [[0, None], [None, 0]]
    assert align([], _letters) == []


def test_canonical_arguments_ignore_key_order() -> None:
    assert canonical({"b": 1, "a": [2, {"d": 3, "c": 4}]}) == canonical({"a": [2, {"c": 4, "d": 3}], "b": 1})
    assert canonical({"a": 1}) != canonical({"a": "1"})


def test_arg_diff_key_by_key() -> None:
    changes = arg_diff({"city": "Paris", "units": "C", "days": 1}, {"city": "Lyon", "days": 1, "lang": "fr"})
    assert changes == [  # sorted keys
        ArgChange("changed", "city", "Paris", "Lyon"),
        ArgChange("same", "days", 1, 1),
        ArgChange("added", "lang", None, "fr"),
        ArgChange("removed", "units", "C", None),
    ]
    assert arg_diff("a", "b") == [ArgChange("changed", "", "a", "b")]
    assert arg_diff([1], [1]) == [ArgChange("same", "", [1], [1])]


def test_request_diff() -> None:
    before = ModelRequest(
        system="You are terse.\nAnswer in English.",
        tools=[OfferedTool(name="getWeather"), OfferedTool(name="searchWeb")],
        settings=RequestSettings(model="gpt-4o", temperature=0.2),
    )
    after = ModelRequest(
        system="You are terse.\nAnswer in French.",
        tools=[OfferedTool(name="getWeather"), OfferedTool(name="getTime")],
        settings=RequestSettings(model="gpt-4o", temperature=0.7),
    )
    diff = request_diff(before, after)
    assert diff.system == ["-Answer in English.", "+Answer in French."]
    assert (diff.tools_added, diff.tools_removed) == (["getTime"], ["searchWeb"])
    assert diff.settings == [("temperature", 0.2, 0.7)]
    assert not request_diff(before, before)


# ---- mn.compare ---------------------------------------------------------------------------------


def test_three_runs_that_part_at_step_2() -> None:
    a = run([PARIS], "Paris is sunny.")
    b = run([PARIS], [("searchWeb", {"query": "Paris weather"})], "Paris is sunny, says the web.")
    c = run([PARIS], [("searchWeb", {"query": "Paris forecast"})], "Paris is sunny, says the forecast.")
    comparison = mn.compare(a, b, c, labels=["A", "B", "C"])
    assert [row.steps for row in comparison.alignment] == [[0, 0, 0], [None, 1, 1], [1, 2, 2]]
    parting = comparison.parting
    assert parting is not None
    assert parting.step == 2
    assert parting.row == 1
    assert parting.sentence == "runs part at step 2: A answers, B calls searchWeb, C calls searchWeb"

    html = comparison._repr_html_()
    assert "runs part at step 2: A answers, B calls searchWeb, C calls searchWeb" in html
    marked = re.findall(r'<tr class="mn-compare-step mn-compare-parts"[^>]*>.*?</tr>', html)
    assert len(marked) == 1
    assert "runs part here" in marked[0]
    rows = steps_rows(html)
    assert rows[0] == ["", "A", "B", "C"]
    assert rows[1][0] == "step 1"
    assert rows[3][0] == "step — / 2 / 2◆ runs part here"  # A has no step here; B's and C's 2nd
    assert rows[3][1] == ""  # a gap is an empty cell
    assert rows[4][1] == ""  # and so is A's missing call
    assert rows[4][2].startswith("searchWeb")
    # C's arguments against B's, the changed key named
    changed = re.findall(r'<div class="mn-arg-changed">(.*?)</div>', html)
    assert len(changed) == 1
    assert changed[0].startswith("query: <del")
    assert "Paris weather" in changed[0]
    assert "Paris forecast" in changed[0]
    assert "runs part at step 2" in repr(comparison)


def test_the_calls_after_an_inserted_call_still_align() -> None:
    plain = run([PARIS], [LYON], "Both are mild.")
    inserted = run([PARIS], [("getTime", {"city": "Paris"})], [LYON], "Both are mild; it is noon.")
    comparison = mn.compare(plain, inserted, labels=["plain", "inserted"])
    assert [row.steps for row in comparison.alignment] == [[0, 0], [None, 1], [1, 2], [2, 3]]
    parting = comparison.parting
    assert parting is not None
    assert parting.sentence == "runs part at step 2: plain calls getWeather, inserted calls getTime"
    rows = dict(comparison.rows())
    assert rows["tool call 3"][0] == rows["tool call 3"][1]  # getWeather(Lyon) in both, one row
    assert rows["tool call 3"][0].startswith('getWeather({"city": "Lyon"})')
    assert rows["tool call 2"][0] == "—"

    # an inserted call among a step's parallel calls: the same, inside the step
    parallel = run([PARIS, LYON], "Both are mild.")
    more = run([PARIS, ("getTime", {}), LYON], "Both are mild.")
    both = mn.compare(parallel, more)
    assert [row.calls for row in both.alignment] == [[[0, 0], [None, 1], [1, 2]], []]
    assert both.parting is not None
    assert (
        both.parting.sentence
        == "runs part at step 1: run 1 calls getWeather ×2, run 2 calls getWeather ×2, getTime"
    )


def test_two_runs_and_four_runs() -> None:
    same = mn.compare(run([PARIS], "Sunny."), run([PARIS], "Sunny!"))
    assert same.parting is None
    assert "the runs take the same steps (2)" in same._repr_html_()
    assert "the runs take the same steps" in repr(same)
    text = same._repr_html_()
    assert "mn-compare-parts" not in text
    assert '<div class="mn-arg-changed">' not in text

    four = mn.compare(
        run([PARIS], "Sunny."),
        run([PARIS], "Sunny."),
        run([LYON], "Mild."),
        run([PARIS], [LYON], "Both."),
        labels=["a", "b", "c", "d"],
    )
    assert [row.steps for row in four.alignment] == [[0, 0, 0, 0], [None, None, None, 1], [1, 1, 1, 2]]
    parting = four.parting
    assert parting is not None
    assert parting.step == 1
    assert parting.sentence == (
        "runs part at step 1: a calls getWeather, b calls getWeather, "
        "c calls getWeather with other arguments, d calls getWeather"
    )
    assert len(steps_rows(four._repr_html_())[0]) == 5  # a column per run
    assert len(dict(four.rows())["status"]) == 4


def test_per_step_deltas_of_tokens_latency_and_cost() -> None:
    fast = run([PARIS], "Sunny.", output_tokens=5, gap_ms=10)
    slow = run([PARIS], "Sunny.", output_tokens=25, gap_ms=30)
    comparison = mn.compare(fast, slow, labels=["fast", "slow"])
    rows = steps_rows(comparison._repr_html_())
    assert rows[1][1].startswith("step 1 · 15 tokens · 30 ms · $")
    assert "35 tokens (+20)" in rows[1][2]
    assert "90 ms (+60 ms)" in rows[1][2]
    assert re.search(r"\$[0-9.]+ \(\+\$[0-9.]+\)", rows[1][2])
    assert rows[2][1].startswith("getWeather")  # the call row, under its step
    # no delta where the figures agree as written (no "+0 ms")
    near = mn.compare(fast, run([PARIS], "Sunny.", output_tokens=5, gap_ms=10.01))._repr_html_()
    assert "mn-compare-delta" not in near


def test_the_request_diff_per_step() -> None:
    terse = run([PARIS], "Sunny.", request=body("Be terse.\nEnglish.", ["getWeather", "searchWeb"], 0.2))
    french = run([PARIS], "Ensoleillé.", request=body("Be terse.\nFrench.", ["getWeather"], 0.7))
    html = mn.compare(terse, french)._repr_html_()
    requests = re.findall(r'<details class="mn-compare-request".*?</details>', html)
    assert len(requests) == 1  # drawn once; the next step with the same difference names it
    assert "request differs as in step 1" in html
    shown = parse(f"<table><tr><td>{requests[0]}</td></tr></table>").rows[0][0]
    assert "request differs" in shown
    assert "English." in shown
    assert "French." in shown
    assert "tools offered: searchWeb" in shown
    assert "temperature: 0.2 → 0.7" in shown


def test_score_diffs_when_results_carry_scores() -> None:
    completeness = [
        mn.Score(scorer="completeness", score=0.5, passed=False),
        mn.Score(scorer="tone", score=1.0),
    ]
    first = mn.collect(run([PARIS], "Sunny.")).model_copy(update={"scores": completeness})
    second = mn.collect(run([PARIS], "Rainy.")).model_copy(
        update={"scores": [mn.Score(scorer="completeness", score=0.75, passed=True)]}
    )
    failed = mn.collect(run([PARIS], "Snowy.")).model_copy(
        update={"scores": [mn.Score(scorer="completeness", score=None, reason="boom")]}
    )
    rows = dict(mn.compare(first, second, failed).rows())
    assert rows["score: completeness"] == ["0.5 (failed)", "0.75 (passed) (+0.25)", "no score"]
    assert rows["score: tone"] == ["1", "—", "—"]
    assert "score:" not in "".join(dict(mn.compare(run("a"), run("b")).rows()))


def test_tiles_cells_and_saved_recordings(tmp_path: Path) -> None:
    saved = tmp_path / "before.jsonl"
    saved.write_bytes(b"\n".join(orjson.dumps(chunk) for chunk in run([PARIS], "Sunny.")))
    tile = SimpleNamespace(result=mn.collect(run([LYON], "Mild.")), title="Lyon tile")
    comparison = mn.compare(saved, tile)
    assert comparison.labels == ["before.jsonl", "Lyon tile"]
    parting = comparison.parting
    assert parting is not None
    assert parting.sentence == (
        "runs part at step 1: before.jsonl calls getWeather, Lyon tile calls getWeather with other arguments"
    )


HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">'


def test_hostile_strings_in_arguments_render_inert() -> None:
    first = run([("<b>tool</b>", {"q": "plain", HOSTILE: 1})], HOSTILE)
    second = run([("<b>tool</b>", {"q": HOSTILE, "x": "</td></table><i>x</i>"})], "fine")
    comparison = mn.compare(first, second, labels=[HOSTILE, "b"])
    html = comparison._repr_html_()
    for tag in ("<script", "<img", "<b>tool", "<i>x"):
        assert tag not in html
    assert "&lt;script&gt;" in html
    assert "&lt;b&gt;tool" in html
    assert html.count("<table") == html.count("</table>")
    changed = re.findall(r'<div class="mn-arg-changed">(.*?)</div>', html)
    assert len(changed) == 1
    assert changed[0].startswith("q: ")


def test_long_arguments_and_results_are_cut_with_a_note() -> None:
    long = "word " * 5_000
    html = mn.compare(
        run([("search", {"q": long})], "a"), run([("search", {"q": long + "!"})], "b")
    )._repr_html_()
    assert "more characters" in html
    assert len(html) < 40_000


def test_a_run_that_fails_says_so_where_the_runs_part() -> None:
    comparison = mn.compare(fixture_path("tool-call"), fixture_path("error"), labels=["ok", "failed"])
    parting = comparison.parting
    assert parting is not None
    assert parting.sentence == "runs part at step 1: ok calls getWeather, failed answers (error)"


def test_many_arguments_and_calls_are_counted_not_drawn() -> None:
    wide = {f"key{index:03}": index for index in range(200)}
    changed = {**wide, "key150": "new"}
    calls = [("search", {"n": index}) for index in range(100)]
    html = mn.compare(run([("search", wide)], "a"), run([("search", changed)], "b"))._repr_html_()
    assert "… 180 more arguments" in html
    assert '<div class="mn-arg-changed">key150: ' in html  # what changed is drawn first
    steps = mn.compare(run(calls, "a"), run(calls, "b")).steps_html()
    assert "… 80 more tool calls in this step" in steps
    # bounded by the rows drawn (each element carries its palette style inline: about 1.5 kB a call row)
    assert len(steps) < 36_000  # (the timelines below draw every call: theirs to bound)


def test_a_failed_call_shows_its_error_beside_the_other_runs_result() -> None:
    html = mn.compare(fixture_path("tool-call"), fixture_path("tool-error"))._repr_html_()
    errors = re.findall(r'<span class="mn-compare-error"[^>]*>(.*?)</span>', html)
    assert errors == ["error: Stock service unavailable for ACME: upstream timeout after 5000ms"]
    assert not re.search(r"<del[^>]*>[^<]*Stock service", html)  # tinted, not struck out as removed
    assert '→ {"city": "Paris"' in html  # the other run's result, side by side (text: quotes as they are)


def test_three_prompt_versions_compared_as_a_reader_sees_them() -> None:
    """The comparison tests/e2e/test_compare_steps.py drew in JupyterLab (issue 30: its strings are the
    kernel's HTML, read here): where the runs part, the argument and request diffs, drawn inert, and a
    score's change."""
    terse = body(
        "You answer in one sentence.\nUse getWeather for the weather.", ["getWeather", "searchWeb"], 0.2
    )
    chatty = body(
        "You answer warmly, with detail.\nUse getWeather for the weather.",
        ["getWeather", "searchWeb", "getTime"],
        0.9,
    )
    a = run([PARIS], "Paris is sunny, 18 °C.", request=terse)
    b = run([PARIS], [("searchWeb", {"query": "Paris weather this week", "limit": 3})],
            "Paris is sunny today, 18 °C, and the week stays mild.", request=terse, output_tokens=12, gap_ms=14)  # fmt: skip
    c = run([PARIS], [("searchWeb", {"query": "Paris forecast <b>week</b>", "lang": "fr"})],
            "Paris: sunny and 18 °C today; a mild week ahead, says the forecast.", request=chatty,
            output_tokens=20, gap_ms=25)  # fmt: skip

    def scored(chunks: list[dict[str, object]], correct: float, tone: float) -> mn.RunResult:
        scores = [
            mn.Score(scorer="correct", score=correct, passed=correct >= 0.5),
            mn.Score(scorer="tone", score=tone),
        ]
        return mn.collect(chunks).model_copy(update={"scores": scores})

    comparison = mn.compare(
        scored(a, 0.4, 0.6),
        scored(b, 0.9, 0.7),
        scored(c, 0.9, 0.95),
        labels=["v1 terse", "v2 search", "v3 warm"],
    )
    html = comparison._repr_html_()
    assert texts_of(html, "mn-compare-parting") == [
        "runs part at step 2: v1 terse answers, v2 search calls searchWeb, v3 warm calls searchWeb"
    ]
    (marked,) = texts_of(html, "mn-compare-parts")
    assert marked.startswith("step — / 2 / 2")
    assert "runs part here" in marked
    gaps = texts_of(html, "mn-compare-gap")
    assert gaps
    assert set(gaps) == {""}  # a gap is an empty cell
    assert texts_of(html, "mn-arg-changed") == ["query: Paris weather this week → Paris forecast <b>week</b>"]
    assert texts_of(html, "mn-arg-added") == ["+ lang: fr"]
    assert any("limit: 3" in removed for removed in texts_of(html, "mn-arg-removed"))
    assert "<b>week" not in html  # drawn inert
    assert "temperature: 0.2 → 0.9" in texts_of(html, "mn-compare-request")[0]
    assert dict(comparison.rows())["score: correct"][1] == "0.9 (passed) (+0.5)"
