"""Issue 33, items 1 and 2, and issue 31's saved verdicts, against a fake Mastra server (an
httpx.MockTransport): an experiment given a folder writes each run as it ends, a crash leaves a folder
that loads, ``resume`` runs only the runs missing or failed; transport failures are told apart from
the agent's and ``retry`` runs only those; unknown ids are refused before the first run;
interrupting ``wait`` does not stop the runs, ``stop`` does and says so; pairwise verdicts are
saved, loaded and carried into ``rescore``."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pandas as pd
import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import Item, Outcome
from mastra_notebook.core.files import write_atomically
from mastra_notebook.runs.batch import Batch
from mastra_notebook.runs.experiment import Experiment

from .conftest import fixture_path
from .helpers import wait_until
from .made_experiments import experiment_of, result, score

TEXT = b"".join(
    line.strip() + b"\x1e" for line in fixture_path("plain-text").read_bytes().splitlines() if line.strip()
)
ERROR = b"".join(
    line.strip() + b"\x1e" for line in fixture_path("error").read_bytes().splitlines() if line.strip()
)
PROMPTS = ["q0", "q1", "q2", "q3"]
VARIANTS = {"terse": {"instructions": "Be brief."}, "plain": {}}


def length(result: mn.RunResult) -> float:
    return float(len(result.text))


@dataclass
class FakeMastra:
    """Agent ``a``; its stream answers each prompt by ``mode`` (``ok``, ``503``, ``refused``,
    ``agent-error``); ``posts`` counts the streams asked for, by prompt and variant."""

    mode: dict[str, str] = field(default_factory=dict)
    posts: Counter[tuple[str, str]] = field(default_factory=Counter)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if request.method == "GET":
            listed = {"/api/agents": {"a": {"name": "A"}}, "/api/scores/scorers": {"known-scorer": {}}}
            return httpx.Response(200, json=listed.get(path, {}))
        body = orjson.loads(request.content)
        prompt = body["messages"][-1]["content"]
        mode = self.mode.get(prompt, "ok")
        if mode == "refused":
            raise httpx.ConnectError("connection refused", request=request)
        self.posts[prompt, "terse" if body.get("instructions") else "plain"] += 1
        if mode == "503":
            return httpx.Response(503, json={"error": "overloaded"})
        return httpx.Response(200, content=ERROR if mode == "agent-error" else TEXT)


def client_of(server: FakeMastra) -> mn.MastraClient:
    return mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(server), backoff_ms=0, retries=1)


def run_experiment(client: mn.MastraClient, folder: Path | None = None) -> Experiment:
    agent = client.agent("a")
    return agent.experiment(PROMPTS, VARIANTS, scorers=[length], view=False, folder=folder).wait(30)


def statuses(exp: Experiment) -> dict[tuple[int, str], str]:
    return {(cell.item, cell.variant): cell.status for cell in exp.cells}


def test_each_run_is_written_as_it_ends_and_resume_runs_only_the_missing(tmp_path: Path) -> None:
    server = FakeMastra()
    folder = tmp_path / "runs" / "glossary"
    exp = run_experiment(client_of(server), folder)
    assert set(statuses(exp).values()) == {"finished"}
    rows = sorted((folder / "runs").glob("*.json"))
    assert len(rows) == 8  # each run's row, written as it ended: no save() was asked for
    assert len(list((folder / "runs").glob("*.jsonl"))) == 8

    # a crash: two runs never written, one half-written (started, never ended)
    rows[1].unlink()
    rows[6].unlink()
    half = json.loads(rows[3].read_text())
    half.update(status="running", recording=None)
    write_atomically(rows[3], json.dumps(half))

    loaded = mn.load_experiment(folder)
    assert len(loaded.cells) == 8
    shown = statuses(loaded)
    assert shown[1, "plain"] == "incomplete"  # cell 3: input 1, variant "plain"
    assert (
        loaded.to_dataframe().set_index(["input_index", "variant"]).loc[(1, "plain"), "failure"]
        == "transport"
    )
    assert [cell.number for cell in loaded.cells if cell.saved is None] == [1, 6]  # missing
    assert (  # the grid's line says what is missing and what runs it
        "saved experiment · 8 runs · 5 finished · 1 incomplete · 2 never written: resume(client) runs them"
    ) in loaded._repr_html_()
    assert sum(status == "finished" for status in shown.values()) == 5
    finished = loaded.cells[0].result
    assert finished.text
    assert [s.scorer for s in finished.scores] == ["length"]  # scores kept

    with pytest.raises(ValueError, match="scorers="):  # a Python scorer is saved by its name only
        loaded.resume(client_of(server))
    before = Counter(server.posts)
    loaded.resume(client_of(server), scorers=[length]).wait(30)
    ran = server.posts - before
    assert ran == Counter({("q0", "plain"): 1, ("q1", "plain"): 1, ("q3", "terse"): 1})  # only those
    assert set(statuses(loaded).values()) == {"finished"}
    assert loaded.counts() == {"queued": 0, "running": 0, "done": 8, "stopped": 0, "error": 0}  # kept too
    assert "8 done (8 runs" in loaded._repr_html_()
    again = mn.load_experiment(folder)  # and written there as they ended
    assert set(statuses(again).values()) == {"finished"}
    assert [o.result.text for o in again.outcomes()] == [o.result.text for o in exp.outcomes()]
    assert [len(o.result.scores) for o in again.outcomes()] == [1] * 8


def test_a_folder_saved_whole_reads_as_one_written_run_by_run(tmp_path: Path) -> None:
    exp = run_experiment(client_of(FakeMastra()))
    exp.save(tmp_path / "saved")
    loaded = mn.load_experiment(tmp_path / "saved")
    pd.testing.assert_frame_equal(loaded.to_dataframe(), exp.to_dataframe())
    assert loaded.resume(client_of(FakeMastra()), scorers=[length]).done  # nothing missing: nothing ran


def test_transport_failures_are_told_apart_and_retry_runs_only_those(tmp_path: Path) -> None:
    server = FakeMastra(mode={"q1": "503", "q2": "agent-error", "q3": "refused"})
    exp = run_experiment(client_of(server), tmp_path / "f")
    frame = exp.to_dataframe().set_index(["input_index", "variant"])
    assert frame["failure"].fillna("").to_dict() == {
        (0, "terse"): "", (0, "plain"): "",
        (1, "terse"): "transport", (1, "plain"): "transport",
        (2, "terse"): "agent", (2, "plain"): "agent",
        (3, "terse"): "transport", (3, "plain"): "transport",
    }  # fmt: skip
    server.mode = {"q2": "agent-error"}  # the server is back; the agent still fails q2
    before = Counter(server.posts)
    exp.retry().wait(30)
    assert server.posts - before == Counter({(p, v): 1 for p in ("q1", "q3") for v in ("terse", "plain")})
    assert [statuses(exp)[2, v] for v in ("terse", "plain")] == ["error", "error"]
    assert sum(s == "finished" for s in statuses(exp).values()) == 6
    loaded = mn.load_experiment(tmp_path / "f")  # the retried runs were written as they ended
    assert [o.status for o in loaded.outcomes()] == [o.status for o in exp.outcomes()]


def test_unknown_scorer_and_agent_ids_are_refused_before_the_first_run() -> None:
    server = FakeMastra()
    agent = client_of(server).agent("a")
    with pytest.raises(ValueError, match=r"unknown Mastra scorer 'no-such-scorer'.*known-scorer"):
        agent.experiment(PROMPTS, scorers=["no-such-scorer"], view=False)
    with pytest.raises(ValueError, match=r"no agent 'ghost'.*its agents: a"):
        agent.experiment(PROMPTS, {"other": {"agent": "ghost"}}, view=False)
    with pytest.raises(ValueError, match="no agent 'nobody'"):
        client_of(server).agent("nobody").experiment(PROMPTS, view=False)
    assert not server.posts  # nothing ran


def held_start(gate: threading.Event) -> Callable[[Item, str, int], tuple[mn.StreamView, Any]]:
    """Runs that stream until ``gate`` is set, then finish."""

    def start(item: Item, variant: str, repeat: int) -> tuple[mn.StreamView, Callable[[], Awaitable[None]]]:
        view = mn.StreamView(title="held")

        async def work() -> None:
            view.feed({"type": "start", "runId": f"r{item.input}", "from": "AGENT", "payload": {}})
            while not gate.is_set():
                await asyncio.sleep(0.01)
            for chunk in mn.read_chunks(fixture_path("plain-text")):
                view.feed(chunk)

        return view, work

    return start


def _in_wait(frame: Any) -> bool:
    while frame is not None:
        if frame.f_code is Batch.wait.__code__:
            return True
        frame = frame.f_back
    return False


def test_interrupting_wait_stops_the_waiting_not_the_runs(capsys: pytest.CaptureFixture[str]) -> None:
    gate = threading.Event()
    exp = Experiment([Item("a"), Item("b"), Item("c")], start=held_start(gate), concurrency=2)
    wait_until(lambda: sum(cell.status == "running" for cell in exp.cells) == 2, "two runs stream")
    main = threading.main_thread().ident

    def interrupt() -> None:  # Ctrl-C once the main thread waits in the batch's wait
        assert main is not None
        wait_until(lambda: _in_wait(sys._current_frames()[main]), "the main thread waits")
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=interrupt)
    timer.start()
    assert exp.wait() is exp
    timer.join()
    assert "Stopped waiting; 3 runs go on (exp.stop() stops them)." in capsys.readouterr().out
    assert [cell.status for cell in exp.cells] == ["running", "running", "queued"]  # none stopped
    gate.set()
    exp.wait(30)
    assert [cell.status for cell in exp.cells] == ["finished"] * 3


def test_stop_stops_the_runs_says_so_and_resume_runs_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gate = threading.Event()
    exp = Experiment([Item("a"), Item("b"), Item("c")], start=held_start(gate), concurrency=2)
    wait_until(lambda: sum(cell.status == "running" for cell in exp.cells) == 2, "two runs stream")
    exp.stop()
    assert "Stopped 2 running and 1 queued runs" in capsys.readouterr().out
    assert [cell.status for cell in exp.cells] == ["aborted"] * 3
    assert [o.failure for o in exp.outcomes()] == ["stopped"] * 3
    assert exp.retry().done  # stopped runs are not the transport's failures
    gate.set()
    exp.resume().wait(30)
    assert [cell.status for cell in exp.cells] == ["finished"] * 3


def judged_experiment() -> Experiment:
    items = [Item(f"q{n}") for n in range(3)]
    outcomes = [
        Outcome(
            n, variant, 0, "finished", result("x" * (n + 1 + (variant == "long")), scores=[score("s", 1.0)])
        )
        for n in range(3)
        for variant in ("short", "long")
    ]
    return experiment_of(outcomes, items)


def longer(input: Any, first: str, second: str, *, expected: Any = None) -> str:
    return "first" if len(first) > len(second) else "second" if len(second) > len(first) else "tie"


def test_pairwise_verdicts_are_saved_loaded_and_carried_into_rescore(tmp_path: Path) -> None:
    exp = judged_experiment()
    judged = exp.pairwise("long", "short", judge=longer)
    assert judged.wins == 3
    exp.save(tmp_path / "judged")
    loaded = mn.load_experiment(tmp_path / "judged")
    assert list(loaded.verdicts) == [("long", "short")]
    assert loaded.verdicts["long", "short"].judged == judged.judged
    assert loaded.verdicts["long", "short"].counts() == judged.counts()
    rescored = loaded.rescore([length])
    assert rescored.verdicts["long", "short"].judged == judged.judged
    assert rescored.summary().loc["long", "length_mean"] == pytest.approx(3.0)  # 2, 3, 4 characters


def test_a_verdict_given_to_an_experiment_with_a_folder_is_written_at_once(tmp_path: Path) -> None:
    exp = judged_experiment()
    exp.save(tmp_path / "judged")
    exp.pairwise("long", "short", judge=longer)  # after the save: the folder is the experiment's now
    assert mn.load_experiment(tmp_path / "judged").verdicts["long", "short"].wins == 3


def test_an_atomic_write_that_fails_leaves_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "row.json"
    write_atomically(path, "before")

    def crash(source: str, target: str) -> None:
        raise OSError("killed")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="killed"):
        write_atomically(path, "after")
    assert path.read_text() == "before"
    assert [p.name for p in tmp_path.iterdir()] == ["row.json"]  # no temporary file left


def test_a_run_streaming_when_the_kernel_dies_loads_incomplete(tmp_path: Path) -> None:
    gate = threading.Event()
    start = held_start(gate)
    exp = Experiment([Item("a"), Item("b"), Item("c")], start=start, concurrency=2, folder=tmp_path / "f")
    rows = tmp_path / "f" / "runs"
    wait_until(lambda: len(list(rows.glob("*.json"))) == 2, "two runs are written as started")
    loaded = mn.load_experiment(tmp_path / "f")  # what a new kernel finds, the first one dead
    assert [cell.status for cell in loaded.cells] == ["incomplete", "incomplete", "queued"]
    assert [o.failure for o in loaded.outcomes()] == ["transport", "transport", None]
    gate.set()
    exp.wait(30)
    assert [o.status for o in mn.load_experiment(tmp_path / "f").outcomes()] == ["finished"] * 3


def test_an_atomic_write_gives_the_file_the_permissions_open_would(tmp_path: Path) -> None:
    # mkstemp makes its file owner-only: a saved recording must be readable as any written file is
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    path = tmp_path / "run.jsonl"
    write_atomically(path, "x")
    assert path.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777
