"""A goal's evaluation (goal.ts)."""

from __future__ import annotations

from .common import NodeFields, SnapshotTree, simple_card
from .html import badge
from .json_view import maybe_json


def render_goal(tree: SnapshotTree, node: NodeFields) -> str:
    marker = badge("continues", "active") if node.get("should_continue") is True else ""
    return simple_card(node, "Goal", marker, body=maybe_json("Evaluation", node.get("evaluation")))
