"""The example notebooks run top to bottom against the bundled server, as a newcomer would run them."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from ..helpers import kernel_sees_the_package

pytestmark = pytest.mark.server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_notebook(name: str, mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """Run an example in a copy of examples/ (what it writes stays out of the repository)."""
    monkeypatch.setenv("MASTRA_BASE_URL", mastra_url)
    kernel_sees_the_package(monkeypatch)
    workdir = shutil.copytree(EXAMPLES, tmp_path / "examples")
    notebook = nbformat.read(workdir / name, as_version=4)
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(workdir)}}
    ).execute()
    return "\n".join(
        str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )


def test_quickstart(mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = run_notebook("quickstart.ipynb", mastra_url, monkeypatch, tmp_path)
    assert "'temperatureC': 18" in text
    assert "WeatherSummary(city='Paris'" in text
    assert "finished" in text


def test_nested_agents(mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = run_notebook("nested-agents.ipynb", mastra_url, monkeypatch, tmp_path)
    assert "('getForecast', 'done'), ('agent-analyst', 'done')" in text
    assert "forecast-progress" in text


def test_approvals(mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = run_notebook("approvals.ipynb", mastra_url, monkeypatch, tmp_path)
    assert "suspended" in text
    assert "{'deleted': True, 'id': 'abc-123'}" in text
    assert "Lisbon" in text
    assert "'approved': True" in text


def test_teaching(mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = run_notebook("teaching.ipynb", mastra_url, monkeypatch, tmp_path)
    assert "18 of 65 chunks: ['running']" in text
    assert "('getForecast', 'done')" in text
    assert "forecast-progress" in text
    assert "agent-researcher" in text


def test_prompt_iteration(mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = run_notebook("prompt-iteration.ipynb", mastra_url, monkeypatch, tmp_path)
    assert "--- Paris\n+++ Tokyo" in text
    assert text.count("finished") >= 8
    assert "True" in text  # the saved recording reads back the same text
    assert (tmp_path / "examples" / "paris.html").read_text().startswith("<!doctype html>")


def test_tool_iteration(mastra_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = run_notebook("tool-iteration.ipynb", mastra_url, monkeypatch, tmp_path)
    assert "finished notebook [{'city': 'Mexico City', 'rainy_days': 133}" in text  # v1 ran in the kernel
    assert "'share': 0.241}" in text  # v2, changed in the notebook, ran on the next request
    assert '+- top_cities returned [{"city":"Mexico City","rainy_days":133,"share":0.241}' in text  # compared
    assert "finished | invalid arguments for top_cities: n: Input should be a valid integer" in text


def test_two_waits_in_one_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """wait() inside a running kernel, twice in a cell: the second view must not hang (nest-asyncio2
    swaps asyncio.Future for its own class once applied; a view made before is no instance of it)."""
    kernel_sees_the_package(monkeypatch)
    recording = EXAMPLES / "recordings" / "agent-as-tool.jsonl"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        f"import mastra_notebook as mn\na = mn.view({str(recording)!r}, delay=0.005)\n"
        f"b = mn.view({str(recording)!r}, delay=0.01)\nprint(a.wait(30).status, b.wait(30).status)"
    )]  # fmt: skip
    NotebookClient(notebook, timeout=60, kernel_name="python3").execute()
    assert notebook.cells[0].outputs[0]["text"].strip() == "finished finished"
