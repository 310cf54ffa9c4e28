"""Reattach (issue 33 item 4's acceptance): one client starts a dataset experiment on the bundled
Mastra server; a fresh ``MastraClient`` in a process of its own (``python -c``, as a new kernel would
be) lists the server's experiments, reattaches by id while the experiment runs, and shows the same
results as the starting client: the same rows (``to_dataframe``), summary and scores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ["What is Paris?", "What is Berlin?", "What is Rome?", "What is Lisbon?"]

# the other kernel: it knows only the server and the experiment's id
SCRIPT = textwrap.dedent(
    """
    import json, os, sys, time

    import mastra_notebook as mn

    client = mn.MastraClient(os.environ["MASTRA_BASE_URL"])
    experiment_id = sys.argv[1]
    listed = client.experiments()
    exp = client.experiment(experiment_id)
    filled = []  # how many cells were filled, each time that changed, until every run ended
    while True:
        ended = exp.done  # read first: the cells counted after it are those it ended with
        count = sum(cell.saved is not None for cell in exp.cells)
        if not filled or filled[-1] != count:
            filled.append(count)
        if ended:
            break
        time.sleep(0.05)
    exp.wait(300)
    print(json.dumps({
        "listed": [listed[experiment_id].status, listed[experiment_id].dataset_id, experiment_id in listed],
        "name": exp.name, "agent": exp.agent, "filled": filled,
        "frame": exp.to_dataframe().to_json(orient="split"),
        "summary": exp.summary().to_json(orient="split"),
        "scores": [[s.model_dump(mode="json") for s in cell.result.scores] for cell in exp.cells],
        "remote": [exp.remote.status, exp.remote.progress, exp.remote.error],
    }))
    """
)


def test_a_fresh_client_in_another_process_reattaches_and_shows_the_same_results(
    client: mn.MastraClient, mastra_url: str
) -> None:
    dataset = client.create_dataset(f"reattach-{uuid.uuid4().hex[:8]}")
    for question in QUESTIONS:  # one at a time: each its own creation time, so any kernel orders them alike
        dataset.add([question])
    started = dataset.experiment(
        "dynamic",
        scorers=["answer-length"],
        request_context={"style": "pirate. Pace 60 ms"},  # a few seconds: reattached while it runs
        name="reattached",
        max_concurrency=1,
    )
    remote = started.remote
    assert remote is not None
    experiment_id = remote.id  # type: ignore[attr-defined]
    other = subprocess.run(
        [sys.executable, "-c", SCRIPT, experiment_id],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env={**os.environ, "MASTRA_BASE_URL": mastra_url},
        check=False,
    )
    assert other.returncode == 0, other.stderr
    out: dict[str, Any] = json.loads(other.stdout.strip().splitlines()[-1])
    started.wait(300)

    status, dataset_id, listed = out["listed"]
    assert listed
    assert dataset_id == dataset.id
    assert status in ("pending", "running", "completed")
    assert (out["name"], out["agent"]) == ("reattached", "dynamic")
    assert out["remote"] == ["completed", [4, 0, 4], None]
    assert out["filled"][-1] == len(QUESTIONS), out["filled"]
    assert out["filled"] == sorted(out["filled"])  # cells fill; none empties
    # what the starting client shows, the other shows: rows, summary, each run's scores
    assert out["frame"] == started.to_dataframe().to_json(orient="split")
    assert out["summary"] == started.summary().to_json(orient="split")
    assert out["scores"] == [
        [s.model_dump(mode="json") for s in cell.result.scores] for cell in started.cells
    ]
    assert all(scores and scores[0]["scorer"] == "answer-length" for scores in out["scores"])
    frame = started.to_dataframe()
    assert list(frame["input"]) == QUESTIONS
    assert all(text.startswith("Arr!") for text in frame["text"])
    assert client.experiments()[experiment_id].status == "completed"
    assert dataset.experiments()[experiment_id].status == "completed"
