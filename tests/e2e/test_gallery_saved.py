"""A gallery executed headless (nbclient, widget state stored, as `jupyter execute` does) and reopened
in JupyterLab, nothing run: its grid draws from the saved state, the page's tiles as data (no run's
view is saved: none is open)."""

from __future__ import annotations

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
    NotebookNotary(data_dir=str(lab.root.parent / "data")).sign(notebook)  # as JupyterLab signs what it saves
    nbformat.write(notebook, lab.root / "gallery-saved.ipynb")
    return lab


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
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            e2e.screenshot(gallery, f"gallery-saved-{'dark' if dark else 'light'}")
        assert not events.errors, events.errors
