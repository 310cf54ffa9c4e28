"""Real providers' streams (recorded through Mastra) and a stream nested 100 levels deep, rendered by
the widget in a real JupyterLab, in the light and the dark theme.

The last cell prints what Python read from each stream, so the browser is compared with Python.
Screenshots land in ``test-artifacts/provider-<name>-<theme>.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

PROVIDERS = Path(__file__).resolve().parents[1] / "fixtures" / "providers"
NAMES = sorted(path.stem for path in PROVIDERS.glob("*.jsonl"))
DEEP_LEVELS = 100  # the view draws 16 levels and says how many more there are

DEEP_CELL = f"""\
inner = {{"type": "text-delta", "runId": "bottom", "from": "AGENT", "payload": {{"id": "t", "text": "the bottom"}}}}
for level in reversed(range({DEEP_LEVELS})):
    inner = {{"type": "tool-output", "runId": f"r{{level}}", "from": "AGENT",
             "payload": {{"toolCallId": f"c{{level}}", "toolName": f"agent-level{{level}}", "output": inner}}}}
deep = mn.view(title="deep")
deep.feed({{"type": "tool-call", "runId": "r", "from": "AGENT", "payload": {{"toolCallId": "c0", "toolName": "agent-level0", "args": {{}}}}}})
deep.feed(inner)
deep.end()
deep"""

REPORT_CELL = """\
import json
_views = {v.title.removesuffix(".jsonl"): v for v in Out.values() if isinstance(v, mn.StreamView)}
def _report(result):
    parts = result.parts
    return {
        "status": result.status,
        "texts": sum(p.kind == "text" and bool(p.text) for p in parts),
        "tool_calls": len(result.tool_calls),
        "provider_executed": sum(c.provider_executed for c in result.tool_calls),
        "sources": len(result.sources),
        "banners": [p.text for p in parts if p.kind == "banner"],
        "signatures": [p.value.get("signature") for p in parts if p.kind == "reasoning" and p.value.get("signature")],
        "first_text": next((p.text for p in parts if p.kind == "text" and p.text), None),
    }
print("RESULTS " + json.dumps({name: _report(v.wait(60)) for name, v in sorted(_views.items())}))
"""


@pytest.fixture(scope="module")
def rendered(lab: e2e.Lab, browser: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    cells = ["import mastra_notebook as mn"]
    cells += [f"mn.view({str(PROVIDERS / f'{name}.jsonl')!r})" for name in NAMES]
    cells += [DEEP_CELL, REPORT_CELL]
    with e2e.watched_page(browser, "test_providers_render") as (page, _):
        e2e.open_notebook(page, lab.notebook("providers", cells))
        e2e.run_all(page)
        results = e2e.printed_json(page, len(cells) - 1)
        assert sorted(results) == sorted([*NAMES, "deep"])
        yield page, results


def root_of(page: Any, name: str) -> Any:
    index = NAMES.index(name) + 1 if name in NAMES else len(NAMES) + 1
    return e2e.view_root(page, index)


def texts(root: Any) -> Any:
    return root.locator(".mn-run-root > .mn-parts > .mn-text")


def top_tools(root: Any) -> Any:
    return root.locator(".mn-run-root > .mn-parts > .mn-tool")


@pytest.mark.parametrize("name", NAMES)
def test_each_provider_stream_shows_what_python_read(rendered: tuple[Any, dict[str, Any]], name: str) -> None:
    page, results = rendered
    expected = results[name]
    root = root_of(page, name)
    assert e2e.wait_status(root, expected["status"]) == expected["status"]
    expect(texts(root)).to_have_count(expected["texts"])
    expect(top_tools(root)).to_have_count(expected["tool_calls"])
    expect(root.locator(".mn-origin", has_text="run by the provider")).to_have_count(
        expected["provider_executed"]
    )
    expect(root.locator(".mn-run-root > .mn-parts > .mn-source")).to_have_count(expected["sources"])
    for banner in expected["banners"]:
        expect(root.locator(".mn-banner").filter(has_text=banner[:60]).first).to_be_visible()
    shown = root.inner_text()
    for signature in expected["signatures"]:  # kept in the result, never drawn
        assert signature[:40] not in shown
    for reasoning in root.locator("details.mn-reasoning").all():  # an empty block is not drawn
        if reasoning.is_visible():
            assert reasoning.locator(".mn-md").text_content().strip()


def test_reused_ids_keep_each_steps_text_in_its_place(rendered: tuple[Any, dict[str, Any]]) -> None:
    """The router names the text txt-0 and a call call_0 in every step: three texts, three calls,
    step 1's text before the first call."""
    page, results = rendered
    root = root_of(page, "router-openai-tools")
    kinds = root.locator(".mn-run-root > .mn-parts > :is(.mn-text, .mn-tool)").evaluate_all(
        "els => els.map(el => el.dataset.kind)"
    )
    assert kinds == ["text", "tool", "text", "tool", "tool", "text"]
    expect(texts(root).first).to_have_text(results["router-openai-tools"]["first_text"])


def test_a_refusal_says_why(rendered: tuple[Any, dict[str, Any]]) -> None:
    page, _ = rendered
    banner = root_of(page, "anthropic-refusal").locator(".mn-banner")
    expect(banner).to_contain_text("The provider refused to answer (content-filter)")
    expect(banner).to_contain_text("blocked under Anthropic's Usage Policy")


def test_deep_nesting_says_how_much_it_does_not_draw(rendered: tuple[Any, dict[str, Any]]) -> None:
    page, results = rendered
    root = root_of(page, "deep")
    assert results["deep"]["status"] == "incomplete"
    note = root.locator(".mn-hidden-levels:visible")
    expect(note).to_have_count(1)
    expect(note).to_contain_text(f"{DEEP_LEVELS - 16} more levels of nested runs")
    expect(root.locator("details.mn-run-nested")).to_have_count(16)


SHOWN = [
    "router-openai-tools",
    "anthropic-web-search",
    "anthropic-refusal",
    "openai-responses-reasoning",
    "deep",
]


@pytest.mark.screenshots
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots_in_both_themes(rendered: tuple[Any, dict[str, Any]], theme: str) -> None:
    page, _ = rendered
    label = "JupyterLab Dark" if theme == "dark" else "JupyterLab Light"
    page.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{label}'}})")
    page.wait_for_function(
        "dark => document.body.dataset.jpThemeLight === (dark ? 'false' : 'true')", arg=theme == "dark"
    )
    e2e.painted(page)  # in the new theme
    for name in SHOWN:
        path = e2e.screenshot(root_of(page, name), f"provider-{name}-{theme}", max_height=2400)
        assert path is not None
        assert path.stat().st_size > 5_000
