"""What a client tool costs: a run whose tool the kernel runs (two requests: the call, then the
continuation with its result) against the same shape of run whose tool the server runs (``weather``,
one request), and how responsive the event loop stays while a slow sync tool works in its thread.

Uses the bundled Mastra server (started here).

    python benchmarks/client_tools.py [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from concurrency import launcher, worst_loop_gap  # type: ignore[import-not-found]  # benchmarks/ is on the path when run

import mastra_notebook as mn


def lookup(city: str) -> dict[str, object]:
    """The weather in a city."""
    return {"city": city, "temperatureC": 18}


def slow(seconds: float) -> str:
    """Works for a while, in its thread."""
    time.sleep(seconds)
    return "done"


async def timed(make: object, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = await make()  # type: ignore[operator]
        assert result.status == "finished", result
        times.append(time.perf_counter() - start)
    return times


async def loop_gap_during(client: mn.MastraClient, seconds: float) -> float:
    """The worst lateness of a 10 ms timer while a sync tool sleeps ``seconds`` in its thread."""
    prompt = f'call slow with {{"seconds": {seconds}}}'
    result, worst = await worst_loop_gap(client.agent("toolUser").stream(prompt, tools=[slow]))
    assert result.tool_calls[0].result == "done"
    return worst


async def main(url: str, runs: int) -> dict[str, float]:
    client = mn.MastraClient(url)
    agent = client.agent("toolUser")
    server_side = await timed(lambda: client.agent("weather").stream("What is the weather in Paris?"), runs)
    client_side = await timed(
        lambda: agent.stream('call lookup with {"city": "Paris"}', tools=[lookup]), runs
    )
    return {
        "server_tool_median_ms": round(statistics.median(server_side) * 1000, 1),
        "client_tool_median_ms": round(statistics.median(client_side) * 1000, 1),
        "loop_worst_gap_ms_during_1s_sync_tool": round(await loop_gap_during(client, 1.0) * 1000, 1),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    launch = launcher()
    process, base_url = launch.start_server(port=0, timeout=120)
    try:
        figures = asyncio.run(main(base_url, args.runs))
    finally:
        launch.stop_server(process)
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name}: {value}")
