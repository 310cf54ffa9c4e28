"""Ingest speed: ``collect()`` over the 3 MB long-text recording, beside the floor, in one run.

The floor is the least any reader must do: ``orjson.loads`` of each line and a dict switch that
joins the text. Goal: ``collect()`` at no less than half the floor's rate.

    python benchmarks/ingest.py            # prints a table; --json for machine-readable figures
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

import mastra_notebook as mn

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "long-text.jsonl"


def floor(data: bytes) -> str:
    pieces: list[str] = []
    for line in data.split(b"\n"):
        if not line:
            continue
        chunk = orjson.loads(line)
        chunk_type = chunk["type"]
        if chunk_type == "text-delta":
            pieces.append(chunk["payload"]["text"])
        elif chunk_type == "finish":
            pass
    return "".join(pieces)


def ours(data: bytes) -> str:
    return mn.collect(data).text


def best_rate(fn: Callable[[bytes], str], data: bytes, chunks: int, repeat: int) -> tuple[float, str]:
    times, text = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        text = fn(data)
        times.append(time.perf_counter() - start)
    return chunks / min(times), text


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data = FIXTURE.read_bytes()
    chunks = sum(1 for line in data.split(b"\n") if line)
    floor_rate, floor_text = best_rate(floor, data, chunks, args.repeat)
    our_rate, our_text = best_rate(ours, data, chunks, args.repeat)
    assert our_text == floor_text, "collect() and the floor disagree on the text"
    figures = {
        "fixture": FIXTURE.name,
        "bytes": len(data),
        "chunks": chunks,
        "floor_chunks_per_s": round(floor_rate),
        "collect_chunks_per_s": round(our_rate),
        "ratio": round(our_rate / floor_rate, 3),
        "goal_ratio": 0.5,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{FIXTURE.name}: {chunks} chunks, {len(data) / 1e6:.1f} MB (best of {args.repeat})")
        print(f"  floor (orjson.loads + dict switch): {floor_rate:>10,.0f} chunks/s")
        print(f"  mn.collect():                       {our_rate:>10,.0f} chunks/s")
        print(f"  ratio: {our_rate / floor_rate:.2f} (goal >= 0.5)")
    return 0 if our_rate >= 0.5 * floor_rate else 1


if __name__ == "__main__":
    sys.exit(main())
