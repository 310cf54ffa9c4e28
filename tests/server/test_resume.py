"""Issue 33, item 1, against the bundled Mastra server: an experiment written to its folder run by
run; some runs' files removed and one left half-written (as a kernel killed mid-experiment leaves
them); ``load_experiment`` then ``resume(client)`` runs exactly those again (new run ids), keeps the
others as they were (their run ids), and writes the new ones into the folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server

INPUTS = ["Where is NASA based?", "Who founded IBM?", "Why is the sky blue?"]
VARIANTS: dict[str, dict[str, Any]] = {"plain": {}, "upper": {"instructions": "Answer in uppercase."}}


def run_ids(exp: Any) -> list[str | None]:
    return [outcome.result.run_id for outcome in exp.outcomes()]


def test_resume_runs_only_the_runs_a_crash_lost(client: mn.MastraClient, tmp_path: Path) -> None:
    folder = tmp_path / "glossary"
    agent = client.agent("dynamic")
    exp = agent.experiment(INPUTS, VARIANTS, scorers=["answer-length"], view=False, folder=folder).wait(180)
    assert [o.status for o in exp.outcomes()] == ["finished"] * 6
    first = run_ids(exp)
    assert all(first)
    assert len(set(first)) == 6

    runs = folder / "runs"
    for number in (1, 4):  # never written: the kernel died first
        (runs / f"{number:04d}.json").unlink()
        (runs / f"{number:04d}.jsonl").unlink()
    half = json.loads((runs / "0002.json").read_text())  # started, never ended
    half.update(status="running", recording=None)
    (runs / "0002.json").write_text(json.dumps(half))

    loaded = mn.load_experiment(folder)
    assert [cell.status for cell in loaded.cells] == [
        "finished", "queued", "incomplete", "finished", "queued", "finished",
    ]  # fmt: skip
    loaded.resume(client).wait(180)  # its agent and Mastra scorer are read from the folder
    assert [o.status for o in loaded.outcomes()] == ["finished"] * 6
    again = run_ids(loaded)
    kept, rerun = (0, 3, 5), (1, 2, 4)
    assert [again[n] for n in kept] == [first[n] for n in kept]  # not run again
    assert all(again[n] and again[n] not in first for n in rerun)  # run again, each once
    assert all(o.result.scores for o in loaded.outcomes())  # Mastra's scores read for the new runs too
    assert run_ids(mn.load_experiment(folder)) == again  # written as they ended
