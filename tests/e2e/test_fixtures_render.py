"""Every recorded stream rendered by the widget in a real JupyterLab: what a user must see.

One notebook has a cell ``mn.view("<fixture>.jsonl")`` per fixture and a last cell that prints each
view's Python ``RunResult`` (status, usage), so the browser is compared with Python, not with a copy
of the expectations. Each view's element is screenshotted into ``test-artifacts/fixture-<name>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from mastra_notebook.core.status_words import status_word
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

NAMES = sorted(path.stem for path in e2e.FIXTURES.glob("*.jsonl"))

REPORT_CELL = """\
import json
_views = {v.title.removesuffix(".jsonl"): v for v in Out.values() if isinstance(v, mn.StreamView)}
print("RESULTS " + json.dumps({
    name: {"status": v.wait(60).status, "text": v.result.text, "usage": v.result.usage.model_dump()}
    for name, v in sorted(_views.items())
}))
"""


@pytest.fixture(scope="module")
def rendered(lab: e2e.Lab, browser: Any) -> Iterator[e2e.Views]:
    """The notebook with every fixture rendered, and the Python results printed by its last cell."""
    recordings = {name: e2e.FIXTURES / f"{name}.jsonl" for name in NAMES}
    with e2e.views_notebook(browser, lab, "fixtures_render", recordings, REPORT_CELL) as views:
        views.results = e2e.printed_json(views.page, len(NAMES) + 1)
        assert sorted(views.results) == NAMES
        for name in NAMES:  # every view has caught up with its run
            e2e.wait_status(views.root(name), *e2e.ENDED)
        yield views


# ---- what each fixture must show ------------------------------------------------------------------


def top_tools(root: Any) -> Any:
    """Tool cards of the root run (not those of nested runs)."""
    return root.locator(".mn-run-root > .mn-parts > .mn-tool")


def texts(root: Any) -> Any:
    """The text parts of the root run."""
    return root.locator(".mn-run-root > .mn-parts > .mn-text")


def expect_text(root: Any, phrase: str) -> None:
    """Some text part of the root run shows ``phrase``."""
    expect(texts(root).filter(has_text=phrase).first).to_be_visible()


def body(card: Any) -> Any:
    """A card's body, opened first when the card is folded (a finished tool folds to one line)."""
    head = card.locator(":scope > .mn-card-head")
    if head.get_attribute("aria-expanded") == "false":
        head.click()
    expect(head).to_have_attribute("aria-expanded", "true")
    return card.locator(":scope > .mn-card-body")


def check_card(card: Any, status: str, args: list[str], result: list[str]) -> None:
    expect(card).to_have_count(1)
    expect(card).to_have_attribute("data-tool-status", status)
    head_badge = card.locator(":scope > .mn-card-head .mn-badge")
    expect(head_badge).to_have_text(status_word(status))  # the one table's word (aborted: stopped)
    inside = body(card)
    for part in args:
        expect(inside.locator(":scope > .mn-args pre")).to_contain_text(part)
    for part in result:  # a sub-run's raw result is in a folded .mn-raw-result
        expect(inside.locator(":scope > .mn-result pre")).to_contain_text(part)


def plain_text(root: Any) -> None:
    expect(texts(root).locator("h1")).to_have_text("Three tips for clean Python")
    expect(texts(root).locator("ol > li")).to_have_count(3)
    expect(texts(root).locator("ol > li").first).to_contain_text("Name things clearly")
    code = texts(root).locator("pre code.language-python")
    expect(code).to_contain_text('return f"Hello, {name}!"')
    expect(code.locator(".hljs-keyword").first).to_have_text("def")  # highlighted
    expect_text(root, "happy coding! 🎉")


