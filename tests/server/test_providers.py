"""Live: record every real-provider scenario afresh through the real packages in server/
(`node server/providers/record.mjs <tmp>`), then hold the fresh recording to Mastra's own result
and to the committed one's shape. So CI exercises @ai-sdk/* and @mastra/core as installed by
`npm ci`, not only the recordings committed once."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import mastra_notebook as mn

from ..providers import PROVIDER_FIXTURES, mastra_side, our_side, scenarios
from .conftest import SERVER_DIR

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (SERVER_DIR / "node_modules").is_dir():
        subprocess.run(["npm", "ci"], cwd=SERVER_DIR, check=True, timeout=600)
    out = tmp_path_factory.mktemp("providers")
    done = subprocess.run(
        ["node", str(SERVER_DIR / "providers" / "record.mjs"), str(out)],
        check=False,  # the assert below shows node's output
        cwd=SERVER_DIR,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def chunk_types(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line)["type"] for line in f]


def test_same_scenarios_as_committed(fresh: Path) -> None:
    assert scenarios(fresh) == scenarios(PROVIDER_FIXTURES)


@pytest.mark.parametrize("name", scenarios())
def test_fresh_recording_agrees_with_mastra(fresh: Path, name: str) -> None:
    expected = json.loads((fresh / f"{name}.mastra.json").read_text(encoding="utf-8"))
    assert our_side(mn.collect(fresh / f"{name}.jsonl")) == mastra_side(expected)


@pytest.mark.parametrize("name", scenarios())
def test_fresh_recording_has_the_committed_chunk_types(fresh: Path, name: str) -> None:
    # ids, run ids and timestamps differ from run to run; the sequence of chunk types must not
    assert chunk_types(fresh / f"{name}.jsonl") == chunk_types(PROVIDER_FIXTURES / f"{name}.jsonl")
