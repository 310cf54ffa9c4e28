"""The kernel's figures as a reader sees them in JupyterLab (issue 17): the header shows both totals
when sub-agents used tokens, the footer the rate and the nested total, mn.compare the views' own
strings and a dash where there is none; light and dark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e
from tests.helpers import timed

pytestmark = pytest.mark.e2e


def test_header_footer_and_compare_show_the_kernels_figures(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents, tmp_path: Path
) -> None:
    supervisor = e2e.FIXTURES / "nested" / "supervisor.body"
    quick = timed(supervisor, tmp_path / "quick.jsonl", 320.0, 30.0)
    slow = timed(supervisor, tmp_path / "slow.jsonl", 650.0, 45.0)
    cells = [
        "import mastra_notebook as mn",
        f"a = mn.view({str(quick)!r}, title='supervisor')\na",
        f"b = mn.view({str(slow)!r}, title='supervisor')\nb.wait()\n"
        "mn.compare(a, b, labels=['quick server', 'slow server'])",
    ]
    e2e.open_and_run(page, lab.notebook("figures", cells), 0, 1)
    root = e2e.view_root(page, 1)
    assert e2e.wait_status(root, *e2e.ENDED) == "finished"
    header = root.locator(".mn-header")
    expect(header.locator('[data-stat="tokens"]')).to_have_text("453 tokens · 1,378 with sub-agents")
    expect(header.locator('[data-stat="ttft"]')).to_have_text("first token 410 ms")  # from the request
    footer = root.locator(".mn-run-root > .mn-footer")
    expect(footer.locator('[data-stat="tokens_with_nested"] .mn-stat-value')).to_have_text("1,378")
    expect(footer.locator('[data-stat="tokens_per_s"] .mn-stat-value')).to_have_text("80.4")
    expect(footer.locator('[data-stat="duration"] .mn-stat-value')).to_have_text("3.4 s")
    e2e.run_cells(page, 2)
    table = e2e.cell(page, 2).locator(".mastra-notebook-compare")
    expect(table).to_be_visible()
    expect(table.locator("tr", has_text="time to first token")).to_contain_text("410 ms785 ms")
    expect(table.locator("tr", has_text="tokens with sub-agents")).to_contain_text("1,378")
    for dark in e2e.shot_darks():
        e2e.theme(page, dark=dark)
        name = "dark" if dark else "light"
        e2e.screenshot(header, f"figures-header-{name}")
        e2e.screenshot(footer, f"figures-footer-{name}")
        e2e.screenshot(table, f"figures-compare-{name}")
    e2e.theme(page, dark=False)
    assert not page_events.errors
