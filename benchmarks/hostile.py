"""Linear cost on hostile input: the figures the project promises, beside their yardsticks.

- 40,000 ``tool-call-delta`` chunks of one call (its argument text growing) against 40,000
  ``text-delta`` chunks of the same sizes: goal, at most 3 times as long;
- one 60 MB SSE event arriving in 16 KiB pieces (``mn.collect`` of the pieces) against ``orjson.loads``
  of the event: goal, at most 5 times as long;
- a body of 1 MB (and 8 MB) of blank lines in 16 KiB pieces, alone and before a short stream: it
  settles (no chunk, at most one invalid entry) and holds no more than about one piece (peak traced
  memory).

The streams are the corpus of tests/hostile.py. A measurement that runs past ``--cap`` seconds is
stopped and shown as such (a quadratic reader takes minutes here).

    python benchmarks/hostile.py            # a table; --json for machine-readable figures
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import signal
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mastra_notebook as mn
from tests import hostile as h


class Capped(Exception):
    """The measurement ran past its cap."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise Capped


def timed(fn: Callable[[], Any], cap: float) -> tuple[float | None, Any]:
    """Seconds ``fn()`` took (None past ``cap``), and what it returned."""
    gc.collect()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    start = time.perf_counter()
    try:
        value = fn()
    except Capped:
        return None, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - start, value


def best(fn: Callable[[], Any], repeat: int, cap: float) -> tuple[float | None, Any]:
    times, value = [], None
    for _ in range(repeat):
        took, value = timed(fn, cap)
        if took is None:
            return None, None
        times.append(took)
    return min(times), value


def feed_all(lines: list[bytes]) -> mn.RunResult:
    run = mn.Run()
    feed = run.feed
    for line in lines:
        feed(line)
    run.end()
    return run.result


def peak_memory(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Peak traced memory (MB) while ``fn()`` runs, and what it returned."""
    gc.collect()
    tracemalloc.start()
    try:
        value = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / h.MB, value


def blank_pieces(total: int, piece: int = h.PIECE) -> Iterator[bytes]:
    block = b"\n" * piece
    for _ in range(total // piece):
        yield block


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def seconds(value: float | None, cap: float) -> str:
    return f"> {cap:.0f} s (stopped)" if value is None else f"{value * 1000:,.1f} ms"


def measure_deltas(repeat: int, cap: float) -> dict[str, Any]:
    """40,000 argument deltas of one call against 40,000 text deltas of the same sizes."""
    text_lines, arg_lines = h.text_delta_lines(), h.arg_delta_lines()
    text_time, _ = best(lambda: feed_all(text_lines), repeat, cap)
    arg_time, result = best(lambda: feed_all(arg_lines), repeat, cap)
    if result is not None:
        assert result.tool_calls[0].args == h.big_args(), "the arguments were not read whole"
    return {
        "text_delta_s": text_time,
        "tool_call_delta_s": arg_time,
        "ratio": ratio(arg_time, text_time),
        "goal": 3,
    }


def measure_big_event(repeat: int, cap: float) -> dict[str, Any]:
    """One 60 MB event in 16 KiB SSE pieces against orjson.loads of it (one in memory at a time)."""
    event = h.big_event_json()
    event_mb = len(event) / h.MB
    loads_time, _ = best(lambda: orjson.loads(event), repeat, cap)
    event = b""
    pieces = list(h.big_event_pieces())
    collect_time, result = best(lambda: mn.collect(pieces), max(1, repeat - 1), cap)
    if result is not None:
        assert result.chunk_count == h.BIG_EVENT_RECORDS, "the big event was not read"
    return {
        "event_mb": round(event_mb, 1),
        "pieces": len(pieces),
        "orjson_loads_s": loads_time,
        "collect_s": collect_time,
        "ratio": ratio(collect_time, loads_time),
        "goal": 5,
    }


def measure_blanks(cap: float) -> dict[str, Any]:
    """Blank lines settle and are never buffered: time, peak traced memory, what was read."""
    blanks: dict[str, Any] = {}
    for label, make in (
        ("1 MB of blank lines", lambda: blank_pieces(h.MB)),
        ("8 MB of blank lines", lambda: blank_pieces(8 * h.MB)),
        ("1 MB blank, then JSONL", lambda: itertools.chain(blank_pieces(h.MB), [h.body(h.plain_lines())])),
        ("1 MB blank, then SSE", lambda: itertools.chain(blank_pieces(h.MB), [h.sse(h.plain_lines())])),
    ):
        took, result = timed(lambda make=make: mn.collect(make()), cap)
        peak = peak_memory(lambda make=make: mn.collect(make()))[0] if took is not None else None
        blanks[label] = {
            "s": took,
            "peak_mb": peak,
            "chunks": None if result is None else result.chunk_count,
            "invalid": None if result is None else len(result.invalid),
        }
    return blanks


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds before a measurement is stopped")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, Any] = {
        "deltas": measure_deltas(args.repeat, args.cap),
        "big_event": measure_big_event(args.repeat, args.cap),
        "blank_lines": measure_blanks(args.cap),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    deltas, big = figures["deltas"], figures["big_event"]

    def show_ratio(value: float | None, goal: float) -> str:
        return "n/a" if value is None else f"{value:.2f}x (goal <= {goal}x)"

    print(f"{'measure':<44} {'time':>22}  ratio")
    print(f"{'40,000 text-delta chunks (yardstick)':<44} {seconds(deltas['text_delta_s'], args.cap):>22}")
    print(
        f"{'40,000 tool-call-delta chunks, one call':<44} {seconds(deltas['tool_call_delta_s'], args.cap):>22}"
        f"  {show_ratio(deltas['ratio'], 3)}"
    )
    loads_label = f"orjson.loads of one {big['event_mb']:.0f} MB event (yardstick)"
    collect_label = f"mn.collect of it in {big['pieces']:,} x 16 KiB SSE pieces"
    print(f"{loads_label:<44} {seconds(big['orjson_loads_s'], args.cap):>22}")
    print(f"{collect_label:<44} {seconds(big['collect_s'], args.cap):>22}  {show_ratio(big['ratio'], 5)}")
    for label, row in figures["blank_lines"].items():
        peak = "n/a" if row["peak_mb"] is None else f"peak {row['peak_mb']:.1f} MB"
        outcome = "" if row["chunks"] is None else f", {row['chunks']} chunk(s), {row['invalid']} invalid"
        print(f"{label:<44} {seconds(row['s'], args.cap):>22}  {peak}{outcome}")
    print(f"(best of {args.repeat}; a measurement past {args.cap:.0f} s is stopped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
