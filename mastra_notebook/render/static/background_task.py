"""A background task card (background-task.ts): its history of statuses, outputs and result."""

from __future__ import annotations

from ...core.status_words import status_word
from . import text as fmt
from .common import NodeFields, SnapshotTree, error_box, outputs_view, simple_card, status_badge, string
from .html import MUTED, bdi, esc, tag
from .json_view import maybe_json


def render_background_task(tree: SnapshotTree, node: NodeFields) -> str:
    name = string(node.get("tool_name")) or string(node.get("task_id")) or "task"
    history = node.get("history")
    words = history if isinstance(history, list) else []
    history_line = " → ".join(
        status_word(item) if isinstance(item, str) else fmt.flat_json(item) for item in words
    )
    body = (
        (tag("div", esc(history_line), style=MUTED) if history_line else "")
        + outputs_view(node.get("outputs"))
        + maybe_json("Result", node.get("result"))
        + error_box(node.get("error"))
    )
    return simple_card(node, "Background task", bdi(name), status_badge(node.get("status")), body=body)
