"""Browser main-thread cost of a live view on a real-shaped stream, ours against the floor and IPython.

In one real JupyterLab (launched as tests/e2e/conftest.py does) driven by headless Chromium, three
notebooks each run one measured cell after a small warm-up cell (which loads the renderer once).
All are fed the same stream (benchmarks/streams.py) at its recorded times: by default
(``--stream real-shaped``, as benchmarks/latency.py) a real provider's ``start``, ``step-start``,
``text-start``, then 1-5 character deltas with jittered gaps at ``--rate`` deltas/s for
``--seconds``, then its ``text-end``, ``step-finish``, ``finish``; with ``--stream long-text``,
tests/fixtures/long-text.jsonl (5,000 deltas of ~43 characters, 216 KB of markdown) at ``--rate``
deltas/s with the same jitter (``--seconds`` unused):

* ours:   ``mn.view()`` fed from a task on the kernel's loop (``streams.feed``) — done when
  ``.mn-root[data-status="finished"]`` and the last words are in the cell;
* floor:  the floor of any widget in JupyterLab: a bare anywidget (``FLOOR_ESM``) whose view appends
  each custom message's text to a ``<div>``, fed the stream's text from a task on the kernel's loop
  (``streams.feed_floor``) batched as our view's messages are (at once, or 25 ms after the previous:
  at most 40 messages a second) — done when its end message has come and the last words are in it;
* theirs: ``display(Markdown(text), display_id=True)`` then ``handle.update(Markdown(text_so_far))`` per
  delta, in the cell, paced the same way — done when the cell prints ``DONE`` and the last words are
  in it. ``--no-markdown`` leaves it out (per chunk it re-sends the whole text: on long-text, far
  past jupyter_server's IOPub data rate limit).

All cells show their output, then wait ``LEAD_S`` before the stream's first chunk. The figures are
of the stream's window (from ``STREAM_WINDOW_S`` after the cell is run, the output made, to the end):
the updates per chunk the goal is about, with no one-off creation on either side (our view's first
render; the Markdown output's). The creation is measured apart (cell run to that window) and a ratio
with it is reported beside.

Measured per run: wall time, Chromium's ``Performance.TaskDuration`` (CDP ``Performance.getMetrics``
before/after), the same page idle for the run's expected length as a baseline (subtracted, pro rata
of the wall time), long tasks (a ``longtask`` PerformanceObserver injected before the page loads:
max duration and count > 50 ms), and whether "IOPub message/data rate exceeded" appeared. Beside
them: the main thread's CPU time (CDP ``ThreadTime``) and the host's load average — TaskDuration and
long tasks are wall-clock, so a busy host (other processes on few cores) stretches them; CPU time
much less.
Reported: ours/floor, ours/theirs and floor/theirs (TaskDuration net of the idle baseline; main-thread
CPU beside). Goals (issue 28): ours <= 1.5 x the floor, and no main-thread task over 50 ms in ours.
It is a measurement: it exits 0 whether or not a goal is met. ``--trace DIR`` writes a Chrome trace of
each measured run for diagnosis; starting the tracer adds about a second of main-thread time (and a
long task) to the window, so figures taken with it are not the benchmark's.

    .venv/bin/python benchmarks/render.py [--rate 100] [--seconds 10] [--json] [--trace DIR]
    .venv/bin/python benchmarks/render.py --stream long-text --rate 500 --no-markdown
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "benchmarks"))

import streams  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.conftest import lab as lab_fixture  # noqa: E402
from tests.e2e.helpers import CHROMIUM, CHROMIUM_ARGS, Lab, open_notebook  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "render.json"
TAIL_WORDS = 12  # the last words of the answer that must be visible for a run to count as ended
LONG_TASK_GOAL_MS = 50.0
FLOOR_GOAL = 1.5  # ours <= this x the floor's main-thread time
LONG_TEXT = ROOT / "tests" / "fixtures" / "long-text.jsonl"
KINDS = {"ours": "ours", "floor": "floor", "theirs": "Markdown"}  # contenders, in the order measured
# Both cells show their output, then wait this long before the stream's first chunk: the output's
# one-off creation (our view's first render; the Markdown output's) is measured apart from the stream.
LEAD_S = 1.0
# When the stream part of the window starts (s after the cell is run; the output shown by then).
STREAM_WINDOW_S = 0.8

# The floor: a bare anywidget whose view appends each message's text to its element.
FLOOR_ESM = """
export default {
  render({ model, el }) {
    const div = document.createElement("div");
    div.className = "mn-floor";
    el.appendChild(div);
    const onMessage = (msg) => {
      if (msg.text) div.append(msg.text);
      if (msg.end) Object.assign(div.dataset, { status: "finished", messages: msg.messages, peak: msg.peak });
    };
    model.on("msg:custom", onMessage);
    return () => model.off("msg:custom", onMessage);
  },
};
"""
SELECTORS = {"ours": ".mn-root", "floor": ".mn-floor", "theirs": ".jp-OutputArea-output"}

LONGTASK_OBSERVER = """
window.__mnLongTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__mnLongTasks.push({start: e.startTime, duration: e.duration});
  }).observe({type: 'longtask', buffered: true});
} catch (error) { window.__mnLongTasks = null; }
"""

# Whether cell `index` shows its output (our view's root; the Markdown display's output).
SHOWN_JS = """
(args) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[args.index];
  return !!(cell && cell.node.querySelector(args.selector));
}
"""

# The text of one cell's outputs; `words` checks that `tail` (the answer's last words) is shown in it.
CELL_JS = """
(args) => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const cell = nb.widgets[args.index];
  const out = cell && cell.node.querySelector('.jp-OutputArea');
  if (!out) return false;
  if (args.kind === 'ours') {
    const root = out.querySelector('.mn-root');
    if (!root || root.dataset.status !== 'finished') return false;
  } else if (args.kind === 'floor') {
    const root = out.querySelector('.mn-floor');
    if (!root || (args.tail && root.dataset.status !== 'finished')) return false;
  } else if (!out.textContent.includes(args.marker)) {
    return false;
  }
  if (!args.tail) return true;
  const words = (out.textContent.match(/[A-Za-z0-9]+/g) || []).join(' ');
  return words.includes(args.tail);
}
"""

# The floor's own count of the messages it was sent (from its end message).
FLOOR_SENT_JS = """
() => {
  const root = window.jupyterapp.shell.currentWidget.content.widgets[1].node.querySelector('.mn-floor');
  return {count: Number(root.dataset.messages), max_in_1s: Number(root.dataset.peak)};
}
"""

RUN_CELL_JS = """
(index) => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  nb.activeCellIndex = index;
  nb.deselectAll();
  window.__mnRunStart = performance.now();
  window.jupyterapp.commands.execute('notebook:run-cell');
  return window.__mnRunStart;
}
"""


def ours_cells(stream: Path, warm: Path) -> list[str]:
    return [
        f"import asyncio, sys\nfrom pathlib import Path\nsys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n"
        f"import streams\nimport mastra_notebook as mn\nmn.view({str(warm)!r})",
        f"view = mn.view()\nasyncio.ensure_future(streams.feed(view, Path({str(stream)!r}), [], wait_s={LEAD_S}))\nview",
    ]


def floor_cells(stream: Path) -> list[str]:
    return [
        f"import asyncio, sys\nfrom pathlib import Path\nimport anywidget\n"
        f"sys.path.insert(0, {str(ROOT / 'benchmarks')!r})\nimport streams\n\n"
        f"class Floor(anywidget.AnyWidget):\n    _esm = {FLOOR_ESM!r}\n\nFloor()",
        f"floor = Floor()\nasyncio.ensure_future(streams.feed_floor(floor, Path({str(stream)!r}), wait_s={LEAD_S}))\n"
        "floor",
    ]


def theirs_cells(stream: Path) -> list[str]:
    return [
        "from IPython.display import Markdown, display\ndisplay(Markdown('WARM *up*'), display_id=True)",
        f"""import sys, time
