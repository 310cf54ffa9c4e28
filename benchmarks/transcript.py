"""What the static transcript costs: it is built when every run ends (and by ``RunResult._repr_html_``).

The transcript is drawn by the widget's own renderers in the kernel's embedded engine
(mastra_notebook/render/engine.py). The engine's start (once per kernel, at the first transcript) is
timed apart, then for each stream the run is folded once; then timed: its first build (the engine's
code not yet warm for it), and the median of ``--repeat`` builds of the view's snapshot
(``Run.snapshot``), the transcript from it (``render_ops``, what StreamView saves), and from the
RunResult's parts (how a RunResult loaded from JSON is drawn). Streams:

* ``long-text``: tests/fixtures/long-text.jsonl (a 200 kB markdown answer);
* ``agent-as-tool``: a sub-agent inside a tool call;
* ``deep-nesting``: 400 agents each inside the last one's tool (tests/hostile.py), drawn to the view's
  depth (16 levels, then "N more levels");
* ``deep-value``: values nested 10,000 levels (tests/hostile.py; drawn cut at the view's value depth).

    .venv/bin/python benchmarks/transcript.py [--repeat 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mastra_notebook.core.ingest import records  # noqa: E402
from mastra_notebook.core.result_nodes import result_ops  # noqa: E402
from mastra_notebook.core.run import Run  # noqa: E402
from mastra_notebook.render.engine import engine  # noqa: E402
from mastra_notebook.render.transcript import render_ops  # noqa: E402
from tests import hostile as h  # noqa: E402

STREAMS: dict[str, Callable[[], Any]] = {
    "long-text": lambda: ROOT / "tests/fixtures/long-text.jsonl",
    "agent-as-tool": lambda: ROOT / "tests/fixtures/agent-as-tool.jsonl",
    "deep-nesting": lambda: h.body(h.deep_tool_output_lines(400)),
    "deep-value": lambda: h.body(h.deep_value_lines(10_000)),
}


def _median_ms(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(name: str, repeat: int) -> dict[str, Any]:
    run = Run()
    for item in records(STREAMS[name]()):
        run.feed(item)
    run.end()
    ops = run.snapshot()
    result = run.result
    start = time.perf_counter()
    html = render_ops(ops)
    first = (time.perf_counter() - start) * 1000
    return {
        "stream": name,
        "nodes": len(ops),
        "html_kb": round(len(html.encode()) / 1024, 1),
        "snapshot_ms": round(_median_ms(run.snapshot, repeat), 3),
        "first_ms": round(first, 2),
        "transcript_ms": round(_median_ms(lambda: render_ops(ops), repeat), 2),
        "from_parts_ms": round(_median_ms(lambda: render_ops(result_ops(result)), repeat), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    engine()
    started_ms = round((time.perf_counter() - start) * 1000, 1)
    rows = [measure(name, args.repeat) for name in STREAMS]
    if args.json:
        print(json.dumps({"engine_start_ms": started_ms, "streams": rows}, indent=2))
        return
    print(f"engine start (once per kernel): {started_ms} ms")
    print(
        f"{'stream':<14} {'nodes':>6} {'html kB':>8} {'snapshot':>9} {'first':>9} {'transcript':>11} {'from parts':>11}"
    )
    for row in rows:
        print(
            f"{row['stream']:<14} {row['nodes']:>6} {row['html_kb']:>8} {row['snapshot_ms']:>7} ms"
            f" {row['first_ms']:>6} ms {row['transcript_ms']:>8} ms {row['from_parts_ms']:>8} ms"
        )


if __name__ == "__main__":
    main()
