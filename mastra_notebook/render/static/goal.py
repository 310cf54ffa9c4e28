"""A goal's evaluation (goal.ts)."""

from __future__ import annotations

from .common import Node, Tree, simple_card
from .html import badge
from .json_view import maybe_json


def render_goal(tree: Tree, node: Node) -> str:
    marker = badge("continues", "active") if node.get("should_continue") is True else ""
    return simple_card(node, "Goal", marker, body=maybe_json("Evaluation", node.get("evaluation")))