from mastra_notebook.core.recording import Recording
sys.path.insert(0, {str(ROOT / "benchmarks")!r})
import streams
recording = Recording.load({str(stream)!r})
text = ""
handle = display(Markdown(text), display_id=True)
time.sleep({LEAD_S})
start = time.monotonic()
for at_ms, chunk in zip(recording.times, streams.chunks(recording)):
    wait = start + at_ms / 1000 - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    if chunk["type"] == "text-delta":
        text += chunk["payload"]["text"]
        handle.update(Markdown(text))
print("DONE")""",
    ]


def stream_text(path: Path) -> str:
    from mastra_notebook.core.recording import Recording

    items = streams.chunks(Recording.load(path))
    return "".join(item["payload"]["text"] for item in items if item.get("type") == "text-delta")


def tail_words(text: str) -> str:
    import re

    return " ".join(re.findall(r"[A-Za-z0-9]+", text)[-TAIL_WORDS:])


@contextlib.contextmanager
def jupyterlab(base: Path) -> Iterator[Lab]:
    """The e2e `lab` fixture's own launcher, driven outside pytest."""

    class Factory:
        def mktemp(self, name: str) -> Path:
            path = base / name
            path.mkdir()
            return path

    generator = lab_fixture.__wrapped__(Factory())  # type: ignore[attr-defined]
    try:
        yield next(generator)
    finally:
        generator.close()


