"""Browserless parity, the Python half: every fixture's final snapshot (committed under
tests/parity/snapshots/) drawn as its static transcript (the widget's renderers, run in the kernel: render/engine.py) says the golden text (tests/parity/golden/).
js/test/parity.test.ts draws the same snapshots with the widget's renderer in jsdom and compares
them with the same goldens: both renderers say the same thing. The rule that reads the visible
text is in tests/parity/README.md.

``MN_UPDATE_PARITY=1`` rewrites the snapshots and the goldens (from the static renderer), for a
reviewer to read in the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mastra_notebook.core.ingest import records
from mastra_notebook.core.run import Run
from mastra_notebook.render.transcript import render_ops

from .parity_text import HOW, UPDATE, difference, visible_text

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
PARITY = ROOT / "tests" / "parity"
ALL = sorted(FIXTURES.rglob("*.jsonl"))
NAMES = [fixture.relative_to(FIXTURES).with_suffix("").as_posix() for fixture in ALL]
EPOCH_MS = 1_700_000_000_000.0  # a fixed clock: the run starts here and a chunk arrives every STEP_MS
STEP_MS = 25.0


def snapshot_of(fixture: Path) -> dict[str, Any]:
    run = Run(epoch_ms=EPOCH_MS)
    for index, item in enumerate(records(fixture)):
        run.feed(item, received_ms=index * STEP_MS)
    run.end()
    return {"title": fixture.stem, "snapshot": {"t": "snapshot", "seq": 0, "ops": run.snapshot()}}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize("fixture", ALL, ids=NAMES)
def test_static_renderer_says_the_golden(fixture: Path) -> None:
    name = fixture.relative_to(FIXTURES).with_suffix("").as_posix()
    data = snapshot_of(fixture)
    snapshot = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    text = visible_text(render_ops(data["snapshot"]["ops"], data["title"]))
    snapshot_file, golden_file = PARITY / "snapshots" / f"{name}.json", PARITY / "golden" / f"{name}.txt"
    if UPDATE:
        _write(snapshot_file, snapshot)
        _write(golden_file, text)
    assert snapshot_file.exists(), f"{snapshot_file.relative_to(ROOT)} is missing: {HOW}"
    assert snapshot_file.read_text() == snapshot, (
        f"{snapshot_file.relative_to(ROOT)} is not the reducer's snapshot of {fixture.name} today: {HOW}"
    )
    report = difference(golden_file.read_text(), text, "the static renderer")
    assert report is None, report


def test_every_snapshot_has_its_fixture() -> None:
    """No snapshot or golden outlives its fixture (the widget's half reads them all)."""
    for kind, suffix in (("snapshots", ".json"), ("golden", ".txt")):
        kept = {
            path.relative_to(PARITY / kind).with_suffix("").as_posix()
            for path in (PARITY / kind).rglob(f"*{suffix}")
        }
        assert kept == set(NAMES), f"tests/parity/{kind} and tests/fixtures differ: {kept ^ set(NAMES)}"
