"""Fetching Mastra's trace of a run (``view.trace()``), through the client's Transport.

The server stores a trace once its exporter flushes (``MastraStorageExporter``: every 5 s by default,
``maxBatchWaitMs``), and answers 404 until then; a trace is complete once every root span has ended.
So the trace is polled (``waiting.poll``) until it is complete or the time is up.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Mapping
from typing import Any

from ..core.trace import OBSERVABILITY_HINT, Trace, TraceUnavailable, read_trace, settled
from .transport import MastraError, Transport
from .waiting import Clock, Sleep, poll

__all__ = ["TraceUnavailable", "fetch_trace", "new_trace_id", "traced_body"]

FIRST_PAUSE = 0.1  # seconds before the second try; doubled each time, up to LONGEST_PAUSE
LONGEST_PAUSE = 1.0


def new_trace_id() -> str:
    """A trace id as Mastra takes it: 32 lowercase hex digits (a malformed one is silently replaced)."""
    return uuid.uuid4().hex


def traced_body(body: Mapping[str, Any], trace_id: str) -> dict[str, Any]:
    """``body`` naming the trace ``trace_id`` (``tracingOptions.traceId``), the caller's other
    tracing options (``metadata``, ``tags``) kept."""
    options = body.get("tracingOptions")
    kept = dict(options) if isinstance(options, Mapping) else {}
    return {**body, "tracingOptions": {**kept, "traceId": trace_id}}


async def fetch_trace(
    transport: Transport,
    trace_id: str,
    timeout: float,
    *,
    requests: int = 1,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> Trace:
    """The trace ``trace_id`` once the span of each of the run's ``requests`` is stored and ended
    (a request's span: a root, or the run a continuation resumed), polling for ``timeout`` seconds
    at most.

    Still incomplete when the time is up: the spans stored so far, with ``complete=False`` and a
    message. Raises :class:`TraceUnavailable` when the server has no such trace by then (it keeps no
    traces, or its exporter has not flushed yet), or cannot keep traces at all.
    """
    path = f"/api/observability/traces/{trace_id}"

    async def read() -> Any:
        try:
            return await transport.send("GET", path)
        except MastraError as error:
            if error.status_code != 404:  # 500 no storage, 501 no observability domain, ...
                raise TraceUnavailable(
                    f"Mastra's server could not give the trace ({error.problem}): to keep traces, "
                    f"{OBSERVABILITY_HINT}."
                ) from error
            return None  # not stored yet

    polled = await poll(
        read,
        lambda stored: stored is not None and settled(stored, requests),
        timeout=timeout,
        first=FIRST_PAUSE,
        longest=LONGEST_PAUSE,
        clock=clock,
        sleep=sleep,
    )
    if polled.done:
        return read_trace(polled.value, trace_id)
    if polled.value is not None:
        message = (
            f"the run was still being traced after {timeout:g} s (the span of a request of it was not "
            f"stored, or had not ended): these are "
            f"the spans stored so far; view.trace(timeout=...) again reads the rest"
        )
        return read_trace(polled.value, trace_id, complete=False, message=message)
    raise TraceUnavailable(
        f"Mastra's server has no trace {trace_id} after {timeout:g} s. Either it keeps no traces: "
        f"{OBSERVABILITY_HINT}; or its exporter has not flushed yet (every 5 s by default; "
        f"`new MastraStorageExporter({{maxBatchWaitMs: 500}})` flushes sooner): try "
        f"view.trace(timeout=30)."
    )
