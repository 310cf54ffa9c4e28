"""The client's ways of waiting on a server, each written once, on the event loop: ``poll`` reads
something until it is there (a growing pause, a bounded time), ``answering`` until the server answers
again (a batch's paused queue), ``paginate`` reads every page of a listing. A blocking caller runs
them through the transport's ``blocking``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .transport import MastraError, Retry, Transport

T = TypeVar("T")
PER_PAGE = 100  # rows a page (Mastra's default is 10)
PROBED = "/api/agents"  # what ``answering`` asks: every Mastra server lists its agents
PROBE_TIMEOUT_S = 10.0  # each probe's own limit
FIRST_PROBE_S, LONGEST_PROBE_S = 0.5, 10.0  # the pause after the first probe; the longest

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


async def answering(
    transport: Transport,
    *,
    first: float = FIRST_PROBE_S,
    longest: float = LONGEST_PROBE_S,
    clock: Clock = time.monotonic,
    sleep: Sleep | None = None,
) -> None:
    """Return once the server answers (anything but HTTP 5xx to ``GET /api/agents``, tried once a
    time: no retries of the transport's own), probing after a pause of ``first`` seconds, doubling up
    to ``longest``, for as long as it takes (cancelling the task stops it). ``sleep``: the
    transport's by default."""

    async def answers() -> bool:
        try:
            await transport.send("GET", PROBED, timeout=PROBE_TIMEOUT_S, retry=Retry(retries=0))
        except MastraError as error:
            return error.status_code is not None and error.status_code < 500
        return True

    pause = sleep or transport.sleep
    while not (
        await poll(answers, bool, timeout=3600.0, first=first, longest=longest, clock=clock, sleep=pause)
    ).done:
        pass


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
