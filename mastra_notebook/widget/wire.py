"""Batching view ops for the wire: coalesced, sequence-numbered, sent when a :class:`FlushPolicy` says.

jupyter_server silently drops kernel-to-browser messages above 1000/s, and every message costs the
browser a task, so ops gather here and leave together. Within one batch, appends to the same text
join and a later ``set`` of a field replaces an earlier one: the browser ends in the same state
from far fewer, smaller ops.
"""

from __future__ import annotations

import math
from typing import Any

from ..core.tree import Op

MIN_GAP = 1 / 40  # seconds between two messages at least: at most 40 messages a second
MAX_WAIT = 0.2  # seconds an op waits at most under load, whatever the byte budget says
FLUSH_INTERVAL = MAX_WAIT  # the longest a fed op waits before it leaves (kept for callers)
BYTES_PER_TEXT_BYTE = 1.5  # under load a message waits until its text pays for its overhead
_FIRST_OVERHEAD = 160.0  # bytes of a message besides its text, until one was measured


class OpBatch:
    """The ops waiting for the next flush, coalesced as they arrive."""

    def __init__(self) -> None:
        self._ops: list[Op] = []
        self._appends: dict[tuple[str, str], Op] = {}
        self._sets: dict[tuple[str, str], Op] = {}
        self._text = 0

    def __len__(self) -> int:
        return len(self._ops)

    @property
    def text_chars(self) -> int:
        """Characters of appended text waiting (the payload that pays for a message's overhead)."""
        return self._text

    def add(self, op: Op) -> None:
        kind = op[0]
        if kind == "append":
            self._text += len(op[3])
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
        self._text = 0
        return ops


def message(kind: str, seq: int, ops: list[Op]) -> dict[str, Any]:
    """A protocol message: ``{"t": "ops" | "snapshot", "seq": N, "ops": [...]}``."""
    return {"t": kind, "seq": seq, "ops": ops}


class FlushPolicy:
    """When the waiting batch leaves: at once after a quiet moment, coalesced under load.

    Quiet (nothing sent and no change for ``MIN_GAP``): a chunk goes at once, so a slow stream
    shows each chunk as it comes. Under load (ops keep coming): a message leaves when ``MIN_GAP``
    has passed since the last one *and* its text is worth its overhead (sent bytes at most
    ``BYTES_PER_TEXT_BYTE`` per byte of text, the overhead measured on the messages sent so far),
    or when its oldest op has waited ``MAX_WAIT``. Pure: the caller gives the clock and the timer.
    """

    def __init__(self) -> None:
        self._last_send = -math.inf
        self._last_change = -math.inf
        self._first_pending: float | None = None
        self._overhead = _FIRST_OVERHEAD

    def on_change(self, now: float, text_chars: int) -> float:
        """The batch grew (a chunk was folded in; it now holds ``text_chars`` of text): when it
        should leave (``now``: at once)."""
        quiet = now - self._last_change >= MIN_GAP and now - self._last_send >= MIN_GAP
        self._last_change = now
        if self._first_pending is None:
            self._first_pending = now
            if quiet:
                return now
        return self.due(text_chars)

    def due(self, text_chars: int) -> float:
        """When the waiting batch should leave."""
        first = self._first_pending if self._first_pending is not None else self._last_change
        earliest = self._last_send + MIN_GAP
        if text_chars * (BYTES_PER_TEXT_BYTE - 1) >= self._overhead:
            return earliest
        return max(earliest, first + MAX_WAIT)

    def sent(self, now: float, size: int, text_chars: int) -> None:
        """A message of ``size`` bytes carrying ``text_chars`` of text left at ``now``."""
        self._last_send = now
        self._first_pending = None
        if text_chars:  # a message with text tells what the rest costs (ops, ids, the envelope)
            self._overhead = 0.8 * self._overhead + 0.2 * max(size - text_chars, 0)
