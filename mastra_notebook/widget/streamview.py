"""StreamView: the notebook face of a run. Knows Jupyter, not Mastra's chunk types.

A StreamView composes a :class:`~mastra_notebook.runs.stream.RunStream` (which owns the run, its
recording and its background work: start, consume, wait, await, stop) with what the notebook needs:
its ops turned into sequence-numbered batches for the browser (docs/view-protocol.md), the
inspector, the browser's requests, and a static HTML transcript kept up to date for saved notebooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Generator, Mapping
from pathlib import Path
from typing import Any

import anywidget
import orjson
import traitlets

from ..core.chunks import InvalidChunk
from ..core.feedback import Feedback
from ..core.feedback import make as make_label
from ..core.recording import Recording, describe
from ..core.request_bounded import request_reply
from ..core.result import RunResult
from ..core.run import Run
from ..core.trace import Trace, TraceUnavailable, lane, unavailable_lane
from ..core.tree import Op
from ..core.values import capped
from ..render import DEFAULT_MAX_HEIGHT
from ..render.renderers import drawer
from ..render.transcript import render_html
from ..runs.loops import Work, running_loop, schedule
from ..runs.stream import (
    KeptRun,
    LabelSender,
    RunControls,
    RunStream,
    Watcher,
    off_the_page,
    opened_when_shown,
    sent,
)
from .bundle import packaged
from .contract import (
    ApproveMsg,
    BrowserMessage,
    ChunkJsonMsg,
    ChunkJsonReplyMsg,
    ChunksMsg,
    DeclineMsg,
    HelloMsg,
    InspectMsg,
    LabelMsg,
    OpsMsg,
    RequestMsg,
    RequestReplyMsg,
    ResyncMsg,
    SnapshotMsg,
    StopMsg,
    ViewTraits,
    browser_message,
    synced,
)
from .suggest import suggest_call
from .wire import FlushPolicy, OpBatch, message

__all__ = ["KeptRun", "LabelSender", "RunControls", "StreamView", "opened_when_shown", "view"]

_STATIC = Path(__file__).parent.parent / "static"
_ENVELOPE = 40  # bytes of the comm's own wrapping of a custom message ({"method": "custom", ...})


class StreamView(anywidget.AnyWidget):
    """A live view of one run: text, reasoning, tool calls, nested runs, usage, as they stream.

    Made by ``mn.view(source)`` (a recording, bytes, an iterable of chunks), by ``mn.replay(path)``
    or by a client (``MastraClient().agent(id).stream(prompt)``). Show it as a cell's last
    expression; read ``.result`` (a RunResult) at any time, ``.wait()`` or ``await view`` for the
    final one; ``.stop()``, ``.save(path)``, ``.to_html(path)``. A live client view also has
    ``approve()``, ``decline()`` and ``resume()``. ``.stream`` is the run it shows (a RunStream:
    the same calls with no widget; ``agent.stream(prompt, view=False)`` gives one alone).
    """

    # anywidget adds these to every instance through a class of its own, which help(view) shows as
    # "class StreamView(StreamView)"; declared here they need none. Hot reload keeps its file watch.
    _esm: Any
    _css: Any
    if os.environ.get("ANYWIDGET_HMR"):
        _esm = _STATIC / "widget.js"
        _css = _STATIC / "widget.css"
    else:
        # The styles ride in the entry, not in `_css` (bundle.py says why)
        _esm = traitlets.Unicode(packaged().module).tag(sync=True)
        _anywidget_id = traitlets.Unicode("mastra_notebook.widget.streamview.StreamView").tag(sync=True)

    def add_traits(self, **traits: Any) -> None:
        """Add traits to this view, leaving out those it has already (anywidget adds its own)."""
        missing = {name: trait for name, trait in traits.items() if not self.has_trait(name)}
        if missing:
            super().add_traits(**missing)

    # The synced traits, as widget/contract.py declares them (each one's meaning is there)
    _final = synced(ViewTraits, "_final")
    streaming = synced(ViewTraits, "streaming")
    can_approve = synced(ViewTraits, "can_approve")
    _can_label = synced(ViewTraits, "_can_label")
    title = synced(ViewTraits, "title")
    subtitle = synced(ViewTraits, "subtitle")
    queued = synced(ViewTraits, "queued")
    max_height = synced(ViewTraits, "max_height")
    view_key = synced(ViewTraits, "view_key")

    def __init__(
        self,
        *,
        title: str = "",
        max_height: str | float | None = DEFAULT_MAX_HEIGHT,
        prompt: Any = None,
        renderers: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """``renderers``: ``{tool name: fn}`` drawing this view's tool results as data, before
        ``mn.renderer``'s; ``prompt``: what was asked, if anyone did."""
        # read by open(), which the base's __init__ calls
        self._open_when_shown, self._closed = off_the_page(), False
        super().__init__(title=title, max_height=css_length(max_height), view_key=uuid.uuid4().hex, **kwargs)
        self._batch = OpBatch()
        self._seq = 0
        self._policy = FlushPolicy()
        # The flush policy's clock: the loop's where the view is made (monotonic; a test's may be fake)
        self._clock: Callable[[], float] = getattr(running_loop(), "time", time.monotonic)
        self._timer: asyncio.TimerHandle | None = None
        self._timer_due = math.inf
        self._displays: list[Any] = []  # IPython display handles, updated with the final transcript
        self._unpublished = False  # the run ended; its final state not yet sent again from a cell
        self._shell: Any = None  # the IPython shell whose cells this view watches, once shown
        self._inspected: int | None = None  # chunks already listed to an open inspector
        self._labelling: Work | None = None  # a label the view's control sends (kept: not collected)
        draw = drawer(renderers) if renderers else None
        # the run's first op (its root's add) is batched as the stream makes it, then sent as usual
        making = Watcher(lambda op, _folding: self._batch.add(op), _nothing, _nothing, _nothing)
        self._stream = RunStream(prompt=prompt, suggest=suggest_call, draw=draw, watcher=making)
        self._watch(self._stream)
        self._schedule()
        self.prompt = prompt  # what was asked, if anyone did (kept for batches and DataFrames)
        self.on_msg(self._on_browser_message)

    def _watch(self, stream: RunStream) -> None:
        """Show ``stream``: its ops, chunks, controls and settling come to this view."""
        stream.watcher = self._watcher()
        stream.on_streaming(lambda on: self._streamed(stream, on))
        self.streaming = stream.streaming
        self.can_approve = stream.controls is not None

    def _watcher(self) -> Watcher:
        return Watcher(self._op, self._schedule, self._attached, self._settled)

    def _streamed(self, stream: RunStream, on: bool) -> None:
        if stream is self._stream:
            self.streaming = on

    @property
    def stream(self) -> RunStream:
        """The run this view shows, streaming in the background (no widget in it)."""
        return self._stream

    def on_streaming(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(streaming)`` whenever this view's run starts or stops streaming."""
        self.observe(lambda change: listener(bool(change["new"])), names="streaming")

    # ---- the browser's model ----------------------------------------------------------------------

    def open(self) -> None:
        """Open the comm (the browser's model), unless the view was made to open when shown or closed."""
        if not self._open_when_shown and not self._closed:
            super().open()

    def show_in_browser(self) -> None:
        """Give the view its browser model now (it draws the run so far: the browser asks for it)."""
        self._open_when_shown = False
        self.open()

    def close(self) -> None:
        """Close the view's browser model for good (a closed view is never shown again)."""
        self._closed = True  # for good: never opened again
        super().close()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        self.show_in_browser()
        shown = getattr(super(), "_repr_mimebundle_", None)  # ipywidgets 7 draws through _ipython_display_
        return shown(**kwargs) if shown is not None else None

    # ---- the public API: the stream's, shown -------------------------------------------------------

    @property
    def run(self) -> Run:
        """The Run this view folds its chunks into (its node tree, state and result)."""
        return self._stream.run

    @property
    def result(self) -> RunResult:
        """The RunResult so far."""
        return self._stream.result

    def feed(self, item: Any) -> None:
        """Feed one chunk by hand (dict, JSON text, bytes or a parsed chunk)."""
        self._stream.feed(item)

    @property
    def recording(self) -> Recording:
        """Every chunk received so far, in arrival order, each with its arrival time (``.items``,
        ``.times`` in ms since the first chunk, NaN where unknown): what ``save()`` writes, and what
        ``mn.replay`` and ``mn.collect`` read back. The view keeps adding to it while it streams."""
        return self._stream.recording

    def save(self, path: str | Path) -> Path:
        """Save every chunk received so far as JSONL, with each chunk's arrival time (see ``recording``),
        and the run's scores in a line of their own at the end (``mn.view(path)`` reads them back)."""
        return self._stream.save(path)

    def end(self) -> None:
        """The stream ended: settle the status, send the final state, update the transcript."""
        self._stream.end()

    def stop(self) -> None:
        """Stop streaming now, keeping every chunk that arrived. When it returns the view is settled
        as after ``wait()``: ``result.status`` is ``aborted`` (unless the run had ended already)."""
        self._stream.stop()

    def wait(self, timeout: float | None = None) -> RunResult:
        """Block until the stream ends and return the final RunResult.

        Works in a plain script and inside Jupyter (where the kernel's loop is already running:
        nest-asyncio2 is applied to it, lazily, only here). Interrupting the kernel stops the stream
        and returns the partial result.
        """
        result = self._stream.wait(timeout)
        self._publish_final()
        return result

    def __await__(self) -> Generator[Any, None, RunResult]:
        result = yield from self._stream.__await__()
        self._publish_final()
        return result

    def start(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work()`` on the kernel's event loop (or a private one in a plain script)."""
        self._stream.start(work)

    # ---- a kept run, shown again ----------------------------------------------------------------

    def kept(self) -> KeptRun:
        """What this view's run keeps when the view is closed: its Run, recording and the inspector's
        links, for ``show_kept`` in another view."""
        return self._stream.kept()

    def show_kept(self, kept: KeptRun, *, title: str = "", subtitle: str = "") -> None:
        """Show ``kept`` here at once, in place of this view's own run: one state update, no new
        widget (a gallery's page slot shows one ended run after another). The view must not stream."""
        if self.streaming:
            raise RuntimeError("a streaming view cannot show another run: stop it first")
        if kept.run is not self._stream.run:
            self._stream.release()  # the run shown before lets go of this view
            self._batch.take()  # ops of the run shown before: the kept run's snapshot replaces them
            self._stream = RunStream.of(kept)
            self._watch(self._stream)
            self._seq += 1
            final = orjson.dumps(message("snapshot", self._seq, kept.run.snapshot())).decode()
            with self.hold_sync():
                self.title, self.subtitle, self._final = title, subtitle, final
            if self._inspected is not None:  # an open inspector lists this run's chunks instead
                self._send_chunk_list(0)
        else:
            with self.hold_sync():
                self.title, self.subtitle = title, subtitle

    # ---- continuing a run (through the controls a client attached) ---------------------------------

    def _attached(self) -> None:
        """The stream's controls were attached: the view's buttons can answer."""
        self.can_approve = True

    @property
    def controls(self) -> RunControls | None:
        """What drives this view's run (attached by a client), or None for a view of a recording."""
        return self._stream.controls

    def approve(self, tool_call_id: str | None = None) -> None:
        """Approve the tool call that waits for approval (the latest one, or ``tool_call_id``).

        The run continues in this same view. If that call was already decided (a click on Approve
        in the view, say), nothing is sent and a message says so. Only a view of a Mastra server's
        run can (one a client made); another raises.
        """
        self._stream.approve(tool_call_id)

    def decline(self, tool_call_id: str | None = None, reason: str | None = None) -> None:
        """Decline the tool call that waits for approval (the latest one, or ``tool_call_id``); the
        agent is told ``reason`` if given. A call already decided is left alone, with a message."""
        self._stream.decline(tool_call_id, reason)

    def resume(self, resume_data: Any, tool_call_id: str | None = None, *, step: str | None = None) -> None:
        """Resume the suspended tool call (the latest one, or ``tool_call_id``), or a workflow's
        suspended step (the latest one, or ``step`` by name), with ``resume_data``, whose shape its
        resume schema gives (a waiting call's ``continue_with`` shows it, e.g.
        ``view.resume({"answer": ...})``). The run continues in this same view."""
        self._stream.resume(resume_data, tool_call_id, step=step)

    def trace(self, timeout: float = 10) -> Trace:
        """Mastra's trace of this run (a :class:`~mastra_notebook.core.trace.Trace`: its spans, each
        with id, parent, name, type, start, end, input, output, attributes, error and status;
        ``.spans_of(type)``, ``.to_dataframe()``), once the run has ended and the server has stored
        it, waiting ``timeout`` seconds at most (blocking). A step whose stream body the server
        redacted takes its request from the trace (``view.result.steps[i].request``, source "trace").

        Still incomplete when the time is up: the spans so far, with ``complete=False`` and a
        ``message``. Raises ``TraceUnavailable`` when the server keeps no traces (its message says
        what to turn on) or has none for this run by then.

        The view's timeline draws the trace as a lane under the run (a click on a span shows its
        input, output and attributes), or says why there is none."""
        try:
            found = self._stream.trace(timeout)
        except TraceUnavailable as error:
            self._show_trace(unavailable_lane(self.result.trace_id, str(error)))
            raise
        self._show_trace(lane(found))
        return found

    def _show_trace(self, found: dict[str, Any]) -> None:
        """The trace's lane on the run's timeline; an ended view's saved state and transcript too."""
        self.run.show_trace(found)
        self._refresh()

    def _refresh(self) -> None:
        """The run changed outside its stream (a label, a trace): an ended view's saved state and
        transcript again, else the ops now."""
        if self._stream.ended:
            self._settled()
        else:
            self._flush()

    # ---- a person's label ----------------------------------------------------------------------------

    def label(
        self, thumbs: str | None = None, score: float | None = None, comment: str | None = None
    ) -> Feedback:
        """Label this run: ``thumbs`` ``"up"``, ``"down"`` or None, a ``score`` (any number), a
        ``comment``; the footer's control sets the same. A later label replaces it; one with
        nothing clears it. Returns the label as it stands (``result.feedback``).

        It is kept on the run (``result.feedback``, ``to_dataframe``'s ``feedback_*`` columns) and
        in its recording (``save()``; ``mn.view(path)`` reads it back). A run streamed by a
        MastraClient sends it to Mastra's feedback route with the run's trace id (blocking, as
        ``trace()``); a server that keeps no observability, or a view of a recording, keeps it in
        the notebook, and its ``reason`` (and the footer) says what to turn on."""
        kept = self._stream.label(thumbs, score, comment)
        self._refresh()
        return kept

    def _label_from_view(self, msg: LabelMsg) -> None:
        """The footer's control labelled the run: shown at once as being sent, then as sent or kept."""
        given = make_label(msg.thumbs, msg.score, msg.comment)
        labels = self._stream.labels
        if labels is None or given.empty:  # nothing to send (an empty label sends no request)
            self._keep_label(sent(labels, given))
            return
        self.run.label(given)  # "sending to Mastra…"
        self._flush()
        self._labelling = schedule(self._send_label(labels, given), self._stream.loop or running_loop())

    async def _send_label(self, labels: LabelSender, given: Feedback) -> None:
        self._keep_label(await labels.asend(given))

    def _keep_label(self, label: Feedback) -> None:
        self._stream.keep_label(label)
        self._refresh()

    # ---- sync with the browser ---------------------------------------------------------------

    def _op(self, op: Op, folding: bool) -> None:
        """An op of the run's tree, to send."""
        self._batch.add(op)
        if not folding:  # not inside a feed (which schedules once, after its chunk)
            self._schedule()

    def _schedule(self) -> None:
        """The batch changed: send it now or set the timer, as the flush policy says."""
        if not len(self._batch):
            return
        now = self._clock()
        due = self._policy.on_change(now, self._batch.text_chars)
        if due <= now:
            self._flush()
        elif due < self._timer_due and (loop := self._stream.loop) is not None and running_loop() is loop:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_at(loop.time() + (due - now), self._flush)
            self._timer_due = due

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._timer_due = math.inf
        if len(self._batch):
            self._seq += 1
            text_chars = self._batch.text_chars
            msg = message("ops", self._seq, self._batch.take())
            self.send(msg)
            self._policy.sent(self._clock(), _ENVELOPE + len(orjson.dumps(msg)), text_chars)
        if self._inspected is not None and self._inspected < self._stream.fed:
            self._send_chunk_list(self._inspected)

    # ---- the inspector: the raw chunks beside the rendered run -------------------------------------

    def inspector_entries(self, start: int = 0) -> list[dict[str, Any]]:
        """One line per chunk folded in so far: index, arrival ms, type, from, nesting path, nodes."""
        stream = self._stream
        return [
            {"i": i, "ms": stream.chunk_ms(i), "nodes": stream.touched[i],
             **describe(stream.recording.chunk(i))}
            for i in range(start, stream.fed)
        ]  # fmt: skip

    def _send_chunk_list(self, start: int) -> None:
        self.send(ChunksMsg(t="chunks", start=start, entries=self.inspector_entries(start)))
        self._inspected = self._stream.fed

    def _snapshot(self) -> SnapshotMsg | OpsMsg:
        self._flush()
        return message("snapshot", self._seq, self.run.snapshot())

    def _on_browser_message(self, widget: Any, content: Any, buffers: Any) -> None:
        """A message from the browser. What goes wrong is shown in the view, not only in the kernel log."""
        try:
            self._handle_browser_message(content)
        except Exception as error:
            kind = content.get("t") if isinstance(content, dict) else None
            self.run.note("error", f"{kind or 'a browser message'} failed: {error}")
            self._flush()

    def _handle_browser_message(self, content: Any) -> None:
        """``content`` as the browser message it is (widget/contract.py), answered; else ignored. A
        message of a known kind but not of its shape raises (the view says what is wrong)."""
        msg = browser_message(content)
        if msg is not None:
            self._answer(msg)

    def _answer(self, msg: BrowserMessage) -> None:
        """A browser message, answered (a replay's are answered by ``ReplayView``)."""
        if isinstance(msg, (HelloMsg, ResyncMsg)):
            self.send(self._snapshot())
        elif isinstance(msg, StopMsg):
            self.stop()
        elif isinstance(msg, ApproveMsg):  # the view's buttons decide as the person in the view
            self._stream.controlled("approve").approve(msg.tool_call_id, "view")
        elif isinstance(msg, DeclineMsg):
            self._stream.controlled("decline").decline(msg.tool_call_id, msg.reason, "view")
        elif isinstance(msg, LabelMsg):  # the footer's label control
            self._label_from_view(msg)
        elif isinstance(msg, InspectMsg):
            self._inspected = None
            if msg.open:
                self._send_chunk_list(0)
        elif isinstance(msg, ChunkJsonMsg) and 0 <= msg.i < self._stream.fed:
            chunk = self.recording.chunk(msg.i)
            shown = chunk.model_dump() if isinstance(chunk, InvalidChunk) else capped(chunk)
            self.send(ChunkJsonReplyMsg(t="chunk-json", i=msg.i, json=shown))
        elif isinstance(msg, RequestMsg):  # a step's Request toggle opened
            reply = request_reply(self.run.snapshot(), self.result, msg.id)
            answer = RequestReplyMsg(
                t="request", id=msg.id, request=reply.get("request"), where=reply.get("where")
            )
            if "reason" in reply:
                answer["reason"] = reply["reason"]
            self.send(answer)

    def _settled(self) -> None:
        """The run settled: its final state and transcript, to be sent again
        from the cell that waits (``_publish_final``). The stream then turns ``streaming`` off and
        marks itself ended: what ``wait()`` and ``await`` wait for."""
        self._final = orjson.dumps(self._snapshot()).decode()
        self._update_transcripts()
        self._unpublished = True

    def _update_transcripts(self) -> None:
        """A shown view: bring its saved-notebook transcript up to date."""
        if self._displays:
            transcript = self._transcript()
            for handle in self._displays:
                handle.update(transcript, raw=True)

    def _publish_final(self) -> None:
        """Send the final state and transcript again, from the cell running now.

        A background stream's messages carry the parent of the cell that started it, and headless
        executors (nbclient, ``jupyter execute``, ``nbconvert --execute``) record only the messages
        of the cell now executing: what ``wait()`` returns, or a run that ended during a later cell,
        must also be written in that cell's context to reach the saved notebook.
        """
        if not self._stream.ended or not self._unpublished:
            return
        self._unpublished = False
        self.send_state(["_final", "streaming"])
        self._update_transcripts()

    def _after_cell(self, _result: Any = None) -> None:
        """IPython's ``post_run_cell``: a run that ended during (or before) this cell is saved with it."""
        if self._stream.ended:
            self._publish_final()
            with contextlib.suppress(ValueError, AttributeError):
                self._shell.events.unregister("post_run_cell", self._after_cell)

    # ---- display --------------------------------------------------------------------------------

    def _transcript(self) -> dict[str, str]:
        """The run as static, script-free HTML: what GitHub, nbviewer and nbconvert show."""
        return {"text/html": render_html(self.result, self.title, self.subtitle, [self.view_key])}

    def _ipython_display_(self) -> None:
        """The widget, then its transcript as an output of its own. Only the transcript is updated when
        the run ends, so the live widget is never drawn again (a reader's open form or panel stays);
        the widget's CSS hides the transcript wherever the widget itself shows."""
        from IPython.display import display

        self.show_in_browser()
        bundle: Any = super()._repr_mimebundle_() or {}
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})  # Colab needs the metadata
        # text/plain is saved with the notebook: a status here would be frozen at "running"
        data = {
            **data,
            "text/plain": f"<{type(self).__name__} {self.title or 'run'}: its transcript follows>",
        }
        display(data, metadata=metadata, raw=True)  # type: ignore[no-untyped-call]
        handle = display(self._transcript(), raw=True, display_id=True)  # type: ignore[no-untyped-call]
        self._displays.append(handle)
        self._watch_cells()

    def _watch_cells(self) -> None:
        """Once shown in IPython: after each cell, save the run if it ended (see ``_publish_final``)."""
        from IPython import get_ipython

        shell = get_ipython()
        if shell is None or self._shell is shell:
            return
        self._shell = shell
        shell.events.register("post_run_cell", self._after_cell)

    def to_html(self, path: str | Path | None = None) -> str:
        """One self-contained, offline page of the run (the widget's own renderer), written to ``path``."""
        from .export import page_html

        page = page_html(self.run, self.title, self.subtitle)
        if path is not None:
            Path(path).write_text(page)
        return page

    def __dir__(self) -> list[str]:
        """Tab completion: the view's own API, not the many names of ipywidgets and traitlets (they
        still work: ``view.observe``, ``view.layout``)."""
        own = [n for c in type(self).__mro__ if c.__module__.startswith("mastra_notebook") for n in vars(c)]
        public = sorted({n for n in own if not n.startswith("_")} - set(dir(anywidget.AnyWidget)))
        return public + sorted(n for n in super().__dir__() if n.startswith("_"))  # IPython sorts

    def __repr__(self) -> str:
        result = self.result
        return f"<StreamView {self.title or 'run'}: {result.status}, {len(result.text):,} characters>"


