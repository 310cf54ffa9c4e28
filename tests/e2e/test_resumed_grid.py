"""Issue 33's picture of a resumed grid, in a real JupyterLab with the real Mastra server: an
experiment's folder as a killed kernel left it (runs written, runs begun and never ended, runs never
begun), loaded in a
notebook (the kept runs drawn, the others queued or incomplete), then resumed there, the grid filling
in around the kept runs. Light and dark, for docs/screenshots/. Only with --screenshots: what a
resume runs and keeps is tested in tests/server/test_resume.py and tests/server/test_restart.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e
from tests.server.crash import killed_midway

pytestmark = pytest.mark.e2e

QUESTIONS = ["Where is NASA based?", "Who founded IBM?", "Why is the sky blue?", "What is a prime number?"]
VARIANTS: dict[str, dict[str, Any]] = {
    "plain": {"instructions": "Answer in plain words. Pace 30 ms."},
    "pirate": {"instructions": "Answer in pirate. Pace 30 ms."},
}


def grid_of(page: Any, index: int) -> Any:
    return e2e.cell(page, index).locator(".jp-OutputArea-output").first.locator(".mn-experiment")


@pytest.mark.screenshots
def test_pictures_of_a_grid_loaded_after_a_crash_and_resumed(
    client_notebook: e2e.ClientNotebook, tmp_path: Path
) -> None:
    folder = tmp_path / "styles"
    killed_midway(client_notebook.url, folder, QUESTIONS, VARIANTS, after=4, name="answer styles")

    page = client_notebook.open(
        "resumed", f"exp = mn.load_experiment({str(folder)!r})\nexp", "exp.resume(client);", run=[0, 1]
    )
    grid = grid_of(page, 1)
    expect(grid.locator(".mn-exp-progress")).to_contain_text("resume(client) runs them", timeout=60_000)
    e2e.screenshots_light_and_dark(page, grid, "loaded-grid", max_height=2400)

    e2e.run_cell(page, 2)
    expect(grid.locator('.mn-grid-run[data-status="finished"]')).to_have_count(8, timeout=90_000)
    expect(grid.locator(".mn-exp-progress")).to_contain_text("8 done (8 runs")
    e2e.screenshots_light_and_dark(page, grid, "resumed-grid", max_height=2400)
