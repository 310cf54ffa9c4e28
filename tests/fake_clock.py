"""An event loop on a fake clock, for tests of paced streams: its time moves only when every task
waits for a timer, and then jumps to that timer. The times a test sees are exact, however slow or
loaded the machine is, and a paced test takes no longer than its work."""

from __future__ import annotations

import asyncio
import functools
import selectors
import time
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import pytest

T = TypeVar("T")
P = ParamSpec("P")


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


def on_fake_clock(test: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, None]:
    """An async test, run on a FakeClockLoop (``run_on_fake_clock``) with the same fixtures: a wait
    for timers (``await asyncio.sleep(0.2)``: "the views closed 0.03 s apart are all closed") then
    holds however loaded the machine is, since the clock moves only when every task waits for one."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        run_on_fake_clock(test(*args, **kwargs))

    return run


class FrozenTime:
    """``time.time`` held still for the length of a test, and moved only by ``advance``: a live feed,
    timed by the kernel's clock, gets exact times however slow or loaded the machine is."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: float = 1_700_000_000.0) -> None:
        self.now = start
        monkeypatch.setattr(time, "time", self.time)

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