def task_metrics(cdp: Any) -> dict[str, float]:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return {m["name"]: m["value"] for m in metrics}


def wait_cell(page: Any, index: int, kind: str, *, tail: str, marker: str, timeout_s: float) -> float:
    """Wait (polling every 50 ms) until cell `index` has ended; return the page clock when seen."""
    page.wait_for_function(
        CELL_JS, arg={"index": index, "kind": kind, "tail": tail, "marker": marker},
        polling=50, timeout=timeout_s * 1000,
    )  # fmt: skip
    return float(page.evaluate("() => performance.now()"))


def long_tasks(page: Any, start: float, end: float) -> dict[str, Any]:
    entries = page.evaluate("() => window.__mnLongTasks")
    if entries is None:
        return {"supported": False, "max_ms": None, "over_50ms": None, "over_100ms": None}
    inside = [e["duration"] for e in entries if e["start"] + e["duration"] >= start and e["start"] <= end]
    return {
        "supported": True,
        "max_ms": round(max(inside), 1) if inside else 0.0,
        "over_50ms": len(inside),  # the API reports only tasks over 50 ms
        "over_100ms": sum(1 for d in inside if d > 100),
        "durations_ms": [round(d, 1) for d in sorted(inside, reverse=True)[:10]],
    }


def measure(
    browser: Any, url: str, kind: str, *, tail: str, expected_s: float, trace: Path | None
) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_init_script(LONGTASK_OBSERVER)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.dismiss())
    try:
        open_notebook(page, url)
        page.wait_for_timeout(1500)  # let the lab finish laying itself out
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        marker = "WARM" if kind == "theirs" else ""

        # Warm-up cell: loads the renderer (our widget's ESM; JupyterLab's markdown renderer).
        # A run issued too soon after the kernel started can be lost (once, in a cold lab): retry once.
        before = task_metrics(cdp)
        start = page.evaluate(RUN_CELL_JS, 0)
        retried = False
        try:
            end = wait_cell(page, 0, kind, tail="", marker=marker, timeout_s=20)
        except PlaywrightTimeout:
            retried = True
            page.keyboard.press("Escape")  # a kernel dialog, if one opened
            start = page.evaluate(RUN_CELL_JS, 0)
            end = wait_cell(page, 0, kind, tail="", marker=marker, timeout_s=60)
        after = task_metrics(cdp)
        warm = {
            "retried": retried,
            "wall_s": round((end - start) / 1000, 3),
            "task_s": round(after["TaskDuration"] - before["TaskDuration"], 4),
            "long_tasks": long_tasks(page, start, end),
        }
        page.wait_for_timeout(1000)

        # Idle baseline: the same page doing nothing for the run's expected length.
        before = task_metrics(cdp)
        idle_start = time.monotonic()
        page.wait_for_timeout(expected_s * 1000)
        after = task_metrics(cdp)
        idle_s = time.monotonic() - idle_start
        idle_rate = (after["TaskDuration"] - before["TaskDuration"]) / idle_s
        idle_cpu_rate = (after["ThreadTime"] - before["ThreadTime"]) / idle_s

        # The measured run.
        if trace is not None:
            browser.start_tracing(page=page, path=str(trace / f"{kind}.json"), screenshots=False)
        load_before = os.getloadavg()[0]
        first = task_metrics(cdp)
        run_at = page.evaluate(RUN_CELL_JS, 1)
        page.wait_for_function(
            SHOWN_JS, arg={"index": 1, "selector": SELECTORS[kind]}, polling=20, timeout=30_000
        )
        shown_s = (float(page.evaluate("() => performance.now()")) - run_at) / 1000
        page.wait_for_timeout(max(STREAM_WINDOW_S - shown_s, 0.0) * 1000)
        # The stream's window: from here (the output made, its first chunk still to come) to its end.
        before = task_metrics(cdp)
        start = float(page.evaluate("() => performance.now()"))
        end = wait_cell(page, 1, kind, tail=tail, marker="DONE", timeout_s=90)
        after = task_metrics(cdp)
        if trace is not None:
            browser.stop_tracing()
        wall_s = (end - start) / 1000
        task_s = after["TaskDuration"] - before["TaskDuration"]
        cpu_s = after["ThreadTime"] - before["ThreadTime"]
        made_s = (start - run_at) / 1000
        made_task_s = before["TaskDuration"] - first["TaskDuration"]
        body = page.evaluate("() => document.body.textContent")
        sent = page.evaluate(FLOOR_SENT_JS) if kind == "floor" else None
        return {
            "wall_s": round(wall_s, 3),
            "task_s": round(task_s, 4),
            "idle_task_s_per_s": round(idle_rate, 5),
            "net_task_s": round(max(task_s - idle_rate * wall_s, 0.0), 4),
            "thread_cpu_s": round(cpu_s, 4),
            "net_thread_cpu_s": round(max(cpu_s - idle_cpu_rate * wall_s, 0.0), 4),
            # the output's creation (cell run to the stream's window), net of idle: apart from the stream
            "shown_after_s": round(shown_s, 3),
            "creation_net_task_s": round(max(made_task_s - idle_rate * made_s, 0.0), 4),
            "load_avg_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "script_s": round(after["ScriptDuration"] - before["ScriptDuration"], 4),
            "layout_s": round(after["LayoutDuration"] - before["LayoutDuration"], 4),
            "style_s": round(after["RecalcStyleDuration"] - before["RecalcStyleDuration"], 4),
            "compile_s": round(after["V8CompileDuration"] - before["V8CompileDuration"], 4),
            "other_s": round(after["TaskOtherDuration"] - before["TaskOtherDuration"], 4),
            "long_tasks": long_tasks(page, start, end),
            "iopub_msg_rate_exceeded": "IOPub message rate exceeded" in body,
            "iopub_data_rate_exceeded": "IOPub data rate exceeded" in body,
            "dom_nodes": page.evaluate("() => document.getElementsByTagName('*').length"),
            "messages": sent,  # the floor's: messages sent, and the most in any second
            "warm_up": warm,
        }
    except Exception:
        with contextlib.suppress(Exception):  # say what the page showed, then fail loudly
            state = page.evaluate(
                "() => { const w = window.jupyterapp.shell.currentWidget;"
                " return [w.sessionContext?.session?.kernel?.status,"
                " w.content.widgets.map(c => (c.node.querySelector('.jp-OutputArea') || {}).textContent || '')"
                ".map(t => t.slice(0, 300) + ' ... ' + t.slice(-300))]; }"
            )
            print(f"{kind}: the run did not end; kernel and cell outputs: {state}", file=sys.stderr)
        raise
    finally:
        context.close()


