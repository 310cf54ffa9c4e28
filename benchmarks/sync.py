"""Wire cost of a live view: the 5,000-delta long-text stream fed at ~2,000 chunks/s.

Counts what the widget sends to the browser (through a recording comm, as the kernel would send it):
bytes sent per byte of answer text, and messages per second. Goals under load: <= 1.5 and <= 40/s.
At a trickle (``--rate 20 --limit 400``) every chunk leaves at once, so the bytes ratio is not the
goal there, the latency is (benchmarks/latency.py); the messages stay under 40/s.

    python benchmarks/sync.py [--rate 2000] [--limit N] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import comm

import mastra_notebook as mn

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "long-text.jsonl"
SENT: list[tuple[float, int]] = []


class CountingComm(comm.DummyComm):  # type: ignore[misc]
    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **kwargs: Any) -> None:
        if data and data.get("method") == "custom":
            SENT.append((time.monotonic(), len(json.dumps(data))))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=2000)
    parser.add_argument("--limit", type=int, default=0, help="only the first N chunks of the recording")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    comm.create_comm = CountingComm

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
