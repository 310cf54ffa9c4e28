"""A view's ops on their way to the browser: batched, sequence-numbered, sent when the flush policy says.

:class:`OpSync` gathers a run's ops in an :class:`~.wire.OpBatch` and sends them as ``ops`` messages
(docs/view-protocol.md): at once, or from a timer on the stream's loop when :class:`~.wire.FlushPolicy`
holds them back. It knows nothing of the run or the comm: it is given where messages go, the loop the
stream runs on, and what to do after each flush (the inspector's new lines).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Any

import orjson

from ..core.tree import Op
from ..runs.loops import running_loop
from .contract import OpsMsg, SnapshotMsg
from .wire import FlushPolicy, OpBatch, message

ENVELOPE = 40  # bytes of the comm's own wrapping of a custom message ({"method": "custom", ...})


def _nothing() -> None:
    """Nothing to do after a flush."""


class OpSync:
    """The ops waiting for the browser and when they leave: ``add`` each op, ``changed`` once the
    batch grew (the policy sends it or sets a timer), ``flush`` to send what waits now."""

    def __init__(
        self,
        send: Callable[[Any], None],
        loop: Callable[[], asyncio.AbstractEventLoop | None],
        after_flush: Callable[[], None] = _nothing,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """``send``: a message to the browser; ``loop``: the stream's loop now (its timers send what
        the policy holds back; none: only the next change or flush does); ``after_flush``: called
        after every flush; ``clock``: the policy's, by default the time of the loop running where
        the sync is made (monotonic; a test's may be fake)."""
        self._send, self._loop, self._after_flush = send, loop, after_flush
        self._batch = OpBatch()
        self._seq = 0
        self._policy = FlushPolicy()
        self._clock: Callable[[], float] = (
            clock if clock is not None else getattr(running_loop(), "time", time.monotonic)
        )
        self._timer: asyncio.TimerHandle | None = None
        self._timer_due = math.inf

    def add(self, op: Op, folding: bool = False) -> None:
        """An op of the run's tree, to send; ``folding``: inside a chunk's fold, which calls
        ``changed`` once after it (a Watcher's ``op``)."""
        self._batch.add(op)
        if not folding:
            self.changed()

    def changed(self) -> None:
        """The batch changed: send it now or set the timer, as the flush policy says."""
        if not len(self._batch):
            return
        now = self._clock()
        due = self._policy.on_change(now, self._batch.text_chars)
        if due <= now:
            self.flush()
        elif due < self._timer_due and (loop := self._loop()) is not None and running_loop() is loop:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_at(loop.time() + (due - now), self.flush)
            self._timer_due = due

    def flush(self) -> None:
        """Send the ops waiting now (if any), then what follows each flush."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._timer_due = math.inf
        if len(self._batch):
            self._seq += 1
            text_chars = self._batch.text_chars
            msg = message("ops", self._seq, self._batch.take())
            self._send(msg)
            self._policy.sent(self._clock(), ENVELOPE + len(orjson.dumps(msg)), text_chars)
        self._after_flush()

    def snapshot(self, ops: list[Op]) -> SnapshotMsg | OpsMsg:
        """``ops`` (a run's snapshot) as a snapshot message, after what waits was sent: a late view
        applies it, then the batches that follow."""
        self.flush()
        return message("snapshot", self._seq, ops)

    def restart(self, ops: list[Op], *, another_run: bool) -> SnapshotMsg | OpsMsg:
        """A snapshot of ``another_run`` (or the run rebuilt): the ops waiting are dropped (it holds
        them) and its seq is newer than anything a view holds, so the view resets to it."""
        self._batch.take()
        self._seq += 1
        return message("snapshot", self._seq, ops, another_run=another_run)
