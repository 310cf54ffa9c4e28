"""The header of a view that no longer streams (header.ts): title, prompt, status, and the
figures the kernel formatted (core/figures.py): shown, never computed here."""

from __future__ import annotations

from ...core.status_words import status_tone, status_word
from .common import NodeFields, SnapshotTree, string
from .footer import run_figures
from .html import BORDER, MUTED, badge, esc, tag

# header.ts HEADER_STATS: the figures the header shows after its badge, in order
HEADER_STATS = (("duration", ""), ("tokens", ""), ("first_token", "first token "), ("cost", ""))


def _awaiting_approval(tree: SnapshotTree, run: NodeFields) -> bool:
    if run.get("status") != "suspended":
        return False
    return any(
        node["kind"] == "tool" and node.get("status") == "awaiting-approval" for node in tree.nodes.values()
    )


def render_header(tree: SnapshotTree, run: NodeFields | None, title: str, subtitle: str) -> str:
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
    if "instructions" in (run.get("overrides") or ()):  # header.ts: the request replaced them
        bits.append(badge("instructions overridden", "neutral"))
    if state:
        bits.append(badge(status_word(state), status_tone(state)))  # header.ts: the one table's word
    shown = run_figures(run)  # the kernel's figures (core/figures.py): shown, never computed here
    known = {key: value for key, value in shown.items() if not (key == "cost" and value == "unknown")}
    stats = [label + known[key] for key, label in HEADER_STATS if key in known]  # known costs only
    if stats:
        bits += [tag("span", esc(stat), style=f"{MUTED};font-size:85%;margin-left:6px") for stat in stats]
    if run.get("scoring"):  # header.ts: "scoring…" while the scores are awaited, then one badge each
        bits.append(badge("scoring…", "active"))
    bits += [badge(shown["text"], shown["tone"]) for shown in run.get("score_badges") or ()]
    line = " ".join(bit for bit in bits if bit)
    return (
        tag("div", line, style=f"border-bottom:1px solid {BORDER};padding-bottom:4px;margin-bottom:4px")
        if line
        else ""
    )
