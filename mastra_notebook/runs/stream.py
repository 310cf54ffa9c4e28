"""RunStream: one run streaming in the background, with no widget. Knows loops, not Jupyter.

A :class:`RunStream` owns a :class:`Run` and the :class:`Recording` of its chunks, consumes a source
(or a client's work) in the background on the kernel's event loop, on a plain script's private loop,
or from another thread, and settles the run when it ends: ``wait()``, ``await``, ``stop()``. A
StreamView composes one with the op sync, the inspector and the transcript (a :class:`Watcher`); a
plain script, a Batch and an Experiment use it as it is.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import math
import threading
import time
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Generator,
    Iterable,
    Iterator,
)
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..core import notes
from ..core.chunks import coerce
from ..core.cost import warm as warm_prices
from ..core.feedback import NO_TRACE, Feedback
from ..core.feedback import line as label_line
from ..core.feedback import make as make_label
from ..core.ingest import records
from ..core.recording import Recording, is_stored
from ..core.result import RunResult
from ..core.run import Run
from ..core.score import scored_lines
from ..core.trace import TRACE_LINE, Trace, TraceUnavailable, read_trace_line, trace_line
from ..core.tree import Op
from .loops import Work, private_loop, run_nested, running_loop, schedule

_OWN_BYTES = (TRACE_LINE.encode(), notes.NOTE_TYPE.encode())  # the saved lines read before a replay

_YIELD_EVERY = 0.01  # seconds of feeding before the consumer lets the event loop breathe
_OFF_THE_PAGE: ContextVar[bool] = ContextVar("mastra_notebook_open_when_shown", default=False)
Streaming = Callable[[], Awaitable[None]]  # the work that streams into a run (a client's session)


@contextlib.contextmanager
def opened_when_shown() -> Iterator[None]:
    """Views made inside have no browser model until shown (``StreamView.show_in_browser``).

    A batch's runs that stream off the page then cost the browser nothing: each model is the whole
    module and its state, 270 kB to parse and import, and a 500-prompt batch made 450 of them only to
    close them again. (Here, with no widget, so that an experiment can say it of the runs it makes.)
    """
    token = _OFF_THE_PAGE.set(True)
    try:
        yield
    finally:
        _OFF_THE_PAGE.reset(token)


def off_the_page() -> bool:
    """Whether a view made now has no browser model until shown (inside ``opened_when_shown``)."""
    return _OFF_THE_PAGE.get()


class LabelSender(Protocol):
    """Where a run's labels go besides the run: Mastra's feedback route (client/feedback.py)."""

    def send(self, label: Feedback) -> Feedback:
        """Send ``label`` (blocking); it as it stands then (sent, or kept and why)."""

    async def asend(self, label: Feedback) -> Feedback:
        """``send`` on the running loop."""


class RunControls(Protocol):
    """What drives a run from outside, attached with ``RunStream.attach``: a client's session of the
    run on a Mastra server. ``by`` is who decided: ``"python"`` (a call) or ``"view"`` (a view's
    buttons)."""

    def approve(self, tool_call_id: str | None, by: str) -> None:
        """Approve the waiting tool call (the latest one, or ``tool_call_id``)."""

    def decline(self, tool_call_id: str | None, reason: str | None, by: str) -> None:
        """Decline the waiting tool call, telling the model ``reason``."""

    def resume(self, resume_data: Any, tool_call_id: str | None, step: str | None) -> None:
        """Resume the suspended tool call or workflow step with ``resume_data``."""

    def stopping(self) -> None:
        """Stop was asked: called on the stream's loop just before the run settles as stopped."""

    def trace(self, timeout: float) -> Trace:
        """Mastra's trace of the run, waited for ``timeout`` seconds at most."""


@dataclass(frozen=True, slots=True)
class Watcher:
    """What shows a stream (a StreamView) is told: each op of the run's tree (``folding``: inside a
    chunk's fold, which ``folded`` follows), each chunk folded in, controls attached, and the run
    settled (ended, or changed after its end), before ``streaming`` turns off."""

    op: Callable[[Op, bool], None]
    folded: Callable[[], None]
    attached: Callable[[], None]
    settled: Callable[[], None]


