"""Issue 20, item 4 in a real JupyterLab: the pictures of three runs compared step by step (built from
chunks, no server), light and dark, for docs/guide.md. Only with --screenshots (issue 30): what the
table says is the kernel's HTML, read in tests/test_compare_steps.py."""

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


@pytest.mark.screenshots
def test_pictures_of_three_runs_compared_step_by_step(lab: e2e.Lab, page: Any) -> None:
    """docs/guide.md's picture (compare-steps-light.png), and the dark one: taken with --screenshots.
    What the table says is read in tests/test_compare_steps.py (the kernel's HTML)."""
    e2e.open_and_run(page, lab.notebook("compare-steps", [RUNS]), 0)
    output = e2e.cell(page, 0).locator(".jp-OutputArea").first
    expect(output.locator(".mn-compare-steps")).to_be_visible(timeout=30_000)
    e2e.screenshots_light_and_dark(page, output, "compare-steps", max_height=3000)
