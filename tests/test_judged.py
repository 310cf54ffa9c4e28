"""Issue 31, "Which is better, and can the judge be trusted?": pairwise verdicts (blinded, position
bias), agreement (kappa and the confusion matrix), what repeats say (pass@k, pass^k, distinct
sequences, where the repeats part), intervals over inputs and paired comparisons, hidden scorer
failures and rescoring a loaded experiment. Runs are built from scripted chunk streams
(``mn.collect``); every figure is checked against a hand computation written beside it."""

from __future__ import annotations

import math
import re
import statistics
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.agreement import agreement, scorer_labels
from mastra_notebook.analysis.intervals import INTERVAL_RULE, clustered_interval, mcnemar_p, paired
from mastra_notebook.analysis.outcomes import Item, Outcome
from mastra_notebook.analysis.pairwise import Verdict, as_judge, judged_pairs, verdict_of
from mastra_notebook.analysis.repeats import (
    distinct_sequences,
    fork,
    pass_at_k,
    pass_hat_k,
    repeat_rows,
    separating_row,
)
from mastra_notebook.analysis.summary import rescored_outcomes, summary_rows
from mastra_notebook.core.cost import format_usd
from mastra_notebook.core.feedback import Feedback
from mastra_notebook.core.run import never_ran
from mastra_notebook.runs.experiment import Experiment, load_experiment
from mastra_notebook.widget.experiment_view import static_html, summary, summary_html

from .compare_runs import LYON, PARIS
from .made_experiments import experiment_of, result, score

T_975 = {4: 2.7764451, 11: 2.2009852}  # Student's t quantiles, from a printed table


# ---- pairwise -------------------------------------------------------------------------------------

# 10 inputs, 2 variants: the answers' lengths. "long" is longer on inputs 0-3 and 8 (5 inputs), "short"
# on 4-6 (3), equal on 7 and 9 (2). A fair judge preferring the longer answer: 5 wins, 3 losses, 2
# ties for "long"; win rate 5 / 8.
LONG = ["x" * 9, "x" * 8, "x" * 7, "x" * 6, "x", "xx", "xxx", "x" * 4, "x" * 5, "x" * 3]
SHORT = ["x", "x", "x", "x", "x" * 9, "x" * 9, "x" * 9, "x" * 4, "x" * 2, "x" * 3]


def pairs_experiment() -> tuple[list[Outcome], list[Item]]:
    items = [Item(f"question {i}") for i in range(10)]
    outcomes = [Outcome(i, "long", 0, "finished", result(text)) for i, text in enumerate(LONG)]
    outcomes += [Outcome(i, "short", 0, "finished", result(text)) for i, text in enumerate(SHORT)]
    return outcomes, items


def longer(input: Any, first: str, second: str, *, expected: Any = None) -> Verdict:
    if len(first) == len(second):
        return Verdict("tie", "as long")
    return Verdict("first" if len(first) > len(second) else "second", f"{len(first)} vs {len(second)}")


def test_a_judge_that_always_prefers_the_first_answer_gives_only_ties() -> None:
    outcomes, items = pairs_experiment()
    asked: list[tuple[str, str]] = []

    def first_always(input: Any, first: str, second: str, *, expected: Any = None) -> str:
        asked.append((first, second))
        return "first"

    judged = judged_pairs(outcomes, items, "long", "short", judge=first_always, seed=0)
    assert (judged.wins, judged.losses, judged.ties) == (0, 0, 10)
    assert judged.position_bias == 1.0
    assert math.isnan(judged.win_rate)
    assert len(asked) == 20  # each pair in both orders
    assert sorted(asked[:2]) == sorted([(LONG[0], SHORT[0]), (SHORT[0], LONG[0])])


