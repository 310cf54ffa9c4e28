"""A text part as markdown (text.ts; text_part, as text.py is the formatting module)."""

from __future__ import annotations

import re

from .common import NodeFields, SnapshotTree, string
from .html import markdown, tag

JSON_TEXT = re.compile(r"^\s*(?:```(?:json)?\s*)?[\[{]", re.IGNORECASE)


def render_text(tree: SnapshotTree, node: NodeFields) -> str:
    return tag("div", markdown(string(node.get("text")) or ""), data_kind="text")
