"""DOM nodes per view stay bounded in a real JupyterLab: a long text keeps in the DOM only the
markdown blocks near its view's visible band (js/src/render/block-window.ts). As the answer grows
tenfold (55 blocks, then 549: the whole long-text recording), the view's element count stays under
ELEMENTS_BOUND; scrolling inside the view brings back the text of the place scrolled to; the view
still follows its tail; light and dark screenshots."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import mastra_notebook as mn
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

LONG_TEXT = Path(__file__).resolve().parents[1] / "fixtures" / "long-text.jsonl"
# Elements under one view's .mn-root (header, footer, the window of blocks): without windowing the
# long text alone is ~1,170 elements, and ten times the answer ten times as many.
ELEMENTS_BOUND = 400

ELEMENTS = "el => el.getElementsByTagName('*').length"
# The text of the blocks that overlap the view's visible box (what a reader sees of the answer).
VISIBLE_TEXT = """el => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('.mn-md-block')]
        .filter((b) => { const r = b.getBoundingClientRect(); return r.bottom > box.top && r.top < box.bottom; })
        .map((b) => b.textContent).join(' ');
}"""


def feed_cell(start: str, end: str, pieces: int = 20) -> str:
    return f"""TEXT_PART = TEXT[{start}:{end}]
step = max(1, len(TEXT_PART) // {pieces})
for i in range(0, len(TEXT_PART), step):
    view.feed({{"type": "text-delta", "payload": {{"id": "t", "text": TEXT_PART[i:i + step]}}}})
print("FED", len(TEXT_PART))"""


def test_elements_per_view_stay_bounded_as_the_answer_grows_tenfold(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents
) -> None:
    text = mn.collect(LONG_TEXT).text
    tenth = len(text) // 10
    cells = [
        f"import mastra_notebook as mn\nTEXT = mn.collect({str(LONG_TEXT)!r}).text",
        'view = mn.view(title="dom-bound")\nview',
        feed_cell("", str(tenth)),
        feed_cell(str(tenth), ""),
        "view.end()",
    ]
    e2e.open_and_run(page, lab.notebook("dom-bound", cells), 0, 1, 2)
    root = e2e.view_root(page, 1)
    last_words = text[:tenth].split()[-3:]
    expect(root.locator(".mn-text")).to_contain_text(" ".join(last_words), timeout=30_000)
    e2e.steady(root)  # the window settles after the last frame
    small = root.evaluate(ELEMENTS)
    blocks_small = root.locator(".mn-md-blocks > .mn-md-block").count()

    e2e.run_cells(page, 3)
    expect(root.locator(".mn-md-tail")).to_contain_text(" ".join(text.split()[-3:]), timeout=60_000)
    e2e.steady(root)
    large = root.evaluate(ELEMENTS)
    assert root.evaluate(e2e.AT_END), "the view follows its tail"
    assert large <= ELEMENTS_BOUND, f"{large} elements in a view after 10x the answer (was {small})"
    assert root.locator(".mn-md-blocks > .mn-md-block").count() < 549 // 4
    print(
        f"elements per view: {small} at 1/10 of the answer ({blocks_small} blocks drawn), {large} at all of it"
    )

    e2e.run_cells(page, 4)
    e2e.wait_status(root, *e2e.ENDED)
    # scrolling inside the view brings the text back: the top, then the middle
    root.evaluate("el => { el.scrollTop = 0; }")
    expect(root.locator(".mn-md-blocks > .mn-md-block").first).to_contain_text("Section 1", timeout=10_000)
    page.wait_for_function(f"el => ({VISIBLE_TEXT})(el).includes('Section 1')", arg=root.element_handle())
    e2e.screenshot(root, "dom-bound-top-light")
    root.evaluate("el => { el.scrollTop = el.scrollHeight / 2; }")
    page.wait_for_function(
        f"el => ({VISIBLE_TEXT})(el).trim().length > 500", arg=root.element_handle(), timeout=10_000
    )
    middle = root.evaluate(VISIBLE_TEXT)
    assert " ".join(middle.split()[:8]) in " ".join(text.split())
    assert "Section 1\n" not in middle
    assert root.evaluate(ELEMENTS) <= ELEMENTS_BOUND
    e2e.screenshot(root, "dom-bound-middle-light")
    read = e2e.read_by_scrolling(root)  # every block comes back, in order
    assert re.findall(r"\w+", read["text"]) == e2e.rendered_words(text)
    assert read["h2"] == len(re.findall(r"^## ", text, re.M))
    if e2e.SCREENSHOTS:  # the dark theme for its pictures only
        e2e.theme(page, dark=True)
        e2e.screenshot(root, "dom-bound-middle-dark")
        e2e.theme(page, dark=False)
    assert not page_events.errors
