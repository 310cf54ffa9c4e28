"""What the node renderers share (common.ts, and format.ts's accessors): the tree, the values
read from a node, status badges, errors, durations, outputs and cards."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.status_words import status_tone, status_word
from . import text as fmt
from .html import CARD, KIND, LABEL, MUTED, badge, bdi, details, esc, fold_only, tag
from .json_view import json_pre

NodeFields = dict[str, Any]


ROOT_ID = "root"


MAX_OUTPUTS = 200  # common.ts: the last outputs a tool wrote


@dataclass(slots=True)
class SnapshotTree:
    """The nodes of a snapshot by id, each node's children in order, and the renderer of each kind
    (the registry in ``__init__``: handed in, so no renderer imports the registry that imports it)."""

    nodes: dict[str, NodeFields] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)
    renderers: Mapping[str, Renderer] = field(default_factory=dict)
    # Each step node's request as a transcript carries it (core/request_bounded.py), by node id.
    requests: Mapping[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_ops(cls, ops: Iterable[Any], renderers: Mapping[str, Renderer] | None = None) -> SnapshotTree:
        """The tree a store builds from ``add`` ops (a snapshot); malformed ops are skipped."""
        tree = cls(renderers=renderers or {})
        for op in ops:
            if not isinstance(op, (list, tuple)) or len(op) < 3 or op[0] != "add":
                continue
            _, parent, node = op[:3]
            if not isinstance(node, dict) or not isinstance(node.get("id"), str):
                continue
            node_id = node["id"]
            existed = node_id in tree.nodes
            tree.nodes[node_id] = {
                **node,
                "kind": node["kind"] if isinstance(node.get("kind"), str) else "unknown",
            }
            if not existed:
                tree.children[node_id] = []
                if parent is not None and parent in tree.children:
                    tree.children[parent].append(node_id)
        return tree

    def kids(self, node: NodeFields) -> list[NodeFields]:
        """The node's children, in order."""
        return [self.nodes[child] for child in self.children.get(node["id"], ())]

    def has_run(self, node: NodeFields) -> bool:
        """A run is nested in the node (a tool or step that ran an agent or a workflow)."""
        return any(child["kind"] == "run" for child in self.kids(node))

    def draw(self, node: NodeFields) -> str:
        """The node drawn by its kind's renderer; a kind no renderer knows is drawn as "unknown"."""
        renderer = self.renderers.get(node["kind"]) or self.renderers.get("unknown")
        return renderer(self, node) if renderer else ""

    def draw_children(self, node: NodeFields) -> str:
        """The node's children drawn, in order."""
        return "".join(self.draw(child) for child in self.kids(node))

    def parent_of(self, node_id: str) -> NodeFields | None:
        """The node that holds ``node_id``, or None for the root."""
        for parent, kids in self.children.items():
            if node_id in kids:
                return self.nodes[parent]
        return None


Renderer = Callable[[SnapshotTree, NodeFields], str]


def num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def obj(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def span(start: Any, end: Any) -> float | None:
    a, b = num(start), num(end)
    return None if a is None or b is None else b - a


def status_badge(status: Any) -> str:
    """The status's word and tone from the one table (status_words.json)."""
    key = string(status) or ("" if isinstance(status, str) else "pending")
    return badge(status_word(key), status_tone(key))


def error_message(error: Any) -> str | None:
    if error is None:
        return None
    o = obj(error)
    message = string(o.get("message")) if o else None
    if o is not None and message is not None:
        name = string(o.get("name"))
        return f"{name}: {message}" if name and name != "Error" else message
    return fmt.pretty_json(error)


def error_box(error: Any) -> str:
    message = error_message(error)
    return (
        ""
        if message is None
        else tag("div", esc(message), style="border-left:3px solid #e5534b;padding-left:6px")
    )


def node_duration(node: NodeFields) -> str:
    """How long it took, as the kernel wrote it (core/labels.py), or ""."""
    return string(node.get("duration")) or ""


def outputs_view(values: Any, name: str = "Outputs") -> str:
    items = values if isinstance(values, list) else []
    if not items:
        return ""
    shown = items[-MAX_OUTPUTS:]
    start = len(items) - len(shown) + 1
    rows = "".join(tag("li", json_pre(item)) for item in shown)
    ol = tag("ol", rows, style="margin:2px 0;padding-left:2em", start=str(start) if start > 1 else None)
    return details(tag("span", esc(f"{name} ({len(items)})"), style=LABEL), ol, opened=True)


def head(*parts: str) -> str:
    """A card head: its pieces on one line, spaced as the widget's flex row."""
    return " ".join(part for part in parts if part)


def call_head(
    node: NodeFields,
    kind_label: str,
    name: str,
    status: Any,
    *,
    folded: bool,
    after_name: str = "",
    after_status: str = "",
    last: str = "",
) -> str:
    """The head a tool card and a workflow-step card share (tool.ts, workflow-step.ts ``callHead``):
    kind, name, the outcome while folded, status badge, duration; a card's own pieces where they go."""
    outcome = string(node.get("outcome")) or ""  # the kernel wrote it (core/labels.py)
    duration = node_duration(node)
    return head(
        tag("span", esc(kind_label), style=KIND),
        bdi(name, style="font-weight:600") + after_name,
        fold_only(bdi(outcome), f"{MUTED};font-family:monospace;font-size:90%") if folded else "",
        status_badge(status),
        after_status,
        tag("span", esc(duration), style=MUTED) if duration else "",
        last,
    )


def card(node: NodeFields, head_html: str, body: str, *, opened: bool) -> str:
    """A card the widget folds (common.ts ``Fold``): open or folded as the widget starts it."""
    attrs = {"data_kind": node["kind"]}
    if not body:
        return tag("div", head_html, style=CARD, **attrs)
    return details(head_html, tag("div", body, style="margin-top:4px"), opened=opened, style=CARD, **attrs)


def simple_card(node: NodeFields, kind_label: str, *head_parts: str, body: str = "") -> str:
    """A card the widget never folds: its kind's label, the head's pieces, then the body."""
    head_html = tag("div", head(tag("span", esc(kind_label), style=KIND), *head_parts))
    return tag("div", head_html, body, style=CARD, data_kind=node["kind"])
