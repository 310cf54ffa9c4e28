"""The run as a tree of view nodes, and every change to it as a small op (docs/view-protocol.md).

The reducer writes through a :class:`Tree`; a listener (the widget) receives each op as it happens,
and :meth:`Tree.snapshot` rebuilds the whole tree as ops for a view that joins late.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Op = list[Any]
Sink = Callable[[Op], None]


class Node:
    """One view node: a ``kind``, its fields, its children, and growing text kept as pieces."""

    __slots__ = ("children", "fields", "id", "kind", "pieces")

    def __init__(self, node_id: str, kind: str, fields: dict[str, Any]) -> None:
        self.id = node_id
        self.kind = kind
        self.fields = fields
        self.children: list[Node] = []
        self.pieces: dict[str, list[str]] = {}  # growing strings, joined only when read

    def text(self, field: str) -> str:
        pieces = self.pieces.get(field)
        if not pieces:
            return str(self.fields.get(field) or "")
        if len(pieces) > 1:
            pieces[:] = ["".join(pieces)]
        return pieces[0]

    def get(self, field: str, default: Any = None) -> Any:
        if field in self.pieces:
            return self.text(field)
        return self.fields.get(field, default)

    def as_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "kind": self.kind, **self.fields}
        for field in self.pieces:
            data[field] = self.text(field)
        return data


class Tree:
    """Node ids, the op listener, and the one place that changes nodes."""

    def __init__(self) -> None:
        self.sink: Sink | None = None
        self._next_id = 0

    def new(self, kind: str, parent: Node | None, **fields: Any) -> Node:
        node_id = "root" if parent is None and self._next_id == 0 else f"n{self._next_id}"
        self._next_id += 1
        node = Node(node_id, kind, fields)
        if parent is not None:
            parent.children.append(node)
        if self.sink is not None:
            self.sink(["add", parent.id if parent else None, node.as_dict()])
        return node

    def append(self, node: Node, field: str, text: str) -> None:
        pieces = node.pieces.get(field)
        if pieces is None:
            pieces = node.pieces[field] = [str(node.fields.pop(field, "") or "")]
        pieces.append(text)
        if self.sink is not None:
            self.sink(["append", node.id, field, text])

    def set(self, node: Node, field: str, value: Any) -> None:
        node.pieces.pop(field, None)
        node.fields[field] = value
        if self.sink is not None:
            self.sink(["set", node.id, field, value])

    def push(self, node: Node, field: str, value: Any) -> None:
        # a new list, never a mutation: an op already handed to the listener may hold the old one
        node.fields[field] = [*node.fields.get(field, ()), value]
        if self.sink is not None:
            self.sink(["push", node.id, field, value])


def snapshot_ops(root: Node) -> list[Op]:
    """Ops that rebuild the tree under (and including) ``root`` from nothing."""
    ops: list[Op] = []
    stack: list[tuple[Node, str | None]] = [(root, None)]
    while stack:
        node, parent_id = stack.pop()
        ops.append(["add", parent_id, node.as_dict()])
        stack.extend((child, node.id) for child in reversed(node.children))
    return ops
