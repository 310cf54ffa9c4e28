"""A gallery executed headless (nbclient, widget state stored, as `jupyter execute` does) and reopened
in JupyterLab, nothing run: its grid draws from the saved state, the page's tiles as data (no run's
view is saved: none is open), and its saved copy (the static grid, an output of its own) is hidden.
Saved without widget state (JupyterLab's default), trusted: the static grid shows, once, and the
widget's output above it says nothing (it said "Loading widget...", then "model not found")."""

from __future__ import annotations

import copy
import json
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.sign import NotebookNotary

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

# recording: a sentence of its last text
RUNS = {"tool-call": "partly cloudy, humidity 64%", "plain-text": "", "reasoning": ""}
GALLERY = f"""import mastra_notebook as mn
from mastra_notebook.core.recording import Recording
from mastra_notebook.widget.gallery import Gallery

batch = Gallery({len(RUNS)})  # every tile opens in this cell: nbclient saves what a cell sends
for name in {list(RUNS)!r}:
    def start(path={str(e2e.FIXTURES)!r} + f"/{{name}}.jsonl"):
        view = mn.StreamView()

        async def work():
            for item in Recording.load(path).items:
                view.feed(item)

        return view, work

    batch.submit(start, prompt=f"replay the {{name}} recording", title="fixture")
batch"""
WAIT = "results = batch.wait(60)\nprint('DONE', [r.status for r in results])"
KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}
STATE = "application/vnd.jupyter.widget-state+json"


@pytest.fixture(scope="module")
def saved(lab: e2e.Lab) -> e2e.Lab:
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in (GALLERY, WAIT)]
    )
    notebook.metadata["kernelspec"] = KERNEL
    NotebookClient(notebook, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    notary = NotebookNotary(data_dir=str(lab.root.parent / "data"))
    # the same notebook as JupyterLab saves it by default: signed, no widget state
    stateless = copy.deepcopy(notebook)
    del stateless.metadata["widgets"]
    stateless.metadata["title"] = "no state"  # trust is kept by content: a signed twin would trust this one
    for name, saving in (("gallery-saved", notebook), ("gallery-saved-no-state", stateless)):
        notary.sign(saving)  # as JupyterLab signs what it saves
        nbformat.write(saving, lab.root / f"{name}.ipynb")
    return lab


def saved_grids(page: Any) -> Any:
    """The first cell's saved copies of its grid (the static grid, named by its widget's key)."""
    return e2e.cell(page, 0).locator(".jp-OutputArea .mn-grid-static.mastra-notebook-transcript")


def test_the_saved_state_holds_the_page_as_data_and_no_run_s_view(saved: e2e.Lab) -> None:
    notebook = json.loads((saved.root / "gallery-saved.ipynb").read_text())
    models = notebook["metadata"]["widgets"][STATE]["state"]
    esms = [model["state"]["_esm"] for model in models.values() if "_esm" in model["state"]]
    assert not [esm for esm in esms if "mountStatic" in esm]  # no run's view: the views' bundle is not saved
    (grid,) = [model["state"]["page"] for model in models.values() if "page" in model["state"]]
    assert [tile["runs"][0]["status"] for tile in grid["tiles"]] == ["finished"] * len(RUNS)
    # the cell's HTML beside the widget: the same grid, drawn in the kernel (where no widget draws)
    (lines,) = [
        o["data"]["text/html"] for o in notebook["cells"][0]["outputs"] if "text/html" in o.get("data", {})
    ]
    html = "".join(lines)  # nbformat keeps a multiline string as its lines
    assert f"{len(RUNS)} done" in html
    assert "replay the plain-text recording" in html


def test_a_saved_gallery_draws_its_tiles_when_reopened(saved: e2e.Lab, browser: Any) -> None:
    with e2e.watched_page(browser, "gallery-saved") as (page, events):
        page.goto(f"{saved.url}/lab/workspaces/gallery-saved/tree/gallery-saved.ipynb")
        gallery = e2e.cell(page, 0).locator(".mn-gallery").first
        tiles = gallery.locator(".mn-grid-tile")
        tiles.nth(len(RUNS) - 1).wait_for(timeout=60_000)
        e2e.steady(gallery)
        assert tiles.count() == len(RUNS)
        for index, name in enumerate(RUNS):
            tile = tiles.nth(index)
            assert tile.get_attribute("data-status") == "finished"
            assert name in tile.inner_text()  # the part of its prompt that tells it apart
            assert tile.locator(".mn-grid-title").get_attribute("title") == f"replay the {name} recording"
        # styled: the grid's styles reached the page
        assert gallery.locator(".mn-grid-tiles").evaluate("el => getComputedStyle(el).display") == "grid"
        # the live grid drew: its saved copy, in the output below, is hidden
        assert saved_grids(page).count() == 1
        assert not saved_grids(page).first.is_visible()
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            e2e.screenshot(gallery, f"gallery-saved-{'dark' if dark else 'light'}")
        assert not events.errors, events.errors


def test_a_gallery_saved_without_widget_state_shows_its_static_grid_once(
    saved: e2e.Lab, browser: Any
) -> None:
    with e2e.watched_page(browser, "gallery-saved-no-state") as (page, events):
        page.goto(f"{saved.url}/lab/workspaces/gallery-saved-no-state/tree/gallery-saved-no-state.ipynb")
        grids = saved_grids(page)
        grids.first.wait_for(timeout=60_000)
        output = e2e.cell(page, 0).locator(".jp-OutputArea")
        e2e.steady(output)
        assert grids.count() == 1
        assert grids.first.is_visible()
        assert e2e.cell(page, 0).locator(".mn-gallery").count() == 0  # no widget drew
        shown = grids.first.inner_text()
        assert f"{len(RUNS)} done" in shown
        assert all(name in shown for name in RUNS)  # each tile, headed by what tells its prompt apart
        # the widget that cannot draw says nothing above it ("Loading widget...", "model not found")
        assert "widget" not in output.inner_text().lower()
        widget_output = output.locator(".jp-OutputArea-child").first.locator(".jp-OutputArea-output")
        assert not widget_output.is_visible()  # there, and hidden (LOST_WIDGET_RULE)
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            e2e.screenshot(output, f"gallery-saved-no-state-{'dark' if dark else 'light'}")
        assert not events.errors, events.errors
