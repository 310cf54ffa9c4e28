"""Wire cost of a live view: the 5,000-delta long-text stream fed at ~2,000 chunks/s.

Counts what the widget sends to the browser (through a recording comm, as the kernel would send it):
bytes sent per byte of answer text, and messages per second. Goals under load: <= 1.5 and <= 40/s.
At a trickle (``--rate 20 --limit 400``) every chunk leaves at once, so the bytes ratio is not the
goal there, the latency is (benchmarks/latency.py); the messages stay under 40/s.

``--real 20,50,100`` feeds real-shaped streams instead (benchmarks/streams.py: start chunks, then 1-5
character deltas with jittered gaps, ``--seconds`` each, from a task on the loop) and reports, per
rate, the kernel's part of the latency (a delta fed to the message that carries it leaving: goal at
most MIN_GAP, 25 ms, plus the loop's own delays) beside the messages a second.

    python benchmarks/sync.py [--rate 2000] [--limit N] [--json]
    python benchmarks/sync.py --real 20,50,100 [--seconds 10] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import comm

import mastra_notebook as mn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import streams

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "long-text.jsonl"
SENT: list[tuple[float, int]] = []


class CountingComm(comm.DummyComm):  # type: ignore[misc]
    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **kwargs: Any) -> None:
        if data and data.get("method") == "custom":
            SENT.append((time.monotonic(), len(json.dumps(data))))


def real_shaped(rate: float, seconds: float) -> dict[str, Any]:
    """The kernel's side of a real-shaped stream at ``rate`` deltas/s: fed to sent, messages/s, bytes."""
    SENT.clear()
    with tempfile.TemporaryDirectory() as tmp:
        path = streams.save(Path(tmp) / "stream.jsonl", streams.real_shaped(rate, seconds))

        async def stream() -> tuple[list[float], list[float], str]:
            view = mn.view()
            sent = streams.count_messages(view)
            fed: list[float] = []
            await streams.feed(view, path, fed, wait_s=0.0)
            return fed, sent, view.result.text

        fed, sent, text = asyncio.run(stream())
    waits = sorted(sent[bisect.bisect_left(sent, ms / 1000)] * 1000 - ms for ms in fed)
    span = sent[-1] - sent[0]
    return {
        "rate": rate,
        "chunks": len(fed),
        "fed_to_sent_p50_ms": round(statistics.median(waits), 1),
        "fed_to_sent_p95_ms": round(waits[int(0.95 * (len(waits) - 1))], 1),
        "fed_to_sent_max_ms": round(waits[-1], 1),
        "messages": len(sent),
        "messages_per_s": round((len(sent) - 1) / span, 1),
        "max_in_1s": max(bisect.bisect_right(sent, t + 1.0) - i for i, t in enumerate(sent)),
        "bytes_ratio": round(sum(size for _, size in SENT) / len(text.encode()), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=2000)
    parser.add_argument("--limit", type=int, default=0, help="only the first N chunks of the recording")
    parser.add_argument("--real", help="real-shaped streams at these deltas/s (comma-separated) instead")
    parser.add_argument("--seconds", type=float, default=10, help="of each real-shaped stream")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    comm.create_comm = CountingComm
    if args.real:
        rows = [real_shaped(float(rate), args.seconds) for rate in args.real.split(",")]
        for row in rows:
            print(
                json.dumps(row)
                if args.json
                else f"{row['rate']:g} deltas/s: fed to sent p50 {row['fed_to_sent_p50_ms']} ms, p95 "
                f"{row['fed_to_sent_p95_ms']} ms, max {row['fed_to_sent_max_ms']} ms; {row['messages_per_s']} "
                f"messages/s (most in 1 s: {row['max_in_1s']}); {row['bytes_ratio']} bytes per byte of text"
            )
        return 0 if all(row["max_in_1s"] <= 41 for row in rows) else 1

    async def stream() -> mn.RunResult:
        lines = FIXTURE.read_bytes().splitlines(keepends=True)
        source = b"".join(lines[: args.limit]) if args.limit else FIXTURE
        return await mn.view(source, delay=1 / args.rate)

    started = time.monotonic()
    result = asyncio.run(stream())
    elapsed = time.monotonic() - started
    text_bytes = len(result.text.encode())
    sent_bytes = sum(size for _, size in SENT)
    span = SENT[-1][0] - SENT[0][0]
    figures = {
        "chunks": result.chunk_count,
        "chunks_per_s": round(result.chunk_count / elapsed),
        "text_bytes": text_bytes,
        "sent_bytes": sent_bytes,
        "bytes_ratio": round(sent_bytes / text_bytes, 3),
        "messages": len(SENT),
        "messages_per_s": round(len(SENT) / span, 1),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{result.chunk_count} chunks in {elapsed:.2f} s ({figures['chunks_per_s']:,} chunks/s)")
        print(
            f"  sent {sent_bytes:,} bytes for {text_bytes:,} bytes of text: ratio {figures['bytes_ratio']} (goal <= 1.5)"
        )
        print(f"  {len(SENT)} messages in {span:.2f} s: {figures['messages_per_s']}/s (goal <= 40)")
    loaded = args.rate >= 250
    return 0 if (figures["bytes_ratio"] <= 1.5 or not loaded) and figures["messages_per_s"] <= 40 else 1


if __name__ == "__main__":
    sys.exit(main())
