"""Issue 20, item 4 in a real JupyterLab: three runs compared step by step (built from chunks, no server):
the step where they part marked, the inserted call on its own row, the argument and request diffs,
readable in the light and dark themes (screenshots)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

RUNS = """\
import mastra_notebook as mn
from tests.compare_runs import PARIS, body, run

terse = body("You answer in one sentence.\\nUse getWeather for the weather.", ["getWeather", "searchWeb"], 0.2)
chatty = body("You answer warmly, with detail.\\nUse getWeather for the weather.", ["getWeather", "searchWeb", "getTime"], 0.9)
a = run([PARIS], "Paris is sunny, 18 °C.", request=terse)
b = run([PARIS], [("searchWeb", {"query": "Paris weather this week", "limit": 3})],
        "Paris is sunny today, 18 °C, and the week stays mild.", request=terse, output_tokens=12, gap_ms=14)
c = run([PARIS], [("searchWeb", {"query": "Paris forecast <b>week</b>", "lang": "fr"})],
        "Paris: sunny and 18 °C today; a mild week ahead, says the forecast.", request=chatty,
        output_tokens=20, gap_ms=25)
def scored(chunks, correct, tone):
    scores = [mn.Score(scorer="correct", score=correct, passed=correct >= 0.5), mn.Score(scorer="tone", score=tone)]
    return mn.collect(chunks).model_copy(update={"scores": scores})

mn.compare(scored(a, 0.4, 0.6), scored(b, 0.9, 0.7), scored(c, 0.9, 0.95), labels=["v1 terse", "v2 search", "v3 warm"])"""


def test_three_runs_compared_step_by_step(lab: e2e.Lab, page: Any, page_events: e2e.PageEvents) -> None:
    e2e.open_and_run(page, lab.notebook("compare-steps", [RUNS]), 0)
    output = e2e.cell(page, 0).locator(".jp-OutputArea").first
    steps = output.locator(".mn-compare-steps")
    expect(steps).to_be_visible(timeout=30_000)
    expect(output.locator(".mn-compare-parting")).to_have_text(
        "runs part at step 2: v1 terse answers, v2 search calls searchWeb, v3 warm calls searchWeb"
    )
    marked = steps.locator("tr.mn-compare-parts")
    expect(marked).to_have_count(1)
    expect(marked.locator("th")).to_contain_text("step — / 2 / 2")
    expect(marked.locator("th")).to_contain_text("runs part here")
    changed = steps.locator(".mn-arg-changed")
    expect(changed).to_have_count(1)
    expect(changed).to_contain_text("query: Paris weather this week → Paris forecast <b>week</b>")
    expect(steps.locator(".mn-arg-added")).to_contain_text("+ lang: fr")
    expect(steps.locator(".mn-arg-removed")).to_contain_text("limit: 3")
    expect(steps.locator("b", has_text="week")).to_have_count(0)  # drawn inert
    expect(steps.locator(".mn-compare-request").first).to_contain_text("temperature: 0.2 → 0.9")
    # a gap is an empty cell, in the same column as the runs' cells
    gap = steps.locator("tr.mn-compare-parts td").first
    assert gap.evaluate("el => el.classList.contains('mn-compare-gap') && el.textContent === ''")
    facts = output.locator("table").first
    expect(facts.locator("tr", has_text="score: correct")).to_contain_text("0.9 (passed) (+0.5)")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(output, f"compare-steps-{theme}", max_height=3000)
    e2e.set_theme(page, "light")
    assert not page_events.errors
