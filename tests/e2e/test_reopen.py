"""A notebook executed headless and reopened, nothing run, reads as its run ended: in JupyterLab and in
Notebook 7, with and without saved widget state, the finished run is shown once.

A trusted notebook's saved widget state lets the view draw: the view shows the run and its transcript
is hidden. An untrusted one (executed headless, or downloaded: not signed here) shows the widget's
text/plain, not the widget; the saved state still loads our stylesheet, and the transcript shows.
Before, one global rule of that stylesheet hid every transcript on the page.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.sign import NotebookNotary

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

TOOL_CALL = Path(__file__).resolve().parents[1] / "fixtures" / "tool-call.jsonl"
# the view shown in one cell, awaited in the next (as examples/ do)
CELLS = [f"import mastra_notebook as mn\nv = mn.view({str(TOOL_CALL)!r}, delay=0.01)\nv", "r = v.wait()"]
FINAL_WORDS = "partly cloudy, humidity 64%"  # the run's last sentence
# name: (saved widget state, signed as trusted, the view draws from the saved state)
SAVED = {
    "reopen-trusted": (True, True, True),
    "reopen-untrusted": (True, False, False),
    "reopen-no-state": (False, False, False),
    # JupyterLab's default: it signs the notebook it saves, but saves no widget state
    "reopen-trusted-no-state": (False, True, False),
}
KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}
FRONTENDS = {"lab": "/lab/workspaces/{name}/tree/{name}.ipynb", "notebook7": "/notebooks/{name}.ipynb"}


@pytest.fixture(scope="module")
def saved(lab: e2e.Lab) -> e2e.Lab:
    """The notebooks, executed by nbclient (as `jupyter execute` does) and saved in the lab's folder."""
    notary = NotebookNotary(data_dir=str(lab.root.parent / "data"))  # the lab's JUPYTER_DATA_DIR
    executed = {}
    for widget_state in (True, False):
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
        notebook.metadata["kernelspec"] = KERNEL
        NotebookClient(notebook, timeout=60, kernel_name="python3", store_widget_state=widget_state).execute()
        executed[widget_state] = notebook
    for name, (widget_state, trusted, _) in SAVED.items():
        notebook = copy.deepcopy(executed[widget_state])
        notebook.metadata["title"] = name  # trust is kept by content: a signed twin would trust this one
        if trusted:  # as JupyterLab signs a notebook it saves
            notary.sign(notebook)
        nbformat.write(notebook, lab.root / f"{name}.ipynb")
    return lab


# The widget's module: anywidget imports it as a saved state's models load, whether or not they draw
MODULE_LOADED = """() => Object.keys(globalThis).some((key) => key.startsWith('mastra_notebook:'))"""


def shown_once(page: Any) -> Any:
    """The one visible place in the first cell's output that holds the finished run."""
    holders = e2e.cell(page, 0).locator(".mn-root, .mastra-notebook-transcript").filter(has_text=FINAL_WORDS)
    visible = [holder for holder in holders.all() if holder.is_visible()]
    assert len(visible) == 1, f"the finished run is shown {len(visible)} times"
    return visible[0]


@pytest.mark.parametrize("frontend", sorted(FRONTENDS))
@pytest.mark.parametrize("name", sorted(SAVED))
def test_a_reopened_notebook_shows_its_finished_run_once(
    saved: e2e.Lab, browser: Any, frontend: str, name: str
) -> None:
    widget_state, _, draws = SAVED[name]
    with e2e.watched_page(browser, f"{name}-{frontend}") as (page, events):
        page.goto(saved.url + FRONTENDS[frontend].format(name=name))
        output = e2e.cell(page, 0).locator(".jp-OutputArea")
        output.locator(".mn-root" if draws else ".mastra-notebook-transcript").first.wait_for(timeout=60_000)
        if widget_state:
            page.wait_for_function(MODULE_LOADED, timeout=30_000)
        e2e.steady(output)  # the saved views that can draw have drawn
        assert page.evaluate(MODULE_LOADED) == widget_state
        shown = shown_once(page)
        if draws:  # the view drew from its saved final state: the transcript beside it is hidden
            assert shown.get_attribute("data-status") == "finished"
        else:
            assert "mastra-notebook-transcript" in (shown.get_attribute("class") or "")
            assert "finished" in shown.inner_text()
            assert e2e.cell(page, 0).locator(".mn-root").count() == 0
        assert "transcript follows" not in output.inner_text()  # the widget's text/plain says nothing
        # saved without widget state (JupyterLab's default): the widget that cannot draw says nothing
        # above the transcript (it said "Loading widget...", then "Error displaying widget: model not found")
        assert "widget" not in output.inner_text().lower().split("\n", 1)[0]
        assert not [error for error in events.errors if error not in e2e.NOTEBOOK7_OWN_ERRORS], events.errors
        if frontend == "lab":  # Notebook 7 draws its outputs as JupyterLab does (its page: light)
            for dark in e2e.shot_darks():
                e2e.theme(page, dark)
                e2e.screenshot(output, f"{name}-{frontend}-{'dark' if dark else 'light'}")
