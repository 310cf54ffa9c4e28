"""Live runs in a real JupyterLab: a page reload mid-stream, a second display, Stop, and a real
Mastra server (streaming as it arrives, Stop, tool approval continuing the same view)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import mastra_notebook as mn
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

LONG_TEXT = Path(__file__).resolve().parents[1] / "fixtures" / "long-text.jsonl"
# The long text fed by hand, half before a reload and half after (cell 3): mid-stream at the reload
# however slow the machine.
RELOAD_CELLS = [
    f"import mastra_notebook as mn\nchunks = list(mn.read_chunks({str(LONG_TEXT)!r}))\nhalf = len(chunks) // 2",
    "v = mn.view(title='long-text')\nfor chunk in chunks[:half]:\n    v.feed(chunk)\nv",
    "v",
    "for chunk in chunks[half:]:\n    v.feed(chunk)\nv.end()",
    'print("RESULT", v.wait(60).status, len(v.result.text))',
]


@pytest.fixture(scope="module")
def long_text() -> str:
    """What Python reads from the long fixture: the text the views must end with."""
    return mn.collect(LONG_TEXT).text


def words(text: str) -> list[str]:
    return text.split()


def python_line(page: Any, index: int, tag: str) -> str:
    """Run cell ``index`` (it prints ``<tag> ...``) and return what follows the tag."""
    e2e.run_cell(page, index)
    expect(e2e.cell(page, index).locator(".jp-OutputArea-output")).to_contain_text(tag, timeout=30_000)
    output = e2e.cell_output_text(page, index)
    match = re.search(rf"{tag} (.*)", output)
    assert match, output
    return match.group(1).strip()


def assert_ends_like(shown: str, text: str, n: int = 8) -> None:
    assert words(shown)[-n:] == words(text)[-n:], (words(shown)[-n:], words(text)[-n:])


# ---- recorded streams paced by the kernel ------------------------------------------------------------


def test_reload_mid_stream_catches_up(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents, long_text: str
) -> None:
    e2e.open_and_run(page, lab.notebook("reload", RELOAD_CELLS), 0, 1, 2)
    first = e2e.view_root(page, 1)
    e2e.wait_text(first, 200)
    expect(first.locator("button.mn-stop")).to_be_visible()
    e2e.save(page)
    page.reload()
    e2e.wait_notebook_ready(page)

    first, second = e2e.view_root(page, 1), e2e.view_root(page, 2)
    # the snapshot Python sends to the new view: still mid-stream, partial text, then it catches up
    assert e2e.wait_status(first, "running", *e2e.ENDED) == "running"
    assert 200 < len(e2e.shown_text(first)) < len(long_text)
    e2e.run_cells(page, 3)
    assert e2e.wait_status(first, *e2e.ENDED) == "finished"
    assert e2e.wait_status(second, *e2e.ENDED) == "finished"
    sections = len(re.findall(r"^## ", long_text, re.M))
    for root in (first, second):
        expect(root.locator(".mn-md-tail")).to_contain_text(" ".join(words(long_text)[-3:]), timeout=60_000)
        expect(root.locator("button.mn-stop")).to_be_hidden()
    read = e2e.read_by_scrolling(first)  # blocks far from view are not in the DOM: scroll through them
    assert read["h2"] == sections
    shown = read["text"]
    assert_ends_like(shown, long_text)
    assert words(shown)[2:12] == words(long_text)[3:13]  # "Section 1" then the same words
    assert e2e.read_by_scrolling(second)["text"] == shown  # the second display shows the same run
    assert first.get_attribute("data-seq") == second.get_attribute("data-seq")
    status, length = python_line(page, 4, "RESULT").split()
    assert status == "finished"
    assert int(length) == len(long_text)
    e2e.assert_no_rate_limit(page)
    assert not page_events.errors
    e2e.screenshot(first.locator(".mn-run-root > .mn-footer"), "live-reload-footer")


def test_stop_mid_stream_keeps_partial_text(lab: e2e.Lab, page: Any, long_text: str) -> None:
    cells = [
        "import mastra_notebook as mn",
        f"v = mn.view({str(LONG_TEXT)!r}, delay=0.002)\nv",
        'print("RESULT", v.result.status, len(v.result.text))',
    ]
    e2e.open_and_run(page, lab.notebook("stop", cells), 0, 1)
    root = e2e.view_root(page, 1)
    e2e.wait_text(root, 500)
    root.locator("button.mn-stop").click()
    assert e2e.wait_status(root, *e2e.ENDED, timeout=20_000) == "aborted"
    expect(root.locator("button.mn-stop")).to_be_hidden()
    expect(root.locator(".mn-banner-abort")).to_have_text("stopped by the user")
    shown = e2e.read_by_scrolling(root)["text"]
    assert 500 < len(shown) < len(long_text) / 2
    assert words(shown)[2:12] == words(long_text)[3:13]
    # Python agrees: aborted, and it kept what arrived (the view shows every chunk Python had)
    status, length = python_line(page, 2, "RESULT").split()
    assert status == "aborted"
    assert int(length) < len(long_text)
    assert words(long_text[: int(length)])[-3:-1] == words(shown)[-3:-1]
    e2e.screenshot(root.locator(".mn-banner-abort"), "live-stop-banner")


# ---- a real Mastra server --------------------------------------------------------------------------


def test_live_agent_renders_while_it_arrives(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents, mastra_url: str
) -> None:
    root = e2e.open_live_view(
        page,
        lab,
        "live-stream",
        mastra_url,
        'v = client.agent("slow").stream("deltas=300 delay=20")\nv',
        'import json\nprint("RESULT", v.wait(60).status, json.dumps(v.result.text))',
    )
    expect(root.locator(".mn-title")).to_have_text("agent slow")
    first = e2e.wait_text(root, 40)
    expect(root.locator("button.mn-stop")).to_be_visible()
    second = e2e.wait_text(root, first + 200)  # still running, and more text than before
    assert second > first
    assert e2e.wait_status(root, *e2e.ENDED) == "finished"
    expect(root.locator("button.mn-stop")).to_be_hidden()
    status, text = python_line(page, 3, "RESULT").split(" ", 1)
    assert status == "finished"
    markdown = json.loads(text)
    assert len(markdown) == 300 * 40
    headings = re.findall(r"^## (.*)$", markdown, re.M)
    read = e2e.read_by_scrolling(root)  # a long text keeps only the blocks near view in the DOM
    assert read["h2"] == len(headings)
    expect(root.locator(".mn-run-root > .mn-parts > .mn-text h2").last).to_have_text(headings[-1].strip())
    assert e2e.rendered_words(markdown)[-12:] == re.findall(r"\w+", read["text"])[-12:]
    footer = root.locator(".mn-run-root > .mn-footer")
    expect(footer.locator('[data-stat="output_tokens"] .mn-stat-value')).to_have_text(re.compile(r"^[\d,]+$"))
    assert not page_events.errors
    e2e.screenshot(root, "live-agent-slow")


def test_live_agent_stop(lab: e2e.Lab, page: Any, mastra_url: str) -> None:
    root = e2e.open_live_view(
        page,
        lab,
        "live-stop",
        mastra_url,
        'v = client.agent("slow").stream("deltas=400 delay=25")\nv',
        'print("RESULT", v.result.status, len(v.result.text))',
    )
    e2e.wait_text(root, 200)
    root.locator("button.mn-stop").click()
    assert e2e.wait_status(root, *e2e.ENDED, timeout=20_000) == "aborted"
    shown = e2e.shown_text(root)
    assert 200 < len(shown) < 400 * 40
    expect(root.locator("button.mn-stop")).to_be_hidden()
    status, length = python_line(page, 3, "RESULT").split()
    assert status == "aborted"
    assert 0 < int(length) < 400 * 40
    e2e.screenshot(root, "live-agent-stopped")


def awaiting_delete(lab: e2e.Lab, page: Any, mastra_url: str, name: str, result_cell: str) -> tuple[Any, Any]:
    """A live view of the approver agent asked to delete record abc-123 (then ``result_cell``, cell 3,
    not run), and its deleteRecord card once the call waits for a person."""
    delete = 'v = client.agent("approver").stream("Delete record abc-123")\nv'
    root = e2e.open_live_view(page, lab, name, mastra_url, delete, result_cell)
    return root, e2e.awaiting_approval(root, "deleteRecord")


def decided(root: Any, card: Any, tool_status: str, answer: str) -> None:
    """Once a person decided: the card says ``tool_status``, the run finishes without an Approve
    button left, and its last text has ``answer``."""
    expect(card).to_have_attribute("data-tool-status", tool_status, timeout=30_000)
    assert e2e.wait_status(root, "finished", "error", "aborted", timeout=30_000) == "finished"
    expect(card.locator("button.mn-approve")).to_have_count(0)
    expect(root.locator(".mn-run-root > .mn-parts > .mn-text").last).to_contain_text(answer)


def test_live_tool_approval(lab: e2e.Lab, page: Any, page_events: e2e.PageEvents, mastra_url: str) -> None:
    root, card = awaiting_delete(
        lab,
        page,
        mastra_url,
        "live-approval",
        'print("RESULT", v.wait(30).status, v.result.tool_calls[0].status)',
    )
    assert e2e.wait_status(root, *e2e.ENDED) == "suspended"
    expect(card.locator(".mn-args pre")).to_contain_text('"id": "abc-123"')
    approve = card.locator("button.mn-approve")
    expect(approve).to_be_visible()
    expect(card.locator("button.mn-decline")).to_be_visible()
    e2e.screenshot(root, "live-approval-waiting")
    approve.click()
    decided(root, card, "done", "Done: record abc-123 was deleted.")
    expect(card.locator(".mn-result pre")).to_contain_text('"deleted": true')
    expect(e2e.cell(page, 2).locator(".mn-root")).to_have_count(1)  # the same view went on
    assert python_line(page, 3, "RESULT").split() == ["finished", "done"]
    assert not page_events.errors
    e2e.screenshot(root, "live-approval-done")
    # folded, its head says who decided and how long a person took, apart from the tool's own time

    expect(card).to_have_class(re.compile(r"\bmn-folded\b"))
    expect(card.locator(".mn-fold-decision")).to_have_text(re.compile(r"^approved in the view after \d"))
    expect(card.locator(".mn-fold-decision")).to_be_visible()
    e2e.screenshot(card, "live-approval-folded-light")
    if e2e.SCREENSHOTS:  # the dark theme for its pictures only
        e2e.theme(page, dark=True)
        e2e.screenshot(card, "live-approval-folded-dark")
        e2e.theme(page, dark=False)


def test_live_tool_decline_with_a_reason(
    lab: e2e.Lab, page: Any, page_events: e2e.PageEvents, mastra_url: str
) -> None:
    root, card = awaiting_delete(
        lab,
        page,
        mastra_url,
        "live-decline",
        'print("RESULT", v.wait(30).status, v.result.tool_calls[0].status, repr(v.result.tool_calls[0].denied_reason))',
    )
    card.locator("button.mn-decline").click()
    reason = card.locator("input.mn-decline-reason")
    # (the widget focuses it, but JupyterLab may take the focus back once other cells ran: not asserted)
    expect(reason).to_be_visible()
    reason.fill("Still referenced by invoices")
    reason.press("Enter")
    decided(root, card, "denied", "I did not delete the record")
    expect(card.locator(".mn-denied")).to_have_text("Declined: Still referenced by invoices")
    assert python_line(page, 3, "RESULT").split(" ", 2) == [
        "finished",
        "denied",
        "'Still referenced by invoices'",
    ]
    assert not page_events.errors
    e2e.screenshot(root, "live-decline-done")
