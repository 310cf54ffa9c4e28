"""Batching view ops for the wire: coalesced, sequence-numbered, sent when a :class:`FlushPolicy` says.

jupyter_server silently drops kernel-to-browser messages above 1000/s, and every message costs the
browser a task, so ops gather here and leave together. Within one batch, appends to the same text
join and a later ``set`` of a field replaces an earlier one: the browser ends in the same state
from far fewer, smaller ops.
"""

from __future__ import annotations

import math
from typing import Literal, cast

from ..core.tree import Op
from . import contract
from .contract import OpsMsg, SnapshotMsg

MIN_GAP = 1 / 40  # seconds between two messages at least: at most 40 messages a second
MAX_WAIT = 0.2  # seconds an op waits at most while a fast stream pays for its messages
FLUSH_INTERVAL = MAX_WAIT  # the longest a fed op waits before it leaves (kept for callers)
BYTES_PER_TEXT_BYTE = 1.5  # under a firehose a message waits until its text pays for its overhead
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
        """An op joins the batch: text appended to a field already pending joins that append, and a
        field set again replaces its pending set (the view sees only the last value)."""
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
        """The pending ops, in order; the batch is empty after."""
        ops, self._ops = self._ops, []
        self._appends.clear()
        self._sets.clear()
        self._text = 0
        return ops


def message(
    kind: Literal["snapshot", "ops"], seq: int, ops: list[Op], *, another_run: bool = False
) -> SnapshotMsg | OpsMsg:
    """A protocol message: ``{"t": "ops" | "snapshot", "seq": N, "ops": [...]}`` (widget/contract.py);
    a snapshot of ``another_run`` says so."""
    sent = cast("list[contract.Op]", ops)  # core/tree.py's ops are lists of these shapes
    if kind == "snapshot":
        snapshot = SnapshotMsg(t="snapshot", seq=seq, ops=sent)
        if another_run:
            snapshot["another_run"] = True
        return snapshot
    return OpsMsg(t="ops", seq=seq, ops=sent)


class FlushPolicy:
    """When the waiting batch leaves: latency first, within the message budget.

    A change leaves at once, or ``MIN_GAP`` after the previous message if that was sooner (at most
    40 messages a second, and no op waits longer than ``MIN_GAP``). Only a firehose waits longer:
    when changes lately came faster than one per ``MIN_GAP`` *and* their text would have paid for a
    message's overhead (``BYTES_PER_TEXT_BYTE`` bytes sent per byte of text, the overhead measured on
    the messages sent so far) within ``MAX_WAIT``, a message waits until its own text pays, and at
    most ``MAX_WAIT``. Token-sized deltas at the rates providers stream never pay (a few hundred
    characters a second), so they are never held for bytes. "Lately" is a decaying sum with time
    constant ``MAX_WAIT``: one burst does not make a firehose. Pure: the caller gives the clock and
    keeps the timer.
    """

    def __init__(self) -> None:
        self._last_send = -math.inf
        self._first_pending: float | None = None
        self._overhead = _FIRST_OVERHEAD
        self._pending_text = 0  # characters of the waiting batch already counted in _recent_text
        self._recent_at = -math.inf
        self._recent_text = 0.0  # characters fed lately (decaying with time constant MAX_WAIT)
        self._recent_changes = 0.0  # changes lately, likewise

    def on_change(self, now: float, text_chars: int) -> float:
        """The batch grew (a chunk was folded in; it now holds ``text_chars`` of text): when it
        should leave (``now`` or earlier: at once)."""
        decay = math.exp(-(now - self._recent_at) / MAX_WAIT) if now > self._recent_at else 1.0
        self._recent_at = max(now, self._recent_at)
        self._recent_text = self._recent_text * decay + max(text_chars - self._pending_text, 0)
        self._recent_changes = self._recent_changes * decay + 1
        self._pending_text = text_chars
        if self._first_pending is None:
            self._first_pending = now
        return self.due(text_chars)

    @property
    def _pays(self) -> float:
        """Characters of text that pay for one message's overhead."""
        return self._overhead / (BYTES_PER_TEXT_BYTE - 1)

    @property
    def firehose(self) -> bool:
        """Changes lately came faster than the message budget, with text enough to pay for their
        messages within ``MAX_WAIT``: only then are batches held for bytes."""
        return self._recent_changes * MIN_GAP >= MAX_WAIT and self._recent_text >= self._pays

    def due(self, text_chars: int) -> float:
        """When the waiting batch should leave."""
        earliest = self._last_send + MIN_GAP
        if self._first_pending is None or not self.firehose or text_chars >= self._pays:
            return earliest
        return max(earliest, self._first_pending + MAX_WAIT)

    def sent(self, now: float, size: int, text_chars: int) -> None:
        """A message of ``size`` bytes carrying ``text_chars`` of text left at ``now``."""
        self._last_send = now
        self._first_pending = None
        self._pending_text = 0
        if text_chars:  # a message with text tells what the rest costs (ops, ids, the envelope)
            self._overhead = 0.8 * self._overhead + 0.2 * max(size - text_chars, 0)
