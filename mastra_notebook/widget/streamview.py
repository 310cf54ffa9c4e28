"""StreamView: the notebook face of a run. Knows Jupyter, not Mastra's chunk types.

A StreamView composes a :class:`~mastra_notebook.runs.stream.RunStream` (which owns the run, its
recording and its background work: start, consume, wait, await, stop) with what the notebook needs,
each a part of its own in this package: the op sync (``sync.py``: sequence-numbered batches for the
browser, docs/view-protocol.md), the inspector (``inspector.py``), the answers to the browser's
messages (``answers.py``), labels given in the view (``labels.py``) and the static HTML transcript
kept up to date for saved notebooks (``transcripts.py``).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Awaitable, Callable, Generator, Mapping
from pathlib import Path
from typing import Any

import anywidget
import orjson
import traitlets

from ..core.feedback import Feedback
from ..core.recording import Recording
from ..core.result import RunResult
from ..core.run import Run
from ..core.trace import Trace, TraceUnavailable, lane, unavailable_lane
from ..render import DEFAULT_MAX_HEIGHT
from ..render.renderers import drawer
from ..render.transcript import render_html
from ..runs.stream import (
    KeptRun,
    LabelSender,
    RunControls,
    RunStream,
    Watcher,
    off_the_page,
    opened_when_shown,
)
from .answers import Answers
from .bundle import packaged
from .contract import BrowserMessage, ViewTraits, browser_message, synced
from .header import css_length, first_line
from .inspector import Inspector, entries
from .labels import LabelsFromView
from .suggest import suggest_call
from .sync import OpSync
from .transcripts import Transcripts

__all__ = ["KeptRun", "LabelSender", "RunControls", "StreamView", "first_line", "opened_when_shown", "view"]

_STATIC = Path(__file__).parent.parent / "static"
_WIRE_ONLY = frozenset({"can_approve", "queued", "view_key"})  # synced for the browser, not offered in dir()


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
    _present = synced(ViewTraits, "_present")

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
        # the parts, each given what it needs of the view (late-bound: the stream shown now, send)
        shown, message = self._shown_stream, self._message
        self._changed: list[Callable[[], None]] = []  # on_changed's listeners
        self._inspector = Inspector(message, shown)
        self._sync = OpSync(message, lambda: self._stream.loop, self._inspector.catch_up)
        self._labels = LabelsFromView(shown, self._refresh, self._sync.flush)
        self._transcripts = Transcripts(
            self._transcript, lambda: self.send_state(["_final", "streaming"]), lambda: self._stream.ended
        )
        self._answers = Answers(
            message, shown, self.stop, sync=self._sync, inspector=self._inspector, labels=self._labels
        )
        # the run's first op (its root's add) waits in the batch until the view watches the stream
        making = Watcher(lambda op, _folding: self._sync.add(op, True), _nothing, _nothing, _nothing)
        self._stream = RunStream(
            prompt=prompt, suggest=suggest_call, draw=drawer(renderers) if renderers else None, watcher=making
        )
        self._watch(self._stream)
        self._sync.changed()
        self.prompt = prompt  # what was asked, if anyone did (kept for batches and DataFrames)
        self.on_msg(self._on_browser_message)

    def _shown_stream(self) -> RunStream:
        return self._stream

    def _message(self, msg: Any) -> None:
        """A custom message to the browser, through ``send`` as it is now."""
        self.send(msg)

    def _watch(self, stream: RunStream) -> None:
        """Show ``stream``: its ops, chunks, controls and settling come to this view."""
        stream.watcher = Watcher(self._sync.add, self._sync.changed, self._attached, self._settled)
        stream.on_streaming(lambda on: self._streamed(stream, on))
        self.streaming = stream.streaming
        self.can_approve = stream.controls is not None

    def _streamed(self, stream: RunStream, on: bool) -> None:
        if stream is self._stream:
            self.streaming = on

    @property
    def stream(self) -> RunStream:
        """The run this view shows, streaming in the background (no widget in it)."""
        return self._stream

    def on_changed(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` whenever the run changes outside its stream (a label given, a trace
        read): a grid showing the run's tile draws it again."""
        self._changed.append(listener)

    def on_streaming(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(streaming)`` whenever this view's run starts or stops streaming (a Batch
        counts its running views by it)."""
        self.observe(lambda change: listener(bool(change["new"])), names="streaming")

    # ---- the browser's model ----------------------------------------------------------------------

    def open(self) -> None:
        """Open the comm (the browser's model), unless the view was made to open when shown or closed."""
        if not self._open_when_shown and not self._closed:
            super().open()

    def show_in_browser(self) -> None:
        """Give the view its browser model now (it draws the run so far: the browser asks for it): a
        view made off the page (``opened_when_shown``) as a gallery or an experiment puts it on one."""
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

    def export_otel(self, endpoint: str | Path, **options: Any) -> Any:
        """Send this run as OpenTelemetry GenAI spans to ``endpoint`` (Phoenix, MLflow, Langfuse...;
        or a file path, for OTLP/JSON that ``mn.view(path)`` reads): see ``mn.export_otel``."""
        return self._stream.export_otel(endpoint, **options)

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
        self._transcripts.publish()
        return result

    def __await__(self) -> Generator[Any, None, RunResult]:
        result = yield from self._stream.__await__()
        self._transcripts.publish()
        return result

    def start(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work()`` on the kernel's event loop (or a private one in a plain script): a Batch
        starts a client's run in its view so."""
        self._stream.start(work)

    def inspector_entries(self, start: int = 0) -> list[dict[str, Any]]:
        """The inspector's rows in Python, one per chunk folded in so far: index, arrival ms, type,
        from, nesting path, the view nodes it changed."""
        return entries(self._stream, start)

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
        if kept.run is self._stream.run:
            with self.hold_sync():
                self.title, self.subtitle = title, subtitle
            return
        self._stream.release()  # the run shown before lets go of this view
        self._stream = RunStream.of(kept)
        self._watch(self._stream)
        final = orjson.dumps(
            self._sync.restart(kept.run.snapshot(), another_run=True)
        ).decode()  # its ops are dropped
        with self.hold_sync():
            self.title, self.subtitle, self._final = title, subtitle, final
        self._inspector.relist()

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
            self._sync.flush()
        for listener in list(self._changed):
            listener()

    def present(self, on: bool = True) -> None:
        """Present mode, for a projector (``on=False``: back to the usual view): larger type, the
        sticky header compact, and the label row, token counts and raw JSON hidden."""
        self._present = bool(on)

    def note(self, step: int, text: str | None) -> None:
        """A teacher's note on step ``step`` (numbered from 1, as the view shows "Step 1"; empty or
        None clears it), shown under the step's divider as text. It is kept in the recording
        (``save()``: a line of its own), so ``mn.replay(path)`` and the export page show it too."""
        self._stream.note(step, text)
        self._refresh()

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

    # ---- the browser's messages (answers.py) and the settled run ------------------------------------

    def _on_browser_message(self, widget: Any, content: Any, buffers: Any) -> None:
        """A message from the browser. What goes wrong is shown in the view, not only in the kernel log."""
        try:
            self._handle_browser_message(content)
        except Exception as error:
            kind = content.get("t") if isinstance(content, dict) else None
            self.run.note("error", f"{kind or 'a browser message'} failed: {error}")
            self._sync.flush()

    def _handle_browser_message(self, content: Any) -> None:
        """``content`` as the browser message it is (widget/contract.py), answered; else ignored. A
        message of a known kind but not of its shape raises (the view says what is wrong)."""
        msg = browser_message(content)
        if msg is not None:
            self._answer(msg)

    def _answer(self, msg: BrowserMessage) -> None:
        """A browser message, answered (a replay's controls are answered by ``ReplayView``)."""
        self._answers.answer(msg)

    def _settled(self) -> None:
        """The run settled: its final state and transcript, to be sent again from the cell that waits
        (``Transcripts.publish``). The stream then turns ``streaming`` off and marks itself ended:
        what ``wait()`` and ``await`` wait for."""
        self._final = orjson.dumps(self._sync.snapshot(self.run.snapshot())).decode()
        self._transcripts.settled()

    # ---- display --------------------------------------------------------------------------------

    def _transcript(self) -> str:
        """The run as static, script-free HTML: what GitHub, nbviewer and nbconvert show."""
        return render_html(self.result, self.title, self.subtitle, [self.view_key])

    def _ipython_display_(self) -> None:
        """The widget, then its transcript as an output of its own. Only the transcript is updated when
        the run ends, so the live widget is never drawn again (a reader's open form or panel stays);
        the widget's CSS hides the transcript wherever the widget itself shows."""
        self.show_in_browser()
        self._transcripts.show(super()._repr_mimebundle_() or {})

    def to_html(self, path: str | Path | None = None) -> str:
        """One self-contained, offline page of the run (the widget's own renderer, with the replay
        bar: play, pause, step, the scrubber), written to ``path``."""
        from .export import page_html

        page = page_html(self.run, self.title, self.subtitle, self.recording, present=self._present)
        if path is not None:
            Path(path).write_text(page)
        return page

    def __dir__(self) -> list[str]:
        """Tab completion: the view's own API, not the many names of ipywidgets and traitlets, nor the
        traits only the browser reads (they still work: ``view.observe``, ``view.layout``)."""
        own = [n for c in type(self).__mro__ if c.__module__.startswith("mastra_notebook") for n in vars(c)]
        public = sorted(
            {n for n in own if not n.startswith("_")} - set(dir(anywidget.AnyWidget)) - _WIRE_ONLY
        )
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


def _nothing() -> None:
    """A watcher's call that has nothing to do (a view's stream being made)."""
