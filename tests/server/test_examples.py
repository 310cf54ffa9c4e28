"""The example notebooks run top to bottom against the bundled server, as a newcomer would run them."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_notebook(name: str, mastra_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MASTRA_BASE_URL", mastra_url)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(EXAMPLES.parent), os.environ.get("PYTHONPATH")]))
    )
    notebook = nbformat.read(EXAMPLES / name, as_version=4)
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    ).execute()
    return "\n".join(
        str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )


def test_quickstart(mastra_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = run_notebook("quickstart.ipynb", mastra_url, monkeypatch)
    assert "'temperatureC': 18" in text
    assert "WeatherSummary(city='Paris'" in text
    assert "finished" in text


def test_nested_agents(mastra_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = run_notebook("nested-agents.ipynb", mastra_url, monkeypatch)
    assert "('getForecast', 'done'), ('agent-analyst', 'done')" in text
    assert "forecast-progress" in text


def test_approvals(mastra_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = run_notebook("approvals.ipynb", mastra_url, monkeypatch)
    assert "suspended" in text
    assert "{'deleted': True, 'id': 'abc-123'}" in text
    assert "Lisbon" in text
    assert "'approved': True" in text