def view(
    source: Any = None,
    delay: float = 0.0,
    *,
    title: str = "",
    max_height: str | float | None = DEFAULT_MAX_HEIGHT,
    renderers: Mapping[str, Any] | None = None,
) -> StreamView:
    """A StreamView consuming ``source`` in the background (or fed by hand when ``source`` is None).

    ``max_height``: a taller view scrolls inside itself (a CSS length, or pixels; None: no limit).
    ``renderers``: ``{tool name: fn}`` drawing those tools' results as data in this view, before
    those registered with ``mn.renderer``.
    """
    name = Path(source).name if isinstance(source, (str, Path)) else ""
    widget = StreamView(title=title or name, max_height=max_height, renderers=renderers)
    if source is not None:
        widget.stream.consume(source, delay=delay)
    return widget


def css_length(value: str | float | None) -> str:
    """``max_height`` as the browser takes it: pixels for a number, "" for no limit."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise TypeError(f"max_height must be a CSS length, a number of pixels or None, not {value!r}")
    if isinstance(value, str):
        return value.strip()
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"max_height must be a positive number of pixels, not {value!r}")
    return f"{value:g}px"


def first_line(prompt: Any, limit: int = 200) -> str:
    """The first line of what was asked (a string, or the last user message's text), for a header."""
    text = prompt if isinstance(prompt, str) else ""
    if isinstance(prompt, (list, tuple)):
        users = [m for m in prompt if isinstance(m, dict) and m.get("role") == "user"]
        content = users[-1].get("content") if users else None
        if isinstance(content, list):  # content parts: the first text part
            texts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
            content = texts[0] if texts else None
        text = content if isinstance(content, str) else ""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _nothing() -> None:
    """A watcher's call that has nothing to do (a view's stream being made)."""
