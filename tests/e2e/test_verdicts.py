"""Issue 31 in a real JupyterLab with the real Mastra server: an experiment's grid shows a verdict column
once ``exp.pairwise`` has judged two variants (per input the better one or a tie, both reasons when
opened; the pair's figures under the summary), the "failed on <scorer>" filter, and, for the
``wanderer`` agent's repeats, the step where the failing repeat parts from the passing ones marked on
its tile; an agreement table. The data and words are checked in tests/test_judged.py and
js/test/grid.test.ts. Screenshots in light and dark (``--screenshots``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

EXPERIMENT = """inputs = [{"input": q, "expected": e} for q, e in [
    ("Where is NASA based?", "NASA"), ("Who founded IBM?", "IBM"),
    ("What is Paris known for?", "Paris"), ("How tall is Everest?", "Everest")]]
names = mn.scorer(lambda result, *, expected=None: expected in result.text, name="names_term", threshold=1)
variants = {"plain": {"prompt": "Question: {input}"}, "upper": {"instructions": "Answer in uppercase."}}
exp = client.agent("dynamic").experiment(inputs, variants, scorers=[names], concurrency=4, name="pairwise")
exp"""

JUDGED = """exp.wait(300)
from mastra_notebook.analysis.pairwise import Verdict

def names_the_term(input, first, second, *, expected=None):
    named = [expected in first, expected in second]
    if named[0] == named[1]:
        return Verdict("tie", "both name " + expected if named[0] else "neither names " + expected)
    return Verdict("first" if named[0] else "second", "only it names " + expected)

judged = exp.pairwise("plain", "upper", judge=names_the_term)
print("JUDGED", judged.wins, judged.losses, judged.ties)"""

FORKS = """city = mn.scorer(lambda result, *, input=None: input.split()[-1].strip("?") in result.text,
                 name="names_city", threshold=1)
forks = client.agent("wanderer").experiment(["Weather in Paris?", "Weather in Rome?"], scorers=[city],
                                            repeats=3, concurrency=1, name="forks")
forks"""

AGREEMENT = """forks.wait(120)
labels = {(0, "baseline", 0): True, (0, "baseline", 1): True, (0, "baseline", 2): False,
          (1, "baseline", 0): True, (1, "baseline", 1): False, (1, "baseline", 2): False}
forks.agreement("names_city", labels)"""


# the judge against a person's pairwise review: the judge said tie, tie, plain, plain; the person a
# (plain), tie, a, b: they part on #1 and #4
JUDGE_AGAINST_PERSON = """pair_review = exp.review(pairwise=judged, order="input", reviewer="ana")
for choice in ["a", "tie", "a", "b"]:
    pair_review.label(choice=choice)
exp.agreement(judged, pair_review)"""


def test_verdict_column_filter_forks_and_agreement(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "verdicts", EXPERIMENT, JUDGED, FORKS, AGREEMENT, JUDGE_AGAINST_PERSON, run=(0, 1, 2)
    )
    expect(e2e.cell(page, 2).locator(".jp-OutputArea-output")).to_contain_text(
        "JUDGED 2 0 2", timeout=300_000
    )
    grid = e2e.cell(page, 1).locator(".mn-experiment")
    # the verdict column between the two variants' tiles: plain names Paris and Everest, upper does not
    head = grid.locator("thead th.mn-grid-verdict-head")
    expect(head).to_have_text("⚖ plain vs upper", timeout=30_000)
    verdicts = grid.locator("td.mn-grid-verdict summary")
    expect(verdicts).to_have_text(["tie", "tie", "◀ plain", "◀ plain"])  # between the two: plain on its left
    opened = grid.locator("td.mn-grid-verdict details").nth(2)
    opened.locator("summary").click()
    expect(opened.locator(".mn-grid-reason")).to_have_text(
        ["plain shown first: plain: only it names Paris", "upper shown first: plain: only it names Paris"]
    )
    pairwise = grid.locator("table.mn-exp-pairwise")
    expect(pairwise).to_contain_text("plain vs upper")
    expect(pairwise).to_contain_text("2 / 0 / 2")
    expect(pairwise).to_contain_text("100% [34%, 100%]")  # 2 of 2 decided, Wilson's interval
    expect(pairwise).to_contain_text("0.50 chose the first shown")
    summary = grid.locator("table.mn-exp-summary").first
    expect(summary.locator("tr").nth(1)).to_contain_text("—")  # the scripted model is not priced: unknown
    expect(summary).not_to_contain_text("$0.00")
    expect(summary.locator("tr").nth(1)).to_contain_text("(4 runs)")  # the latency covers plain's 4 runs
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(grid, f"pairwise-verdicts-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    # "failed on names_term": upper misses Paris and Everest
    grid.locator("select.mn-grid-filter").select_option("failed:names_term")
    expect(grid.locator(".mn-grid-pager-top .mn-grid-where")).to_have_text(
        "inputs 1–2 of 2 (failed on names_term)"
    )
    expect(grid.locator(".mn-grid-input")).to_contain_text(["#3", "#4"])

    # forks: the wanderer's third repeat of each prompt looks up Lyon
    e2e.run_cell(page, 3)
    e2e.run_cell(page, 4)
    forks = e2e.cell(page, 3).locator(".mn-experiment")
    expect(forks.locator(".mn-grid-fork")).to_have_text(
        ["step 1 separates the passing and failing repeats"] * 2, timeout=120_000
    )
    steps = forks.locator(".mn-grid-tile").first.locator(".mn-grid-step")
    expect(steps).to_have_text([
        'step 1: getWeather({"city":"Paris"})', 'step 1: getWeather({"city":"Paris"})',
        'step 1: getWeather({"city":"Lyon"})',
    ])  # fmt: skip
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(forks, f"forks-grid-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    # the scorer against six hand labels: it agrees on five (repeat 2 of Rome passed; labelled failed)
    agreement = e2e.cell(page, 4).locator(".jp-OutputArea-output")
    expect(agreement).to_contain_text("names_city and labels on 6 runs", timeout=60_000)
    expect(agreement).to_contain_text("1 disagree")
    disagreement = agreement.locator("li")
    expect(disagreement).to_have_count(1)
    expect(disagreement).to_contain_text("#2 · baseline · repeat 2: names_city True, labels False")
    expect(disagreement.get_by_role("button", name="review")).to_be_visible()
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(agreement, f"agreement-{theme}")
    e2e.set_theme(page, "light")

    # the judge against the person's pairwise review: a "review" button opens the pair, side by side
    e2e.run_cell(page, 5)
    judge = e2e.cell(page, 5).locator(".jp-OutputArea-output")
    expect(judge).to_contain_text("judge (plain vs upper) and ana on 4 pairs", timeout=60_000)
    expect(judge.locator("li")).to_contain_text([
        "#1: judge (plain vs upper) 'tie', ana 'plain'", "#4: judge (plain vs upper) 'plain', ana 'upper'",
    ])  # fmt: skip
    judge.locator("li").nth(1).get_by_role("button", name="review").click()
    pair = judge.locator(".mn-review")
    expect(pair.locator(".mn-review-place")).to_contain_text("#4 · plain vs upper", timeout=60_000)
    expect(pair.locator(".mn-review-run-view .mn-root")).to_have_count(2, timeout=60_000)
    expect(pair.locator('.mn-review-choice[data-choice="b"]')).to_have_attribute("aria-pressed", "true")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(judge, f"agreement-pairwise-{theme}", max_height=2400)
    e2e.set_theme(page, "light")
