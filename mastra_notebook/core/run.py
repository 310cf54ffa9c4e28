"""The reducer's public face: chunks in, a RunResult out. Knows the run, not the widget.

A :class:`Run` folds chunks into its :class:`~.state.RunState` (handlers in ``handlers/``), which
writes a tree of view nodes as it goes; ``run.result`` reads the state into a :class:`RunResult`.
A sub-agent or workflow that a tool streams is a nested run under its tool call, to any depth.
"""

from __future__ import annotations

import math
from typing import Any

from . import values
from .chunks import InvalidChunk, coerce, raw_of
from .handlers import fold
from .reader import read_result
from .result import RunResult, keep_view
from .state import RECEIVED_MS, TIME_KEY, RunState, now_ms
from .tree import Sink, Tree, snapshot_ops


class Run:
    """A pure accumulator: ``feed`` chunks, read ``result`` at any moment. No widget, no I/O."""

    def __init__(self, *, on_op: Sink | None = None, epoch_ms: float | None = None) -> None:
        self.tree = Tree()
        self.tree.sink = on_op
        self.state = RunState.root(self.tree)
        # Recorded times (ms since a recording's first chunk) are placed after ``epoch_ms``: by default
        # the moment the first timed chunk is fed. ``_last_ms``: the latest recorded arrival.
        self.epoch_ms = epoch_ms
        self._last_ms: float | None = None
        self._version = 0
        self._cached: tuple[int, RunResult] | None = None

    # ---- feeding ------------------------------------------------------------------------------

    def feed(self, item: Any, received_ms: float | None = None) -> None:
        """Fold one chunk in: a dict, the JSON text of one chunk (str, bytes, bytearray, memoryview),
        a parsed chunk, or an InvalidChunk. Never raises: what cannot be a chunk is kept in ``invalid``.

        ``received_ms``: when it arrived, in ms since the recording's first chunk (a recording's own
        ``mnReceivedMs`` serves when it has one); else it arrives now."""
        self._version += 1
        chunk = coerce(item)
        if type(chunk) is not dict or "type" not in chunk:
            self._not_a_chunk(item, chunk)
            return
        if (received_ms is not None or TIME_KEY in chunk) and RECEIVED_MS.get() is None:
            self._feed_received(item, chunk, received_ms)
            return
        state = self.state
        counted = state.chunk_count
        try:
            fold(state, chunk, item)
        except Exception as error:  # a fault of ours must not cost the rest of the stream
            state.chunk_count = counted
            why = f"could not fold this chunk in: {type(error).__name__}: {error}"
            state.add_invalid(raw_of(item, chunk), why)

    def _feed_received(self, item: Any, chunk: dict[str, Any], received_ms: float | None) -> None:
        """Fold a chunk at its recorded time (placed after ``epoch_ms``), or now when it has none."""
        at = chunk.get(TIME_KEY) if received_ms is None else received_ms
        if isinstance(at, (int, float)) and not isinstance(at, bool) and not math.isnan(at):
            if self.epoch_ms is None:
                self.epoch_ms = now_ms() - at
            self._last_ms = arrival = self.epoch_ms + at
        else:
            arrival = now_ms()
        token = RECEIVED_MS.set(arrival)
        try:
            self.feed(item)
        finally:
            RECEIVED_MS.reset(token)

    def _not_a_chunk(self, item: Any, chunk: dict[str, Any] | InvalidChunk) -> None:
        if isinstance(chunk, InvalidChunk):
            self.state.add_invalid(chunk.raw, chunk.error)
        elif "error" in chunk:
            self._error_body(chunk)
        else:  # no type: check() says why, with the line as it came
            fold(self.state, chunk, item)

    def _error_body(self, chunk: dict[str, Any]) -> None:
        """An HTTP error body (``{"error": ...}``) read as a stream: the run failed before it began."""
        self.state.chunk_count += 1
        info = values.error_info(chunk["error"])
        if isinstance(chunk.get("message"), str):
            info["message"] = chunk["message"]
        self.state.fail(info)

    def end(self) -> None:
        """The stream ended. A run still running is ``suspended`` (waiting for a human) or ``incomplete``.
        A recorded stream ends at its last chunk's time."""
        self._version += 1
        token = RECEIVED_MS.set(self._last_ms)
        try:
            for state in reversed(self.state.nested()):
                state.end()
        finally:
            RECEIVED_MS.reset(token)

    def mark_aborted(self, message: str = "stopped by the user") -> None:
        """The client stopped the stream: no ``abort`` chunk will come, so say it here."""
        self._version += 1
        if self.state.status in ("running", "incomplete"):
            self.state.abort(message)

    def mark_error(self, message: str, *, status_code: int | None = None, details: Any = None) -> None:
        """A transport fault (HTTP error, refused connection, timeout) ends the run in error."""
        self._version += 1
        info: dict[str, Any] = {"message": message}
        if status_code is not None:
            info["status_code"] = status_code
        if details is not None:
            info["details"] = details
        self.state.fail(info)

    def note(self, level: str, message: str) -> None:
        """A remark from whoever feeds the run (a lost connection, say), shown as a banner."""
        self._version += 1
        self.state.banner(level, message)

    def decide(
        self, action: str, by: str, *, tool_call_id: str | None = None, step: str | None = None
    ) -> None:
        """A person decided on a waiting tool call (by id) or workflow step (by name) of this run:
        ``action`` approve, decline or resume; ``by`` "view" or "python". Raises KeyError if unknown."""
        node = self.state.workflow_steps[step] if step is not None else self.state.calls[str(tool_call_id)]
        self._version += 1
        self.state.decide(node, action, by)

    def running_in_notebook(self, tool_call_ids: list[str]) -> None:
        """The client runs these calls itself (client tools): their cards say so, and the run, whose
        stream ended with them, goes on."""
        self._version += 1
        for call_id in tool_call_ids:
            node = self.state.calls.get(call_id)
            if node is not None:
                self.state.set(node, "ran_in", "notebook")
        self.state.resume()

    def adopt_run_id(self, run_id: str) -> None:
        """The run id is known before any chunk (a workflow run the client created)."""
        if self.state.node.fields.get("run_id") is None:
            self.tree.set(self.state.node, "run_id", run_id)

    # ---- reading --------------------------------------------------------------------------------

    def snapshot(self) -> list[list[Any]]:
        """Ops that rebuild this run's whole view tree."""
        return snapshot_ops(self.state.node)

    @property
    def result(self) -> RunResult:
        """The run so far as a RunResult; cheap to call repeatedly (cached until the next chunk)."""
        if self._cached is None or self._cached[0] != self._version:
            self._cached = (self._version, keep_view(read_result(self.state), self.snapshot()))
        return self._cached[1]

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def chunk_count(self) -> int:
        return self.state.chunk_count

    @property
    def invalid(self) -> list[dict[str, str]]:
        return self.state.invalid
