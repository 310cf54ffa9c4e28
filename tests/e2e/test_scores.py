"""Scores in a real JupyterLab with the real Mastra server: the view's header says "scoring…" while the
scores are awaited (a Python scorer held by an event the next cell sets), then a badge per score,
Mastra's and the notebook's, and a row in the footer (scorer, value and mark, reason folded);
client.scorers() is a table. Screenshots in light and dark."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

SCORED = """import threading
gate = threading.Event()

def held(result, *, input=None, expected=None):
    gate.wait(120)  # scored once the next cell lets it: the view says "scoring…" meanwhile
    return "Paris" in result.text

view = client.agent("dynamic").stream(
    "What is Paris?",
    scorers=["answer-length", "completeness-scorer", "judge-answers-question", mn.scorer(held, name="mentions Paris", threshold=1)],
)
view"""


def test_scores_show_in_the_header_after_scoring(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents, mastra_url: str
) -> None:
    notebook = e2e.cells(mastra_url, SCORED, "gate.set()\nresult = view.wait(60)", "client.scorers()")
    e2e.open_and_run(page, lab.notebook("scores", notebook), 0, 1)
    root = e2e.view_root(page, 1)
    scores = root.locator(".mn-header .mn-head-scores")
    expect(scores).to_have_text("scoring…", timeout=60_000)
    assert e2e.wait_status(root, "finished") == "finished"
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(root.locator(".mn-header"), f"scores-scoring-{theme}")
    e2e.set_theme(page, "light")

    e2e.run_cells(page, 2, 3)
    badges = scores.locator(".mn-badge")
    expect(badges).to_have_text(
        ["answer-length 0.7", "completeness-scorer 1", "judge-answers-question 1", "mentions Paris 1 ✓"],
        timeout=60_000,
    )
    expect(badges.first).to_have_attribute("title", "answer-length (Mastra scorer): 14 words; score 0.7")
    expect(page.locator(".jp-Notebook .jp-Cell").nth(3).locator("table.mn-catalogue")).to_contain_text(
        "judge-answers-question"
    )
    row = root.locator(".mn-footer .mn-score-row .mn-score")
    expect(row.locator(".mn-stat-label")).to_have_text(
        ["answer-length", "completeness-scorer", "judge-answers-question", "mentions Paris"]
    )
    expect(row.last.locator(".mn-stat-value")).to_have_text("1 ✓")
    expect(row.first.locator(".mn-score-reason")).to_have_attribute("title", "14 words; score 0.7")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(root, f"scores-view-{theme}")
        e2e.screenshot(root.locator(".mn-footer"), f"scores-footer-{theme}")
        e2e.screenshot(e2e.cell(page, 3).locator(".jp-OutputArea-output").first, f"scores-scorers-{theme}")
    e2e.set_theme(page, "light")
    assert not page_events.errors
