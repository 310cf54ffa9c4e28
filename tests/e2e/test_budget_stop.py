"""Issue 33 item 3's picture in a real JupyterLab: an experiment a budget stopped (``max_cost_usd``),
its summary line saying which limit and at what figure, the stopped tiles marked ``stopped`` with the
reason, a tile the agent failed marked ``agent``; light and dark, for docs/screenshots/. No server:
the runs are recorded streams with priced usage (gpt-4o). Only with --screenshots: what the grid
says is checked in tests/test_budget.py and js/test/grid.test.ts."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

BUDGET = """\
import asyncio, json
import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import Item
from mastra_notebook.runs.budget import Budget
from mastra_notebook.runs.experiment import Experiment
from tests.conftest import fixture_path

def chunks(name):
    text = fixture_path(name).read_text().replace("mock-plain", "gpt-4o").replace("mock-provider", "openai")
    return [json.loads(line) for line in text.splitlines() if line.strip()]

def start(item, variant, repeat):
    view = mn.StreamView(title="priced")
    fed = chunks("error" if (item.input, variant) == ("Who founded IBM?", "chatty") else "plain-text")
    async def work():
        for chunk in fed:
            view.feed(chunk)
            await asyncio.sleep(0.01)
    return view, work

questions = ["Where is NASA based?", "Who founded IBM?", "What is Paris known for?",
             "How tall is Everest?", "Why is the sky blue?", "What is a prime number?"]
exp = Experiment([Item(q) for q in questions], {"terse": {}, "chatty": {}}, start=start, concurrency=2,
                 name="answer styles", budget=Budget(max_cost_usd=0.004))
exp"""


@pytest.mark.screenshots
def test_picture_of_a_grid_a_budget_stopped(lab: e2e.Lab, page: Any) -> None:
    """docs/screenshots/budget-stop-{light,dark}.png: taken with --screenshots."""
    e2e.open_and_run(page, lab.notebook("budget-stop", [BUDGET]), 0)
    grid = e2e.cell(page, 0).locator(".mn-experiment")
    expect(grid.locator(".mn-exp-progress")).to_contain_text(
        "stopped by max_cost_usd=0.004 at $0.00489", timeout=60_000
    )
    expect(grid.locator(".mn-grid-run[data-status=running]")).to_have_count(0, timeout=30_000)
    expect(grid.locator(".mn-grid-run[data-failure=stopped]").first).to_contain_text(
        "stopped by max_cost_usd"
    )
    expect(grid.locator("code.mn-grid-failure")).to_have_text(["agent"])
    e2e.screenshots_light_and_dark(page, grid, "budget-stop", max_height=2400)
