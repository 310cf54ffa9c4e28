"""A notebook saved in JupyterLab after a run carries the finished run's transcript (for GitHub,
nbviewer and nbconvert), though the run ended after its cell did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

PLAIN = Path(__file__).resolve().parents[1] / "fixtures" / "plain-text.jsonl"


def test_saved_notebook_has_the_final_transcript(lab: e2e.Lab, page: Any) -> None:
    cells = [f"import mastra_notebook as mn\nmn.view({str(PLAIN)!r}, delay=0.03)", "1 + 1"]
    e2e.open_notebook(page, lab.notebook("saved", cells))
    e2e.run_cells(page, 0, 1)  # the first cell is long done when its run ends
    e2e.wait_status(e2e.view_root(page, 0), "finished", timeout=30_000)
    page.wait_for_function(
        "() => document.querySelector('.mastra-notebook-transcript')?.textContent.includes('finished')"
    )
    e2e.save(page)
    saved = json.loads((lab.root / "saved.ipynb").read_text())
    outputs = saved["cells"][0]["outputs"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(html) == 1
    text = "".join(html[0]) if isinstance(html[0], list) else html[0]
    assert "Three tips for clean Python" in text
    assert "finished" in text