def reasoning(root: Any) -> None:
    details = root.locator("details.mn-reasoning")
    expect(details).to_have_count(1)
    expect(details).not_to_have_attribute("open", "")  # folded once done
    # read from a file without arrival times: done, with no duration made from the reading's pace
    expect(details.locator("summary")).to_have_text("Thought")
    assert "Double-check: 24 × 17" in details.locator(".mn-md").text_content()
    expect(details.locator(".mn-md")).to_be_hidden()
    details.locator("summary").click()  # the user can unfold it
    expect(details.locator(".mn-md")).to_be_visible()
    expect(details.locator(".mn-md")).to_contain_text("Both agree.")
    expect(texts(root).locator("strong")).to_have_text("17 × 24 = 408.")
    expect(root.locator('.mn-stat[data-stat="reasoning_tokens"] .mn-stat-value')).to_have_text("39")


def tool_call(root: Any) -> None:
    expect_text(root, "Let me look up the current weather in Paris.")
    check_card(
        e2e.tool_card(root, "getWeather"),
        "done",
        ['"city": "Paris"'],
        ['"temperatureC": 18', '"humidity": 64'],
    )
    expect_text(root, "Paris: 18 °C, partly cloudy, humidity 64%")


def parallel_tools(root: Any) -> None:
    cards = top_tools(root)
    expect(cards).to_have_count(2)
    for city, temperature in (("Paris", 18), ("Tokyo", 24)):
        card = cards.filter(has=root.page.locator(".mn-args", has_text=f'"city": "{city}"'))
        check_card(card, "done", [], [f'"temperatureC": {temperature}'])
        expect(card.locator(".mn-name")).to_have_text("getWeather")
    expect_text(root, "Tokyo: 24 °C, sunny, humidity 51%")


def tool_error(root: Any) -> None:
    card = e2e.tool_card(root, "getStockPrice")
    check_card(card, "error", ['"symbol": "ACME"'], [])
    expect(body(card).locator(":scope > .mn-error-slot .mn-error")).to_contain_text(
        "Stock service unavailable for ACME: upstream timeout after 5000ms"
    )
    expect_text(root, "Sorry, I could not complete that lookup.")


def agent_as_tool(root: Any) -> None:
    expect(top_tools(root)).to_have_count(1)
    card = top_tools(root)
    check_card(card, "done", ['"prompt": "Get the 3-day forecast for Paris."'], ['"subAgentToolResults"'])
    expect(card.locator(":scope > .mn-card-head .mn-name")).to_have_text("agent-researcher")
    # the raw result repeats the run drawn above: it is only under a folded "Raw result"
    raw = body(card).locator(":scope > .mn-raw-result details.mn-raw")
    expect(raw).not_to_have_attribute("open", "")
    expect(raw.locator("pre")).to_contain_text('"subAgentThreadId"')
    nested = body(card).locator(":scope > .mn-children > details.mn-run-nested")
    expect(nested).to_have_count(1)
    expect(nested).to_have_attribute("open", "")
    expect(nested.locator(":scope > summary .mn-run-label")).to_have_text("researcher")
    expect(nested.locator(":scope > summary .mn-badge")).to_have_text("finished")
    # the researcher's own text, rendered as markdown inside the agent-researcher card
    researcher_text = nested.locator(":scope > .mn-parts > .mn-text")
    expect(researcher_text).to_contain_text("Paris forecast: day 1 13–19 °C, day 2 14–20 °C, day 3 15–21 °C")
    expect(researcher_text.locator("strong")).to_have_text("Paris")
    forecast = nested.locator(":scope > .mn-parts > .mn-tool")
    check_card(forecast, "done", ['"city": "Paris"', '"days": 3'], ['"conditions": "partly cloudy"'])
    expect(forecast.locator(":scope > .mn-card-head .mn-name")).to_have_text("getForecast")
    outputs = body(forecast).locator(":scope > .mn-outputs-field")
    expect(outputs.locator("summary")).to_have_text("Outputs (3)")
    expect(outputs.locator("li")).to_have_count(3)
    expect(outputs.locator("li").first).to_contain_text("forecast-progress")
    expect_text(root, "I will delegate this to the research agent.")


