"""A gallery executed headless (nbclient, widget state stored, as `jupyter execute` does) and reopened
in JupyterLab, nothing run: its tiles draw from the saved state. Each tile's saved state holds only
the bundle's key; the gallery's hidden carrier, saved beside them, holds the bundle itself."""

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


def test_the_saved_state_holds_the_bundle_once(saved: e2e.Lab) -> None:
    notebook = json.loads((saved.root / "gallery-saved.ipynb").read_text())
    models = notebook["metadata"]["widgets"][STATE]["state"]
    esms = [model["state"]["_esm"] for model in models.values() if "_esm" in model["state"]]
    assert sum("mountStatic" in esm for esm in esms) == 1  # the carrier's
    assert len(esms) == len(RUNS) + 1  # the tiles' entries: the key alone
    assert sorted(len(esm) for esm in esms)[-2] < 1000


def test_a_saved_gallery_draws_its_tiles_when_reopened(saved: e2e.Lab, browser: Any) -> None:
    with e2e.watched_page(browser, "gallery-saved") as (page, events):
        page.goto(f"{saved.url}/lab/workspaces/gallery-saved/tree/gallery-saved.ipynb")
        gallery = e2e.cell(page, 0).locator(".mn-gallery").first
        tiles = gallery.locator(".mn-gallery-slot .mn-root")
        tiles.nth(len(RUNS) - 1).wait_for(timeout=60_000)
        e2e.steady(gallery)
        assert tiles.count() == len(RUNS)
        for index, words in enumerate(RUNS.values()):
            tile = tiles.nth(index)
            assert tile.get_attribute("data-status") == "finished"
            assert words in tile.inner_text()
            # styled: the styles the carrier holds reached the page
            assert tile.locator(".mn-header").first.evaluate("el => getComputedStyle(el).display") == "flex"
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            e2e.screenshot(gallery, f"gallery-saved-{'dark' if dark else 'light'}")
        assert not events.errors, events.errors
