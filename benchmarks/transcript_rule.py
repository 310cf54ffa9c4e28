"""What the transcript-hiding rule (a `:has()` rule in widget.css) costs a streaming view.

In headless Chromium, a page shaped like a notebook: ``--cells`` outputs pairs, each a drawn view
(``.mn-root`` with a few hundred elements) followed by its transcript, with the whole widget.css
loaded. A stream is imitated in one view: ``--appends`` times, a text span is added and the layout
read (as the renderer's next frame would). The same work is timed with the stylesheet as built, and
with the transcript rule taken out, in alternating rounds. Reported: milliseconds per append for
each, in its fastest round (on a shared machine the other rounds measure the other processes too).

It is a measurement: it exits 0 whatever it finds.

    .venv/bin/python benchmarks/transcript_rule.py [--cells 30] [--appends 100] [--rounds 15] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CSS = ROOT / "mastra_notebook" / "static" / "widget.css"
RESULTS = ROOT / "benchmarks" / "results" / "transcript_rule.json"
RULE = re.compile(r":has\(\.mn-root\)[^{]*\.mastra-notebook-transcript\s*\{[^}]*\}")

PAGE = """<!doctype html><html><head><style id="css"></style></head><body><div id="notebook"></div>
<script>
function build(cells) {
  const notebook = document.getElementById("notebook");
  for (let c = 0; c < cells; c++) {
    const area = notebook.appendChild(document.createElement("div"));
    area.className = "jp-OutputArea";
    const widget = area.appendChild(document.createElement("div"));
    const root = widget.appendChild(document.createElement("div"));
    root.className = "mn-root";
    for (let p = 0; p < 60; p++) {
      const part = root.appendChild(document.createElement("div"));
      part.className = "mn-text";
      for (let s = 0; s < 4; s++) part.appendChild(document.createElement("span")).textContent = "word ";
    }
    const transcript = area.appendChild(document.createElement("div"));
    transcript.innerHTML = '<div class="mastra-notebook-transcript"><p>the run</p></div>';
  }
}
function stream(appends) {
  const target = document.querySelector(".mn-root .mn-text:last-child");
  const start = performance.now();
  for (let i = 0; i < appends; i++) {
    const span = document.createElement("span");
    span.className = "mn-delta";
    span.textContent = "delta " + i + " ";
    target.appendChild(span);
    void target.offsetHeight;  // the layout a frame would need
  }
  const ms = performance.now() - start;
  target.replaceChildren();
  return ms / appends;
}
</script></body></html>"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=30)
    parser.add_argument("--appends", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    built = CSS.read_text()
    without = RULE.sub("", built)
    assert without != built, "the transcript rule was not found in widget.css"
    timings: dict[str, list[float]] = {"with the rule": [], "without it": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.set_content(PAGE)
        page.evaluate("(cells) => build(cells)", args.cells)
        page.evaluate("(css) => { document.getElementById('css').textContent = css; }", built)
        hidden = page.evaluate(
            "() => [...document.querySelectorAll('.mastra-notebook-transcript')]"
            ".filter((t) => getComputedStyle(t).display === 'none').length"
        )
        for _ in range(args.rounds):
            for label, css in (("with the rule", built), ("without it", without)):
                page.evaluate("(css) => { document.getElementById('css').textContent = css; }", css)
                timings[label].append(page.evaluate("(n) => stream(n)", args.appends))
        browser.close()
    report = {
        "cells": args.cells,
        "appends": args.appends,
        "rounds": args.rounds,
        "transcripts_hidden_with_the_rule": hidden,
        **{f"ms_per_append {label}": round(min(values), 3) for label, values in timings.items()},
    }
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