def workflow_steps(scope: Any, city_report: str) -> None:
    steps = scope.locator(".mn-workflow-step")
    expect(steps.locator(":scope > .mn-card-head .mn-name")).to_have_text(["fetch-forecast", "write-report"])
    expect(steps.locator(":scope > .mn-card-head .mn-badge")).to_have_text(["done", "done"])
    for index in range(2):
        expect(steps.nth(index)).to_have_attribute("data-step-status", "success")
    report = steps.nth(1).locator(":scope > .mn-card-body > .mn-children > .mn-run-nested")
    expect(report.locator(":scope > summary .mn-run-label")).to_have_text("reporter")
    expect(report.locator(".mn-text")).to_have_text(city_report)


def workflow_as_tool(root: Any) -> None:
    card = e2e.tool_card(root, "workflow-weatherReport")
    check_card(
        card,
        "done",
        ['"city": "London"'],
        ['"report": "London: light rain, around 12 °C. Pack a light jacket."'],
    )
    nested = body(card).locator(":scope > .mn-children > .mn-run-nested")
    expect(nested.locator(":scope > summary .mn-run-label")).to_have_text("weatherReport")
    expect(nested.locator(":scope > .mn-workflow .mn-name")).to_have_text("weatherReport")
    expect(nested.locator(":scope > .mn-workflow .mn-badge")).to_have_text("done")
    workflow_steps(nested, "London: light rain, around 12 °C. Pack a light jacket.")
    expect_text(root, "The weather-report workflow finished.")


def workflow_stream(root: Any) -> None:
    run = root.locator(".mn-run-root")
    expect(run.locator(":scope > .mn-workflow .mn-name")).to_have_text("weatherReport")
    expect(run.locator(":scope > .mn-workflow .mn-badge")).to_have_text("done")
    workflow_steps(run, "Berlin: overcast, around 15 °C. Pack a light jacket.")


def structured_output(root: Any) -> None:
    obj = root.locator(".mn-run-root > .mn-object")
    expect(obj).to_be_visible()
    expect(obj.locator(":scope > .mn-label")).to_have_text("Structured output")  # final, not partial
    tree = obj.locator(".mn-object-tree")
    expect(tree.locator(".mn-json-string", has_text="Bring a light jacket")).to_have_text(
        '"Bring a light jacket"'
    )
    expect(tree.locator(".mn-tree-row", has_text="confidence")).to_contain_text("0.87")
    expect(tree.locator("summary").first).to_have_text("{ 5 keys }")
    # drawn once: the run's text is the same JSON, and is not shown beside the tree
    expect(texts(root)).to_be_hidden()


def sources_files(root: Any) -> None:
    links = root.locator(".mn-source a.mn-link")
    expect(links).to_have_text(["Paris weather – Example", "Climate notes"])
    hrefs = [links.nth(i).get_attribute("href") for i in range(2)]
    assert hrefs == ["https://example.com/weather/paris", "https://example.org/climate"]
    for i in range(2):
        expect(links.nth(i)).to_have_attribute("rel", "noopener noreferrer nofollow")
    every_href = root.locator("a[href]").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert every_href, "no links"
    assert all(href.startswith("https://") for href in every_href), every_href
    document = root.locator(".mn-source").nth(2)
    expect(document.locator(".mn-source-title")).to_have_text("Forecast handbook")
    expect(document).to_contain_text("handbook.pdf")
    expect(document.locator("a")).to_have_count(0)
    image = root.locator(".mn-file img.mn-image")
    expect(image).to_have_count(1)
    assert image.get_attribute("src").startswith("data:image/png;base64,iVBORw0KGgo")
    image.evaluate("img => img.decode()")  # a real, decodable image
    assert image.evaluate("img => img.naturalWidth") == 1
    expect(root.locator(".mn-file").nth(1).locator(".mn-preview")).to_have_text("hello file\n")
    expect_text(root, "According to [1] and [2], Paris is mild today.")


def error(root: Any) -> None:
    banner = root.locator(".mn-banner-error")
    expect(banner).to_have_count(1)
    expect(banner.locator(".mn-banner-message")).to_have_text("Mock upstream connection reset (ECONNRESET)")
    expect(banner.locator(".mn-banner-detail pre")).to_contain_text("ECONNRESET")
    expect_text(root, "Starting a long explanation that will be cut off by")