def test_a_fair_judge_preferring_the_longer_answer_matches_a_hand_count() -> None:
    outcomes, items = pairs_experiment()
    judged = experiment_of(outcomes, items).pairwise("long", "short", judge=longer, seed=3)
    assert (judged.wins, judged.losses, judged.ties) == (5, 3, 2)
    assert judged.win_rate == 5 / 8
    assert judged.position_bias == 0.5  # each decided pair chosen once in each order
    # Wilson's interval by hand: p = 5/8, n = 8, z = 1.959964
    z, n, p = 1.959964, 8, 5 / 8
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert judged.interval == (pytest.approx(centre - half, abs=1e-5), pytest.approx(centre + half, abs=1e-5))
    frame = judged.to_dataframe()
    assert list(frame["verdict"]) == ["long"] * 4 + ["short"] * 3 + ["tie", "long", "tie"]
    assert frame.loc[0, "long_first_reason"] == "9 vs 1"
    assert frame.loc[0, "short_first_reason"] == "1 vs 9"
    assert judged.counts()["pairs"] == 10


def test_a_judge_that_changes_its_mind_with_the_order_is_a_tie_and_verdicts_are_checked() -> None:
    outcomes, items = pairs_experiment()
    calls = iter(["first", "first", "second", "second"] * 10)
    judged = judged_pairs(outcomes, items, "long", "short", judge=lambda *a, **k: next(calls))
    assert judged.ties == 10
    assert verdict_of({"choice": "Second", "reason": "why"}) == Verdict("second", "why")
    with pytest.raises(ValueError, match="'first', 'second', 'tie'"):
        verdict_of("the first one")
    with pytest.raises(KeyError, match="no variant 'other'"):
        judged_pairs(outcomes, items, "long", "other", judge=longer)
    with pytest.raises(ValueError, match="no client to ask it through"):
        as_judge("judge-agent")


def test_a_pairwise_judge_against_pairwise_labels() -> None:
    outcomes, items = pairs_experiment()
    judged = judged_pairs(outcomes, items, "long", "short", judge=longer)
    labels = {(i, 0): v for i, v in enumerate(["a", "a", "a", "a", "b", "b", "b", "tie", "a", "a"])}
    agreed = agreement(judged.verdicts(), labels, names=("judge", "person"))
    assert agreed.n == 10
    assert agreed.disagreements == [((9, 0), "tie", "a")]
    exp = experiment_of(outcomes, items)
    named = exp.agreement(exp.pairwise("long", "short", judge=longer), labels)  # a and b by their names
    assert named.kappa == agreed.kappa
    assert named.disagreements == [((9, 0), "tie", "long")]
    assert list(named.confusion.columns) == ["long", "short", "tie"]


# ---- agreement ------------------------------------------------------------------------------------


def test_kappa_and_the_confusion_matrix_match_a_hand_computation() -> None:
    scorer = [True, True, True, True, True, False, False, False, True, False]
    person = [True, True, True, False, True, False, False, True, True, False]
    # both True: 0 1 2 4 8 (5); scorer only: 3; person only: 7; both False: 5 6 9 (3)
    # p_o = 8/10; each says True 6 times: p_e = .6 * .6 + .4 * .4 = .52; kappa = .28 / .48
    outcomes = [Outcome(i, "v", 0, "finished", result("x", scores=[score("ok", float(s), 0.5)]))
                for i, s in enumerate(scorer)]  # fmt: skip
    exp = experiment_of(outcomes, [Item(i) for i in range(10)])
    agreed = exp.agreement("ok", {(i, "v", 0): p for i, p in enumerate(person)})
    assert agreed.kappa == pytest.approx(0.28 / 0.48)
    assert agreed.confusion.to_numpy().tolist() == [[3, 1], [1, 5]]  # rows: the scorer's False, True
    assert [key for key, _, _ in agreed.disagreements] == [(3, "v", 0), (7, "v", 0)]
    assert list(agreed.to_dataframe()["key"]) == [(3, "v", 0), (7, "v", 0)]
    shown = agreement({1: "a"}, {1: "a"}, names=("<img src=x onerror=alert(1)>", "person"))._repr_html_()
    assert "<img" not in shown  # a rater's name is text
    assert "&lt;img src=x onerror=alert(1)&gt; and person on 1 runs" in shown
    listed = agreed._repr_html_()  # the runs where they disagree, under the matrix
    assert '<span class="mn-agreement-place">#4 · v</span>: ok True, labels False</li>' in listed
    assert '<span class="mn-agreement-place">#8 · v</span>: ok False, labels True</li>' in listed
    assert "<td>3</td><td>1</td>" in listed  # the matrix's first row: the scorer's False


