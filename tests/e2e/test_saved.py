"""A notebook saved in JupyterLab after a run carries the finished run's transcript (for GitHub,
nbviewer and nbconvert), though the run ended after its cell did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Lab, open_notebook, run_cells, save, view_root, wait_status

pytestmark = pytest.mark.e2e

PLAIN = Path(__file__).resolve().parents[1] / "fixtures" / "plain-text.jsonl"


def test_saved_notebook_has_the_final_transcript(lab: Lab, page: Any) -> None:
    cells = [f"import mastra_notebook as mn\nmn.view({str(PLAIN)!r}, delay=0.03)", "1 + 1"]
    open_notebook(page, lab.notebook("saved", cells))
    run_cells(page, 0, 1)  # the first cell is long done when its run ends
    wait_status(view_root(page, 0), "finished", timeout=30_000)
    page.wait_for_function(
        "() => document.querySelector('.mastra-notebook-transcript')?.textContent.includes('finished')"
    )
    save(page)
    saved = json.loads((lab.root / "saved.ipynb").read_text())
    outputs = saved["cells"][0]["outputs"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(html) == 1
    text = "".join(html[0]) if isinstance(html[0], list) else html[0]
    assert "Three tips for clean Python" in text
    assert "finished" in text
