"""Issue 21 in a real JupyterLab, light and dark: a tool's flat records as a table card, a renderer's
matplotlib figure as a chart card (an image bundle), a SQL argument highlighted while it streams, and
the transcript's table; marimo's table card. Screenshots: test-artifacts/tool-<what>-<theme>.png
(the kept ones are docs/screenshots/tool-*.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

RICH = e2e.FIXTURES / "tool-rich-results.jsonl"
SQL_DELTAS = 12  # the stream cut inside queryOrders' SQL argument: it is still streaming

SETUP = f"""import mastra_notebook as mn
import pandas as pd
from matplotlib.figure import Figure  # no pyplot: a figure made in a renderer is not shown by the cell

RICH = {str(RICH)!r}
mn.renderer("queryOrders", args={{"sql": "sql"}})


def revenue_chart(rows):
    by_region = pd.DataFrame(rows).groupby("region")["revenue"].sum().sort_values(ascending=False)
    figure = Figure(figsize=(4.6, 2.6), dpi=100)
    axes = figure.subplots()
    axes.bar(by_region.index, by_region.values, color="#4c78a8")
    axes.set_title("Revenue by region")
    axes.set_ylabel("USD")
    figure.tight_layout()
    return figure"""

STREAMING = f"""streaming = mn.view(title="streaming")
lines, deltas = open(RICH).read().splitlines(), 0
for line in lines:
    streaming.feed(line)
    deltas += '"tool-call-delta"' in line
    if deltas == {SQL_DELTAS}:
        break
streaming"""


@pytest.fixture(scope="module")
def notebook(lab: e2e.Lab, browser: Any) -> Iterator[Any]:
    cells = [
        SETUP,
        "mn.view(RICH)",
        'mn.view(RICH, renderers={"queryOrders": revenue_chart})',
        STREAMING,
        "mn.collect(RICH)",
    ]
    with e2e.watched_page(browser, "test_rich_results", width=1100) as (page, events):
        e2e.open_notebook(page, lab.notebook("rich_results", cells))
        e2e.run_all(page)
        for index in (1, 2):
            e2e.wait_status(e2e.view_root(page, index), *e2e.ENDED)
        yield page
        assert not events.errors, events.errors


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_records_draw_as_a_table_card(notebook: Any, theme: str) -> None:
    e2e.set_theme(notebook, theme)
    root = e2e.view_root(notebook, 1)
    card = e2e.opened(e2e.tool_card(root, "queryOrders"))
    table = card.locator(".mn-rich table.mn-table")
    expect(table.locator("tbody tr")).to_have_count(50)
    expect(table.locator("thead th")).to_have_text(
        ["order_id", "region", "product", "units", "revenue", "paid", "note"]
    )
    expect(card.locator(".mn-table-more")).to_have_text("7 more rows (in the JSON)")
    # the finished SQL argument stays highlighted; the JSON one click away, folded
    expect(card.locator(".mn-args-code .hljs-keyword").first).to_have_text("SELECT")
    expect(card.locator("details.mn-rich-json")).not_to_have_attribute("open", "")
    th, td = table.locator("thead th").first, table.locator("tbody td").first
    colours = "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
    assert th.evaluate(colours)[0] == td.evaluate(colours)[0]  # the page's own text colour in both themes
    card.evaluate(e2e.SHOW_BELOW_HEADER)
    e2e.painted(notebook)
    e2e.screenshot(card, f"tool-table-{theme}")
    # the image part beside it, drawn without registration
    image = e2e.opened(e2e.tool_card(root, "chartRevenue")).locator(".mn-rich img")
    expect(image).to_have_attribute("src", re.compile(r"^data:image/png;base64,"))
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_renderers_figure_draws_as_a_chart_card(notebook: Any, theme: str) -> None:
    e2e.set_theme(notebook, theme)
    card = e2e.opened(e2e.tool_card(e2e.view_root(notebook, 2), "queryOrders"))
    image = card.locator(".mn-rich img[data-mime='image/png']")
    expect(image).to_have_count(1)
    assert image.evaluate("img => img.complete && img.naturalWidth > 300")
    expect(card.locator(".mn-rich table")).to_have_count(0)  # the renderer's drawing, not the built-in table
    card.evaluate(e2e.SHOW_BELOW_HEADER)
    e2e.painted(notebook)
    e2e.screenshot(card, f"tool-chart-{theme}")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_streaming_sql_argument_is_highlighted(notebook: Any, theme: str) -> None:
    e2e.set_theme(notebook, theme)
    root = e2e.view_root(notebook, 3)
    card = e2e.tool_card(root, "queryOrders")
    expect(card).to_have_attribute("data-tool-status", "streaming-args")
    code = card.locator(".mn-rich-args pre.mn-args-code code")
    expect(code).to_contain_text("SELECT order_id, region")
    expect(code.locator(".hljs-keyword").first).to_have_text("SELECT")
    keyword, plain = code.locator(".hljs-keyword").first, code
    colour = "el => getComputedStyle(el).color"
    assert keyword.evaluate(colour) != plain.evaluate(colour)  # highlighted, in both themes
    e2e.painted(notebook)
    e2e.screenshot(card, f"tool-args-{theme}")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_transcript_draws_the_table(notebook: Any, theme: str) -> None:
    e2e.set_theme(notebook, theme)
    transcript = e2e.cell(notebook, 4).locator(".mastra-notebook-transcript")
    expect(transcript).to_be_visible()
    card = transcript.locator("details[data-kind='tool']").filter(has_text="queryOrders").first
    card.evaluate("el => { el.open = true; }")
    expect(card.locator("table tbody tr")).to_have_count(50)
    expect(card).to_contain_text("7 more rows (in the JSON)")
    card.scroll_into_view_if_needed()
    notebook.mouse.move(0, 0)  # no row under the pointer: JupyterLab tints a hovered output table row
    e2e.painted(notebook)
    e2e.screenshot(card, f"tool-transcript-{theme}")


# ---- marimo -------------------------------------------------------------------------------------------

MARIMO_APP = """import marimo

app = marimo.App(width="medium")


@app.cell
def _():
    import mastra_notebook as mn
    mn.renderer("queryOrders", args={{"sql": "sql"}})
    return (mn,)


@app.cell
def _(mn):
    rich = mn.view({rich!r})
    rich
    return (rich,)
"""


@pytest.fixture(scope="module")
def marimo_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with e2e.serving_marimo(tmp_path_factory.mktemp("marimo_rich"), MARIMO_APP.format(rich=str(RICH))) as url:
        yield url


def test_marimo_shows_the_table_card(marimo_url: str, browser: Any) -> None:
    with e2e.watched_page(browser, "tool-marimo", full_page=True) as (page, events):
        page.goto(marimo_url)
        root = page.locator(".mn-root").first
        expect(root).to_be_visible(timeout=60_000)
        e2e.wait_status(root, *e2e.ENDED)
        card = e2e.opened(e2e.tool_card(root, "queryOrders"))
        expect(card.locator(".mn-rich table.mn-table tbody tr")).to_have_count(50)
        expect(card.locator(".mn-args-code .hljs-keyword").first).to_have_text("SELECT")
        for dark in e2e.shot_darks():
            page.emulate_media(color_scheme="dark" if dark else "light")
            e2e.painted(page)
            card.evaluate(e2e.SHOW_BELOW_HEADER)
            e2e.painted(page)
            e2e.shoot(card, f"tool-marimo-{'dark' if dark else 'light'}")
        assert not events.errors, events.errors
