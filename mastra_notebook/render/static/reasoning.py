"""A reasoning part (reasoning.ts): open while thinking, folded to "Thought for 2.1 s" once done."""

from __future__ import annotations

from .common import NodeFields, SnapshotTree, num, string
from .html import MUTED, details, esc, markdown, tag


def render_reasoning(tree: SnapshotTree, node: NodeFields) -> str:
    done = node.get("done") is True or num(node.get("ended_at")) is not None  # older snapshots: no done
    body = string(node.get("text")) or ""
    if node.get("redacted") is True:
        return details(esc("Reasoning redacted"), style=MUTED)
    if done and not body:
        return ""  # an empty block (encrypted reasoning, a bare signature) says nothing once done
    took = string(node.get("duration"))  # the kernel wrote it (core/labels.py)
    summary = "Thinking…" if not done else "Thought" if took is None else f"Thought for {took}"
    return details(
        esc(summary), tag("div", markdown(body), style=MUTED), opened=not done, data_kind="reasoning"
    )
