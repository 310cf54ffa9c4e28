"""A RunStream with no widget: consumed, waited for, awaited and stopped in a plain script (no kernel,
no running loop, no ipywidgets imported), and composed by a StreamView, which shows the same run."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import mastra_notebook as mn
from mastra_notebook.runs.batch import Batch
from mastra_notebook.runs.stream import RunStream

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def test_a_plain_script_consumes_waits_awaits_and_stops_with_no_widget_library() -> None:
    script = textwrap.dedent(
        f"""
        import asyncio, json, sys
        import mastra_notebook as mn

        path = {str(FIXTURES / "tool-call.jsonl")!r}
        waited = mn.stream(path).wait(60)

        async def awaited():
            return await mn.stream(path)

        async def forever():
            yield b'{{"type": "start", "runId": "r", "from": "AGENT", "payload": {{}}}}\\n'
            await asyncio.Event().wait()

        endless = mn.stream(forever())
        try:
            endless.wait(0.3)
            timed_out = False
        except TimeoutError:
            timed_out = endless.streaming
        endless.stop()
        print(json.dumps({{
            "waited": waited.model_dump(mode="json", exclude={{"timing", "cost"}}),
            "awaited": asyncio.run(awaited()).status,
            "stopped": [endless.result.status, endless.streaming, endless.result.chunk_count],
            "kind": type(endless).__name__,
            "timed_out": timed_out,
            "modules": sorted(m for m in ("ipywidgets", "anywidget", "traitlets", "comm") if m in sys.modules),
        }}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    expected = mn.collect(FIXTURES / "tool-call.jsonl").model_dump(mode="json", exclude={"timing", "cost"})
    assert out["waited"] == expected
    assert out["awaited"] == "finished"
    assert out["stopped"] == ["aborted", False, 1]
    assert out["kind"] == "RunStream"
    assert out["timed_out"] is True  # wait(timeout) raised while it still streamed
    assert out["modules"] == []


def test_a_view_shows_its_stream_and_a_batch_runs_bare_streams() -> None:
    view = mn.view(FIXTURES / "tool-call.jsonl")
    result = view.wait(60)
    assert isinstance(view.stream, RunStream)
    assert view.stream.result is result
    assert view.result is result
    assert view.streaming is False
    assert view.stream.ended

    async def scenario() -> list[mn.RunResult]:
        batch: Batch[RunStream] = Batch(2)
        for _ in range(3):

            def start() -> tuple[RunStream, Any]:
                stream = RunStream()

                async def work() -> None:
                    for item in mn.read_chunks(FIXTURES / "tool-call.jsonl"):
                        stream.feed(item)
                        await asyncio.sleep(0)

                return stream, work

            batch.submit(start)
        return await batch

    results = asyncio.run(scenario())
    assert [r.status for r in results] == ["finished"] * 3
    assert results[0].text == result.text
