"""Notebooks executed headless (nbclient, as `jupyter execute` and `nbconvert --execute` do) are saved
as their runs ended: the transcript and the saved widget state hold the final run, however it is
awaited. Headless executors record only the messages of the cell now executing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from .helpers import execute, kernel_sees_the_package

FIXTURES = Path(__file__).parent / "fixtures"
TOOL_CALL = FIXTURES / "tool-call.jsonl"
ROOT = Path(__file__).resolve().parents[1]


def transcript(notebook: Any, cell: int) -> str:
    htmls = [o["data"]["text/html"] for o in notebook.cells[cell].outputs if "text/html" in o.get("data", {})]
    assert len(htmls) == 1, notebook.cells[cell].outputs
    return str(htmls[0])


def widget_states(notebook: Any) -> list[dict[str, Any]]:
    states = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return [s["state"] for s in states.values() if s["model_name"] == "AnyModel" or "_final" in s["state"]]


def final_status(state: dict[str, Any]) -> str:
    final = json.loads(state["_final"])
    (root,) = [op[2] for op in final["ops"] if op[0] == "add" and op[1] is None]
    return str(root["status"])


CASES = {
    "awaited in its own cell": [
        f"import mastra_notebook as mn\nv = mn.view({str(TOOL_CALL)!r}, delay=0.01)\nv.wait()\nv"
    ],
    "wait() in a later cell": [
        f"import mastra_notebook as mn\nv = mn.view({str(TOOL_CALL)!r}, delay=0.01)\nv",
        "r = v.wait()",
    ],
    "await in a later cell": [
        f"import mastra_notebook as mn\nv = mn.view({str(TOOL_CALL)!r}, delay=0.01)\nv",
        "r = await v",
    ],
    "a replay awaited": [
        f"import mastra_notebook as mn\nv = mn.replay({str(TOOL_CALL)!r}, speed=50)\nv",
        "r = v.wait()",
    ],
    "never awaited, finished before the save": [
        f"import mastra_notebook as mn\nv = mn.view({str(TOOL_CALL)!r})\nv",
        # the loop is free while this cell waits (not by wait()): the run ends during it
        "import asyncio\nwhile v.streaming:\n    await asyncio.sleep(0.01)",
    ],
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_headless_notebook_is_saved_as_its_run_ended(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notebook = execute(CASES[case], tmp_path, monkeypatch)
    html = transcript(notebook, 0)
    assert "finished" in html, html[-600:]
    assert "running" not in html
    assert "Here is what I found" in html
    assert "getWeather" in html
    (state,) = widget_states(notebook)
    assert state["streaming"] is False
    assert final_status(state) == "finished"


# Read at once after wait(), await and stop() in a kernel: every part of the view is settled
SETTLED = """
import json
import mastra_notebook as mn
from mastra_notebook.core.status_words import status_word

def settled(view, status):
    final = json.loads(view._final)
    (root,) = [op[2] for op in final["ops"] if op[0] == "add" and op[1] is None]
    shown = status_word(status) in view._transcript()  # in the word the views show
    seen = (view.result.status, root["status"], view.streaming, shown)
    assert seen == (status, status, False, True), seen
"""


@pytest.mark.timeout(120)
def test_wait_await_and_stop_return_a_settled_view_in_a_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(FIXTURES / "long-text.jsonl")
    notebook = execute(
        [
            SETTLED,
            f"v = mn.view({str(TOOL_CALL)!r}, delay=0.01)\nv.wait()\nsettled(v, 'finished')",
            f"v = mn.view({str(TOOL_CALL)!r}, delay=0.01)\nawait v\nsettled(v, 'finished')",
            f"v = mn.view({path!r}, delay=0.01)\nv.stop()\nsettled(v, 'aborted')\nawait v\nsettled(v, 'aborted')",
            f"v = mn.view({path!r}, delay=0.01)\nv\n",
            "v._on_browser_message(v, {'t': 'stop'}, [])  # the Stop button\nsettled(v, 'aborted')",
            "v.wait()\nsettled(v, 'aborted')",
        ],
        tmp_path,
        monkeypatch,
    )
    assert "stopped" in transcript(notebook, 4)


def test_the_saved_text_plain_is_no_stale_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = execute(CASES["wait() in a later cell"], tmp_path, monkeypatch)
    plain = [o["data"]["text/plain"] for o in notebook.cells[0].outputs if "text/plain" in o.get("data", {})]
    assert plain
    assert all("running" not in text and "0 characters" not in text for text in plain), plain


def run_cli(command: list[str], cells: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Execute a notebook with a Jupyter command line, as a user would, and read the saved file."""
    kernel_sees_the_package(monkeypatch)
    path = tmp_path / "run.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells]), path)
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        [str(bin_dir / command[0]), *command[1:], str(path)],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return nbformat.read(path, as_version=4)


@pytest.mark.timeout(180)
@pytest.mark.parametrize(
    "command",
    [["jupyter-execute", "--inplace"], ["jupyter-nbconvert", "--to", "notebook", "--execute", "--inplace"]],
    ids=["jupyter execute", "nbconvert --execute"],
)
def test_the_jupyter_command_lines_save_the_run_as_it_ended(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notebook = run_cli(command, CASES["wait() in a later cell"], tmp_path, monkeypatch)
    html = transcript(notebook, 0)
    assert "finished" in html
    assert "Here is what I found" in html


def test_nbconvert_shows_the_transcript_with_no_stray_line_above_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """nbconvert's text of a saved view: the widget output's text/plain said ``<StreamView …: its
    transcript follows>`` above each transcript; it says nothing now, and the transcript says the run."""
    from nbconvert import MarkdownExporter

    notebook = execute(CASES["wait() in a later cell"], tmp_path, monkeypatch)
    text, _ = MarkdownExporter().from_notebook_node(notebook)
    assert "StreamView" not in text
    assert "transcript follows" not in text
    assert "partly cloudy" in text  # the transcript's (HTML, kept in markdown)
