"""A step's "Request" toggle in a real JupyterLab (issue 19, part 2), on a real provider's recording
(Anthropic, a tool round trip: step 2 was given the prompt, the call and its result) and on a step
given ~200 kB: nothing is drawn until the toggle opens, opening asks the kernel, and the answer is
drawn as text, bounded. Screenshots: test-artifacts/request-toggle-<theme>.png."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from mastra_notebook.widget.export import write_page
from tests.e2e import helpers as e2e
from tests.request_bodies import big_request_chunks

pytestmark = pytest.mark.e2e

NAME = "anthropic-tools"
BIG = "big-request"


@pytest.fixture(scope="module")
def views(lab: e2e.Lab, browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[e2e.Views]:
    big = tmp_path_factory.mktemp("request") / f"{BIG}.jsonl"
    big.write_text("".join(json.dumps(chunk) + "\n" for chunk in big_request_chunks()))
    recordings: dict[str, Path] = {NAME: e2e.FIXTURES / "providers" / f"{NAME}.jsonl", BIG: big}
    with e2e.views_notebook(browser, lab, "request_toggle", recordings) as views:
        for name in recordings:
            e2e.wait_status(views.root(name), *e2e.ENDED)
        yield views


def test_the_toggle_draws_nothing_until_opened_then_the_kernels_answer(views: e2e.Views) -> None:
    root = views.root(NAME)
    toggles = root.locator(".mn-request-toggle")
    expect(toggles).to_have_count(2)
    expect(toggles.nth(0)).to_have_text("Request · system · 1 message · 1 tool")
    expect(toggles.nth(1)).to_have_text("Request · system · 3 messages (1 history) · 1 tool")
    expect(root.locator(".mn-request-message")).to_have_count(0)  # nothing drawn before it opens
    toggles.nth(1).click()
    panel = root.locator(".mn-request").nth(1)
    expect(panel).to_contain_text("You are a helpful assistant.")  # the kernel answered
    expect(panel.locator(".mn-request-history")).not_to_have_attribute("open", "")
    expect(panel.locator(".mn-request-message.mn-role-new")).to_have_count(2)
    expect(panel.locator(".mn-request-message.mn-role-new").nth(0)).to_contain_text(
        "tool call updateIssueList"
    )
    expect(panel).to_contain_text("Tools (1)")
    expect(panel).to_contain_text("model: claude-sonnet-4-5")
    toggles.nth(1).click()
    expect(panel).to_be_hidden()


def test_a_200_kb_request_arrives_bounded(views: e2e.Views) -> None:
    root = views.root(BIG)
    toggle = root.locator(".mn-request-toggle")
    expect(toggle).to_have_text("Request · system · 43 messages (40 history) · 30 tools · temperature 0.3")
    toggle.click()
    panel = root.locator(".mn-request")
    expect(panel).to_contain_text("The whole request is in result.steps[0].request.")
    expect(panel).to_contain_text("more characters]")
    # the reply is bounded (64 kB of JSON); drawn, its JSON values are indented, a little longer
    size = len(panel.evaluate("el => el.textContent"))
    assert size < 100_000, size  # the request was over 200 kB


@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.screenshots)])
def test_screenshot_of_the_opened_toggle(views: e2e.Views, theme: str) -> None:
    e2e.set_theme(views.page, theme)
    root = views.root(NAME)
    toggle = root.locator(".mn-request-toggle").nth(1)
    panel = root.locator(".mn-request").nth(1)
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(panel).to_contain_text("You are a helpful assistant.")
    history = panel.locator(".mn-request-history")
    if history.get_attribute("open") is None:
        history.locator("summary").click()  # the picture shows the history too
    root.locator(".mn-step-block").nth(1).evaluate(e2e.SHOW_BELOW_HEADER)
    e2e.painted(views.page)
    e2e.screenshot(root, f"request-toggle-{theme}")
    e2e.set_theme(views.page, "light")


def test_the_export_page_opens_each_request_with_no_kernel(browser: Any, tmp_path: Path) -> None:
    """The exported page embeds each step's request: its toggle opens it offline, no kernel asked."""
    page_file = tmp_path / "page.html"
    write_page(e2e.FIXTURES / "providers" / f"{NAME}.jsonl", page_file, NAME)
    context = browser.new_context(offline=True)
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status='finished']", timeout=15_000)
    toggle = page.locator(".mn-root .mn-request-toggle").nth(1)
    expect(toggle).to_have_text("Request · system · 3 messages (1 history) · 1 tool")
    toggle.click()
    panel = page.locator(".mn-root .mn-request").nth(1)
    expect(panel).to_contain_text("You are a helpful assistant.")
    expect(panel).to_contain_text("tool result updateIssueList")
    context.close()


def test_the_saved_notebook_carries_each_request_folded(views: e2e.Views, lab: e2e.Lab) -> None:
    """Saved, the view's transcript (read where no kernel runs: GitHub, nbviewer) holds each step's
    request in a closed <details>, escaped."""
    e2e.save(views.page)
    saved = json.loads((lab.root / "request_toggle.ipynb").read_text())
    outputs = saved["cells"][1]["outputs"]
    (html,) = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    text = "".join(html) if isinstance(html, list) else html
    # closed: no open attribute
    assert (
        len(re.findall(r'<details class="mn-disclosure" style="[^"]*"><summary[^>]*>Request · ', text)) == 2
    )
    assert "Request · system · 3 messages (1 history) · 1 tool" in text
    assert "You are a helpful assistant." in text
