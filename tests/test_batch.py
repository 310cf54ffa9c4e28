"""A Batch without widgets: bounded concurrency in submission order, each job's status and result,
a run that waits for a person, stop, and ``agent.stream_many`` in a plain script (no kernel)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mastra_notebook.core.ingest import records
from mastra_notebook.core.result import RunResult
from mastra_notebook.core.run import Run
from mastra_notebook.runs.batch import Batch, Event, Job

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


class FakeRun:
    """A run handle that is no widget (nor traitlets object): a Run fed from a fixture on the running
    loop, telling its listeners when it starts and stops streaming."""

    def __init__(self) -> None:
        self.run = Run()
        self._task: asyncio.Task[None] | None = None
        self._streaming = False
        self._listeners: list[Callable[[bool], None]] = []

    @property
    def streaming(self) -> bool:
        return self._streaming

    @streaming.setter
    def streaming(self, on: bool) -> None:
        if on != self._streaming:
            self._streaming = on
            for listener in self._listeners:
                listener(on)

    def on_streaming(self, listener: Callable[[bool], None]) -> None:
        self._listeners.append(listener)

    @property
    def result(self) -> RunResult:
        return self.run.result

    def start(self, work: Callable[[], Awaitable[None]]) -> None:
        self.streaming = True
        self._task = asyncio.get_running_loop().create_task(self._go(work))

    async def _go(self, work: Callable[[], Awaitable[None]]) -> None:
        try:
            await work()
        except asyncio.CancelledError:
            return  # stop() settled the run
        except Exception as error:
            self.run.mark_error(f"{type(error).__name__}: {error}")
        self.run.end()
        self.streaming = False

    def stop(self) -> None:
        if not self.streaming:
            return
        if self._task is not None:
            self._task.cancel()
        self.run.mark_aborted()
        self.run.end()
        self.streaming = False


def _starter(
    fixture: str, *, gate: asyncio.Event | None = None, log: list[str] | None = None
) -> Callable[[], tuple[FakeRun, Callable[[], Awaitable[None]]]]:
    def start() -> tuple[FakeRun, Callable[[], Awaitable[None]]]:
        handle = FakeRun()

        async def work() -> None:
            if log is not None:
                log.append(fixture)
            if gate is not None:
                await gate.wait()
            for record in records(FIXTURES / f"{fixture}.jsonl"):
                handle.run.feed(record)
                await asyncio.sleep(0)

        return handle, work

    return start


async def _settled() -> None:
    """Let every task that can run now take its turn (the loop's own order: no time passes)."""
    for _ in range(50):
        await asyncio.sleep(0)


async def test_runs_start_in_order_at_most_concurrency_at_a_time() -> None:
    gate = asyncio.Event()
    started: list[str] = []
    events: list[tuple[int, Event]] = []
    batch: Batch[FakeRun] = Batch(2, on_change=lambda job, event: events.append((job.index, event)))
    fixtures = ["plain-text", "error", "tool-call", "reasoning", "plain-text"]
    for name in fixtures:
        batch.submit(_starter(name, gate=gate, log=started), prompt=f"ask {name}")
    await _settled()
    assert started == fixtures[:2]
    assert batch.counts() == {"queued": 3, "running": 2, "done": 0, "stopped": 0, "error": 0}
    assert [job.status for job in batch] == ["running", "running", "queued", "queued", "queued"]
    assert not batch.idle
    most = 0
    gate.set()
    while not batch.idle:
        most = max(most, batch.counts()["running"])
        await asyncio.sleep(0)
    assert most <= 2
    results = await batch
    assert started == fixtures
    assert [r.status for r in results] == ["finished", "error", "finished", "finished", "finished"]
    assert batch.counts() == {"queued": 0, "running": 0, "done": 4, "stopped": 0, "error": 1}
    assert all(job.handle is None for job in batch)  # an ended job lets go of its handle
    assert [job.prompt for job in batch] == [f"ask {name}" for name in fixtures]
    assert [e for e in events if e[0] == 1] == [(1, "queued"), (1, "started"), (1, "ended")]


async def test_a_run_waiting_for_a_person_frees_its_slot_and_keeps_its_handle() -> None:
    batch: Batch[FakeRun] = Batch(1)
    waiting = batch.submit(_starter("tool-approval"))
    after = batch.submit(_starter("plain-text"))
    results = await batch
    assert [r.status for r in results] == ["suspended", "finished"]  # the next one ran meanwhile
    assert not waiting.ended
    assert waiting.handle is not None  # it may go on there (approve, resume)
    assert waiting.group == "error"
    assert after.ended
    handle = waiting.handle
    handle.streaming = True  # a person approved: the run goes on
    assert not batch.idle
    handle.run = Run()
    handle.run.feed(next(iter(records(FIXTURES / "plain-text.jsonl"))))
    handle.run.end()
    handle.streaming = False
    assert batch.idle
    assert waiting.ended
    assert waiting.handle is None


async def test_stop_aborts_queued_runs_and_a_bad_start_says_why() -> None:
    gate = asyncio.Event()
    started: list[str] = []

    def broken() -> Any:
        raise TypeError("tools must be functions")

    batch: Batch[FakeRun] = Batch(1)
    batch.submit(broken)
    for _ in range(3):
        batch.submit(_starter("plain-text", gate=gate, log=started))
    await _settled()
    assert started == ["plain-text"]
    batch.stop()
    results = await batch
    assert [r.status for r in results] == ["error", "aborted", "aborted", "aborted"]
    assert results[0].error is not None
    assert "could not start this run: TypeError: tools must be functions" in results[0].error.message
    assert results[2].parts[-1].text == "stopped before its turn"
    assert batch.counts() == {"queued": 0, "running": 0, "done": 0, "stopped": 3, "error": 1}
    job: Job[FakeRun] = batch[2]
    assert job.run is not None  # the batch's own run, saying why it never ran


def _script(tmp_path: Path, body: str) -> dict[str, Any]:
    """Run ``body`` as a plain Python script (no kernel, no running loop); its last line printed is JSON."""
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    parsed: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return parsed


def test_a_batch_and_stream_many_work_in_a_plain_script(tmp_path: Path) -> None:
    """In a python file (no kernel, no running loop): a Batch of handles that are no widgets loads no
    widget library; then ``agent.stream_many(prompts).wait()``, against a stand-in server that answers
    every stream with a recorded Mastra response. One interpreter for both: each start costs seconds."""
    out = _script(
        tmp_path,
        f"""
        import json, sys, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from pathlib import Path

        from mastra_notebook.runs.batch import Batch
        sys.path.insert(0, {str(ROOT)!r})
        from tests.test_batch import _starter

        batch = Batch(2)
        for name in ["plain-text", "error", "tool-call"]:
            batch.submit(_starter(name), prompt=name)
        plain = {{"statuses": [r.status for r in batch.wait(60)], "counts": batch.counts(),
                 "widgets": sorted(m for m in ("ipywidgets", "anywidget") if m in sys.modules)}}

        import mastra_notebook as mn

        BODY = Path({str(FIXTURES / "http" / "plain-text.body")!r}).read_bytes()
        asked = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                asked.append((self.path, body["messages"][-1]["content"]))
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(BODY)))
                self.end_headers()
                self.wfile.write(BODY)

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        client = mn.MastraClient(f"http://127.0.0.1:{{server.server_port}}")
        prompts = [f"tip number {{i}}" for i in range(5)]
        gallery = client.agent("plainText").stream_many(prompts, concurrency=2)
        results = gallery.wait(60)
        print(json.dumps({{"plain": plain, "statuses": [r.status for r in results],
                          "texts": [len(r.text) for r in results], "asked": sorted(asked),
                          "counts": gallery.counts()}}))
        """,
    )
    assert out["plain"]["statuses"] == ["finished", "error", "finished"]
    assert out["plain"]["counts"] == {"queued": 0, "running": 0, "done": 2, "stopped": 0, "error": 1}
    assert out["plain"]["widgets"] == []
    assert out["statuses"] == ["finished"] * 5
    assert all(length > 0 for length in out["texts"])
    assert out["asked"] == [["/api/agents/plainText/stream", f"tip number {i}"] for i in range(5)]
    assert out["counts"] == {"queued": 0, "running": 0, "done": 5, "stopped": 0, "error": 0}