def test_two_reviewers_on_a_scale_krippendorffs_alpha() -> None:
    same = agreement({1: 1, 2: 3, 3: 5}, {1: 1, 2: 3, 3: 5}, level="interval")
    assert same.alpha == pytest.approx(1.0)
    # interval alpha by hand, 2 raters, 3 units (1,2) (3,3) (5,4): values 1 2 3 3 5 4, mean 3;
    # D_o = sum over units of 2 (a - b)^2 / (n - 1) / n = (2 + 0 + 2) / 5 / 6... as Krippendorff:
    # D_o = (1/n) sum_u (1/(m_u - 1)) sum_pairs (a-b)^2 * 2 = (1/6) * (2*1 + 0 + 2*1) = 4/6
    # D_e = (1/(n(n-1))) sum_all pairs (a-b)^2 * 2 over 6 values: sum_{i!=j} (v_i - v_j)^2 = 2*6*var_pop*6
    values = [1, 2, 3, 3, 5, 4]
    pairs = sum((x - y) ** 2 for x in values for y in values)
    d_o, d_e = 4 / 6, pairs / (6 * 5)
    scaled = agreement({1: 1, 2: 3, 3: 5}, {1: 2, 2: 3, 3: 4}, level="interval")
    assert scaled.alpha == pytest.approx(1 - d_o / d_e)
    assert math.isnan(scaled.kappa)


def test_scorer_labels_are_pass_fail_or_scores() -> None:
    outcomes = [
        Outcome(0, "v", 0, "finished", result("x", scores=[score("ok", 1.0, 0.5), score("len", 0.3)])),
        Outcome(1, "v", 0, "finished", result("x", scores=[score("ok", None, 0.5)])),
        Outcome(2, "v", 0, "running", result("x", scores=[score("ok", 0.0, 0.5)])),
    ]
    assert scorer_labels(outcomes, "ok") == {(0, "v", 0): True}
    assert scorer_labels(outcomes, "len") == {(0, "v", 0): 0.3}
    with pytest.raises(ValueError, match="no run in common"):
        agreement({1: "a"}, {2: "a"})


# ---- repeats and forks ----------------------------------------------------------------------------


def test_pass_at_k_and_pass_hat_k_by_hand() -> None:
    # n = 5, c = 2, k = 3: pass@3 = 1 - C(3,3)/C(5,3) = 1 - 1/10; pass^3 = C(2,3)/C(5,3) = 0
    assert pass_at_k(5, 2, 3) == pytest.approx(0.9)
    assert pass_hat_k(5, 2, 3) == 0.0
    assert pass_hat_k(3, 3, 3) == 1.0
    assert pass_at_k(3, 0, 3) == 0.0
    assert math.isnan(pass_at_k(2, 1, 3))