def abort(root: Any) -> None:
    expect(root.locator(".mn-banner-abort")).to_have_text("The run was stopped.")
    expect_text(root, "the caller will abort after about ten deltas.")


def tripwire(root: Any) -> None:
    banner = root.locator(".mn-banner-tripwire")
    expect(banner.locator(".mn-banner-message")).to_have_text(
        "Input blocked: requests for passwords are not allowed"
    )
    expect(banner.locator("pre")).to_contain_text('"processor_id": "block-passwords"')


def tripwire_output(root: Any) -> None:
    expect(root.locator(".mn-banner-tripwire .mn-banner-message")).to_have_text(
        "Output blocked: response contained a secret"
    )
    expect(texts(root)).to_have_text("Sure. The launch code is SECRE")


def tool_approval(root: Any) -> None:
    check_card(e2e.tool_card(root, "deleteRecord"), "awaiting-approval", ['"id": "abc-123"'], [])
    expect(root.locator(".mn-banner-suspended")).to_have_text(
        re.compile(r'^Run suspended: continue with view\.approve\("call_delete_1"\) +or +view\.decline\(')
    )
    expect(root.locator("button.mn-approve")).to_have_count(0)  # a recording cannot be continued
    expect_text(root, "I will delete record abc-123 once you approve.")


def tool_approval_approved(root: Any) -> None:
    check_card(e2e.tool_card(root, "deleteRecord"), "done", ['"id": "abc-123"'], ['"deleted": true'])
    expect_text(root, "Record abc-123 has been deleted.")


def tool_approval_declined(root: Any) -> None:
    card = e2e.tool_card(root, "deleteRecord")
    check_card(card, "denied", ['"id": "abc-123"'], [])
    expect(card.locator(".mn-denied")).to_have_text(
        "Declined: Record abc-123 is still referenced by invoices."
    )
    expect_text(root, "I did not delete the record")


def background_task(root: Any) -> None:
    check_card(
        e2e.tool_card(root, "researchTopic"), "done", ['"topic": "solana"'], ["Background task started"]
    )
    task = root.locator(".mn-background-task")
    expect(task.locator(".mn-name")).to_have_text("researchTopic")
    expect(task.locator(".mn-badge")).to_have_text("done")
    expect(task.locator(".mn-history")).to_have_text("started → running → done")
    # its progress shows once, on the tool call (it arrived inside background-task-output)
    expect(task.locator(".mn-outputs li")).to_have_count(0)
    expect(e2e.tool_card(root, "researchTopic").locator(".mn-outputs li")).to_have_count(3)
    expect_text(root, "Research on solana finished: solana finding 1")


def long_text(root: Any, result: dict[str, Any]) -> None:
    text = result["text"]
    sections = len(re.findall(r"^## ", text, re.M))
    assert sections > 10
    last_words = " ".join(text.split()[-8:])
    expect(texts(root).locator(".mn-md-tail")).to_contain_text(" ".join(text.split()[-3:]), timeout=60_000)
    # blocks far from view are not in the DOM: read it as a reader does, by scrolling the view
    read = e2e.read_by_scrolling(root)
    assert read["h2"] == sections
    shown = " ".join(read["text"].split())
    assert shown.endswith(last_words), shown[-200:]
    first_words = " ".join(text.split()[3:11])  # after "## Section 1"
    assert shown.startswith(f"Section 1 {first_words}"), shown[:200]


def tool_rich_results(root: Any) -> None:
    """Issue 21's built-in drawings: records as a table, an image part, a file link, a data: image URL."""
    table = e2e.tool_card(root, "queryOrders").locator(".mn-rich table.mn-table")
    expect(table.locator("tbody tr")).to_have_count(50)
    more = e2e.tool_card(root, "queryOrders").locator(".mn-table-more")
    expect(more).to_have_text("7 more rows (in the JSON)")
    expect(e2e.tool_card(root, "chartRevenue").locator(".mn-rich img")).to_have_count(1)
    expect(e2e.tool_card(root, "exportReport").locator(".mn-rich a")).to_have_text("orders-2025.csv")
    expect(e2e.tool_card(root, "statusBadge").locator(".mn-rich img")).to_have_count(1)
    expect_text(root, "57 orders; South leads revenue.")


