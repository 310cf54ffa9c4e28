"""A chunk or part the reducer does not know (unknown.ts), shown as its JSON."""

from __future__ import annotations

from . import text as fmt
from .common import NodeFields, SnapshotTree, string
from .html import MUTED, PRE, details, esc, tag


def render_unknown(tree: SnapshotTree, node: NodeFields) -> str:
    is_unknown = node["kind"] == "unknown"
    summary = f"Unknown {'chunk' if is_unknown else 'part'}: {string(node.get('type')) or node['kind']}"
    value = node.get("chunk") if is_unknown else node
    return details(esc(summary), tag("pre", esc(fmt.pretty_json(value)), style=PRE), style=MUTED)
