"""Ten concurrent agent streams in one event loop (as in one kernel) against one stream alone.

Also a batch: 20 prompts at concurrency 4 through ``Agent.stream_many``.
Uses the bundled Mastra server (started here). Each stream is the ``longText`` agent with
``deltas=1000``; all ten must finish with the full text. Reports the wall time of one stream, of ten
at once, and the worst gap the event loop saw while they ran (how responsive a kernel stays).

    python benchmarks/concurrency.py [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import sys
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import mastra_notebook as mn

ROOT = Path(__file__).resolve().parent.parent
PROMPT = "deltas=1000 delay=0"
T = TypeVar("T")


def launcher():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("launch", ROOT / "server" / "launch.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


async def worst_loop_gap(work: Awaitable[T]) -> tuple[T, float]:
    """What ``work`` gives, and the worst lateness of a 10 ms timer while it ran: how responsive the
    event loop (a kernel's) stays."""
    worst_gap = 0.0
    done = False

    async def heartbeat() -> None:
        nonlocal worst_gap
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            worst_gap = max(worst_gap, time.perf_counter() - before - 0.01)

    beat = asyncio.create_task(heartbeat())
    try:
        value = await work
    finally:
        done = True
        await beat
    return value, worst_gap


async def streams(client: mn.MastraClient, count: int) -> tuple[float, float, list[mn.RunResult]]:
    async def all_at_once() -> tuple[float, list[mn.RunResult]]:
        # timed in here: the heartbeat's last tick, after the streams, is not theirs
        start = time.perf_counter()
        views = [client.agent("longText").stream(PROMPT) for _ in range(count)]
        results = [await view for view in views]
        return time.perf_counter() - start, results

    (elapsed, results), worst_gap = await worst_loop_gap(all_at_once())
    return elapsed, worst_gap, results


async def batch(client: mn.MastraClient) -> tuple[float, bool]:
    """20 weather prompts, at most 4 at a time, into a gallery (Agent.stream_many)."""
    start = time.perf_counter()
    runs = client.agent("weather").stream_many(
        [f"What is the weather in city {i}?" for i in range(20)], concurrency=4
    )
    results = await runs
    return time.perf_counter() - start, all(
        r.status == "finished" and r.tool_calls[0].result for r in results
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    launch = launcher()
    process, url = launch.start_server()
    try:
        client = mn.MastraClient(url)
        asyncio.run(streams(client, 1))  # warm up the server
        one, one_gap, (single,) = asyncio.run(streams(client, 1))
        ten, ten_gap, results = asyncio.run(streams(client, 10))
        batch_s, batch_ok = asyncio.run(batch(client))
    finally:
        launch.stop_server(process)
    correct = all(r.status == "finished" and r.text == single.text for r in results)
    figures = {
        "one_stream_s": round(one, 3),
        "ten_streams_s": round(ten, 3),
        "ratio": round(ten / one, 2),
        "worst_loop_gap_ms_one": round(one_gap * 1000, 1),
        "worst_loop_gap_ms_ten": round(ten_gap * 1000, 1),
        "all_correct": correct,
        "chunks_per_stream": single.chunk_count,
        "batch_20_at_4_s": round(batch_s, 2),
        "batch_all_correct": batch_ok,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"one stream ({single.chunk_count} chunks): {one:.2f} s; worst event-loop gap {one_gap * 1000:.0f} ms"
        )
        print(
            f"ten at once: {ten:.2f} s ({ten / one:.1f}x one); worst event-loop gap {ten_gap * 1000:.0f} ms"
        )
        print(f"all ten finished with the full text: {correct}")
        print(f"batch of 20 weather prompts at concurrency 4: {batch_s:.2f} s, all correct: {batch_ok}")
    return 0 if correct and batch_ok else 1


if __name__ == "__main__":
    sys.exit(main())
