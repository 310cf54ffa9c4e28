"""Fetching Mastra's trace of a run (``view.trace()``), through the client's Transport.

The server stores a trace once its exporter flushes (``MastraStorageExporter``: every 5 s by default,
``maxBatchWaitMs``), and answers 404 until then; a trace is complete once every root span has ended.
So the trace is polled, with a growing pause, until it is complete or the time is up.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from ..core.trace import OBSERVABILITY_HINT, Trace, TraceUnavailable, read_trace, settled
from .transport import MastraError, Transport

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


def fetch_trace(
    transport: Transport,
    trace_id: str,
    timeout: float,
    *,
    requests: int = 1,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Trace:
    """The trace ``trace_id`` once the span of each of the run's ``requests`` is stored and ended
    (a request's span: a root, or the run a continuation resumed), polling for ``timeout`` seconds
    at most.

    Still incomplete when the time is up: the spans stored so far, with ``complete=False`` and a
    message. Raises :class:`TraceUnavailable` when the server has no such trace by then (it keeps no
    traces, or its exporter has not flushed yet), or cannot keep traces at all.
    """
    path = f"/api/observability/traces/{trace_id}"
    deadline = clock() + timeout
    pause = FIRST_PAUSE
    stored: Any = None
    while True:
        try:
            stored = transport.call("GET", path)
        except MastraError as error:
            if error.status_code != 404:  # 500 no storage, 501 no observability domain, ...
                raise TraceUnavailable(
                    f"Mastra's server could not give the trace ({error.problem}): to keep traces, "
                    f"{OBSERVABILITY_HINT}."
                ) from error
        else:
            if settled(stored, requests):
                return read_trace(stored, trace_id)
        left = deadline - clock()
        if left <= 0:
            break
        sleep(min(pause, left))
        pause = min(pause * 2, LONGEST_PAUSE)
    if stored is not None:
        message = (
            f"the run was still being traced after {timeout:g} s (the span of a request of it was not "
            f"stored, or had not ended): these are "
            f"the spans stored so far; view.trace(timeout=...) again reads the rest"
        )
        return read_trace(stored, trace_id, complete=False, message=message)
    raise TraceUnavailable(
        f"Mastra's server has no trace {trace_id} after {timeout:g} s. Either it keeps no traces: "
        f"{OBSERVABILITY_HINT}; or its exporter has not flushed yet (every 5 s by default; "
        f"`new MastraStorageExporter({{maxBatchWaitMs: 500}})` flushes sooner): try "
        f"view.trace(timeout=30)."
    )
