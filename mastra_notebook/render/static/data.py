"""A data part (data.ts): its type and value."""

from __future__ import annotations

from .common import Node, Tree, simple_card, string
from .html import bdi
from .json_view import maybe_json


def render_data(tree: Tree, node: Node) -> str:
    return simple_card(
        node, "Data", bdi(string(node.get("type")) or ""), body=maybe_json("Value", node.get("data"))
    )