def data_parts(root: Any) -> None:
    """Mastra's own data-* parts say what they are (the widget's data.ts; tests/e2e/test_data_parts.py looks)."""
    cards = root.locator(".mn-data")
    expect(cards.locator(":scope > .mn-card-head .mn-kind-label")).to_have_text(
        ["Sandbox", "Sandbox", "Sandbox", "Signal", "Tripwire", "Structured output", "Token limit"]
    )
    expect(root.locator("pre.mn-term-stderr")).to_have_text("warning: <b>deprecated</b> flag\n")
    expect(root.locator(".mn-data-exit .mn-badge")).to_have_text("exit 1")
    expect_text(root, "Running the command.")


CHECKS: dict[str, Callable[..., None]] = {
    "abort": abort,
    "agent-as-tool": agent_as_tool,
    "background-task": background_task,
    "data-parts": data_parts,
    "error": error,
    "long-text": long_text,
    "parallel-tools": parallel_tools,
    "plain-text": plain_text,
    "reasoning": reasoning,
    "sources-files": sources_files,
    "structured-output": structured_output,
    "tool-approval": tool_approval,
    "tool-approval-approved": tool_approval_approved,
    "tool-approval-declined": tool_approval_declined,
    "tool-call": tool_call,
    "tool-error": tool_error,
    "tool-rich-results": tool_rich_results,
    "tripwire": tripwire,
    "tripwire-output": tripwire_output,
    "workflow-as-tool": workflow_as_tool,
    "workflow-stream": workflow_stream,
}


def test_every_fixture_has_a_check() -> None:
    assert sorted(CHECKS) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_fixture_renders(rendered: e2e.Views, name: str) -> None:
    result = rendered.results[name]
    root = rendered.root(name)
    root.scroll_into_view_if_needed()
    expect(root).to_have_attribute("data-status", result["status"])  # the same verdict as Python
    expect(root.locator(".mn-title")).to_have_text(f"{name}.jsonl")
    expect(root.locator("button.mn-stop")).to_be_hidden()  # the run ended
    footer = root.locator(".mn-run-root > .mn-footer")
    expect(footer.locator('[data-stat="status"] .mn-stat-value')).to_have_text(status_word(result["status"]))
    usage = result["usage"]
    if usage["output_tokens"] or usage["input_tokens"]:
        for key in ("input_tokens", "output_tokens"):
            expect(footer.locator(f'[data-stat="{key}"] .mn-stat-value')).to_have_text(f"{usage[key]:,}")
    # the fixtures carry no arrival times: no duration is made from how fast the file was read
    expect(footer.locator('[data-stat="duration"]')).to_be_hidden()
    check = CHECKS[name]
    if name == "long-text":
        check(root, result)
    else:
        check(root)
    if result["text"]:
        expect(root.locator(".mn-text").first).not_to_be_empty()
    if name == "long-text":  # 200 KB of markdown: its beginning and its end tell
        root.evaluate("el => { el.scrollTop = 0; }")
        e2e.screenshot(texts(root).locator(".mn-md-block").first, f"fixture-{name}-first-block")
        e2e.screenshot(footer, f"fixture-{name}-footer")
    else:
        e2e.screenshot(root, f"fixture-{name}")


def test_no_rate_limit_no_page_errors(rendered: e2e.Views) -> None:
    e2e.assert_no_rate_limit(rendered.page)
    assert not rendered.events.errors, rendered.events.errors
    assert not rendered.events.dialogs
    first = e2e.cell(rendered.page, 1)
    # the widget shows; its static transcript (a separate output, for saved notebooks) is hidden
    expect(first.locator(".mn-root")).to_be_visible()
    expect(first.locator(".mastra-notebook-transcript")).to_have_count(1)
    expect(first.locator(".mastra-notebook-transcript")).to_be_hidden()
