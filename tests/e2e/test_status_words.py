"""One status vocabulary in a real JupyterLab, light and dark: a suspended workflow's step says the
data its resume schema asks for (read from the bundled real server), a stopped run says "stopped" in
its header and footer alike, a call waiting for a person says "waiting for approval" and a declined
one "declined" (mastra_notebook/core/status_words.json)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

from ..conftest import fixture_path

pytestmark = pytest.mark.e2e

HINT = 'view.resume({"approved": True}, step="request")'


def both_themes(page: Any, root: Any, name: str) -> None:
    e2e.screenshot(root, f"{name}-light")
    e2e.theme(page, dark=True)
    e2e.screenshot(root, f"{name}-dark")
    e2e.theme(page, dark=False)


def status_words(root: Any) -> tuple[str, str]:
    """What the header's badge and the footer say."""
    header = root.locator(".mn-header .mn-state").inner_text()
    footer = root.locator('.mn-run-root > .mn-footer [data-stat="status"] .mn-stat-value').inner_text()
    return header, footer


def test_statuses_in_one_word_and_the_resume_hint(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "status-words",
        'w = client.workflow("approvalFlow").stream(input_data={"item": "laptop"})\nw',
        f"s = mn.view({str(fixture_path('long-text'))!r}, delay=0.01)\ns",
        "s.stop()",
        f"mn.view({str(fixture_path('tool-approval'))!r})",
        f"mn.view({str(fixture_path('tool-approval-declined'))!r})",
        live=True,
    )  # every cell run

    workflow = e2e.view_root(page, 2)
    assert e2e.wait_status(workflow, *e2e.ENDED) == "suspended"
    expect(workflow.locator(".mn-continue-code")).to_have_text(HINT)
    expect(workflow.locator(".mn-status-banner")).to_have_text(f"Run suspended: continue with {HINT}")
    assert status_words(workflow) == ("suspended", "suspended")
    both_themes(page, workflow, "status-suspended-workflow")

    stopped = e2e.view_root(page, 3)
    assert e2e.wait_status(stopped, *e2e.ENDED) == "aborted"
    expect(stopped.locator(".mn-header .mn-state")).to_have_text("stopped")
    assert status_words(stopped) == ("stopped", "stopped")
    both_themes(page, stopped, "status-stopped")

    approval = e2e.view_root(page, 5)
    assert e2e.wait_status(approval, *e2e.ENDED) == "suspended"
    expect(approval.locator(".mn-header .mn-state")).to_have_text("waiting for approval")
    expect(approval.locator(".mn-tool > .mn-card-head .mn-badge")).to_have_text("waiting for approval")
    both_themes(page, approval, "status-approval")

    declined = e2e.view_root(page, 6)
    assert e2e.wait_status(declined, *e2e.ENDED) == "finished"
    expect(declined.locator(".mn-tool > .mn-card-head .mn-badge")).to_have_text("declined")
