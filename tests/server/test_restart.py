"""Issue 33's restart acceptance, against the bundled Mastra server: an experiment of 30 inputs by 2
variants runs in a process of its own (a kernel), writing to its folder, and that process is killed
(SIGKILL: nothing of Python's shutdown runs) once about half its runs have ended. ``load_experiment``
shows every run the folder says finished; ``resume(client)`` runs only the others; the result equals
an uninterrupted run's, apart from timing and run ids."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from tests.server.crash import killed_midway

pytestmark = pytest.mark.server

INPUTS = [f"Question {n}: what is {n} squared?" for n in range(30)]
# "Pace N ms": the scripted model waits N ms after each text delta, so a run takes about half a second
# and the kill comes with many runs still to go
VARIANTS: dict[str, dict[str, Any]] = {
    "plain": {"instructions": "Answer in plain words. Pace 40 ms."},
    "upper": {"instructions": "Answer in uppercase. Pace 40 ms."},
}
COMPARED = ["input_index", "input", "variant", "repeat", "status", "text", "score_answer-length"]


def test_a_killed_kernels_experiment_resumes_to_an_uninterrupted_runs_result(
    client: mn.MastraClient, mastra_url: str, tmp_path: Path
) -> None:
    folder = tmp_path / "squares"
    finished = killed_midway(mastra_url, folder, INPUTS, VARIANTS, after=30)
    assert 30 <= len(finished) < 60

    loaded = mn.load_experiment(folder)
    statuses = [cell.status for cell in loaded.cells]
    assert statuses.count("finished") == len(finished)  # every finished run shown, nothing more
    assert set(statuses) <= {"finished", "queued", "incomplete"}  # the rest: missing or half-written
    kept = {n: o.result.run_id for n, o in enumerate(loaded.outcomes()) if o.status == "finished"}

    loaded.resume(client, concurrency=8).wait(300)
    again = loaded.outcomes()
    assert [o.status for o in again] == ["finished"] * 60
    assert {n: again[n].result.run_id for n in kept} == kept  # the finished runs were not run again
    rerun = [o.result.run_id for n, o in enumerate(again) if n not in kept]
    assert len(set(rerun)) == len(rerun) == 60 - len(kept)  # each of the others ran once
    assert not set(rerun) & set(kept.values())

    whole = client.agent("dynamic").experiment(
        INPUTS, VARIANTS, scorers=["answer-length"], view=False, concurrency=8
    )
    whole.wait(300)
    resumed, uninterrupted = loaded.to_dataframe()[COMPARED], whole.to_dataframe()[COMPARED]
    assert resumed.equals(uninterrupted)
    assert (
        mn.load_experiment(folder).to_dataframe()[COMPARED].equals(uninterrupted)
    )  # the folder holds it all
