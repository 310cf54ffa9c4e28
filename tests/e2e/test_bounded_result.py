"""Pictures only (issue 33, item 5): the card of a 50 MB JSON tool result, shown cut with its note
(what was cut, the whole size, the Python that reaches the whole value), light and dark, on the export
page (the widget's renderer, offline). What it asserts is tested without a browser:
tests/test_bounded_results.py and js/test/tool.test.ts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.big_results import fed, huge, with_result
from tests.e2e import helpers as e2e

pytestmark = [pytest.mark.e2e, pytest.mark.screenshots]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_card_of_a_50_mb_result_says_it_is_cut(scheme: str, browser: Any, tmp_path: Path) -> None:
    from mastra_notebook.widget.export import page_html

    page_file = tmp_path / "big.html"
    page_file.write_text(page_html(fed(with_result(huge())), "weather", "A 50 MB tool result"))
    context = browser.new_context(offline=True, color_scheme=scheme, viewport={"width": 900, "height": 900})
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status='finished']", timeout=30_000)
    card = page.locator(".mn-root .mn-tool").first
    card.locator(".mn-fold-head").first.click()  # a finished call folds to one line: opened, as a reader does
    note = card.locator(".mn-value-cut")
    note.wait_for(state="visible")
    assert "Cut for the view: 48 MB" in (note.text_content() or "")
    e2e.shoot(card, f"bounded-result-{scheme}")
    context.close()
