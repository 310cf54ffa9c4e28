"""Batching view ops for the wire: coalesced, sequence-numbered, at most ~30 messages a second.

jupyter_server silently drops kernel-to-browser messages above 1000/s, and every message costs the
browser a task, so ops gather here and leave together. Within one batch, appends to the same text
join and a later ``set`` of a field replaces an earlier one: the browser ends in the same state
from far fewer, smaller ops.
"""

from __future__ import annotations

from typing import Any

from ..core.tree import Op

FLUSH_INTERVAL = 1 / 30  # seconds between batches


class OpBatch:
    """The ops waiting for the next flush, coalesced as they arrive."""

    def __init__(self) -> None:
        self._ops: list[Op] = []
        self._appends: dict[tuple[str, str], Op] = {}
        self._sets: dict[tuple[str, str], Op] = {}

    def __len__(self) -> int:
        return len(self._ops)

    def add(self, op: Op) -> None:
        kind = op[0]
        if kind == "append":
            key = (op[1], op[2])
            pending = self._appends.get(key)
            if pending is not None:
                pending[3] += op[3]
                return
            op = list(op)  # ours to grow
            self._appends[key] = op
            self._sets.pop(key, None)
        elif kind == "set":
            key = (op[1], op[2])
            pending = self._sets.get(key)
            if pending is not None:
                pending[3] = op[3]
                return
            op = list(op)
            self._sets[key] = op
            self._appends.pop(key, None)
        self._ops.append(op)

    def take(self) -> list[Op]:
        ops, self._ops = self._ops, []
        self._appends.clear()
        self._sets.clear()
        return ops


def message(kind: str, seq: int, ops: list[Op]) -> dict[str, Any]:
    """A protocol message: ``{"t": "ops" | "snapshot", "seq": N, "ops": [...]}``."""
    return {"t": kind, "seq": seq, "ops": ops}
