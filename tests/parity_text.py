"""The visible text of rendered HTML, and where two texts part: the rule the parity tests compare
both renderers by (tests/parity/README.md; the same as js/test/parity.test.ts), for every test
that checks what a page says."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

UPDATE = os.environ.get("MN_UPDATE_PARITY") == "1"
HOW = "MN_UPDATE_PARITY=1 .venv/bin/python -m pytest tests/test_parity.py"


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