def forks_outcomes() -> list[Outcome]:
    """Three inputs, three repeats each. Input 0: Paris, Paris, then Lyon (fails). Input 1: the same
    tool call each time, the third repeat's answer worded so it fails. Input 2: all pass."""

    def scored(*steps: Any, ok: bool) -> mn.RunResult:
        return result(*steps, scores=[score("exact", float(ok), 1.0)])

    runs = {
        0: [scored([PARIS], "It is Paris.", ok=True), scored([PARIS], "It is Paris.", ok=True),
            scored([LYON], "It is Lyon.", ok=False)],
        1: [scored([PARIS], "Paris, sunny.", ok=True), scored([PARIS], "Sunny in Paris.", ok=True),
            scored([PARIS], "Sunny there.", ok=False)],
        2: [scored([PARIS], "Paris.", ok=True) for _ in range(3)],
    }  # fmt: skip
    return [
        Outcome(item, "v", repeat, "finished", r)
        for item, listed in runs.items()
        for repeat, r in enumerate(listed)
    ]


def test_repeats_pass_hat_three_distinct_sequences_and_the_separating_step() -> None:
    outcomes = forks_outcomes()
    figures = repeat_rows(outcomes, "v", "exact", 3)
    # pass^3: inputs 0 and 1 have a failing repeat (0), input 2 none (1): 1/3; pass@3: each passed once
    assert figures == {"pass@k": 1.0, "pass^k": pytest.approx(1 / 3), "disagree": pytest.approx(2 / 3)}
    assert [distinct_sequences(outcomes, item, "v") for item in range(3)] == [2, 1, 1]

    tools = fork(outcomes, 0, "v", "exact")
    assert tools.passed == [True, True, False]
    assert tools.separating == 0  # the first step: getWeather(Paris) for both passes, Lyon for the failure
    assert tools.sentence() == (
        'step 1 separates them: repeat 1 (passed): getWeather({"city":"Paris"}); '
        'repeat 2 (passed): getWeather({"city":"Paris"}); repeat 3 (failed): getWeather({"city":"Lyon"})'
    )
    wording = fork(outcomes, 1, "v", "exact")
    assert wording.separating is None
    assert wording.sentence() == "no step separates them"
    assert "no step separates them" in wording._repr_html_()
    assert "repeat 3" in wording._repr_html_()  # drawn as mn.compare draws the repeats
    same = fork(outcomes, 2, "v", "exact")
    assert same.sentence().startswith("the repeats did not both pass and fail")


def test_a_run_with_an_extra_step_is_separated_by_its_gap() -> None:
    # two passing runs [a, answer], a failing one [a, b, answer]: the row of b has gaps for the passes
    keys = [["a", "a", "a"], [None, None, "b"], ["t", "t", "t"]]  # a row per aligned step, a key per run
    assert separating_row(keys, [True, True, False]) == 1
    assert separating_row(keys, [True, None, True]) is None


def test_the_experiment_says_forks_and_inputs() -> None:
    exp = experiment_of(forks_outcomes(), [Item(f"q{i}") for i in range(3)], repeats=3)
    assert exp.forks(0).separating == 0
    assert exp.forks("q0") == exp.forks(0)  # the input itself names it too
    with pytest.raises(KeyError, match=r"no input 'q9'.*0 to 2"):
        exp.forks("q9")
    with pytest.raises(KeyError, match="no input #3"):
        exp.forks(3)
    table = exp.by_input()
    assert list(table["sequences"]) == [2, 1, 1]
    assert list(table["exact_passed"]) == [2, 2, 3]
    summary = exp.summary()
    assert summary.loc["v", "exact_pass^3"] == pytest.approx(1 / 3)
    assert summary.loc["v", "exact_pass@3"] == 1.0
    assert summary.loc["v", "exact_disagree"] == pytest.approx(2 / 3)
    costs = [o.result.cost.total_usd for o in exp.outcomes()]
    assert summary.loc["v", "exact_cost_per_pass_usd"] == pytest.approx(sum(costs) / 7)  # 7 of 9 passed


# ---- intervals over inputs ------------------------------------------------------------------------


