"""Issue 21 beyond JupyterLab's live view, in headless Chromium: a tool's records as a table card and its
image part as an image card in Notebook 7 and Voila; a registered renderer's table after a reload (a
notebook executed headless with its widget state, reopened in JupyterLab: the view draws the table from
the saved state; untrusted, its transcript shows the table); ``mn.compare`` of two runs with rich
results, side by side. Screenshots light and dark: test-artifacts/tool-{notebook7,voila,reload,compare}-*.png
(marimo: tests/e2e/test_rich_results.py; the headless checks: tests/test_rich_views.py)."""

from __future__ import annotations

import re
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.sign import NotebookNotary
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

RICH = e2e.FIXTURES / "tool-rich-results.jsonl"  # queryOrders' 57 flat records, chartRevenue's PNG part
VIEW = f"import mastra_notebook as mn\nmn.view({str(RICH)!r})"
KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}


def table_and_image(root: Any) -> Any:
    """The finished view's table card (its 57 records: 50 rows drawn, the rest said, the folded head
    their count) and its image card (a PNG drawn); returns the table card, opened."""
    e2e.wait_status(root, *e2e.ENDED)
    table = e2e.tool_card(root, "queryOrders")
    expect(table.locator(".mn-fold-outcome")).to_have_text("→ 57 rows")
    e2e.opened(table)
    expect(table.locator(".mn-rich table.mn-table tbody tr")).to_have_count(50)
    expect(table.locator(".mn-table-more")).to_have_text("7 more rows (in the JSON)")
    scroll = table.locator(".mn-table-scroll")
    assert scroll.evaluate("el => el.scrollHeight > el.clientHeight")  # taller than its box: it scrolls,
    assert scroll.evaluate("el => el.offsetWidth - el.clientWidth > 0")  # with a scrollbar that shows
    image = e2e.opened(e2e.tool_card(root, "chartRevenue")).locator(".mn-rich img")
    expect(image).to_have_attribute("src", re.compile(r"^data:image/png;base64,"))
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    return table


# ---- Notebook 7 ------------------------------------------------------------------------------------


def test_notebook7_draws_the_table_and_image_cards(lab: e2e.Lab, browser: Any) -> None:
    lab.notebook("rich-nb7", [VIEW])
    with e2e.watched_page(browser, "tool-notebook7", width=1100) as (page, events):
        page.goto(f"{lab.url}/notebooks/rich-nb7.ipynb")
        e2e.wait_notebook_ready(page)
        e2e.run_cells(page, 0)
        root = e2e.view_root(page, 0)
        table = table_and_image(root)
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            table.evaluate(e2e.SHOW_BELOW_HEADER)
            page.mouse.move(0, 0)  # no row under the pointer
            e2e.painted(page)
            e2e.screenshot(root, f"tool-notebook7-{'dark' if dark else 'light'}")
        e2e.theme(page, False)
        assert not [error for error in events.errors if error not in e2e.NOTEBOOK7_OWN_ERRORS], events.errors


# ---- Voila -------------------------------------------------------------------------------------------


# the dark run repeats the light run's checks (a theme is CSS variables): its picture, on demand
@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.screenshots)])
def test_voila_draws_the_table_and_image_cards(lab: e2e.Lab, browser: Any, theme: str) -> None:
    lab.notebook("rich-voila", [VIEW])
    with e2e.watched_page(browser, f"tool-voila-{theme}", width=1100) as (page, events):
        page.goto(f"{lab.url}/voila/render/rich-voila.ipynb{'?theme=dark' if theme == 'dark' else ''}")
        root = page.locator(".mn-root").first
        root.wait_for(timeout=60_000)
        table_and_image(root).evaluate(e2e.SHOW_BELOW_HEADER)
        page.mouse.move(0, 0)
        e2e.painted(page)
        e2e.shoot(root, f"tool-voila-{theme}")
        assert not events.errors, events.errors


# ---- a registered renderer's table, after a reload -------------------------------------------------

# the renderer maps the tool's JSON rows to a DataFrame: its card shows pandas' table
RENDERED = f"""import mastra_notebook as mn
import pandas as pd
v = mn.view({str(RICH)!r}, renderers={{"queryOrders": pd.DataFrame}})
v"""
WAIT = "r = v.wait()"  # in the next cell, as examples/ do: the saved state is the ended run's
MODULE_LOADED = "() => Object.keys(globalThis).some((key) => key.startsWith('mastra_notebook:'))"


