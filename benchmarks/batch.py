"""A batch at evaluation scale: 500 prompts at concurrency 8 in a real JupyterLab (headless Chromium).

The bundled Mastra server (server/, started as tests/server/conftest.py does) answers every prompt
with the scripted weather agent (a tool call, then text). A notebook shows
``client.agent("weather").stream_many(prompts, concurrency=8)`` (48 tiles a page) and awaits it;
meanwhile the page's DOM is sampled every half second and a ``longtask`` observer keeps every
main-thread task over 50 ms. Then the gallery is paged (next, next, previous, previous, each timed
until its first tile shows). Reported: wall time (the cell's clock, stream_many to the last run's
end), the kernel's peak RSS (ru_maxrss) before and after, the kernel's widgets at the end, the
page's DOM elements and tiles at most, and the longest task during the batch and while paging.
Goal: no task over 100 ms. With ``--reload`` the notebook is saved and the page reloaded once the
paging is done: timed from the reload until the gallery is back (every tile of its first page drawn,
finished), with the bytes the kernel's websocket brought the page meanwhile (the widgets' states,
mostly) and the size of every live widget's state as the kernel sends it. A light Chromium trace gives each of those tasks' main-thread CPU time too:
on two cores shared with the kernel and the server, a task may last 100 ms while the page works a
few ms in it. It is a measurement: it exits 0 whether or not the goal is met.

    .venv/bin/python benchmarks/batch.py [--prompts 500] [--concurrency 8] [--reload] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lab import KERNEL_FIGURES, in_lab, lab_page, sampled_until_reported  # noqa: E402
from render import RUN_CELL_JS, long_tasks  # noqa: E402

from tests.e2e.helpers import (  # noqa: E402
    cell,
    open_notebook,
    printed_json,
    run_cells,
    save,
)

RESULTS = ROOT / "benchmarks" / "results" / "batch.json"
LONG_TASK_GOAL_MS = 100.0

SETUP = (
    """import json, resource, time
import ipywidgets
import mastra_notebook as mn
client = mn.MastraClient({url!r})
prompts = [f"What is the weather in City{{i}}?" for i in range({count})]
"""
    + KERNEL_FIGURES
)
START = "t0 = time.perf_counter()\nbatch = client.agent('weather').stream_many(prompts, concurrency={concurrency})\nbatch"
REPORT = """results = await batch
wall = time.perf_counter() - t0
print("RESULTS", json.dumps({
    "wall_s": round(wall, 1), "before": before,
    "peak_rss_mb": round(peak_rss_mb(), 1), "widgets": widgets(),
    "live_tile_views": sum(tile.view is not None for tile in batch.tiles),  # runs' views still held
    "counts": batch.counts(), "summary": batch.summary(),
    "finished": sum(r.status == "finished" and bool(r.tool_calls) for r in results),
}))"""
# What a page reload makes the kernel send: every live widget's state (JSON, buffers aside)
STATE = """states = [w.get_state() for w in list(ipywidgets.widgets.widget._instances.values())]
sizes = sorted((len(json.dumps(s, default=str)) for s in states), reverse=True)
print("STATE", json.dumps({"widgets": len(sizes), "bytes": sum(sizes), "largest": sizes[:3],
    "esm_bytes": sum(len(s.get("_esm", "")) for s in states)}))"""

SAMPLE_JS = """() => ({
  elements: document.getElementsByTagName('*').length,
  tiles: document.querySelectorAll('.mn-gallery .mn-grid-tile').length,
  views: document.querySelectorAll('.mn-gallery .mn-root').length,
  summary: document.querySelector('.mn-gallery-summary')?.innerText || '',
  reported: (document.querySelectorAll('.jp-Notebook .jp-Cell')[2]?.querySelector('.jp-OutputArea')
    ?.textContent || '').includes('RESULTS'),
})"""  # cheap: the sampling's own work is a task of the page too (a text-matching locator took 70 ms)
# Polled after a reload: the page's clock (ms since the reload's navigation began) when each step of
# the way back is first seen; true once the gallery is back (every tile of its page drawn, finished)
BACK_JS = """(count) => {
  const seen = (window.__mnBack ??= {});
  const mark = (name, yes) => { if (yes && seen[name] === undefined) seen[name] = performance.now(); };
  mark('notebook', !!document.querySelector('.jp-Notebook .jp-Cell'));
  const kernel = window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel;
  mark('kernel_idle', kernel?.status === 'idle');
  mark('gallery', !!document.querySelector('.mn-gallery-summary'));
  const roots = [...document.querySelectorAll('.mn-gallery .mn-grid-tile')];
  const drawn = roots.filter(r => r.dataset.status === 'finished' && r.querySelector('.mn-grid-title')?.textContent);
  mark('first_tile', drawn.length > 0);
  mark('back', roots.length === count && drawn.length === count);
  return seen.back !== undefined;
}"""
FIRST_TILE_JS = """(text) => (document.querySelector('.mn-gallery .mn-grid-tile')?.innerText || '').includes(text)
  && [...document.querySelectorAll('.mn-gallery .mn-grid-tile')].every(r => r.dataset.status !== 'running')"""


# A light trace of the page's tasks: each task's wall time and the main thread's CPU time in it. On two
# cores shared with the kernel and the server, a task can last 100 ms while the page works 6 ms in it.
TRACE_CATEGORIES = ["toplevel", "blink.user_timing"]
MARK_JS = "(name) => performance.mark(name)"


def cpu_of_long_tasks(trace: bytes, start_mark: str, end_mark: str) -> dict[str, Any]:
    """The renderer's main-thread tasks over 50 ms between two marks: wall and CPU milliseconds."""
    events = json.loads(trace)["traceEvents"]
    threads = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
               and e.get("args", {}).get("name") == "CrRendererMain"}  # fmt: skip
    marks = {e["name"]: e["ts"] for e in events if e.get("name") in (start_mark, end_mark)}
    if start_mark not in marks or end_mark not in marks:
        return {"supported": False}
    tasks = [
        e for e in events
        if (e.get("pid"), e.get("tid")) in threads and e.get("name") == "ThreadControllerImpl::RunTask"
        and e.get("ph") == "X" and e.get("dur", 0) > 50_000 and marks[start_mark] <= e["ts"] <= marks[end_mark]
    ]  # fmt: skip
    pairs = sorted(((e["dur"] / 1000, e.get("tdur", 0) / 1000) for e in tasks), reverse=True)
    return {
        "supported": True,
        "max_cpu_ms": round(max((cpu for _, cpu in pairs), default=0.0), 1),
        "over_100ms_wall": [
            {"wall_ms": round(wall, 1), "cpu_ms": round(cpu, 1)} for wall, cpu in pairs if wall > 100
        ],
        "over_100ms_cpu": sum(1 for _, cpu in pairs if cpu > 100),
    }


