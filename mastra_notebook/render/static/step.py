"""A step's closing line (step.ts): its index, finish reason and tokens; under it, the request the
model was given, folded, when the transcript carries it (request.py)."""

from __future__ import annotations

from ...core.labels import js_number
from ...core.numbers import format_int
from .common import NodeFields, SnapshotTree, num, obj, string
from .html import BORDER, MUTED, esc, tag
from .request import render_request


def render_step(tree: SnapshotTree, node: NodeFields) -> str:
    usage = obj(node.get("usage")) or {}
    index, tokens_in, tokens_out = (
        num(node.get("index")),
        num(usage.get("input_tokens")),
        num(usage.get("output_tokens")),
    )
    bits = [
        "Step" if index is None else f"Step {js_number(index)}",
        string(node.get("finish_reason")),
        None if tokens_in is None else f"{format_int(tokens_in)} in",
        None if tokens_out is None else f"{format_int(tokens_out)} out",
    ]
    line = " · ".join(bit for bit in bits if bit)
    divider = tag(
        "div",
        esc(line),
        style=f"{MUTED};font-size:85%;border-top:1px dashed {BORDER};margin-top:8px;padding-top:2px",
    )
    return divider + render_request(node, tree.requests.get(node["id"]))
