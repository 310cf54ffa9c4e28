"""A chunk that could not be read (invalid.ts)."""

from __future__ import annotations

from .common import NodeFields, SnapshotTree, error_message, string
from .html import MUTED, PRE, details, esc, tag


def render_invalid(tree: SnapshotTree, node: NodeFields) -> str:
    summary = f"Invalid chunk: {error_message(node.get('error')) or 'unreadable'}"
    return details(esc(summary), tag("pre", esc(string(node.get("raw")) or ""), style=PRE), style=MUTED)
