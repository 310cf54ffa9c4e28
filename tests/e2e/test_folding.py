"""Cards that fold, and bounded details, in a real JupyterLab.

Tool, sub-agent and workflow-step cards open and close by mouse and by keyboard; a finished tool is
one line; a sub-agent's raw result, structured output's raw JSON and a step input that repeats the
previous output are folded; a tool or step name holding U+202E does not reorder the text around it.
Screenshots (light and dark, folded and open) go to ``test-artifacts/folding-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

NAMES = ["tool-call", "agent-as-tool", "structured-output", "workflow-stream", "bidi-tool", "bidi-workflow"]
EVIL = "x\u202eyrammus_weiv"  # drawn "xview_summary"; must not reverse what follows it


def _bidi_fixtures(root: Path) -> dict[str, Path]:
    """tool-call with the tool named EVIL, workflow-stream with its first step named EVIL."""
    escaped = EVIL.encode("unicode_escape").decode()  # x\u202e... inside the JSON strings
    out = {}
    for name, source, replaced in (
        ("bidi-tool", "tool-call", "getWeather"),
        ("bidi-workflow", "workflow-stream", "fetch-forecast"),
    ):
        path = root / f"{name}.jsonl"
        path.write_text((e2e.FIXTURES / f"{source}.jsonl").read_text().replace(replaced, escaped))
        out[name] = path
    return out


@pytest.fixture(scope="module")
def views(lab: e2e.Lab, browser: Any) -> Iterator[e2e.Views]:
    recordings = {name: e2e.FIXTURES / f"{name}.jsonl" for name in NAMES[:4]} | _bidi_fixtures(lab.root)
    with e2e.views_notebook(
        browser, lab, "folding", {name: recordings[name] for name in NAMES}, width=1100
    ) as views:
        for name in NAMES:
            e2e.wait_status(views.root(name), "finished")
        yield views


def head(card: Any) -> Any:
    return card.locator(":scope > .mn-card-head")


def body(card: Any) -> Any:
    return card.locator(":scope > .mn-card-body")


def press(views: e2e.Views, locator: Any, key: str) -> None:
    """Focus ``locator`` and press ``key`` (the notebook must not take it as a shortcut)."""
    locator.focus()
    expect(locator).to_be_focused()
    cells = views.page.locator(".jp-Notebook .jp-Cell").count()
    locator.press(key)
    assert views.page.locator(".jp-Notebook .jp-Cell").count() == cells
    expect(views.page.locator(".jp-Notebook.jp-mod-editMode")).to_have_count(0)


def test_a_finished_tool_is_one_line_that_opens_by_mouse_and_keyboard(views: e2e.Views) -> None:
    root = views.root("tool-call")
    card = root.locator(".mn-tool")
    expect(card).to_have_attribute("data-tool-status", "done")
    expect(body(card)).to_be_hidden()
    expect(head(card)).to_have_attribute("aria-expanded", "false")
    expect(head(card)).to_have_attribute("role", "button")
    expect(head(card).locator(".mn-call")).to_have_text('getWeather(city="Paris")')
    expect(head(card).locator(".mn-fold-outcome")).to_have_text(
        '→ {city: "Paris", temperatureC: 18, conditions: "partly cloudy", humidity: 64}'
    )
    expect(head(card).locator(".mn-fold-outcome")).to_be_visible()
    box = head(card).bounding_box()
    assert box is not None
    assert box["height"] < 40, box  # one line
    head(card).locator(".mn-kind-label").click()
    expect(body(card)).to_be_visible()
    expect(head(card)).to_have_attribute("aria-expanded", "true")
    expect(head(card).locator(".mn-fold-outcome")).to_be_hidden()
    expect(body(card).locator(".mn-args pre")).to_have_text('{"city": "Paris"}')
    head(card).click()
    expect(body(card)).to_be_hidden()
    press(views, head(card), "Enter")
    expect(body(card)).to_be_visible()
    press(views, head(card), " ")
    expect(body(card)).to_be_hidden()


def test_a_sub_agent_card_shows_its_run_and_keeps_the_raw_result_folded(views: e2e.Views) -> None:
    root = views.root("agent-as-tool")
    card = root.locator(".mn-run-root > .mn-parts > .mn-tool")
    expect(body(card)).to_be_visible()  # its nested run is the story
    nested = body(card).locator(":scope > .mn-children > details.mn-run-nested")
    expect(nested.locator(":scope > .mn-parts > .mn-text")).to_be_visible()
    forecast = nested.locator(":scope > .mn-parts > .mn-tool")
    expect(body(forecast)).to_be_hidden()
    expect(head(forecast).locator(".mn-call")).to_have_text('getForecast(city="Paris", days=3)')
    raw = body(card).locator(":scope > .mn-raw-result details.mn-raw")
    expect(raw.locator("summary")).to_have_text("Raw result")
    expect(raw.locator("pre")).to_be_hidden()
    expect(card.locator("pre", has_text="subAgentThreadId")).to_be_hidden()
    raw.locator("summary").click()
    expect(raw.locator("pre")).to_contain_text('"subAgentThreadId"')
    expect(raw.locator("pre")).to_be_visible()
    press(views, head(forecast), "Enter")  # a card inside the sub-run opens by keyboard
    expect(body(forecast).locator(".mn-outputs-field")).to_be_visible()
    summary = nested.locator(":scope > summary")
    press(views, summary, "Enter")  # the nested run folds by keyboard too
    expect(nested).not_to_have_attribute("open", "")
    expect(summary).to_have_attribute("aria-expanded", "false")
    press(views, head(card), "Enter")
    expect(body(card)).to_be_hidden()
    head(card).click()
    expect(body(card)).to_be_visible()
    summary.click()
    expect(nested).to_have_attribute("open", "")


def test_structured_output_is_drawn_once(views: e2e.Views) -> None:
    root = views.root("structured-output")
    run = root.locator(".mn-run-root")
    expect(run).to_have_attribute("data-structured", "")
    expect(run.locator(":scope > .mn-parts > .mn-text")).to_be_hidden()  # the same JSON, as text
    tree = run.locator(":scope > .mn-object .mn-object-tree")
    expect(tree).to_be_visible()
    expect(tree.locator(".mn-json-string", has_text="Bring a light jacket")).to_be_visible()
    expect(root.get_by_text('"Bring a light jacket"').locator("visible=true")).to_have_count(1)
    raw = run.locator(":scope > .mn-object details.mn-raw")
    expect(raw.locator("summary")).to_have_text("raw JSON")
    raw.locator("summary").click()
    expect(raw.locator("pre")).to_contain_text(
        '"advice": ["Bring a light jacket", "Sunglasses in the afternoon"]'
    )


def test_workflow_steps_fold_and_a_repeated_input_is_folded(views: e2e.Views) -> None:
    root = views.root("workflow-stream")
    steps = root.locator(".mn-workflow-step")
    first, second = steps.nth(0), steps.nth(1)
    expect(body(first)).to_be_hidden()
    expect(head(first).locator(".mn-fold-outcome")).to_contain_text('→ {city: "Berlin", forecast: [3]}')
    expect(body(second)).to_be_visible()  # it holds the reporter's run
    same = body(second).locator(".mn-input-same details")
    expect(same.locator("summary")).to_have_text("Input: same as fetch-forecast's output")
    expect(same.locator("pre")).to_be_hidden()
    head(first).click()
    expect(body(first).locator(".mn-output pre")).to_be_visible()
    press(views, head(second), " ")
    expect(body(second)).to_be_hidden()
    press(views, head(second), "Enter")
    expect(body(second)).to_be_visible()


def _right_of(locator: Any) -> float:
    box = locator.bounding_box()
    assert box is not None
    return float(box["x"] + box["width"])


def _left_of(locator: Any) -> float:
    box = locator.bounding_box()
    assert box is not None
    return float(box["x"])


TEXT_AFTER = """(el) => {
    // the x of the text node that follows the isolated name (", 's output" and the like)
    const node = el.nextSibling;
    const range = document.createRange();
    range.selectNodeContents(node);
    return {text: node.textContent, x: range.getBoundingClientRect().left};
}"""


def test_a_name_with_u202e_does_not_reverse_the_text_around_it(views: e2e.Views) -> None:
    tool = views.root("bidi-tool").locator(".mn-tool")
    name = head(tool).locator(".mn-name")
    expect(name).to_have_text(EVIL)
    # "(city=...)" comes after the name, on its right, in the same inline run
    args = head(tool).locator(".mn-fold-args")
    expect(args).to_have_text('(city="Paris")')
    assert _left_of(args) >= _right_of(name) - 1
    assert _left_of(head(tool).locator(".mn-badge")) > _right_of(args)
    steps = views.root("bidi-workflow").locator(".mn-workflow-step")
    ref = body(steps.nth(1)).locator(".mn-input-same summary .mn-step-ref")
    expect(ref).to_have_text(EVIL)
    after = ref.evaluate(TEXT_AFTER)
    assert after["text"] == "'s output"
    assert after["x"] >= _right_of(ref) - 1, after
    assert _left_of(ref) > _left_of(body(steps.nth(1)).locator(".mn-input-same summary"))


@pytest.mark.screenshots
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots_folded_and_open(views: e2e.Views, theme: str) -> None:
    page = views.page
    label = "JupyterLab Dark" if theme == "dark" else "JupyterLab Light"
    page.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{label}'}})")
    page.wait_for_function(
        "dark => document.body.dataset.jpThemeLight === (dark ? 'false' : 'true')", arg=theme == "dark"
    )
    e2e.painted(page)  # in the new theme
    for name in NAMES[:4]:
        path = e2e.screenshot(views.root(name), f"folding-{name}-{theme}", max_height=2400)
        assert path is not None
        assert path.stat().st_size > 3_000
    tool = views.root("tool-call").locator(".mn-tool")
    head(tool).click()
    e2e.screenshot(views.root("tool-call"), f"folding-tool-call-open-{theme}")
    head(tool).click()
    e2e.screenshot(views.root("bidi-workflow"), f"folding-bidi-workflow-{theme}")


def test_no_page_errors(views: e2e.Views) -> None:
    assert views.events.errors == []
    e2e.assert_no_rate_limit(views.page)
