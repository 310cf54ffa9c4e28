"""Browserless parity, the Python half: every fixture's final snapshot (committed under
tests/parity/snapshots/) drawn by the static renderer says the golden text (tests/parity/golden/).
js/test/parity.test.ts draws the same snapshots with the widget's renderer in jsdom and compares
them with the same goldens: both renderers say the same thing. The rule that reads the visible
text is in tests/parity/README.md.

``MN_UPDATE_PARITY=1`` rewrites the snapshots and the goldens (from the static renderer), for a
reviewer to read in the diff.
"""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from mastra_notebook.core.ingest import records
from mastra_notebook.core.run import Run
from mastra_notebook.render.static import render_tree

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
PARITY = ROOT / "tests" / "parity"
ALL = sorted(FIXTURES.rglob("*.jsonl"))
NAMES = [fixture.relative_to(FIXTURES).with_suffix("").as_posix() for fixture in ALL]
UPDATE = os.environ.get("MN_UPDATE_PARITY") == "1"
HOW = "MN_UPDATE_PARITY=1 .venv/bin/python -m pytest tests/test_parity.py"
EPOCH_MS = 1_700_000_000_000.0  # a fixed clock: the run starts here and a chunk arrives every STEP_MS
STEP_MS = 25.0

# What the text skips (the same rule as js/test/parity.test.ts): controls, the one-line summaries of
# folded cards (their opened body says it again), what is hidden, code and styles.
SKIPPED_TAGS = {"script", "style", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BLOCKS = {
    *("address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt", "figcaption"),
    *("figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav"),
    *("ol", "p", "pre", "section", "summary", "table", "tr", "ul"),
}


def _skipped(tag: str, attrs: dict[str, str | None]) -> bool:
    classes = (attrs.get("class") or "").split()
    hidden = "hidden" in attrs or "display:none" in (attrs.get("style") or "").replace(" ", "")
    return tag in SKIPPED_TAGS or hidden or "data-mn-control" in attrs or "mn-fold-only" in classes


class _Text(HTMLParser):
    """The visible text of an HTML fragment, a line per block (whitespace is not compared)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.skipping: list[str] = []  # the open tags of a skipped subtree

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping or _skipped(tag, dict(attrs)):
            if tag not in VOID:
                self.skipping.append(tag)
        elif tag in BLOCKS:
            self.lines.append("")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag in self.skipping:  # an unclosed tag inside is closed with its parent
                del self.skipping[len(self.skipping) - 1 - self.skipping[::-1].index(tag) :]
        elif tag in BLOCKS:
            self.lines.append("")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.lines[-1] += data


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = (re.sub(r"\s+", " ", line).strip() for line in parser.lines)
    return "\n".join(line for line in lines if line) + "\n"


def _cut(part: str) -> str:
    return part if len(part) <= 300 else f"{part[:300]}…"


def difference(golden: str, text: str, what: str) -> str | None:
    """None when ``text`` says ``golden`` (whitespace left out), else where they part: the span each
    has between what they share before and after it (the same report as js/test/parity.test.ts)."""
    a, b = re.sub(r"\s+", "", golden), re.sub(r"\s+", "", text)
    if a == b:
        return None
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    return (
        f"{what} differs from the golden at character {start} (whitespace left out):\n"
        f"  before: …{a[max(0, start - 80) : start]}\n"
        f"  golden: «{_cut(a[start : len(a) - end])}»\n"
        f"  {what}: «{_cut(b[start : len(b) - end])}»\n"
        f"  after:  {a[len(a) - end : len(a) - end + 80]}…\n"
        f"If the change is meant, regenerate: {HOW}"
    )


def snapshot_of(fixture: Path) -> dict[str, Any]:
    run = Run(epoch_ms=EPOCH_MS)
    for index, item in enumerate(records(fixture)):
        run.feed(item, received_ms=index * STEP_MS)
    run.end()
    return {"title": fixture.stem, "snapshot": {"t": "snapshot", "seq": 0, "ops": run.snapshot()}}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize("fixture", ALL, ids=NAMES)
def test_static_renderer_says_the_golden(fixture: Path) -> None:
    name = fixture.relative_to(FIXTURES).with_suffix("").as_posix()
    data = snapshot_of(fixture)
    snapshot = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    text = visible_text(render_tree(data["snapshot"]["ops"], data["title"]))
    snapshot_file, golden_file = PARITY / "snapshots" / f"{name}.json", PARITY / "golden" / f"{name}.txt"
    if UPDATE:
        _write(snapshot_file, snapshot)
        _write(golden_file, text)
    assert snapshot_file.exists(), f"{snapshot_file.relative_to(ROOT)} is missing: {HOW}"
    assert snapshot_file.read_text() == snapshot, (
        f"{snapshot_file.relative_to(ROOT)} is not the reducer's snapshot of {fixture.name} today: {HOW}"
    )
    report = difference(golden_file.read_text(), text, "the static renderer")
    assert report is None, report


def test_every_snapshot_has_its_fixture() -> None:
    """No snapshot or golden outlives its fixture (the widget's half reads them all)."""
    for kind, suffix in (("snapshots", ".json"), ("golden", ".txt")):
        kept = {
            path.relative_to(PARITY / kind).with_suffix("").as_posix()
            for path in (PARITY / kind).rglob(f"*{suffix}")
        }
        assert kept == set(NAMES), f"tests/parity/{kind} and tests/fixtures differ: {kept ^ set(NAMES)}"
