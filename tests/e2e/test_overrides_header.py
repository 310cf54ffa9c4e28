"""The header says when a run's request replaced the agent's instructions (issue 19, item 2), in a
real JupyterLab; light and dark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "tool-approval.jsonl"


def test_the_header_says_instructions_overridden(lab: e2e.Lab, page: Any) -> None:
    cells = [
        "import mastra_notebook as mn",
        # what a client session does before its first post (client/session.py)
        f"view = mn.view({str(FIXTURE)!r})\n"
        "view.run.describe(overrides={'instructions': 'Answer like a forecaster.'})\n"
        "view",
    ]
    e2e.open_and_run(page, lab.notebook("overrides-header", cells), 0, 1)
    root = e2e.view_root(page, 1)
    badge = root.locator(".mn-header .mn-overridden")
    expect(badge).to_have_text("instructions overridden")
    expect(badge).to_be_visible()
    header = root.locator(".mn-header")
    e2e.screenshot(header, "header-overridden-light")
    if e2e.SCREENSHOTS:  # the dark theme for its pictures only
        e2e.theme(page, dark=True)
        e2e.screenshot(header, "header-overridden-dark")
        e2e.theme(page, dark=False)
