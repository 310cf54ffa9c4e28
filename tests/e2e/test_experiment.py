"""An experiment's grid in a real JupyterLab with the real Mastra server (issue 20 item 2): inputs are
rows and variants columns, each cell a compact tile (status, score badges, the answer's first lines)
updated while the runs stream; the summary per variant with its intervals; the "differs only"
filter; a tile's "open" shows the run's full view. The tiles' data and words are checked in
tests/test_experiment.py and js/test/grid.test.ts. Screenshots in light and dark."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

EXPERIMENT = """import pandas as pd
inputs = pd.DataFrame({
    "input": ["Where is NASA based?", "Who founded IBM?", "What is Paris known for?",
              "How tall is Everest?", "Why is the sky blue?"],
    "expected": ["NASA", "IBM", "Paris", "Everest", "blue"],
})
exact = mn.scorer(lambda result, *, expected=None: expected in result.text, name="exact", threshold=1)
variants = {  # "Pace 150 ms." slows the dynamic agent's deltas: the grid is seen while it streams
    "plain": {"instructions": "Answer in plain words. Pace 150 ms.", "prompt": "Question: {input}"},
    "uppercase": {"instructions": "Answer in uppercase. Pace 150 ms."},
    "detailed": {"instructions": "Answer in plain words. Pace 150 ms.",
                 "request_context": {"model": "mock-dynamic-detailed"}},
}
exp = client.agent("dynamic").experiment(
    inputs, variants, scorers=[exact], repeats=2, concurrency=4, name="answer styles"
)
exp"""


def test_experiment_grid_summary_and_differs(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "experiment",
        EXPERIMENT,
        "exp.wait(300)\nprint('DONE', len(exp.to_dataframe()))",
        "exp.summary()",
        run=(0, 1),
    )
    grid = e2e.cell(page, 1).locator(".mn-experiment")
    expect(grid).to_be_visible(timeout=60_000)
    expect(grid.locator(".mn-grid-tile")).to_have_count(15)  # 5 inputs x 3 variants, one page
    # while it streams: a running tile shows its answer so far
    running = grid.locator('.mn-grid-run[data-status="running"]')
    expect(running.first.locator(".mn-grid-answer")).not_to_be_empty(timeout=60_000)
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(grid, f"experiment-streaming-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    e2e.run_cell(page, 2)
    expect(e2e.cell(page, 2).locator(".jp-OutputArea-output")).to_contain_text("DONE 30", timeout=300_000)
    progress = grid.locator(".mn-exp-progress")
    expect(progress).to_contain_text("30 done", timeout=30_000)
    summary = grid.locator("table.mn-exp-summary")
    expect(summary.locator("tr")).to_have_count(4)  # a header and a row per variant
    expect(summary).to_contain_text("exact (95% CI over inputs)")
    expect(summary.locator("tr").nth(1)).to_contain_text("1 [1, 1] · 100% pass")  # plain keeps every word
    expect(summary.locator("tr").nth(3)).to_contain_text("1 [1, 1] · 100% pass")  # so does detailed
    # uppercase keeps NASA and IBM: 4 of 10 runs; over the 5 inputs (1, 1, 0, 0, 0):
    # t(0.975, 4) * sqrt(0.3) / sqrt(5) = 0.680
    expect(summary.locator("tr").nth(2)).to_contain_text("0.4 [-0.28, 1.08] · 40% pass")
    expect(grid.locator(".mn-grid-run .mn-grid-answer").first).to_contain_text('You asked: "Question: Where')
    expect(grid.locator(".mn-grid-tile").nth(1)).to_contain_text("exact 1 ✓")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(grid, f"experiment-summary-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    # "differs only": uppercase loses Paris, Everest and blue; the others keep every word
    grid.locator("select.mn-grid-filter").select_option("differs")
    expect(grid.locator(".mn-grid-pager-top .mn-grid-where")).to_have_text("inputs 1–3 of 3 (differing)")
    expect(grid.locator(".mn-grid-pager-bottom .mn-grid-where")).to_have_text("inputs 1–3 of 3 (differing)")
    expect(grid.locator(".mn-grid-input")).to_contain_text(["#3", "#4", "#5"])  # numbered from 1
    # a tile's "open" shows the run's full view under the grid
    grid.locator(".mn-grid-cell").nth(1).locator(".mn-grid-open").first.click()  # #3 uppercase, repeat 1
    detail = grid.locator(".mn-grid-detail .mn-root")
    expect(grid.locator(".mn-grid-detail")).to_contain_text("input #3 · uppercase · repeat 1")
    expect(detail).to_be_visible(timeout=30_000)
    expect(detail).to_contain_text("WHAT IS PARIS KNOWN FOR")
    assert e2e.wait_status(detail, "finished") == "finished"
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(grid, f"experiment-differs-{theme}", max_height=3000)
    e2e.set_theme(page, "light")
