"""A/B of the widget bundle at two (or more) git revisions, interleaved in one JupyterLab.

The host is shared, so figures taken minutes apart are not comparable: this builds the bundle of
``js/`` at each revision (``worktree``: the working tree as it is now) into a directory of its own,
then, round after round, measures in the same lab and browser, one after another:

* render.py's ``display(Markdown)`` updated per chunk (theirs), once a round;
* render.py's ``mn.view`` main-thread time (ours), with each revision's bundle;
* latency.py's chunk to screen (p50/p95 of deltas seen), with each revision's bundle;

all fed the same real-shaped stream (benchmarks/streams.py). The order of the revisions alternates
from one round to the next. A notebook uses a revision's bundle by making it the default ``_esm``
of its views before it makes any (the kernel's package itself is the working tree's).
Reported per revision: the median over rounds of the ratio ours/theirs (TaskDuration net of idle, in
the stream's window, as render.py: the outputs' creation apart,
each round against that round's theirs), of the main-thread CPU ratio, and of latency p50/p95,
with the load average. It is a measurement: it exits 0.

    .venv/bin/python benchmarks/ab.py HEAD~1 worktree [--rounds 2] [--rate 100] [--seconds 10] [--trace DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import latency  # noqa: E402
import render  # noqa: E402
import streams  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.helpers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "render-ab.json"
WORKTREE = "worktree"
BUILT = ("widget.js", "widget.css")


def build(rev: str, into: Path) -> Path:
    """The bundle of js/ at `rev` built into `into`/mastra_notebook/static (build.mjs's own layout)."""
    js = into / "js"
    if rev == WORKTREE:
        shutil.copytree(ROOT / "js", js, ignore=shutil.ignore_patterns("node_modules", "test"))
        shutil.copytree(ROOT / "mastra_notebook" / "core", into / "mastra_notebook" / "core")  # shared JSON
    else:
        archive = subprocess.run(
            ["git", "archive", rev, "js/src", "js/build.mjs", "js/package.json", "mastra_notebook/core"],
            cwd=ROOT, check=True, capture_output=True,
        ).stdout  # fmt: skip
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(into, filter="data")
    (js / "node_modules").symlink_to(ROOT / "js" / "node_modules")
    subprocess.run(["node", "build.mjs"], cwd=js, check=True, capture_output=True)
    static = into / "mastra_notebook" / "static"
    if not all((static / name).exists() for name in BUILT):
        raise RuntimeError(f"no bundle built for {rev}")
    return static


def uses_bundle(static: Path) -> str:
    """Kernel code that makes the views made after it load the bundle in `static`."""
    # traitlets copies an immutable default from the class at each instance's creation
    return (
        "from mastra_notebook.widget.bundle import Bundle as _Bundle\n"
        "from mastra_notebook.widget.streamview import StreamView as _StreamView\n"
        f"_esm = _Bundle(open({str(static / 'widget.js')!r}).read(), open({str(static / 'widget.css')!r}).read()).module\n"
        "_StreamView.class_traits()['_esm'].default_value = _esm\n"
        "_StreamView._static_immutable_initial_values['_esm'] = _esm\n"
    )


def with_bundle(cells: list[str], static: Path) -> list[str]:
    return [uses_bundle(static) + cells[0], *cells[1:]]


def median(values: list[float]) -> float:
    return round(statistics.median(values), 4)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("revs", nargs="+", help=f"git revisions of js/ (or {WORKTREE})")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rate", type=float, default=100, help="deltas a second")
    parser.add_argument("--seconds", type=float, default=10, help="of deltas")
    parser.add_argument(
        "--trace", type=Path, help="a Chrome trace of each measured run of ours here (not figures)"
    )
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --browser`", file=sys.stderr)
        return 0
    started = time.monotonic()
    timed = streams.real_shaped(args.rate, args.seconds)
    expected_s = timed[-1][0] / 1000
    theirs: list[dict[str, Any]] = []
    ours: dict[str, list[dict[str, Any]]] = {rev: [] for rev in args.revs}
    lat: dict[str, list[dict[str, Any]]] = {rev: [] for rev in args.revs}
    with tempfile.TemporaryDirectory(prefix="mn-ab-") as tmp, render.jupyterlab(Path(tmp)) as lab:
        bundles = {rev: build(rev, Path(tmp) / f"build-{i}") for i, rev in enumerate(args.revs)}
        stream = streams.save(lab.root / "real-shaped.jsonl", timed)
        tail = render.tail_words(render.stream_text(stream))
        warm = ROOT / "tests" / "fixtures" / "plain-text.jsonl"
        theirs_url = lab.notebook("theirs", render.theirs_cells(stream))
        ours_urls = {
            rev: lab.notebook(f"ours-{i}", with_bundle(render.ours_cells(stream, warm), bundles[rev]))
            for i, rev in enumerate(args.revs)
        }
        latency_urls = {
            rev: lab.notebook(f"latency-{i}", with_bundle(latency.latency_cells(stream), bundles[rev]))
            for i, rev in enumerate(args.revs)
        }
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                for round_ in range(args.rounds):
                    theirs.append(
                        render.measure(
                            browser, theirs_url, "theirs", tail=tail, expected_s=expected_s, trace=None
                        )
                    )
                    order = args.revs if round_ % 2 == 0 else args.revs[::-1]
                    for rev in order:
                        trace = args.trace / f"{args.revs.index(rev)}-{round_}" if args.trace else None
                        if trace:
                            trace.mkdir(parents=True, exist_ok=True)
                        ours[rev].append(
                            render.measure(
                                browser, ours_urls[rev], "ours", tail=tail, expected_s=expected_s, trace=trace
                            )
                        )
                        lat[rev].append(latency.measure_latency(browser, latency_urls[rev], stream))
                        print(
                            f"round {round_ + 1} {rev}: ours net {ours[rev][-1]['net_task_s']} s, theirs net "
                            f"{theirs[-1]['net_task_s']} s, p95 {lat[rev][-1]['p95_ms']} ms, load {os.getloadavg()[0]:.1f}",
                            file=sys.stderr,
                        )
            finally:
                browser.close()
    figures: dict[str, Any] = {
        "stream": f"real-shaped: start chunks, then 1-5 character deltas at {args.rate:g}/s with jitter",
        "rounds": args.rounds,
        "theirs_net_task_s": [run["net_task_s"] for run in theirs],
        "theirs_creation_net_task_s": [run["creation_net_task_s"] for run in theirs],
        "revs": {},
    }
    for rev in args.revs:
        ratios = [o["net_task_s"] / t["net_task_s"] for o, t in zip(ours[rev], theirs, strict=True)]
        cpu = [o["net_thread_cpu_s"] / t["net_thread_cpu_s"] for o, t in zip(ours[rev], theirs, strict=True)]
        figures["revs"][rev] = {
            "ratio_net": median(ratios),
            "ratios": [round(r, 4) for r in ratios],
            "ratio_thread_cpu_net": median(cpu),
            "net_task_s": median([o["net_task_s"] for o in ours[rev]]),
            "creation_net_task_s": median([o["creation_net_task_s"] for o in ours[rev]]),
            "script_s": median([o["script_s"] for o in ours[rev]]),
            "layout_style_s": median([o["layout_s"] + o["style_s"] for o in ours[rev]]),
            "other_s": median([o["other_s"] for o in ours[rev]]),
            "long_task_max_ms": max(o["long_tasks"]["max_ms"] or 0 for o in ours[rev]),
            "latency_p50_ms": median([run["p50_ms"] for run in lat[rev]]),
            "latency_p95_ms": median([run["p95_ms"] for run in lat[rev]]),
            "latency_p95s_ms": [run["p95_ms"] for run in lat[rev]],
            "max_messages_in_1s": max(run["messages"]["max_in_1s"] for run in lat[rev]),
            "load_avg_1min": [o["load_avg_1min"] for o in ours[rev]],
        }
    figures["total_s"] = round(time.monotonic() - started, 1)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    for rev, row in figures["revs"].items():
        print(
            f"{rev:>12}: ratio {row['ratio_net']} {row['ratios']} (cpu {row['ratio_thread_cpu_net']}), "
            f"script {row['script_s']} s, layout+style {row['layout_style_s']} s, other {row['other_s']} s, "
            f"longest task {row['long_task_max_ms']} ms; latency p50 {row['latency_p50_ms']} ms, "
            f"p95 {row['latency_p95_ms']} ms {row['latency_p95s_ms']}; load {row['load_avg_1min']}"
        )
    print(f"({figures['total_s']} s in all; figures in {RESULTS.relative_to(ROOT)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
