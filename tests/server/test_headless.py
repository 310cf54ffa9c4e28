"""A plain script, no widget (issue 29 item 1's acceptance): against the bundled real Mastra server, one
agent run, a batch of 20 and an experiment of 5 inputs by 2 variants, each run a bare RunStream
(``view=False``); at the end, no widget library was ever imported. The script runs in an interpreter
of its own (``python -c``): pytest's own process has imported ipywidgets long before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]
WIDGET_LIBRARIES = ("ipywidgets", "anywidget", "traitlets", "comm")

SCRIPT = textwrap.dedent(
    """
    import asyncio, json, os, sys

    import mastra_notebook as mn

    client = mn.MastraClient(os.environ["MASTRA_BASE_URL"])
    weather = client.agent("weather")

    # one agent run: wait() in a plain script, then await in asyncio.run
    one = weather.stream("What is the weather in Paris?", view=False)
    first = one.wait(120)

    async def awaited():
        return await weather.stream("What is the weather in Tokyo?", view=False)

    second = asyncio.run(awaited())

    # a batch of 20, four at a time
    cities = ["Paris", "Berlin", "Tokyo", "Lisbon", "Madrid", "Rome", "Oslo", "Vienna", "Prague", "Dublin"]
    prompts = [f"What is the weather in {cities[i % 10]}?" for i in range(20)]
    batch = weather.stream_many(prompts, concurrency=4, view=False)
    results = batch.wait(300)

    # an experiment of 5 inputs x 2 variants, scored by a Python scorer
    inputs = [{"input": q, "expected": e} for q, e in [
        ("Where is NASA based?", "NASA"), ("Who founded IBM?", "IBM"), ("What is Paris known for?", "Paris"),
        ("How tall is Everest?", "Everest"), ("Why is the sky blue?", "blue")]]
    exact = mn.scorer(lambda result, *, expected=None: str(expected) in result.text, name="exact", threshold=1)
    exp = client.agent("dynamic").experiment(
        [i["input"] for i in inputs],
        {"plain": {"prompt": "Question: {input}"}, "upper": {"instructions": "Answer in uppercase."}},
        scorers=[exact], concurrency=8, view=False,
    )
    exp.wait(300)
    outcomes = exp.outcomes()

    print(json.dumps({
        "kinds": [type(one).__name__, type(batch).__name__, type(exp).__name__,
                  sorted({type(job.result).__name__ for job in batch})],
        "first": [first.status, first.tool_calls[0].args if first.tool_calls else None, len(first.text)],
        "second": [second.status, second.tool_calls[0].args if second.tool_calls else None],
        "batch": [[r.status, r.tool_calls[0].args["city"] if r.tool_calls else None] for r in results],
        "counts": batch.counts(),
        "experiment": [[o.item, o.variant, o.status, [s.scorer for s in o.result.scores], o.result.text]
                       for o in outcomes],
        "modules": sorted(m for m in WIDGET_LIBRARIES if m in sys.modules),
    }))
    """
).replace("WIDGET_LIBRARIES", repr(WIDGET_LIBRARIES))


def test_a_plain_script_runs_an_agent_a_batch_and_an_experiment_with_no_widget(mastra_url: str) -> None:
    env = {**os.environ, "MASTRA_BASE_URL": mastra_url}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])

    assert out["modules"] == []  # ipywidgets (and anywidget, traitlets, comm) never imported
    assert out["kinds"] == ["RunStream", "Batch", "Experiment", ["RunResult"]]
    status, args, length = out["first"]
    assert (status, args) == ("finished", {"city": "Paris"})
    assert length > 0
    assert out["second"] == ["finished", {"city": "Tokyo"}]
    cities = ["Paris", "Berlin", "Tokyo", "Lisbon", "Madrid", "Rome", "Oslo", "Vienna", "Prague", "Dublin"]
    assert out["batch"] == [["finished", cities[i % 10]] for i in range(20)]
    assert out["counts"] == {"queued": 0, "running": 0, "done": 20, "stopped": 0, "error": 0}

    runs = out["experiment"]
    assert [(item, variant) for item, variant, *_ in runs] == [
        (i, v) for i in range(5) for v in ("plain", "upper")
    ]
    assert {status for _, _, status, _, _ in runs} == {"finished"}
    assert all(scorers == ["exact"] for *_, scorers, _ in runs)  # the Python scorer ran on every run
    plain = [text for _, variant, _, _, text in runs if variant == "plain"]
    upper = [text for _, variant, _, _, text in runs if variant == "upper"]
    assert all('You asked: "Question: ' in text for text in plain)  # prompt= reached the agent
    assert all(text == text.upper() and text for text in upper)  # instructions= reached the model