def test_twelve_inputs_three_identical_repeats_interval_over_the_inputs() -> None:
    values = [0.1, 0.4, 0.35, 0.8, 0.9, 0.2, 0.55, 0.6, 0.05, 1.0, 0.7, 0.3]
    outcomes = [Outcome(i, "v", r, "finished", result("x", scores=[score("s", v)]))
                for i, v in enumerate(values) for r in range(3)]  # fmt: skip
    mean = sum(values) / 12
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / 11)
    half = T_975[11] * s / math.sqrt(12)  # over 12 inputs, not 36 runs
    got = clustered_interval(outcomes, "v", "s")
    assert got == (pytest.approx(mean), pytest.approx(mean - half, abs=1e-6),
                   pytest.approx(mean + half, abs=1e-6), 12)  # fmt: skip
    exp = experiment_of(outcomes, [Item(i) for i in range(12)], repeats=3)
    summary = exp.summary()
    assert summary.loc["v", "s_ci_low"] == pytest.approx(mean - half, abs=1e-6)
    assert summary.loc["v", "s_inputs"] == 12
    assert summary.attrs["intervals"] == INTERVAL_RULE
    assert "over inputs" in (Experiment.summary.__doc__ or "")


def test_a_paired_comparison_of_two_variants_as_computed_by_hand() -> None:
    a = [1.0, 1.0, 1.0, 0.0, 1.0]
    b = [0.0, 1.0, 0.0, 0.0, 0.0]
    outcomes = [
        Outcome(i, "a", 0, "finished", result("x", scores=[score("ok", v, 1.0)])) for i, v in enumerate(a)
    ]
    outcomes += [
        Outcome(i, "b", 0, "finished", result("x", scores=[score("ok", v, 1.0)])) for i, v in enumerate(b)
    ]
    diffs = [x - y for x, y in zip(a, b, strict=True)]  # 1 0 1 0 1: mean .6
    half = T_975[4] * statistics.stdev(diffs) / math.sqrt(5)
    got = paired(outcomes, "a", "b", "ok")
    assert (got.inputs, got.mean_diff, got.wins, got.losses, got.ties) == (5, pytest.approx(0.6), 3, 0, 2)
    assert (got.ci_low, got.ci_high) == (
        pytest.approx(0.6 - half, abs=1e-6),
        pytest.approx(0.6 + half, abs=1e-6),
    )
    # McNemar: inputs 0, 2, 4 pass with a only, none with b only; exact p = 2 * 0.5^3 = 0.25
    assert (got.only_a, got.only_b, got.mcnemar_p) == (3, 0, pytest.approx(0.25))
    assert mcnemar_p(0, 0) == 1.0
    frame = experiment_of(outcomes, [Item(i) for i in range(5)]).compare_variants("a", "b")
    assert frame.loc["ok", "mean_diff"] == pytest.approx(0.6)
    assert frame.loc["ok", "mcnemar_p"] == pytest.approx(0.25)


# ---- hidden failures, unknown cost, rescoring ------------------------------------------------------


def test_a_scorer_that_raises_on_one_input_shows_one_failure_and_cost_stays_unknown() -> None:
    def picky(result: mn.RunResult, *, input: Any = None) -> float:
        if input == "q2":
            raise ValueError("cannot score q2")
        return 1.0

    items = [Item(f"q{i}") for i in range(4)]
    outcomes = [
        Outcome(i, "v", 0, "finished", result("answer", model="a-model-nobody-prices")) for i in range(4)
    ]
    rows = summary_rows(rescored_outcomes(outcomes, items, [mn.scorer(picky, threshold=1)]), ["v"])
    assert rows[0]["picky_failed"] == 1
    assert rows[0]["picky_inputs"] == 3
    assert math.isnan(rows[0]["cost_usd"])  # no run is priced: unknown, not $0.00
    assert rows[0]["cost_runs"] == 0
    assert rows[0]["picky_cost_per_pass_usd"] is None
    assert rows[0]["latency_runs"] == 4
    outcomes[0] = Outcome(0, "v", 0, "finished", result("answer"))  # one run priced (gpt-4o)
    rows = summary_rows(rescored_outcomes(outcomes, items, [mn.scorer(picky, threshold=1)]), ["v"])
    assert rows[0]["cost_usd"] == outcomes[0].result.cost.total_usd
    assert rows[0]["cost_runs"] == 1  # the figure says which runs it covers
    assert rows[0]["picky_cost_per_pass_usd"] is None  # a partial sum would understate it


