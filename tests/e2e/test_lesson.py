"""A lesson in a real JupyterLab and on the export page (issue 32, items 4 and 5): a replay with
``pause_at="tool-call"`` stops before each of three tool calls, none of it drawn, and Reveal shows
each; the export page's replay bar (the widget's own) plays, steps and scrubs with no kernel; present
mode for a projector."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import mastra_notebook as mn
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

THREE_TOOLS = e2e.FIXTURES / "providers" / "router-openai-tools.jsonl"  # tool calls at chunks 5, 17, 20


def wait_held(root: Any, position: int) -> None:
    root.page.wait_for_function(
        "([el, position]) => { const bar = el.querySelector('.mn-replay');"
        " return bar?.dataset.held === 'tool-call' && bar.dataset.position === String(position); }",
        arg=[root.element_handle(), position],
        timeout=30_000,
    )
    e2e.painted(root.page)


@pytest.mark.parametrize("dark", [False, *(d for d in e2e.shot_darks() if d)])
def test_pause_at_tool_call_holds_before_each_and_reveals_on_click(
    lab: e2e.Lab, page: Any, dark: bool
) -> None:
    cells = [
        "import mastra_notebook as mn\n"
        f"v = mn.replay({str(THREE_TOOLS)!r}, speed=20, pause_at='tool-call')\n"
        "v.note(1, 'What will the model ask the weather tool for first?')\nv"
    ]
    e2e.open_and_run(page, lab.notebook(f"lesson-{'dark' if dark else 'light'}", cells), 0)
    e2e.theme(page, dark)
    root = e2e.view_root(page, 0)
    held = root.locator(".mn-held")
    for shown, position in enumerate([5, 17, 20]):
        wait_held(root, position)
        expect(root.locator(".mn-tool")).to_have_count(shown)  # the next call is not drawn: predict it
        expect(held).to_be_visible()
        expect(held).to_contain_text("Paused before a tool call")
        expect(root.locator("button.mn-next-tool")).to_be_disabled()
        if position == 5:
            expect(root.locator(".mn-step-note:not([hidden])")).to_have_text(
                "What will the model ask the weather tool for first?"
            )
            root.locator(".mn-request-toggle").first.click()
            expect(root.locator(".mn-request").first).to_contain_text("getWeather")
            e2e.screenshot(root, f"lesson-held-before-a-tool-call-{'dark' if dark else 'light'}")
        root.locator("button.mn-reveal").click()
        expect(root.locator(".mn-tool")).to_have_count(shown + 1, timeout=20_000)  # revealed
    e2e.wait_status(root, "finished", timeout=30_000)
    expect(held).to_be_hidden()
    assert root.locator(".mn-tool").count() == 3


def test_present_mode_hides_counts_labels_and_raw_json(lab: e2e.Lab, page: Any) -> None:
    cells = [
        "import mastra_notebook as mn\n"
        f"v = mn.replay({str(THREE_TOOLS)!r}, autoplay=False, present=True)\nv.seek(v.total)\nv"
    ]
    e2e.open_and_run(page, lab.notebook("present", cells), 0)
    root = e2e.view_root(page, 0)
    e2e.wait_status(root, "finished")
    assert "mn-present" in (root.get_attribute("class") or "")
    expect(root.locator(".mn-step-tokens").first).to_be_hidden()
    expect(root.locator(".mn-feedback")).to_be_hidden()
    expect(root.locator(".mn-inspect")).to_be_hidden()
    expect(root.locator(".mn-footer .mn-stat[data-stat='input_tokens']")).to_be_hidden()
    size = root.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 18
    top = root.locator(".mn-top").bounding_box()
    assert top is not None
    assert top["height"] < 140  # a compact sticky block: a projector shows the run
    for dark in e2e.shot_darks():
        e2e.theme(page, dark)
        e2e.screenshot(root, f"lesson-present-{'dark' if dark else 'light'}")


def export_page(tmp_path: Path) -> tuple[Path, int]:
    """The page of a replayed lesson with a note on step 2, and how many lines its recording holds
    (the 39 chunks, then the note's line)."""
    view = mn.replay(THREE_TOOLS, autoplay=False)
    view.seek(view.total)
    view.note(2, "<b>Not bold</b>: the model reads the three results here.")
    path = tmp_path / "lesson.html"
    view.to_html(path)
    view.close()
    return path, view.total


def test_the_export_page_has_the_replay_bar(browser: Any, tmp_path: Path) -> None:
    page_file, total = export_page(tmp_path)
    assert total == 40
    errors: list[str] = []  # on either page
    for dark in [False, True]:
        context = browser.new_context(offline=True, color_scheme="dark" if dark else "light")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(page_file.as_uri())
        page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status='finished']", timeout=15_000)
        root = page.locator(".mn-root")
        bar = root.locator(".mn-replay")
        expect(bar).to_be_visible()
        assert bar.get_attribute("data-position") == str(total)
        expect(root.locator(".mn-step-note:not([hidden])")).to_have_text(
            "<b>Not bold</b>: the model reads the three results here."
        )
        assert root.locator(".mn-step-note b").count() == 0
        root.locator("input.mn-scrubber").evaluate(
            "el => { el.value = '5'; el.dispatchEvent(new Event('input')); }"
        )
        expect(bar).to_have_attribute("data-position", "5")
        expect(root.locator(".mn-tool")).to_have_count(0)
        root.locator("button.mn-next-tool").click()
        expect(bar).to_have_attribute("data-position", "6")
        expect(root.locator(".mn-tool")).to_have_count(1)
        root.locator("button.mn-step-forward").click()
        expect(bar).to_have_attribute("data-position", "7")
        page.locator("select.mn-speed").select_option("8")
        root.locator("button.mn-play").click()
        page.wait_for_selector(".mn-root[data-status='finished']", timeout=20_000)
        expect(bar).to_have_attribute("data-position", str(total))
        expect(root.locator(".mn-tool")).to_have_count(3)
        root.locator("input.mn-scrubber").evaluate(
            "el => { el.value = '18'; el.dispatchEvent(new Event('input')); }"
        )
        expect(bar).to_have_attribute("data-position", "18")
        assert not errors
        e2e.shoot(page, f"lesson-export-replay-bar-{'dark' if dark else 'light'}", full_page=True)
        context.close()
