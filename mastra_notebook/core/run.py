"""The reducer's public face: chunks in, a RunResult out. Knows the run, not the widget.

A :class:`Run` folds chunks into its :class:`~.state.RunState` (handlers in ``handlers/``), which
writes a tree of view nodes as it goes; ``run.result`` reads the state into a :class:`RunResult`.
A sub-agent or workflow that a tool streams is a nested run under its tool call, to any depth.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from . import feedback, notes, values
from .chunks import InvalidChunk, coerce, raw_of
from .display import Drawer, wired_drawer
from .feedback import FEEDBACK_TYPE, Feedback
from .handlers import fold
from .request import ModelRequest
from .result import RunResult, keep_view
from .result_from_state import read_result
from .score import SCORES_TYPE, Score, badge, read_scores
from .state import TIME_KEY, Clock, RunState, now_ms
from .trace import TRACE_LINE, Trace, lane, nested_requests, read_trace_line, traced_requests, traced_times
from .tree import Sink, Tree, snapshot_ops
from .waiting import Suggest, wired_suggester

_OWN_TYPES = (
    FEEDBACK_TYPE,
    SCORES_TYPE,
    TRACE_LINE,
    notes.NOTE_TYPE,
)  # the notebook's own lines in a recording
_NO_TYPE = object()
UNTIMED = "the source has no arrival times (mnReceivedMs): it was read at once, so its durations are unknown"


class Run:
    """A pure accumulator: ``feed`` chunks, read ``result`` at any moment. No widget, no I/O.

    One clock per run, the kernel's: a chunk is timed when it is fed (or by the time a recording or
    the feeder gives, in ms since the run started). ``start()`` says when the run began: its request
    was sent, or its source started being read."""

    def __init__(
        self,
        *,
        on_op: Sink | None = None,
        epoch_ms: float | None = None,
        suggest: Suggest | None = None,
        draw: Drawer | None = None,
    ) -> None:
        """``suggest`` words the call that answers a wait (a node's ``continue_with``): by default
        the one the package wired in (core/waiting.py ``suggest_with``). ``draw`` draws tool calls
        as data (their ``display`` and ``args_display``): by default the one wired in
        (core/display.py ``draw_with``: ``mn.renderer``'s registry)."""
        self.tree = Tree()
        self.tree.sink = on_op
        self.clock = Clock()
        self.state = RunState.root(
            self.tree, self.clock, suggest or wired_suggester(), draw or wired_drawer()
        )
        # Recorded times (ms since the run started) are placed after ``epoch_ms``: by default the
        # start, else the moment the first timed chunk is fed. ``_last_ms``: the latest arrival.
        self.epoch_ms = epoch_ms
        self.recorded = False  # a source read from storage: only its recorded times time it
        self._started = False
        self._last_ms: float | None = None
        self._fed_any = False
        self._version = 0
        self._cached: tuple[int, RunResult] | None = None
        self._overrides: dict[str, Any] = {}  # what the request overrode (describe)
        self._traced: list[ModelRequest] = []  # each step's request from the trace (fill_requests)
        self.trace: Trace | None = None  # Mastra's trace of the run, once read (keep_trace)

    def start(self, at_ms: float | None = None, *, recorded: bool = False) -> None:
        """The run starts (once; later calls change nothing): its request is sent now (or at
        ``at_ms``, epoch ms), or, ``recorded``, its source starts being read. A recorded source is
        timed only by its own arrival times, placed after ``at_ms`` (default: when it is read); one
        whose first chunk carries none is untimed: no durations, rates or moments at all."""
        if self._started or self._fed_any:
            return
        self._started = True
        self.recorded = recorded
        if at_ms is not None:
            self.epoch_ms = at_ms
        elif self.epoch_ms is None and not recorded:
            self.epoch_ms = now_ms()
        if recorded:  # its view's "so far" is the recording's time, never the wall clock
            self.tree.set(self.state.node, "clock", "recorded")
        else:
            self._begin()

    def _begin(self) -> None:
        self._version += 1
        if self.state.node.fields.get("started_at") is None:
            self.tree.set(self.state.node, "started_at", self.epoch_ms)

    @property
    def untimed(self) -> str | None:
        """Why the run has no durations (a source read with no arrival times), or None."""
        return self.clock.untimed

    # ---- feeding ------------------------------------------------------------------------------

    def feed(self, item: Any, received_ms: float | None = None) -> None:
        """Fold one chunk in: a dict, the JSON text of one chunk (str, bytes, bytearray, memoryview),
        a parsed chunk, or an InvalidChunk. Never raises: what cannot be a chunk is kept in ``invalid``.

        ``received_ms``: when it arrived, in ms since the recording's first chunk (a recording's own
        ``mnReceivedMs`` serves when it has one); else it arrives now."""
        self._version += 1
        chunk: dict[str, Any] | InvalidChunk | None = None
        if type(item) is bytes:  # a record of a stream (the hot path), read here: one call fewer
            try:
                chunk = orjson.loads(item)
            except orjson.JSONDecodeError:
                chunk = None  # not JSON: coerce says so
        if type(chunk) is not dict:  # anything else, or no JSON object: coerce says what it is
            chunk = coerce(item)
        recorded, typed = received_ms, None  # typed: the chunk when it is a dict with a type
        if type(chunk) is dict:  # the hot path reads the type once: only the notebook's own lines
            chunk_type = chunk.get("type", _NO_TYPE)  # (a label, scores) go to their readers
            if chunk_type in _OWN_TYPES and self._own_line(chunk):  # a tuple: nothing is hashed
                return
            if received_ms is None:
                recorded = chunk.get(TIME_KEY)
            if chunk_type is not _NO_TYPE:
                typed = chunk
        clock = self.clock
        if recorded is None and self._fed_any:  # what _arrival answers for a chunk without a time
            clock.moment = self._last_ms if self.recorded else None
        else:
            clock.moment = self._arrival(recorded)
        try:
            if typed is None:
                self._not_a_chunk(item, chunk)
                return
            state = self.state
            counted = state.chunk_count
            try:
                fold(state, typed, item)
            except Exception as error:  # a fault of ours must not cost the rest of the stream
                state.chunk_count = counted
                why = f"could not fold this chunk in: {type(error).__name__}: {error}"
                state.add_invalid(raw_of(item, typed), why)
        finally:
            clock.moment = None

    def _own_line(self, chunk: dict[str, Any]) -> bool:
        """Whether ``chunk`` is one of the notebook's own lines (taken in here), not a stream's chunk."""
        label = feedback.read(chunk)
        if label is not None:  # a person's label, saved with the recording: no chunk of the stream
            self.label(label)
            return True
        scores = read_scores(chunk)
        if scores is not None:  # the run's scores, saved with its recording: they replace any so far
            self.scores(scores)
            return True
        trace = read_trace_line(chunk)
        if trace is not None:  # the run's trace, saved with its recording
            self.keep_trace(trace)
            return True
        note = notes.read(chunk)
        if note is not None:  # a teacher's note on a step, saved with the recording
            self.keep_note(*note)
            return True
        return False

    def _arrival(self, at: Any) -> float | None:
        """When this chunk arrived (epoch ms): its recorded time (ms since the start) placed after
        ``epoch_ms``; else now. A recorded source's chunk without a time keeps the last time; a
        recorded source whose first chunk has none is untimed."""
        first, self._fed_any = not self._fed_any, True
        if isinstance(at, (int, float)) and not isinstance(at, bool) and not math.isnan(at):
            if self.clock.untimed is not None:
                return None
            if self.epoch_ms is None:
                self.epoch_ms = now_ms() - at
            if first:
                self._begin()  # a recorded run starts at its recording's time 0
            self._last_ms = self.epoch_ms + at
            return self._last_ms
        if self.recorded:
            if first:
                self.clock.untimed = UNTIMED
            return self._last_ms
        return None  # now

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
        self.clock.moment = self._last_ms
        self.scoring(False)  # stopped while its scores were awaited: none will come now
        try:
            for state in reversed(self.state.nested()):
                state.end()
        finally:
            self.clock.moment = None

    def mark_aborted(self, message: str = "stopped by the user") -> None:
        """The client stopped the stream: no ``abort`` chunk will come, so say it here."""
        self._version += 1
        if self.state.status in ("running", "incomplete"):
            self.state.abort(message)

    def mark_error(
        self, message: str, *, status_code: int | None = None, details: Any = None, name: str | None = None
    ) -> None:
        """A fault outside the stream (HTTP error, refused connection, timeout: ``name``
        ``TRANSPORT_ERROR``) ends the run in error."""
        self._version += 1
        info: dict[str, Any] = {"message": message}
        if name is not None:
            info["name"] = name
        if status_code is not None:
            info["status_code"] = status_code
        if details is not None:
            info["details"] = details
        self.state.fail(info)

    def note(self, level: str, message: str) -> None:
        """A remark from whoever feeds the run (a lost connection, say), shown as a banner."""
        self._version += 1
        self.state.banner(level, message)

    def scoring(self, waiting: bool) -> None:
        """The run's scores are awaited (its view says "scoring…"), or no longer."""
        if bool(self.state.node.fields.get("scoring")) != waiting:
            self._version += 1
            self.tree.set(self.state.node, "scoring", True if waiting else None)

    def add_scores(self, scores: list[Score]) -> None:
        """Scores of the run (Mastra's or Python scorers'): on its result (``result.scores``) and its view."""
        so_far = [Score.model_validate(score) for score in self.state.node.fields.get("scores", ())]
        self.scores([*so_far, *scores])

    def scores(self, scores: list[Score]) -> None:
        """The run's scores are ``scores`` (a saved recording's line of them)."""
        self._version += 1
        self.tree.set(self.state.node, "scores", [score.model_dump() for score in scores])
        self.tree.set(self.state.node, "score_badges", [badge(score) for score in scores])

    def label(self, label: Feedback) -> None:
        """A person's label of the run (thumbs, score, comment, and whether Mastra has it): on its
        result (``result.feedback``) and its view's footer; a later label replaces it, an empty one
        clears it."""
        self._version += 1
        self.tree.set(self.state.node, "feedback", None if label.empty else label.model_dump(mode="json"))
        self.tree.set(self.state.node, "feedback_note", None if label.empty else feedback.note(label))

    def decide(
        self, action: str, by: str, *, tool_call_id: str | None = None, step: str | None = None
    ) -> None:
        """A person decided on a waiting tool call (by id) or workflow step (by name) of this run:
        ``action`` approve, decline or resume; ``by`` "view" or "python". Raises KeyError if unknown."""
        node = self.state.workflow_steps[step] if step is not None else self.state.calls[str(tool_call_id)]
        self._version += 1
        self.state.decide(node, action, by)

    def expect_resume(self, schemas: dict[str, Any]) -> None:
        """What each step of this workflow run expects when resumed: its resume schema by step name
        (Mastra's stream does not carry it; a client reads it from the server). A suspended step's
        ``continue_with`` then shows the data it asks for (the suggester words it from the schema)."""
        self._version += 1
        self.state.expect_resume(schemas)

    def running_in_notebook(self, tool_call_ids: list[str]) -> None:
        """The client runs these calls itself (client tools): their cards say so, and the run, whose
        stream ended with them, goes on."""
        self._version += 1
        for call_id in tool_call_ids:
            node = self.state.calls.get(call_id)
            if node is not None:
                self.state.set(node, "ran_in", "notebook")
        self.state.resume()

    def keep_value(self, tool_call_id: str, value: Any) -> None:
        """The Python object a client tool returned, kept in the kernel as its call's ``value`` (the
        view and the model have its JSON form): never sent, never saved."""
        node = self.state.calls.get(tool_call_id)
        if node is not None:
            self._version += 1
            self.state.kept[node.id] = value

    def adopt_run_id(self, run_id: str) -> None:
        """The run id is known before any chunk (a workflow run the client created)."""
        if self.state.node.fields.get("run_id") is None:
            self.tree.set(self.state.node, "run_id", run_id)

    def describe(self, *, trace_id: str | None = None, overrides: Mapping[str, Any] | None = None) -> None:
        """What the client knows of the run before any chunk: the id of Mastra's trace it asked for
        (``tracingOptions.traceId``), and what its request overrode on purpose (``instructions``,
        ``model``...: the header says so)."""
        self._version += 1
        if trace_id is not None:
            self.tree.set(self.state.node, "trace_id", trace_id)
        if overrides:
            self._overrides = dict(overrides)
            self.tree.set(self.state.node, "overrides", list(overrides))

    def show_trace(self, lane: Mapping[str, Any]) -> None:
        """Mastra's trace of the run as its timeline's lane (core/trace.py ``lane``), or why there is none."""
        self._version += 1
        self.tree.set(self.state.node, "trace", dict(lane))

    def fill_requests(self, requests: Sequence[ModelRequest]) -> None:
        """What each of the run's steps was given, in order, from Mastra's trace (core/trace.py
        ``traced_requests``): a step whose stream body was redacted takes its request from there."""
        self._version += 1
        self._traced = list(requests)
        self.state.caption_traced(self._traced)  # the steps' Request toggles open on them now

    def keep_trace(self, trace: Trace) -> None:
        """Mastra's trace of the run, read (``view.trace()``) or saved with its recording: the steps'
        requests filled from it, the durations of its steps, tool calls and nested runs taken from
        its spans, its lane on the timeline, and ``trace`` kept for a replay to return."""
        self.trace = trace
        self.learn_from(trace)
        self.show_trace(lane(trace))

    def learn_from(self, trace: Trace) -> None:
        """What each step was given and how long each step, tool call and nested run took, by
        Mastra's trace (a replay reads them before its chunks: its lane waits for the end)."""
        self.fill_requests(traced_requests(trace))
        self.state.caption_nested(nested_requests(trace))  # the sub-agents' steps too
        self._version += 1
        self.state.time_by(traced_times(trace))

    def keep_note(self, step: int, text: str | None) -> None:
        """A teacher's note on step ``step`` (from 1, as the view numbers steps; None clears it),
        shown under the step's divider, now or when the step starts."""
        self._version += 1
        self.state.keep_note(step, text)

    @property
    def notes(self) -> dict[int, str]:
        """The teacher's notes on the run's steps, by step number (from 1)."""
        return dict(self.state.notes)

    # ---- reading --------------------------------------------------------------------------------

    def snapshot(self) -> list[list[Any]]:
        """Ops that rebuild this run's whole view tree."""
        return snapshot_ops(self.state.node)

    @property
    def result(self) -> RunResult:
        """The run so far as a RunResult; cheap to call repeatedly (cached until the next chunk)."""
        if self._cached is None or self._cached[0] != self._version:
            result = read_result(self.state, traced=self._traced, overrides=self._overrides)
            self._cached = (self._version, keep_view(result, self.snapshot()))
        return self._cached[1]

    @property
    def status(self) -> str:
        """The run's status so far (``running``, ``finished``, ``error``... as ``RunResult.status``)."""
        return self.state.status

    @property
    def chunk_count(self) -> int:
        """How many chunks were fed so far."""
        return self.state.chunk_count

    @property
    def invalid(self) -> list[dict[str, str]]:
        """The items fed that were not chunks: each one's text and why."""
        return self.state.invalid


def never_ran(reason: str, *, error: bool = False) -> Run:
    """A run that never started, ended at once: aborted (a queue stopped before its turn, a budget),
    or an error when ``error`` (it could not be started); ``reason`` says why."""
    run = Run()
    if error:
        run.mark_error(reason)
    else:
        run.mark_aborted(reason)
    run.end()
    return run