def test_rescoring_a_loaded_experiment_needs_no_server(tmp_path: Path) -> None:
    items = [Item("capital of France?", "Paris"), Item("capital of Italy?", "Rome")]
    outcomes = [Outcome(0, "v", 0, "finished", result("It is Paris.")),
                Outcome(1, "v", 0, "finished", result("It is Milan."))]  # fmt: skip
    experiment_of(outcomes, items).save(tmp_path / "saved")
    loaded = load_experiment(tmp_path / "saved")
    exact = mn.scorer(lambda r, *, expected=None: expected in r.text, name="exact", threshold=1)
    again = loaded.rescore([exact])
    assert [o.result.scores[0].passed for o in again.outcomes()] == [True, False]
    assert loaded.outcomes()[0].result.scores == []  # the loaded experiment is left as it was
    assert again.summary().loc["v", "exact_mean"] == 0.5


# ---- shown in the grid ----------------------------------------------------------------------------


def test_the_grid_shows_a_verdict_column_and_the_pairs_figures(recording_comm: object) -> None:
    outcomes, items = pairs_experiment()
    exp = experiment_of(outcomes, items)
    grid = exp.grid
    assert grid.page_data()["pairs"] == []  # nothing judged: no verdict column
    judged = exp.pairwise("long", "short", judge=longer, seed=3)
    shown = grid.view.grid.page  # sent to the browser when the pair was judged
    assert [(pair["a"], pair["b"]) for pair in shown["pairs"]] == [("long", "short")]
    rows = shown["rows"]
    assert [[v["word"] for v in row["verdicts"][0]] for row in rows] == [
        ["long"],
        ["long"],
        ["long"],
        ["long"],
        ["short"],
        ["short"],
        ["short"],
        ["tie"],
        ["long"],
        ["tie"],
    ]  # the hand count of test_a_fair_judge_preferring_the_longer_answer_matches_a_hand_count
    first = rows[0]["verdicts"][0][0]
    assert (first["side"], first["tone"], first["repeat"], first["note"]) == ("a", "ok", 0, "")
    # both askings, each with what was shown first and what the judge chose, and its reason
    assert first["reasons"] == [["long shown first: long", "9 vs 1"], ["short shown first: long", "1 vs 9"]]
    assert rows[7]["verdicts"][0][0]["reasons"] == [["long shown first: tie", "as long"],
                                                    ["short shown first: tie", "as long"]]  # fmt: skip
    # the pair's figures in the summary: 5 wins, 3 losses, 2 ties; 5 / 8 decided, Wilson's interval
    low, high = judged.interval
    assert (round(low, 2), round(high, 2)) == (0.31, 0.86)  # p 5/8, n 8: centre .5845, half .2787
    html = summary_html(exp)
    assert "long vs short" in html
    assert "5 / 3 / 2" in html
    assert "62% [31%, 86%]" in html  # 0.625, rounded half to even
    assert "0.50 chose the first shown" in html
    saved = static_html(exp)  # the saved notebook's grid has the column and the figures too
    assert "mn-grid-verdict" in saved
    assert "short shown first: long" in saved
    assert "5 / 3 / 2" in saved