@dataclass(frozen=True, slots=True)
class KeptRun:
    """What a run keeps once its stream or view is let go (``RunStream.kept``), to be shown again in
    a view (``StreamView.show_kept``): a gallery pages back to a run whose view it closed."""

    run: Run
    recording: Recording
    touched: list[list[str]]  # per chunk: the view nodes it changed (the inspector's links)
    labels: LabelSender | None = None  # where the run's labels are sent (its trace on a server)

    def label(
        self, thumbs: str | None = None, score: float | None = None, comment: str | None = None
    ) -> Feedback:
        """Label the run with no view of it (a gallery tile or an experiment cell off the page), as
        ``RunStream.label`` does: on its result, in its recording, sent where its labels go."""
        return self.keep_label(sent(self.labels, make_label(thumbs, score, comment)))

    def keep_label(self, label: Feedback) -> Feedback:
        """The run's label, as it stands (sent or kept), on its result and in its recording."""
        self.recording.add(label_line(label, self.run.result.run_id), math.nan)
        self.touched.append([self.run.state.node.id])  # one entry per chunk (the inspector's links)
        self.run.label(label)
        return label


class RunStream:
    """One run streaming in the background: ``result`` so far, ``wait()`` or ``await stream`` for the
    final RunResult, ``stop()``, ``save(path)``; a client's run also ``approve()``, ``decline()``,
    ``resume()``, ``trace()`` and ``label()``. No widget: a plain script gets one from
    ``client.agent(id).stream(prompt, view=False)`` or ``mn.stream(source)``."""

    def __init__(
        self,
        *,
        prompt: Any = None,
        draw: Any = None,
        suggest: Any = None,
        recording: Recording | None = None,
        watcher: Watcher | None = None,
    ) -> None:
        """``draw`` and ``suggest``: the Run's (core/run.py); ``watcher``: what shows the stream, told
        of every op from the first (the run's root)."""
        self.watcher = watcher
        self._touching: set[str] | None = None
        self._run_nodes: set[str] = set()
        self.prompt = prompt  # what was asked, if anyone did (kept for batches and DataFrames)
        self.recording = recording if recording is not None else Recording()  # every chunk as it came
        self.run = Run(on_op=self._on_op, suggest=suggest, draw=draw)
        self.touched: list[list[str]] = []  # per fed chunk: the view nodes it changed
        self.fed = 0  # chunks of the recording folded into the run
        self.loop: asyncio.AbstractEventLoop | None = None
        self.controls: RunControls | None = None  # what approve(), decline(), resume() and Stop drive
        self.labels: LabelSender | None = None  # where labels are sent (attach), else kept here only
        self._task: Work | None = None
        self._ended = threading.Event()
        self._streaming = False
        self._listeners: list[Callable[[bool], None]] = []
        warm_prices()  # genai-prices' data, loaded before the first step ends

    @classmethod
    def of(cls, kept: KeptRun) -> RunStream:
        """A settled stream of a kept run (a view shows it again)."""
        stream = cls(recording=kept.recording)
        stream.run, stream.touched, stream.labels, stream.fed = (
            kept.run,
            kept.touched,
            kept.labels,
            len(kept.recording),
        )
        kept.run.tree.sink = stream._on_op
        stream._ended.set()
        return stream

    def release(self) -> None:
        """The run lets go of this stream (and what watches it): another shows it now."""
        if self.run.tree.sink == self._on_op:
            self.run.tree.sink = None

    @property
    def result(self) -> RunResult:
        """The RunResult so far."""
        return self.run.result

    @property
    def streaming(self) -> bool:
        """The run streams now."""
        return self._streaming

    @property
    def ended(self) -> bool:
        """The run settled (what ``wait()`` waits for)."""
        return self._ended.is_set()

    def on_streaming(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(streaming)`` whenever the run starts or stops streaming."""
        self._listeners.append(listener)

    def _set_streaming(self, on: bool) -> None:
        if on != self._streaming:
            self._streaming = on
            for listener in list(self._listeners):
                listener(on)

    # ---- chunks in ---------------------------------------------------------------------------------

    def feed(self, item: Any) -> None:
        """Feed one chunk by hand (dict, JSON text, bytes or a parsed chunk)."""
        if not self._streaming and not self._ended.is_set():  # a settled run stays settled
            self._set_streaming(True)
        if self.loop is None:  # fed from a cell: the kernel's loop sends what is left after the last feed
            self.loop = running_loop()
        self.recording.add(item)
        self.fold_next()

    def fold_next(self) -> None:
        """Fold the next recorded chunk into the run, noting which view nodes it changed."""
        self._touching = set()
        try:
            self.run.feed(self.recording.items[self.fed], self.chunk_ms(self.fed))
        finally:
            touched, self._touching = self._touching, None
            if self.watcher is not None:
                self.watcher.folded()
        parts = touched - self._run_nodes  # a run's own fields (usage, timing) change with most chunks
        del self.touched[self.fed :]
        self.touched.append(sorted(parts or touched))
        self.fed += 1

    def chunk_ms(self, index: int) -> float | None:
        """When chunk ``index`` arrived, in ms since the first (None when untimed)."""
        value = self.recording.times[index]
        return None if math.isnan(value) else round(value, 1)  # JSON has no NaN

    def _on_op(self, op: Op) -> None:
        if op[0] == "add" and op[2]["kind"] == "run":
            self._run_nodes.add(op[2]["id"])
        if self._touching is not None:
            self._touching.add(op[2]["id"] if op[0] == "add" else op[1])
        if self.watcher is not None:
            self.watcher.op(op, self._touching is not None)

    def rebuild(self, position: int) -> None:
        """A fresh Run fed the first ``position`` recorded chunks (a replay going back)."""
        self.run = Run(on_op=self._on_op, epoch_ms=self.run.epoch_ms, draw=self.run.state.draw)
        self.run.start(recorded=True)  # recorded times placed alike; the renderers draw again
        self.fed = 0
        self.touched.clear()
        self.read_recorded()
        while self.fed < position:
            self.fold_next()
        self._ended.clear()

    def read_recorded(self) -> None:
        """What a recording saved about its run, read before its chunks: each step's request and the
        durations by the server's spans from its trace (a line at its end), so a replay held before
        a step shows what the model was given there and how long each part took on the server, and
        a teacher's notes on its steps, shown as each step starts. The trace's lane
        follows when the replay reaches its line, as the live view had it after the run."""
        found = self.recorded_trace()
        if found is not None:
            self.run.learn_from(found)
        for item in self._own_lines():
            note = notes.read(coerce(item))
            if note is not None:
                self.run.keep_note(*note)

    def _own_lines(self) -> Iterator[Any]:
        """The recording's items that may be the notebook's own lines (a trace, a note), in order:
        most lines are the stream's chunks, and a text line without the type's name is not parsed."""
        for item in self.recording.items:
            text = item.encode() if isinstance(item, str) else item
            if isinstance(text, (bytes, bytearray)) and not any(own in text for own in _OWN_BYTES):
                continue
            yield item

    def recorded_trace(self) -> Trace | None:
        """The trace saved with the recording (its last trace line), if any."""
        found = None
        for item in self._own_lines():
            found = read_trace_line(coerce(item)) or found
        return found

    def save(self, path: str | Path) -> Path:
        """Save every chunk received so far as JSONL, with each chunk's arrival time, and the run's
        scores in a line of their own at the end (``mn.view(path)`` reads them back)."""
        return self.recording.save(path, scored_lines(self.result))

    def otel_run(self) -> Any:
        """This run as ``mastra_notebook.otel`` exports it: under the root span of Mastra's trace of
        it when that trace is known (``trace()`` read it, or the recording kept it)."""
        from ..otel import OtelRun

        trace = self.run.trace or self.recorded_trace()
        roots = trace.roots if trace is not None else []
        return OtelRun(self.result, parent_span_id=roots[0].id if roots else None)

    def export_otel(self, endpoint: str | Path, **options: Any) -> Any:
        """Send this run as OpenTelemetry GenAI spans to ``endpoint`` (an OTLP/HTTP traces URL, or a
        file path for OTLP/JSON): ``mn.export_otel``'s options. Secrets the run's client keeps out of
        its messages are hidden here too."""
        from ..otel import export_otel

        redact = getattr(self.controls, "redact", None)
        return export_otel(self.otel_run(), endpoint, redact=redact, **options)

    def lines(self) -> list[bytes]:
        """The JSONL lines ``save`` writes (a chat's file keeps each turn's so)."""
        return list(self.recording.lines(scored_lines(self.result)))

    # ---- in the background -------------------------------------------------------------------------

    def consume(self, source: Any, *, delay: float = 0.0) -> RunStream:
        """Consume ``source`` (path, bytes, iterable, async iterable) in the background."""
        stored = is_stored(source)  # read from storage: timed by its own recorded times only
        self.run.start(self.recording.start(live=not stored), recorded=stored)
        self.start(lambda: self._consume(source, delay))
        return self

    def start(self, work: Streaming) -> None:
        """Run ``work()`` on the kernel's event loop (or a private one in a plain script)."""
        self._set_streaming(True)
        self._ended.clear()
        self.run.start(self.recording.start())  # the run starts now: its request is sent
        self.loop = running_loop() or private_loop()  # the kernel's, or a plain script's background one
        self._task = schedule(self._guarded(work), self.loop)

    def background(self, work: Coroutine[Any, Any, Any]) -> Work:
        """Run ``work`` on the stream's loop as what ``wait()`` waits for (a replay's playback)."""
        self.loop = running_loop() or private_loop()
        self._task = schedule(work, self.loop)
        return self._task

    async def _guarded(self, work: Streaming) -> None:
        """Nothing raises out of a background task unseen: a failure ends the run in error."""
        try:
            await work()
        except asyncio.CancelledError:
            self.run.mark_aborted()
        except Exception as error:  # kept on the result (and shown in a view)
            if not self._ended.is_set():
                self.run.mark_error(f"{type(error).__name__}: {error}")
        finally:
            if not self._ended.is_set():  # else stop() settled the run already
                self.end()

    async def _consume(self, source: Any, delay: float) -> None:
        """Feed every chunk of ``source``; with ``delay``, at one chunk per ``delay`` seconds on average."""
        if isinstance(source, AsyncIterable):
            from ..core.framing import aiter_records

            items: AsyncIterator[Any] = aiter_records(source)
        else:
            items = _aiter(records(source))
        loop = asyncio.get_running_loop()
        breather = Breather()
        start = loop.time()
        index = 0
        async for item in items:
            self.feed(item)
            index += 1
            due = start + index * delay
            if delay and due > loop.time():  # paced: wait for the next chunk's turn
                await asyncio.sleep(due - loop.time())
            else:
                await breather.breathe()

    # ---- ending ------------------------------------------------------------------------------------

    def end(self) -> None:
        """The stream ended: settle the status (a watcher shows the final state), then mark it ended."""
        self.run.end()
        try:
            if self.watcher is not None:
                self.watcher.settled()
            self._set_streaming(False)
        finally:
            self._ended.set()

    def stop(self) -> None:
        """Stop streaming now, keeping every chunk that arrived. When it returns the run is settled
        as after ``wait()``: ``result.status`` is ``aborted`` (unless the run had ended already)."""
        loop = self.loop
        if self._on_another_thread() and loop is not None:
            # the stream runs on a plain script's background loop: stop it there, between two chunks
            asyncio.run_coroutine_threadsafe(self._stop_on_loop(), loop).result()
        else:
            self._stop_here()

    async def _stop_on_loop(self) -> None:
        self._stop_here()

    def _stop_here(self) -> None:
        """Cancel the work (it feeds nothing more) and settle the run now, on the stream's loop; the
        controls first fold in what the work would as it unwinds (a cancelled task runs its handlers
        after ``stop()`` has returned)."""
        if self._ended.is_set():
            return
        if self._task is not None:
            self._task.cancel()
        if self.controls is not None:
            self.controls.stopping()
        self.run.mark_aborted()
        self.end()

    def wait(self, timeout: float | None = None) -> RunResult:
        """Block until the stream ends and return the final RunResult.

        Works in a plain script and inside Jupyter (where the kernel's loop is already running:
        nest-asyncio2 is applied to it, lazily, only here). Interrupting stops the stream and returns
        the partial result.
        """
        try:
            if not self._ended.is_set():  # stop() may have cancelled the task: the run is settled
                self._wait_ended(timeout)
        except KeyboardInterrupt:
            self.stop()
            with contextlib.suppress(BaseException):
                self._wait_ended(5.0)
        return self.result

    def _on_another_thread(self) -> bool:
        """The stream's loop runs in a thread other than the caller's: a plain script's background
        loop (its work handed over from the main thread, or begun on that loop itself, as a chat
        replay's next turn is), which only its own thread may run."""
        loop = self.loop
        return loop is not None and loop is not running_loop() and loop.is_running()

    def _wait_ended(self, timeout: float | None) -> None:
        task = self._task
        if task is None:
            return
        if isinstance(task, concurrent.futures.Future) or self._on_another_thread():  # its thread runs it
            deadline = None if timeout is None else time.monotonic() + timeout
            while not self._ended.wait(0.05):  # short waits: an interrupt is seen at once
                if task.done():  # a replay paused or held: the wait ends where it is
                    return
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError(f"the stream did not end within {timeout} s")
        # Not isinstance(task, asyncio.Future): nest-asyncio2 swaps asyncio.Future for its
        # pure-Python class, and a task made before that is no instance of it.
        elif not task.done():
            try:
                run_nested(task, timeout)
            except (TimeoutError, asyncio.TimeoutError):
                raise TimeoutError(f"the stream did not end within {timeout} s") from None
            except (asyncio.CancelledError, concurrent.futures.CancelledError):
                pass  # a replay paused: the wait ends where it is

    def __await__(self) -> Generator[Any, None, RunResult]:
        task = None if self._ended.is_set() else self._task
        if isinstance(task, concurrent.futures.Future) or (task is not None and self._on_another_thread()):
            yield from asyncio.get_running_loop().run_in_executor(None, self._ended.wait).__await__()
        elif task is not None:
            yield from asyncio.shield(task).__await__()
        return self.result

    def kept(self) -> KeptRun:
        """What this run keeps when its stream is let go: its Run, recording and the inspector's links."""
        return KeptRun(self.run, self.recording, self.touched, self.labels)

    def close(self) -> None:
        """Nothing to close: a stream holds no browser model (a view's ``close`` closes its own)."""

    # ---- continuing a run (through the controls a client attached) ---------------------------------

    def attach(self, controls: RunControls, labels: LabelSender | None = None) -> None:
        """Let ``controls`` drive this run: ``approve()``, ``decline()``, ``resume()`` and Stop go to
        them (a client's session of a run on a Mastra server); ``labels``: where ``label()`` sends a
        person's label (Mastra's feedback route)."""
        self.controls, self.labels = controls, labels
        if self.watcher is not None:
            self.watcher.attached()

    def controlled(self, verb: str) -> RunControls:
        """The controls, or a RuntimeError saying this run has none (a recording's)."""
        if self.controls is None:
            raise RuntimeError(f"this run is not connected to a Mastra server: nothing to {verb}")
        return self.controls

    def approve(self, tool_call_id: str | None = None) -> None:
        """Approve the tool call that waits for approval (the latest one, or ``tool_call_id``)."""
        self.controlled("approve").approve(tool_call_id, "python")

    def decline(self, tool_call_id: str | None = None, reason: str | None = None) -> None:
        """Decline the tool call that waits for approval; the agent is told ``reason`` if given."""
        self.controlled("decline").decline(tool_call_id, reason, "python")

    def resume(self, resume_data: Any, tool_call_id: str | None = None, *, step: str | None = None) -> None:
        """Resume the suspended tool call (or a workflow's suspended ``step``) with ``resume_data``."""
        self.controlled("resume").resume(resume_data, tool_call_id, step)

    def trace(self, timeout: float = 10) -> Trace:
        """Mastra's trace of this run, once it ended and the server stored it (``timeout`` s at most)."""
        if self.controls is None:  # a replay or a recording: the trace saved with it, if any
            kept = self.run.trace or self.recorded_trace()
            if kept is None:
                raise TraceUnavailable(
                    "this recording was saved without its trace: call view.trace() on the live run "
                    "before view.save() to keep the trace (and each step's request) with it"
                )
            return kept
        found = self.controlled("read a trace of").trace(timeout)
        self.keep_trace(found)
        return found

    def keep_trace(self, trace: Trace) -> None:
        """The run's trace, in its recording (a line of its own, untimed: ``save`` keeps it) and on the
        run (its steps' requests, its lane)."""
        self.recording.add(trace_line(trace), math.nan)
        if self.fed == len(self.recording) - 1:
            self.fold_next()
        else:  # a replay held short of its end: the line is folded in when the replay reaches it
            self.run.keep_trace(trace)

    def note(self, step: int, text: str | None) -> None:
        """A teacher's note on step ``step`` (from 1, as the view numbers steps; empty or None clears
        it): shown under the step's divider, kept in the recording (a line of its own, untimed) so a
        replay and the export page show it too. ValueError says what is wrong with it."""
        step, kept = notes.make(step, text)
        self.recording.add(notes.line(step, kept), math.nan)
        if self.fed == len(self.recording) - 1:
            self.fold_next()
        else:  # a replay held short of its end: shown now, and again when the replay reaches the line
            self.run.keep_note(step, kept)

    def label(
        self, thumbs: str | None = None, score: float | None = None, comment: str | None = None
    ) -> Feedback:
        """Label this run (``thumbs`` ``"up"``/``"down"``, a ``score``, a ``comment``): kept on the
        result and in the recording, sent to Mastra's feedback route for a client's run."""
        return self.keep_label(sent(self.labels, make_label(thumbs, score, comment)))

    def keep_label(self, label: Feedback) -> Feedback:
        """The run's label, in its recording (a line of its own, untimed) and on the run."""
        self.recording.add(label_line(label, self.result.run_id), math.nan)
        if self.fed == len(self.recording) - 1:
            self.fold_next()
        else:  # a replay held short of its end: the line is folded in when the replay reaches it
            self.run.label(label)
        return label

    def __repr__(self) -> str:
        result = self.result
        return f"<RunStream: {result.status}, {len(result.text):,} characters>"


def sent(labels: LabelSender | None, label: Feedback) -> Feedback:
    """``label`` sent where a run's labels go (blocking); a run no client streamed keeps it here only."""
    if labels is not None:
        return labels.send(label)
    return label.model_copy(update={"sent_to_mastra": False, "reason": NO_TRACE})


class Breather:
    """Lets the event loop run other work (a Stop click, other streams) during a long burst of chunks."""

    def __init__(self) -> None:
        self._since = time.monotonic()

    async def breathe(self) -> None:
        """Yield to the event loop if the burst has held it longer than ``_YIELD_EVERY``."""
        if time.monotonic() - self._since > _YIELD_EVERY:
            await asyncio.sleep(0)
            self._since = time.monotonic()


async def _aiter(items: Iterable[Any]) -> AsyncIterator[Any]:
    for item in items:
        yield item


def stream(source: Any = None, delay: float = 0.0, *, renderers: Any = None) -> RunStream:
    """``mn.stream(source)``: a RunStream consuming ``source`` in the background (or fed by hand when
    None), with no widget: ``mn.view(source)`` without the view, for a plain script. ``renderers``:
    ``{tool name: fn}`` drawing those tools' results as data, as in ``mn.view``."""
    from ..render.renderers import drawer

    made = RunStream(draw=drawer(renderers) if renderers else None)
    if source is not None:
        made.consume(source, delay=delay)
    return made
