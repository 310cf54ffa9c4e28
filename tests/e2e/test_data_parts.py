"""Mastra's own data-* parts (tests/fixtures/data-parts.jsonl) in a real JupyterLab, light and dark:
the sandbox's output is a monospace terminal block, stderr tinted apart from stdout, the exit code a
badge. Screenshots: test-artifacts/data-parts-<theme>.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

NAME = "data-parts"


@pytest.fixture(scope="module")
def views(lab: e2e.Lab, browser: Any) -> Iterator[e2e.Views]:
    with e2e.views_notebook(browser, lab, "data_parts", {NAME: e2e.FIXTURES / f"{NAME}.jsonl"}) as views:
        e2e.wait_status(views.root(NAME), *e2e.ENDED)
        yield views


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_sandbox_reads_as_a_terminal(views: e2e.Views, theme: str) -> None:
    e2e.set_theme(views.page, theme)
    root = views.root(NAME)
    out, err = root.locator("pre.mn-term-stdout"), root.locator("pre.mn-term-stderr")
    expect(out).to_contain_text("collected 3 items")
    expect(err).to_have_text("warning: <b>deprecated</b> flag\n")  # said, not parsed
    expect(root.locator(".mn-data b")).to_have_count(0)
    style = "el => { const s = getComputedStyle(el); return [s.fontFamily, s.backgroundColor]; }"
    (out_font, out_bg), (_, err_bg) = out.evaluate(style), err.evaluate(style)
    assert "mono" in out_font.lower() or "courier" in out_font.lower() or "menlo" in out_font.lower(), (
        out_font
    )
    assert out_bg != err_bg  # stderr tinted apart
    badge = root.locator(".mn-data-exit .mn-badge")
    expect(badge).to_have_text("exit 1")
    assert "mn-tone-error" in (badge.get_attribute("class") or "")
    root.locator(".mn-data").first.evaluate(e2e.SHOW_BELOW_HEADER)
    e2e.painted(views.page)
    e2e.screenshot(root, f"data-parts-{theme}")
    e2e.set_theme(views.page, "light")
