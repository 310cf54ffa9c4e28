"""An event loop on a fake clock, for tests of paced streams: its time moves only when every task
waits for a timer, and then jumps to that timer. The times a test sees are exact, however slow or
loaded the machine is, and a paced test takes no longer than its work."""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _FastForward(selectors.DefaultSelector):
    """Polls without blocking; where the loop would sleep until its next timer, moves the clock there."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready: list[tuple[selectors.SelectorKey, int]] = super().select(None if timeout is None else 0)
        if not ready and timeout:
            self.now += timeout
        return ready


class FakeClockLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self._clock = _FastForward()
        super().__init__(self._clock)

    def time(self) -> float:
        return self._clock.now


def run_on_fake_clock(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, on a FakeClockLoop (its clock starts at 0)."""
    loop = FakeClockLoop()
    try:
        return loop.run_until_complete(main)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
