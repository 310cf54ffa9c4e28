"""The sticky header and the bounded height in a real JupyterLab: a long run scrolls inside its view,
follows its newest text, stops following when the reader scrolls up, jumps back; max_height=None;
the header of a live agent (prompt line, streaming badge, elapsed counter, Stop); light and dark."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

LONG_TEXT = Path(__file__).resolve().parents[1] / "fixtures" / "long-text.jsonl"

GEOMETRY = """el => {
    const header = el.querySelector('.mn-header').getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return {top: el.scrollTop, height: el.scrollHeight, client: el.clientHeight, viewport: window.innerHeight,
            headerTop: header.top, boxTop: box.top, boxHeight: box.height,
            bounded: el.classList.contains('mn-bounded')};
}"""


def wait_taller(root: Any, px: int) -> None:
    """Wait until more text made the view's content ``px`` taller (its text in the DOM does not grow:
    blocks far from view are spacers, js/src/render/block-window.ts)."""
    height = root.evaluate("el => el.scrollHeight")
    root.page.wait_for_function("([el, h]) => el.scrollHeight > h", arg=[root.element_handle(), height + px])


def header_visible(page: Any, root: Any) -> bool:
    """The header's middle is on screen and not covered (what a reader can click)."""
    return bool(
        root.evaluate(
            """el => {
                const header = el.querySelector('.mn-header');
                const r = header.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
                return r.top >= 0 && r.bottom <= window.innerHeight && header.contains(hit);
            }"""
        )
    )


def test_a_long_run_scrolls_inside_its_view_follows_the_tail_and_jumps_back(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents
) -> None:
    cells = ["import mastra_notebook as mn", f"mn.view({str(LONG_TEXT)!r}, delay=0.004)"]
    e2e.open_and_run(page, lab.notebook("header-long", cells), 0, 1)
    root = e2e.view_root(page, 1)
    e2e.wait_text(root, 12_000)
    handle = root.element_handle()
    page.wait_for_function(e2e.AT_END, arg=handle, timeout=10_000)  # following the newest text
    geometry = root.evaluate(GEOMETRY)
    assert geometry["bounded"]
    assert geometry["client"] <= 0.7 * geometry["viewport"] + 2  # 70vh by default
    assert geometry["height"] > geometry["client"] + 1000  # taller than its box: scrolled inside it
    assert abs(geometry["headerTop"] - geometry["boxTop"]) <= 2  # the header stays at the top
    assert geometry["top"] > 1000
    assert header_visible(page, root)
    expect(root.locator(".mn-header .mn-state")).to_have_text("streaming")
    expect(root.locator(".mn-header button.mn-stop")).to_be_visible()

    # The reader scrolls up: the view stays where they are and offers to jump back.
    box = root.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    below = root.evaluate("el => el.scrollTop") - 400
    page.mouse.wheel(0, -800)
    e2e.steady(root, f"el => el.scrollTop < {below} ? el.scrollTop : null")  # scrolled up, and stays
    left_at = root.evaluate("el => el.scrollTop")
    wait_taller(root, 500)  # more text came meanwhile
    assert abs(root.evaluate("el => el.scrollTop") - left_at) <= 2
    jump = root.locator("button.mn-jump")
    expect(jump).to_be_visible()
    assert header_visible(page, root)
    e2e.screenshot(root, "header-scrolled-up-light")
    if e2e.SCREENSHOTS:  # the dark theme for its pictures only
        e2e.theme(page, dark=True)
        e2e.screenshot(root, "header-scrolled-up-dark")
        e2e.theme(page, dark=False)

    jump.click()
    page.wait_for_function(e2e.AT_END, arg=handle, timeout=5_000)
    expect(jump).to_be_hidden()
    wait_taller(root, 500)
    page.wait_for_function(e2e.AT_END, arg=handle, timeout=5_000)  # following again

    # Stopped here, not streamed to its end (20 s more): the finished header's words and figures are
    # page facts (tests/test_page_facts.py), and Stop is this test's last click
    root.locator(".mn-header button.mn-stop").click()
    assert e2e.wait_status(root, *e2e.ENDED) == "aborted"
    expect(root.locator(".mn-header button.mn-stop")).to_be_hidden()
    assert not page_events.errors


def test_max_height_none_leaves_the_view_at_its_full_height(lab: e2e.Lab, page: Any) -> None:
    cells = ["import mastra_notebook as mn", f"mn.view({str(LONG_TEXT)!r}, max_height=None)"]
    e2e.open_and_run(page, lab.notebook("header-unbounded", cells), 0, 1)
    root = e2e.view_root(page, 1)
    assert e2e.wait_status(root, *e2e.ENDED) == "finished"
    # The markdown is drawn a frame's budget at a time: wait until it is all there.
    root.page.wait_for_function("el => el.getBoundingClientRect().height > 3 * window.innerHeight",
                                arg=root.element_handle(), timeout=20_000)  # fmt: skip
    geometry = root.evaluate(GEOMETRY)
    assert not geometry["bounded"]
    assert geometry["height"] <= geometry["client"] + 1  # nothing to scroll inside
    expect(root.locator("button.mn-jump")).to_be_hidden()


def test_the_header_of_a_live_agent(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents, mastra_url: str
) -> None:
    prompt = "deltas=300 delay=20"
    root = e2e.open_live_view(
        page, lab, "header-live", mastra_url, f'v = client.agent("slow").stream("{prompt}\\nsecond line")\nv'
    )
    header = root.locator(".mn-header")
    expect(header.locator(".mn-title")).to_have_text("agent slow")
    expect(header.locator(".mn-subtitle")).to_have_text(prompt)  # the first line of the prompt
    expect(header.locator(".mn-state")).to_have_text("streaming")
    expect(header.locator("button.mn-stop")).to_be_visible()
    elapsed = header.locator('[data-stat="elapsed"]')
    expect(elapsed).to_have_text(re.compile(r"^\d+ s$"))  # whole seconds while it streams
    page.wait_for_function(  # counts by itself: a later second, the run still streaming
        "([el, first]) => /^\\d+ s$/.test(el.textContent) && parseInt(el.textContent) > first",
        arg=[elapsed.element_handle(), int(elapsed.inner_text().split()[0])],
        timeout=30_000,
    )
    e2e.screenshot(header, "header-live-light")
    if e2e.SCREENSHOTS:  # the dark theme for its pictures only
        e2e.theme(page, dark=True)
        e2e.screenshot(header, "header-live-dark")
        e2e.screenshot(root, "header-live-view-dark")
        e2e.theme(page, dark=False)
    assert e2e.wait_status(root, *e2e.ENDED) == "finished"
    expect(header.locator(".mn-state")).to_have_text("finished")
    expect(header.locator('[data-stat="tokens"]')).to_have_text(re.compile(r"^[\d,]+ tokens$"))
    expect(header.locator('[data-stat="ttft"]')).to_contain_text("first token")
    e2e.screenshot(root, "header-live-finished-light")
    assert not page_events.errors