def ratios(a: dict[str, Any], b: dict[str, Any]) -> dict[str, float | None]:
    """Run `a` against run `b`: TaskDuration net of idle (the figure), raw, with the outputs' creation,
    and main-thread CPU net of idle."""

    def over(x: float, y: float) -> float | None:
        return round(x / y, 4) if y else None

    return {
        "net": over(a["net_task_s"], b["net_task_s"]),
        "raw": over(a["task_s"], b["task_s"]),
        "with_creation_net": over(
            a["net_task_s"] + a["creation_net_task_s"], b["net_task_s"] + b["creation_net_task_s"]
        ),
        "thread_cpu_net": over(a["net_thread_cpu_s"], b["net_thread_cpu_s"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stream", choices=("real-shaped", "long-text"), default="real-shaped")
    parser.add_argument("--rate", type=float, default=100, help="deltas a second")
    parser.add_argument("--seconds", type=float, default=10, help="of deltas (real-shaped)")
    parser.add_argument("--no-markdown", action="store_true", help="leave out display(Markdown)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    parser.add_argument("--trace", type=Path, help="write a Chrome trace of each measured run here")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --browser`", file=sys.stderr)
        return 0
    if args.stream == "long-text":
        timed, _ = streams.provider(LONG_TEXT, args.rate)
        described = (
            f"long-text: 216 KB of markdown in deltas of ~43 characters at {args.rate:g}/s with jitter"
        )
        results = RESULTS.with_name("render-long-text.json")
    else:
        timed = streams.real_shaped(args.rate, args.seconds)
        described = f"real-shaped: start chunks, then 1-5 character deltas at {args.rate:g}/s with jitter"
        results = RESULTS
    chunks = len(timed)
    deltas = sum(1 for _, chunk in timed if chunk["type"] == "text-delta")
    expected_s = timed[-1][0] / 1000
    kinds = [kind for kind in KINDS if not (args.no_markdown and kind == "theirs")]
    runs: dict[str, Any] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mn-render-") as tmp, jupyterlab(Path(tmp)) as lab:
        stream = streams.save(lab.root / f"{args.stream}.jsonl", timed)
        tail = tail_words(stream_text(stream))
        warm = ROOT / "tests" / "fixtures" / "plain-text.jsonl"
        cells = {
            "ours": ours_cells(stream, warm),
            "floor": floor_cells(stream),
            "theirs": theirs_cells(stream),
        }
        urls = {kind: lab.notebook(kind, cells[kind]) for kind in kinds}
        if args.trace:
            args.trace.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                for kind, url in urls.items():
                    runs[kind] = measure(
                        browser, url, kind, tail=tail, expected_s=expected_s, trace=args.trace
                    )
            finally:
                browser.close()

    pairs = [("ours", "floor"), ("ours", "theirs"), ("floor", "theirs")]
    compared = {f"{a}/{b}": ratios(runs[a], runs[b]) for a, b in pairs if a in runs and b in runs}
    ours_floor = compared["ours/floor"]["net"]
    ours_max = runs["ours"]["long_tasks"]["max_ms"]
    figures = {
        "chunks": chunks,
        "deltas": deltas,
        "stream": described,
        "rate": args.rate,
        "expected_s": round(expected_s, 3),
        **runs,
        # theirs = display(Markdown) updated per chunk; each ratio: net (TaskDuration net of idle, the
        # figure), raw, with_creation_net, thread_cpu_net
        "ratios": compared,
        "goal_ratio_floor": FLOOR_GOAL,
        "goal_ratio_floor_met": ours_floor is not None and ours_floor <= FLOOR_GOAL,
        "goal_long_task_ms": LONG_TASK_GOAL_MS,
        "goal_long_task_met": ours_max is not None and ours_max <= LONG_TASK_GOAL_MS,
        "total_s": round(time.monotonic() - started, 1),
        "chromium": CHROMIUM,
    }
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(figures, indent=2) + "\n")
    if args.json:
        print(json.dumps(figures))
        return 0

    def row(label: str, key: Any) -> None:
        print(f"  {label:<34}" + "".join(f"{key(runs[kind])!s:>16}" for kind in kinds))

    print(f"{deltas} deltas ({chunks} chunks), {described}, expected {expected_s:.2f} s")
    print(f"  {'':<34}" + "".join(f"{KINDS[kind]:>16}" for kind in kinds))
    row("wall time (s)", lambda r: f"{r['wall_s']:.2f}")
    row("TaskDuration (s)", lambda r: f"{r['task_s']:.3f}")
    row("  idle baseline (s/s)", lambda r: f"{r['idle_task_s_per_s']:.4f}")
    row("  net of baseline (s)", lambda r: f"{r['net_task_s']:.3f}")
    row("  of which script (s)", lambda r: f"{r['script_s']:.3f}")
    row("  layout + style (s)", lambda r: f"{r['layout_s']:.2f} + {r['style_s']:.2f}")
    row("  other: paint, GC, IPC (s)", lambda r: f"{r['other_s']:.3f}")
    row("output's creation, net (s)", lambda r: f"{r['creation_net_task_s']:.3f}")
    row("main-thread CPU, ThreadTime (s)", lambda r: f"{r['thread_cpu_s']:.3f}")
    row("  net of baseline (s)", lambda r: f"{r['net_thread_cpu_s']:.3f}")
    row("host load avg, before/after", lambda r: "/".join(str(x) for x in r["load_avg_1min"]))
    row("long tasks: max (ms)", lambda r: r["long_tasks"]["max_ms"])
    row("long tasks: count > 50 ms", lambda r: r["long_tasks"]["over_50ms"])
    row("long tasks: count > 100 ms", lambda r: r["long_tasks"]["over_100ms"])
    row("IOPub message rate exceeded", lambda r: r["iopub_msg_rate_exceeded"])
    row("IOPub data rate exceeded", lambda r: r["iopub_data_rate_exceeded"])
    row("DOM elements after", lambda r: r["dom_nodes"])
    row("warm-up cell TaskDuration (s)", lambda r: f"{r['warm_up']['task_s']:.3f}")
    row("warm-up cell max long task (ms)", lambda r: r["warm_up"]["long_tasks"]["max_ms"])
    sent = runs["floor"]["messages"]
    print(f"  the floor was sent {sent['count']} messages, at most {sent['max_in_1s']} in any second")
    for kind, run in runs.items():
        if run["warm_up"]["retried"]:
            print(f"  note: {KINDS[kind]}'s warm-up cell was run a second time (the first run was lost)")

    def text(x: float | None) -> str:
        return f"{x:.3f}" if x is not None else "n/a"

    for pair, r in compared.items():
        label = pair.replace("theirs", "Markdown")
        print(
            f"  ratio {label + ',':<16} TaskDuration net: {text(r['net'])} (raw {text(r['raw'])}); "
            f"main-thread CPU net: {text(r['thread_cpu_net'])}; with the outputs' creation: "
            f"{text(r['with_creation_net'])}"
        )
    met = "MET" if figures["goal_ratio_floor_met"] else "NOT MET"
    print(f"goal ours <= {FLOOR_GOAL} x the floor (TaskDuration net of idle): {met}")
    met = "MET" if figures["goal_long_task_met"] else "NOT MET"
    print(f"goal no main-thread task over {LONG_TASK_GOAL_MS:g} ms in ours (max {ours_max} ms): {met}")
    print(f"({figures['total_s']} s in all; figures in {results.relative_to(ROOT)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