@pytest.fixture(scope="module")
def reloaded(lab: e2e.Lab) -> e2e.Lab:
    """The renderer's notebook executed headless with its widget state (as `jupyter execute
    --store-widget-state` does), saved twice: signed as trusted (as JupyterLab signs what it saves), and
    not (downloaded)."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in (RENDERED, WAIT)])
    notebook.metadata["kernelspec"] = KERNEL
    NotebookClient(notebook, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    nbformat.write(notebook, lab.root / "rich-reload-untrusted.ipynb")
    notebook.metadata["title"] = "trusted"  # trust is kept by content: a signed twin would trust the other
    NotebookNotary(data_dir=str(lab.root.parent / "data")).sign(notebook)  # the lab's JUPYTER_DATA_DIR
    nbformat.write(notebook, lab.root / "rich-reload-trusted.ipynb")
    return lab


def test_a_renderers_table_is_drawn_again_from_the_saved_widget_state(
    reloaded: e2e.Lab, browser: Any
) -> None:
    with e2e.watched_page(browser, "tool-reload", width=1100) as (page, events):
        e2e.open_notebook(page, f"{reloaded.url}/lab/workspaces/rich-reload/tree/rich-reload-trusted.ipynb")
        output = e2e.cell(page, 0).locator(".jp-OutputArea")
        root = e2e.saved_view(page, output)  # nothing was run: the view draws from the saved state
        page.wait_for_function(MODULE_LOADED, timeout=30_000)
        assert e2e.wait_status(root, *e2e.ENDED) == "finished"
        card = e2e.tool_card(root, "queryOrders")
        expect(card.locator(".mn-fold-outcome")).to_have_text("→ 57 rows")
        e2e.opened(card)
        html = card.locator(".mn-rich .mn-rich-html[data-mime='text/html'] table")
        expect(html).to_have_count(1)  # the renderer's table (pandas' HTML), not the built-in one
        expect(card.locator(".mn-rich table.mn-table")).to_have_count(0)
        expect(html.locator("tbody tr")).to_have_count(50)
        expect(card.locator(".mn-rich-preview")).to_contain_text("7 more rows stay in the kernel")
        expect(card.locator("details.mn-rich-json")).to_have_count(1)
        expect(output.locator(".mastra-notebook-transcript")).to_be_hidden()  # beside the drawn view
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            card.evaluate(e2e.SHOW_BELOW_HEADER)
            page.mouse.move(0, 0)
            e2e.painted(page)
            e2e.screenshot(card, f"tool-reload-{'dark' if dark else 'light'}")
        e2e.theme(page, False)
        assert not events.errors, events.errors


def test_an_untrusted_reload_shows_the_renderers_table_in_its_transcript(
    reloaded: e2e.Lab, browser: Any
) -> None:
    with e2e.watched_page(browser, "tool-reload-untrusted", width=1100) as (page, events):
        e2e.open_notebook(
            page, f"{reloaded.url}/lab/workspaces/rich-untrusted/tree/rich-reload-untrusted.ipynb"
        )
        transcript = e2e.cell(page, 0).locator(".mastra-notebook-transcript")
        expect(transcript).to_be_visible(timeout=60_000)
        # JupyterLab's sanitiser keeps no data- attributes in an untrusted output: the card by its text
        card = transcript.locator("details").filter(has_text="queryOrders(").first
        card.evaluate("el => { el.open = true; }")
        expect(card.locator("table tbody tr")).to_have_count(50)
        expect(card).to_contain_text("7 more rows stay in the kernel")
        assert not events.errors, events.errors


# ---- mn.compare ----------------------------------------------------------------------------------------

COMPARE = f"""import mastra_notebook as mn
import pandas as pd
mn.renderer("queryOrders", pd.DataFrame)
mn.compare({str(RICH)!r}, {str(RICH)!r})"""


def test_compare_draws_rich_results_side_by_side(lab: e2e.Lab, browser: Any) -> None:
    with e2e.watched_page(browser, "tool-compare", width=1900) as (page, events):
        e2e.open_and_run(page, lab.notebook("rich-compare", [COMPARE]), 0)
        compare = e2e.cell(page, 0).locator(".mastra-notebook-compare")
        expect(compare).to_be_visible(timeout=60_000)
        query = compare.locator(".mn-compare-call").filter(has=page.locator("code", has_text="queryOrders"))
        expect(query).to_have_count(2)
        for call in query.all():
            expect(call.locator(".mn-compare-result")).to_have_text("→ 57 rows")
            expect(call.locator(".mn-compare-rich table tbody tr")).to_have_count(50)
        images = compare.locator(".mn-compare-rich img")
        expect(images).to_have_count(4)  # chartRevenue's PNG and statusBadge's data: URL, in each run
        for image in images.all():
            assert image.evaluate("img => img.complete && img.naturalWidth > 0")
        row = query.first.locator("xpath=ancestor::tr[1]")
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            page.mouse.move(0, 0)
            e2e.painted(page)
            e2e.screenshot(row, f"tool-compare-{'dark' if dark else 'light'}")
        e2e.theme(page, False)
        assert not events.errors, events.errors


# ---- an experiment cell, opened ------------------------------------------------------------------------

EXPERIMENT = f"""import asyncio
import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import items_of
from mastra_notebook.widget.experiment_view import Experiment

LINES = open({str(RICH)!r}).read().splitlines()


def start(item, variant, repeat):  # each cell replays the recording: its run has the table and image
    view = mn.StreamView()

    async def work():
        await asyncio.sleep(0)
        for line in LINES:
            view.feed(line)

    return view, work


exp = Experiment(items_of(["orders?"]), {{"a": {{}}, "b": {{}}}}, start=start, name="rich")
exp"""


def test_an_experiment_cells_opened_view_draws_the_table_and_image(lab: e2e.Lab, browser: Any) -> None:
    with e2e.watched_page(browser, "tool-experiment", width=1100) as (page, events):
        e2e.open_and_run(
            page, lab.notebook("rich-experiment", [EXPERIMENT, "exp.wait(60)\nprint('DONE')"]), 0, 1
        )
        expect(e2e.cell(page, 1).locator(".jp-OutputArea-output")).to_contain_text("DONE", timeout=60_000)
        grid = e2e.cell(page, 0).locator(".mn-experiment")
        expect(grid.locator(".mn-exp-progress")).to_contain_text("2 done", timeout=30_000)
        grid.locator(".mn-grid-cell").nth(1).locator(".mn-grid-open").first.click()  # variant b
        detail = grid.locator(".mn-grid-detail .mn-root")
        expect(detail).to_be_visible(timeout=30_000)
        table = table_and_image(detail)
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            table.evaluate(e2e.SHOW_BELOW_HEADER)
            page.mouse.move(0, 0)
            e2e.painted(page)
            e2e.screenshot(grid, f"tool-experiment-{'dark' if dark else 'light'}", max_height=3000)
        e2e.theme(page, False)
        assert not events.errors, events.errors