def test_a_judge_that_changes_its_mind_with_the_order_shows_why_its_ties_are_ties(
    recording_comm: object,
) -> None:
    outcomes, items = pairs_experiment()
    exp = experiment_of(outcomes, items)
    exp.pairwise("long", "short", judge=lambda input, first, second, *, expected=None: "first")
    exp.pairwise("short", "long", judge=longer)  # the same pair again: its column replaced, not added
    assert list(exp.verdicts) == [("short", "long")]
    exp.pairwise("long", "short", judge=lambda input, first, second, *, expected=None: "first")
    verdicts = [row["verdicts"][0][0] for row in exp.grid.page_data()["rows"]]
    assert {(v["word"], v["tone"], v["note"]) for v in verdicts} == {
        ("tie", "neutral", "the two orders disagree")
    }
    assert "1.00 chose the first shown" in summary_html(exp)  # its position bias
    assert "0 / 0 / 10" in summary_html(exp)


def test_a_hostile_reason_is_text_in_the_saved_notebooks_grid(recording_comm: object) -> None:
    hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    outcomes, items = pairs_experiment()
    exp = experiment_of(outcomes, items)
    exp.pairwise(
        "long", "short", judge=lambda input, first, second, *, expected=None: Verdict("tie", hostile)
    )
    saved = static_html(exp)
    assert "<img" not in saved
    assert "<script" not in saved
    assert "&lt;img src=x onerror=" in saved  # shown, as text


def test_the_grid_filters_the_inputs_a_scorer_failed_on(recording_comm: object) -> None:
    outcomes = forks_outcomes()  # exact fails input 0's and input 1's third repeats
    outcomes.append(Outcome(3, "v", 0, "finished", result("x", scores=[score("exact", None, 1.0)])))
    outcomes += [
        Outcome(3, "v", r, "finished", result("x", scores=[score("exact", 1.0, 1.0)])) for r in (1, 2)
    ]
    exp = experiment_of(outcomes, [Item(f"q{i}") for i in range(4)], repeats=3)
    grid = exp.grid
    assert grid.page_data()["filters"] == [["all inputs", "all"], ["differs only", "differs"],
                                           ["failed on exact", "failed:exact"]]  # fmt: skip
    grid.choose("failed:exact")
    assert grid.page == [0, 1, 3]  # input 3: the scorer raised on a repeat (no score)
    data = grid.page_data()
    assert (data["filter"], data["where"]) == ("failed:exact", "inputs 1–3 of 3 (failed on exact)")
    assert "· failed on 1 run" in summary_html(exp)  # the run it raised on, beside its mean
    grid.choose("failed:nobody")  # a scorer it does not have: every input
    assert (grid.filter, grid.page) == ("all", [0, 1, 2, 3])


def test_the_grid_marks_where_passing_and_failing_repeats_part(recording_comm: object) -> None:
    exp = experiment_of(forks_outcomes(), [Item(f"q{i}") for i in range(3)], repeats=3)
    rows = exp.grid.page_data()["rows"]
    tools, wording, same = (row["tiles"][0] for row in rows)
    assert tools["fork"] == "step 1 separates the passing and failing repeats"
    assert [run["step"] for run in tools["runs"]] == [
        'step 1: getWeather({"city":"Paris"})', 'step 1: getWeather({"city":"Paris"})',
        'step 1: getWeather({"city":"Lyon"})',
    ]  # fmt: skip
    assert wording["fork"] == "no step separates the passing and failing repeats"
    assert [run["step"] for run in wording["runs"]] == ["", "", ""]
    assert same["fork"] == ""  # every repeat passed: nothing to separate
    assert "step 1 separates the passing and failing repeats" in static_html(exp)


def test_a_tile_shows_a_persons_label(recording_comm: object) -> None:
    labelled = result("It is Paris.").model_copy(
        update={"feedback": Feedback(thumbs="down", comment="too terse")}
    )
    exp = experiment_of([Outcome(0, "v", 0, "finished", labelled)], [Item("q")])
    (run_shown,) = exp.grid.page_data()["rows"][0]["tiles"][0]["runs"]
    assert (run_shown["label"], run_shown["comment"]) == ("👎", "too terse")


