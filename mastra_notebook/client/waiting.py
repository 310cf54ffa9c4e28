"""The client's two ways of waiting on a server, each written once, on the event loop: ``poll`` reads
something until it is there (a growing pause, a bounded time), ``paginate`` reads every page of a
listing. A blocking caller runs them through the transport's ``blocking``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .transport import Transport

T = TypeVar("T")
PER_PAGE = 100  # rows a page (Mastra's default is 10)

Sleep = Callable[[float], Awaitable[Any]]
Clock = Callable[[], float]


@dataclass(frozen=True)
class Polled(Generic[T]):
    """What a poll read last, and whether it was what was waited for (else the time ran out)."""

    value: T
    done: bool


async def poll(
    read: Callable[[], Awaitable[T]],
    done: Callable[[T], bool],
    *,
    timeout: float,
    first: float,
    longest: float,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> Polled[T]:
    """``read()`` until ``done`` of what it read, pausing ``first`` seconds, then twice as long each
    time up to ``longest``, for ``timeout`` seconds at most (the last pause cut to the time left).
    Cancelling the task stops it."""
    deadline, pause = clock() + timeout, first
    while True:
        value = await read()
        if done(value):
            return Polled(value, True)
        left = deadline - clock()
        if left <= 0:
            return Polled(value, False)
        await sleep(min(pause, left))
        pause = min(pause * 2, longest)


async def paginate(transport: Transport, path: str, key: str, **params: Any) -> list[Any]:
    """Every row of a paged listing (``{key: [...], pagination: {hasMore}}``), page after page."""
    rows: list[Any] = []
    page = 0
    while True:
        listed = await transport.send("GET", path, params={**params, "page": page, "perPage": PER_PAGE})
        found = listed.get(key) if isinstance(listed, Mapping) else None
        rows.extend(found if isinstance(found, list) else ())
        more = listed.get("pagination", {}).get("hasMore") if isinstance(listed, Mapping) else False
        if not more or not found:
            return rows
        page += 1
