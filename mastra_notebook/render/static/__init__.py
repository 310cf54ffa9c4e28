"""The static renderer: the node tree the browser draws, as script-free HTML (see nodes.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...core.status_words import status_tone, status_word
from . import nodes
from .html import BORDER, CARD, MUTED, badge, esc, tag
from .nodes import RENDERERS, ROOT_ID, RUN_SECTIONS, VIEW_BARS, Node, Tree, run_figures, string

# header.ts HEADER_STATS: the figures the header shows after its badge, in order
HEADER_STATS = (("duration", ""), ("tokens", ""), ("first_token", "first token "), ("cost", ""))

__all__ = ["RENDERERS", "RUN_SECTIONS", "VIEW_BARS", "VIEW_KEY", "Tree", "render_tree", "transcript_class"]

# A live view's key (StreamView.view_key, a uuid4 hex): it becomes a class name, so nothing else.
VIEW_KEY = re.compile(r"[0-9a-f]{32}")


def _awaiting_approval(tree: Tree, run: Node) -> bool:
    if run.get("status") != "suspended":
        return False
    return any(
        node["kind"] == "tool" and node.get("status") == "awaiting-approval" for node in tree.nodes.values()
    )


def _header(tree: Tree, run: Node | None, title: str, subtitle: str) -> str:
    """header.ts for a view that no longer streams: title, status, elapsed, tokens, first token, cost."""
    status = string((run or {}).get("status"))
    state = (
        ""
        if not status
        else "approval"
        if status == "suspended" and run and _awaiting_approval(tree, run)
        else status
    )
    run = run or {}
    bits = [tag("span", esc(title), style="font-weight:600") if title else ""]
    bits.append(tag("span", esc(subtitle), style=MUTED) if subtitle else "")  # the prompt's first line
    if state:
        bits.append(badge(status_word(state), status_tone(state)))  # header.ts: the one table's word
    shown = run_figures(run)  # the kernel's figures (core/figures.py): shown, never computed here
    known = {key: value for key, value in shown.items() if not (key == "cost" and value == "unknown")}
    stats = [label + known[key] for key, label in HEADER_STATS if key in known]  # known costs only
    if stats:
        bits += [tag("span", esc(stat), style=f"{MUTED};font-size:85%;margin-left:6px") for stat in stats]
    line = " ".join(bit for bit in bits if bit)
    return (
        tag("div", line, style=f"border-bottom:1px solid {BORDER};padding-bottom:4px;margin-bottom:4px")
        if line
        else ""
    )


def _behind_toggle(bar: str) -> str:
    """A bar's first <summary> is the transcript's twin of the header toggle that shows the bar in
    the widget (a control: the widget's button carries ``data-mn-control`` too)."""
    return (
        bar.replace("<summary", "<summary data-mn-control", 1) if bar.lstrip().startswith("<details") else bar
    )


def transcript_class(view_keys: Iterable[str] = ()) -> str:
    """The transcript's classes: one per live view it stands for (``mn-transcript-of-<key>``). A view
    that draws hides the transcripts of its own key (widget.ts), so a transcript is hidden only
    beside its own drawn view; where no view draws (no kernel, an untrusted notebook, GitHub) no rule
    exists and the transcript is read. A class, not an attribute: notebook sanitizers keep classes."""
    keys = [key for key in view_keys if VIEW_KEY.fullmatch(key)]
    return " ".join(["mastra-notebook-transcript", *(f"mn-transcript-of-{key}" for key in keys)])


def render_tree(
    ops: Iterable[Any], title: str = "", subtitle: str = "", view_keys: Iterable[str] = ()
) -> str:
    """A snapshot's ops (``["add", parent, node]``, as the view sends them) as one HTML fragment;
    ``title`` and ``subtitle`` as the view's header shows them (its traits); ``view_keys``: the live
    views this transcript stands for (see ``transcript_class``)."""
    tree = Tree.from_ops(ops)
    root = tree.nodes.get(ROOT_ID)
    if root is None:
        body = tag("div", "Waiting for the run…", style=MUTED)
    else:
        body = "".join(_behind_toggle(bar(tree, root)) for bar in nodes.VIEW_BARS) + tree.draw(root)
    return tag(
        "div",
        _header(tree, root, title, subtitle),
        body,
        class_=transcript_class(view_keys),
        style=CARD + ";padding:6px 10px",
    )