def reload_until_back(page: Any, tiles: int) -> dict[str, Any]:
    """Save, reload the page; the seconds until the gallery is back (by the page's clock from the
    reload's start: each step of the way), and the bytes the page received over the kernel's websocket
    meanwhile."""
    received = [0, 0]  # bytes, frames

    def on_frame(payload: str | bytes) -> None:
        received[0] += len(payload)
        received[1] += 1

    def on_socket(socket: Any) -> None:
        if "/api/kernels/" in socket.url:
            socket.on("framereceived", on_frame)

    save(page)
    page.on("websocket", on_socket)
    began = time.monotonic()
    page.reload()
    page.wait_for_function(BACK_JS, arg=tiles, timeout=300_000, polling=50)
    back = time.monotonic() - began
    page.remove_listener("websocket", on_socket)
    seen = {name: round(ms / 1000, 2) for name, ms in page.evaluate("() => window.__mnBack").items()}
    return {"back_s": round(back, 2), "page_s": seen, "gallery_to_back_s": round(seen["back"] - seen["gallery"], 2),
            "ws_bytes": received[0], "ws_frames": received[1], "tiles": tiles}  # fmt: skip


def measure(browser: Any, url: str, prompts: int, *, reload: bool = False) -> dict[str, Any]:
    context, page = lab_page(browser)
    tracing = False
    try:
        open_notebook(page, url)
        run_cells(page, 0)
        printed_json(page, 0, "SETUP")
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        tracing = True
        page.evaluate(MARK_JS, "mn-batch")
        start = float(page.evaluate("() => performance.now()"))
        run_cells(page, 1)
        page.evaluate(RUN_CELL_JS, 2)
        samples = sampled_until_reported(page, SAMPLE_JS, 60 + prompts * 2)
        report = printed_json(page, 2)
        page.wait_for_timeout(1000)  # the last tiles' final frames
        end = float(page.evaluate("() => performance.now()"))
        page.evaluate(MARK_JS, "mn-paging")
        during = long_tasks(page, start, end)
        flips = []
        firsts = [index for index in (0, 48, 96) if index < prompts]  # the first tile of each page flipped to
        moves = [("next", f) for f in firsts[1:]] + [("previous", f) for f in reversed(firsts[:-1])]
        for button, first in ((button, f"City{index}?") for button, index in moves):
            began = time.monotonic()
            cell(page, 1).locator(f".mn-grid-pager-top .mn-grid-{button}").click()
            page.wait_for_function(FIRST_TILE_JS, arg=first, timeout=120_000, polling=50)
            flips.append(round(time.monotonic() - began, 2))
        page.wait_for_timeout(1000)
        paging = long_tasks(page, end, float(page.evaluate("() => performance.now()")))
        page.evaluate(MARK_JS, "mn-paged")
        after = page.evaluate(SAMPLE_JS)
        trace, tracing = browser.stop_tracing(), False
        during["cpu"] = cpu_of_long_tasks(trace, "mn-batch", "mn-paging")
        paging["cpu"] = cpu_of_long_tasks(trace, "mn-paging", "mn-paged")
        reloaded = None
        if reload:
            run_cells(page, 3)
            state = printed_json(page, 3, "STATE")
            reloaded = {**reload_until_back(page, min(prompts, 48)), "kernel_state": state,
                        "load_average": [round(x, 2) for x in os.getloadavg()]}  # fmt: skip
    finally:
        if tracing:
            browser.stop_tracing()
        context.close()
    return {
        **report,
        "dom_elements_max": max(s["elements"] for s in samples),
        "dom_elements_after_paging": after["elements"],
        "tiles_in_dom_max": max(s["tiles"] for s in samples),
        "views_in_dom_max": max(s["views"] for s in samples),
        "samples": len(samples),
        "long_tasks_during_batch": during,
        "page_flips_s": flips,
        "long_tasks_paging": paging,
        "reload": reloaded,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompts", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--reload", action="store_true", help="then save, reload, time the gallery's return")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cells = [SETUP, START.format(concurrency=args.concurrency), REPORT, STATE]
    figures = in_lab(
        "batch",
        cells,
        lambda browser, url: measure(browser, url, args.prompts, reload=args.reload),
        count=args.prompts,
    )
    if figures is None:
        return 0
    worst = [figures["long_tasks_during_batch"]["max_ms"], figures["long_tasks_paging"]["max_ms"]]
    figures.update(prompts=args.prompts, concurrency=args.concurrency, goal_long_task_ms=LONG_TASK_GOAL_MS)
    figures["goal_met"] = None not in worst and max(worst) <= LONG_TASK_GOAL_MS
    cpu = [figures[key]["cpu"] for key in ("long_tasks_during_batch", "long_tasks_paging")]
    figures["cpu_goal_met"] = (
        all(c["supported"] for c in cpu) and max(c["max_cpu_ms"] for c in cpu) <= LONG_TASK_GOAL_MS
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    if args.json:
        print(json.dumps(figures))
        return 0
    during, paging = figures["long_tasks_during_batch"], figures["long_tasks_paging"]
    print(
        f"{args.prompts} prompts at concurrency {args.concurrency}: {figures['wall_s']} s, "
        f"{figures['finished']} finished with their tool call ({figures['summary']})\n"
        f"kernel peak RSS {figures['before']['peak_rss_mb']:.0f} MB before, {figures['peak_rss_mb']:.0f} MB after; "
        f"widgets {figures['before']['widgets']} before, {figures['widgets']} after "
        f"({figures['live_tile_views']} tile views)\n"
        f"page: at most {figures['dom_elements_max']:,} elements, {figures['tiles_in_dom_max']} tiles "
        f"({figures['views_in_dom_max']} live views); pages flipped in {figures['page_flips_s']} s\n"
        f"longest task during the batch {during['max_ms']} ms ({during['over_100ms']} over 100 ms, "
        f"{during['over_50ms']} over 50 ms); paging {paging['max_ms']} ms ({paging['over_100ms']} over 100 ms); "
        f"goal no task > {LONG_TASK_GOAL_MS:g} ms: {'MET' if figures['goal_met'] else 'NOT MET'}\n"
        f"main-thread CPU in the longest task: {during['cpu'].get('max_cpu_ms')} ms during the batch, "
        f"{paging['cpu'].get('max_cpu_ms')} ms paging; the tasks over 100 ms (wall, CPU): "
        f"{[(t['wall_ms'], t['cpu_ms']) for c in cpu for t in c.get('over_100ms_wall', [])]}\n"
        f"(figures in {RESULTS.relative_to(ROOT)})"
    )
    if figures["reload"]:
        reloaded, state = figures["reload"], figures["reload"]["kernel_state"]
        print(
            f"reload: gallery back ({reloaded['tiles']} tiles finished) {reloaded['back_s']} s after the reload; "
            f"by the page's clock (s): {reloaded['page_s']}, {reloaded['gallery_to_back_s']} s from the gallery's "
            "controls to its tiles; "
            f"the page received {reloaded['ws_bytes'] / 1e6:.2f} MB "
            f"in {reloaded['ws_frames']} frames from the kernel; the kernel's {state['widgets']} widgets' "
            f"states {state['bytes'] / 1e6:.2f} MB ({state['esm_bytes'] / 1e6:.2f} MB of it `_esm`, "
            f"largest {state['largest']}); load average {reloaded['load_average']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
