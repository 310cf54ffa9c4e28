"""The run as a tree of view nodes, and every change to it as a small op (docs/view-protocol.md).

The reducer writes through a :class:`Tree`; a listener (the widget) receives each op as it happens,
and :func:`snapshot_ops` rebuilds the whole tree as ops for a view that joins late.

What goes to the listener must be writable as JSON and cheap to send, save and draw: a value nested
deeper than a writer takes, or larger than ``bounding.FIELD`` (a 50 MB tool result), is shown cut
(``bounding.for_view``, each cut said in place) while the node keeps the original for the RunResult
and the whole size for the card's note (``Node.cut_size``). Nodes of runs nested below the view's
depth are ``hidden``: they hold their data but send no op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .bounding import for_view

# An answer's text is drawn whole however long (it is the run's story); other strings are cut as values
WHOLE_TEXT = frozenset({"text"})

Op = list[Any]
Sink = Callable[[Op], None]


class Node:
    """One view node: a ``kind``, its fields, its children, and growing text kept as pieces."""

    __slots__ = ("children", "fields", "hidden", "id", "kind", "originals", "pieces", "sizes")

    def __init__(self, node_id: str, kind: str, fields: dict[str, Any], hidden: bool) -> None:
        self.id = node_id
        self.kind = kind
        self.fields = fields
        self.hidden = hidden
        self.children: list[Node] = []
        self.pieces: dict[str, list[str]] = {}  # growing strings, joined only when read
        self.originals: dict[str, Any] | None = None  # values too deep or too large to show, as they came
        self.sizes: dict[str, int] | None = None  # their whole size (bytes of JSON), when cut for it

    def text(self, field: str) -> str:
        """A growing text field, its pieces joined (once, then kept joined)."""
        pieces = self.pieces.get(field)
        if not pieces:
            return str(self.fields.get(field) or "")
        if len(pieces) > 1:
            pieces[:] = ["".join(pieces)]
        return pieces[0]

    def get(self, field: str, default: Any = None) -> Any:
        """A field's value as it came (not cut for the view)."""
        if field in self.pieces:
            return self.text(field)
        if self.originals is not None and field in self.originals:
            return self.originals[field]
        return self.fields.get(field, default)

    def as_dict(self) -> dict[str, Any]:
        """The node as a view op carries it: id, kind and fields, texts joined."""
        data = {"id": self.id, "kind": self.kind, **self.fields}
        for field in self.pieces:
            data[field] = self.text(field)
        return data

    def cut_size(self, field: str) -> int:
        """The whole size (bytes of JSON) of ``field``'s value when the view shows it cut for its
        size; 0 when it shows it whole."""
        return 0 if self.sizes is None else self.sizes.get(field, 0)

    def _keep(self, field: str, value: Any) -> Any:
        """The value to show for ``field``; the original (and its size) is kept when it had to be cut."""
        if type(value) is str and field in WHOLE_TEXT:
            return value
        shown, size = for_view(value)
        if self.sizes is not None or size:
            self.sizes = self.sizes or {}
            self.sizes.pop(field, None)
            if size:
                self.sizes[field] = size
        if shown is not value:
            if self.originals is None:
                self.originals = {}
            self.originals[field] = value
        elif self.originals is not None:
            self.originals.pop(field, None)
        return shown


def _shown_as_value(value: Any) -> bool:
    """A field's value that may be cut for the view: JSON lists, objects and strings."""
    return type(value) in (dict, list, str)


class Tree:
    """Node ids, the op listener, and the one place that changes nodes."""

    def __init__(self) -> None:
        self.sink: Sink | None = None
        self._next_id = 0

    def new(self, kind: str, parent: Node | None, *, hidden: bool = False, **fields: Any) -> Node:
        """A node under ``parent`` (the root when None); a hidden node or one under a hidden parent
        is kept but sends no op."""
        node_id = "root" if parent is None and self._next_id == 0 else f"n{self._next_id}"
        self._next_id += 1
        hidden = hidden or (parent is not None and parent.hidden)
        node = Node(node_id, kind, {}, hidden)
        for field, value in fields.items():
            node.fields[field] = node._keep(field, value) if _shown_as_value(value) else value
        if parent is not None:
            parent.children.append(node)
        if self.sink is not None and not hidden:
            self.sink(["add", parent.id if parent else None, node.as_dict()])
        return node

    def append(self, node: Node, field: str, text: str) -> None:
        """Text added to a growing field (an ``append`` op: the view adds the delta alone)."""
        pieces = node.pieces.get(field)
        if pieces is None:
            pieces = node.pieces[field] = [str(node.fields.pop(field, "") or "")]
        pieces.append(text)
        if self.sink is not None and not node.hidden:
            self.sink(["append", node.id, field, text])

    def set(self, node: Node, field: str, value: Any) -> None:
        """A field's new value (a ``set`` op), cut for the view and kept whole in the node."""
        node.pieces.pop(field, None)
        shown = node._keep(field, value) if _shown_as_value(value) else value
        node.fields[field] = shown
        if self.sink is not None and not node.hidden:
            self.sink(["set", node.id, field, shown])

    def push(self, node: Node, field: str, value: Any) -> None:
        """A value added to a list field (a ``push`` op)."""
        # a new list, never a mutation: an op already handed to the listener may hold the old one
        shown = for_view(value)[0] if _shown_as_value(value) else value
        node.fields[field] = [*node.fields.get(field, ()), shown]
        if shown is not value or (node.originals is not None and field in node.originals):
            if node.originals is None:
                node.originals = {}
            before = node.originals.get(field, node.fields[field][:-1])
            node.originals[field] = [*before, value]
        if self.sink is not None and not node.hidden:
            self.sink(["push", node.id, field, shown])


# The moments the reducer stamps on nodes (ms): of no meaning for a source read at once
TIME_FIELDS = ("started_at", "first_token_at", "called_at", "ended_at", "finished_at", "duration")


def without_times(ops: list[Op]) -> list[Op]:
    """Snapshot ops with the nodes' moments, and a decision's wait, left out."""
    untimed: list[Op] = []
    for op in ops:
        if op[0] != "add":
            untimed.append(op)
            continue
        fields = {key: value for key, value in op[2].items() if key not in TIME_FIELDS}
        if isinstance(fields.get("decision"), dict):
            fields["decision"] = {**fields["decision"], "at": None, "waited_ms": None, "waited": None}
        untimed.append([op[0], op[1], fields])
    return untimed


def snapshot_ops(root: Node) -> list[Op]:
    """Ops that rebuild the shown tree under (and including) ``root`` from nothing."""
    ops: list[Op] = []
    stack: list[tuple[Node, str | None]] = [(root, None)]
    while stack:
        node, parent_id = stack.pop()
        ops.append(["add", parent_id, node.as_dict()])
        stack.extend((child, node.id) for child in reversed(node.children) if not child.hidden)
    return ops
