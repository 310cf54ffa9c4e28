"""Framing speed for one huge event that arrives in 16 KiB pieces, beside ``orjson.loads`` of it.

A tool result or a ``finish`` chunk can be tens of megabytes; framing it must stay linear. For each
size (60 MB and 20 MB by default), each framing (SSE, JSON Lines, ``\\x1e``) and two shapes of event
(many small objects; one long string, which orjson reads fastest), it times ``Framer`` over the body
in 16 KiB pieces and divides by the time of one ``orjson.loads`` of the event. Goal: ratio <= 5.

    python benchmarks/framing.py                 # prints a table; --json for machine-readable figures
    python benchmarks/framing.py --sizes 20      # sizes in MB
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable

import orjson

from mastra_notebook.core.framing import Framer

PIECE = 16 * 1024
GOAL = 5.0


def event(size: int, shape: str) -> bytes:
    """One chunk of about ``size`` bytes: a tool result of many rows, or one long text delta."""
    if shape == "string":
        text = ("All work and no play makes Jack a dull boy. " * (size // 44 + 1))[:size]
        return orjson.dumps(
            {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": text}}
        )
    row = {
        "id": 0,
        "title": "A result row",
        "score": 0.5,
        "tags": ["a", "b"],
        "body": "lorem ipsum dolor " * 8,
    }
    rows = [dict(row, id=i) for i in range(size // len(orjson.dumps(row)) + 1)]
    payload = {"toolCallId": "c1", "toolName": "search", "result": {"rows": rows}}
    return orjson.dumps({"type": "tool-result", "runId": "r", "from": "AGENT", "payload": payload})


def body(chunk: bytes, framing: str) -> bytes:
    if framing == "sse":
        return b"data: " + chunk + b"\n\ndata: [DONE]\n\n"
    return chunk + (b"\x1e" if framing == "rs" else b"\n")


def frame(data: bytes) -> list[bytes]:
    framer = Framer()
    records: list[bytes] = []
    view = memoryview(data)
    for start in range(0, len(data), PIECE):
        records += framer.feed(bytes(view[start : start + PIECE]))
    return records + framer.close()


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[60, 20], help="event sizes in MB")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for size_mb in args.sizes:
        for shape in ("rows", "string"):
            chunk = event(size_mb * 1_000_000, shape)
            loads = best(functools.partial(orjson.loads, chunk), args.repeat)
            for framing in ("sse", "jsonl", "rs"):
                data = body(chunk, framing)
                records = frame(data)
                assert records == [chunk], f"{framing}: the event did not come back whole"
                seconds = best(functools.partial(frame, data), args.repeat)
                rows.append({"mb": size_mb, "shape": shape, "framing": framing, "frame_s": round(seconds, 4),
                             "loads_s": round(loads, 4), "ratio": round(seconds / loads, 2)})  # fmt: skip
    if args.json:
        print(json.dumps(rows))
    else:
        print(f"one event in {PIECE // 1024} KiB pieces, best of {args.repeat}; goal: ratio <= {GOAL}")
        for row in rows:
            print(f"  {row['mb']:>3} MB {row['shape']:<6} {row['framing']:<5} frame {row['frame_s'] * 1000:8.1f} ms"
                  f"  orjson.loads {row['loads_s'] * 1000:7.1f} ms  ratio {row['ratio']:.2f}")  # fmt: skip
    return 0 if all(row["ratio"] <= GOAL for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