def test_compare_shows_answers_that_differ_when_the_scores_tie_every_repeat() -> None:
    ok = [score("exact", 1.0, 1.0)]
    texts = {("a", 0): ["Paris.", "Paris."], ("b", 0): ["Paris.", "It is Paris, in France."],
             ("a", 1): ["Rome.", "Rome."], ("b", 1): ["Rome.", "Rome."]}  # fmt: skip
    outcomes = [Outcome(item, variant, r, "finished", result(text, scores=ok))
                for (variant, item), listed in texts.items() for r, text in enumerate(listed)]  # fmt: skip
    exp = experiment_of(outcomes, [Item("France?"), Item("Italy?")], repeats=2)
    assert exp.differs("a", "b") == []  # the scores tie, the tool calls too
    compared = exp.compare("a", "b")
    assert sorted(compared) == [0]  # input 1's answers are the same
    assert compared.why[0] == "the scores tie; the answers differ"
    assert compared[0].labels == ["a #1", "a #2", "b #1", "b #2"]
    assert compared[0].results[3].text == "It is Paris, in France."  # the second repeat, not only the first
    assert "the scores tie; the answers differ" in compared._repr_html_()


def test_unknown_cost_stays_unknown_and_figures_say_which_runs_they_cover(recording_comm: object) -> None:
    priced = result("It is Paris.")  # gpt-4o: priced
    unpriced = result("It is Rome.", model="a-model-nobody-prices")
    errored = unpriced.model_copy(update={"status": "error", "steps": [],
                                          "cost": priced.cost.model_copy(update={"total_usd": 0.0, "steps_usd": []})})  # fmt: skip
    outcomes = [Outcome(0, "v", 0, "finished", priced), Outcome(1, "v", 0, "finished", unpriced),
                Outcome(2, "v", 0, "error", errored), Outcome(0, "w", 0, "error", errored)]  # fmt: skip
    rows = summary_rows(outcomes, ["v", "w"])
    assert rows[0]["cost_runs"] == 1  # the errored run's $0 is not a known cost: it ended before any step
    assert rows[0]["cost_usd"] == priced.cost.total_usd
    assert (rows[1]["cost_runs"], math.isnan(rows[1]["cost_usd"])) == (0, True)
    exp = experiment_of(outcomes, [Item("a"), Item("b"), Item("c")])
    v, w = (row[-2:] for row in summary(exp)["rows"])  # cost, then latency p50 / p95
    assert v == [f"{format_usd(priced.cost.total_usd)} (1 of 3 runs)", "0.16 / 0.16 (3 runs)"]
    assert w == ["—", "0.16 / 0.16 (1 run)"]  # no known cost: "—", never $0.00
    assert re.search(r"\$0\.00(?!\d)", summary_html(exp)) is None


def test_runs_that_never_started_are_no_errors_and_no_figure_covers_them(recording_comm: object) -> None:
    stopped = never_ran("stopped before its turn: max_tokens=10 spent").result  # a budget stopped it
    cut = result("half an answer").model_copy(update={"status": "aborted"})  # stopped while it ran
    outcomes = [Outcome(0, "v", 0, "finished", result("It is Paris.")), Outcome(1, "v", 0, "aborted", cut),
                Outcome(2, "v", 0, "error", result("x").model_copy(update={"status": "error"})),
                Outcome(3, "v", 0, "aborted", stopped), Outcome(4, "v", 0, "aborted", stopped)]  # fmt: skip
    (row,) = summary_rows(outcomes, ["v"])
    assert (row["n"], row["ended"], row["errors"], row["not_started"]) == (5, 5, 2, 2)
    assert row["latency_runs"] == 3  # the three that ran
    exp = experiment_of(outcomes, [Item(f"q{i}") for i in range(5)])
    (drawn,) = summary(exp)["rows"]
    assert drawn[1:3] == ["5/5 · 2 never started", "2"]
    assert drawn[-1].endswith("(3 runs)")  # the latency covers every run that ran
