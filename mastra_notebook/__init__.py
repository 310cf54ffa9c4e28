"""Watch, understand and keep Mastra agent and workflow runs in Jupyter.

A short guide (``help(mn.<name>)`` for any of them):

Watch a run
    ``client = mn.MastraClient()``; ``view = client.agent("weather").stream("...")`` shows a live
    view; ``result = view.wait()`` (or ``await view``) gives the finished :class:`RunResult`.
    ``view.approve()``, ``view.decline()``, ``view.resume(data)`` and ``view.stop()`` act on the run.
    In a plain script, ``agent.stream(..., view=False)`` (or ``mn.stream(source)``) gives a
    :class:`RunStream`: the same run and calls with no widget (no ipywidgets imported).
Read a recording
    ``mn.view(source)`` draws any recording or iterable of chunks; ``mn.replay(path)`` plays one at
    its recorded pace; ``mn.collect(source)`` goes straight to a :class:`RunResult`; ``mn.Run`` is
    the bare reducer (``run.feed(chunk)``, ``run.result``).
Iterate on prompts and tools
    ``mn.tool(fn)`` makes a Python function a tool the agent can call; ``agent.stream_many(prompts)``
    runs a batch; ``mn.compare(a, b)`` sets runs side by side; ``mn.to_dataframe(runs)`` gives rows.
    A tool may return a DataFrame or a figure: its card draws it (``call.value`` keeps it);
    ``mn.renderer(name, fn)`` draws any tool's result as data.
Score runs
    ``agent.stream(prompt, scorers=["completeness-scorer", fn])`` scores a run with Mastra's scorers
    (by id: ``client.scorers()``) and Python ones (``mn.scorer(fn, threshold=...)``):
    ``result.scores``, ``result.score(name)``, a :class:`Score` each. On the server:
    ``client.create_dataset(name, items)``, ``dataset.experiment(agent=..., scorers=[...])``,
    ``dataset.compare(a, b)``. ``view.label(thumbs="up", score=4, comment=...)`` (or the view's
    footer) is a person's label: ``result.feedback``, a :class:`Feedback`, sent to Mastra's
    feedback route with the run's trace.
What a run holds
    :class:`RunResult` with its :class:`Step`, :class:`ToolCall`, :class:`Usage`, :class:`Timing`,
    :class:`Cost` and :class:`ErrorInfo`.

Chunk-level names (``Chunk``, ``parse_chunk``, ``aread_chunks``, ...) live in
:mod:`mastra_notebook.chunks`.
"""

from __future__ import annotations

from importlib import metadata as _metadata
from typing import TYPE_CHECKING, Any

from .core.cost import Cost
from .core.display import draw_with
from .core.ingest import collect, read_chunks
from .core.result import Decision, ErrorInfo, RunResult, Step, ToolCall, Tripwire, Usage, draw_html_with
from .core.run import Run
from .core.timing import StepTiming, Timing
from .core.waiting import suggest_with
from .render.renderers import registered_drawer
from .runs.experiment import Experiment, load_experiment, shown_with
from .widget.suggest import suggest_call

if TYPE_CHECKING:  # what the lazy names below are, for type checkers and editors
    from .analysis.compare import compare
    from .analysis.dataframe import to_dataframe
    from .client.mastra import MastraClient
    from .client.tools import tool
    from .client.trace import TraceUnavailable
    from .client.transport import MastraError
    from .core.feedback import Feedback
    from .core.recording import Recording
    from .core.score import Score, scorer
    from .core.trace import Span, Trace
    from .render.renderers import renderer
    from .runs.stream import RunStream, stream
    from .widget.replay import ReplayView, replay
    from .widget.streamview import StreamView, view

try:  # one source, js/package.json, written into the installed metadata by the build
    __version__ = _metadata.version("mastra-notebook")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"


def _transcript_html(result: RunResult) -> str:
    """A result's notebook display: the render layer's transcript, loaded on first display."""
    from .render.transcript import render_html

    return render_html(result)


draw_html_with(_transcript_html)  # core draws nothing itself: the render layer is wired here
suggest_with(suggest_call)  # core names no call: the notebook words what answers a wait
draw_with(registered_drawer())  # core draws no tool result as data: mn.renderer's registry does


def _experiment_grid(experiment: Experiment, page_tiles: int) -> Any:
    """An experiment's live grid: the widget layer, loaded when an experiment is first shown."""
    from .widget.experiment import Grid

    return Grid(experiment, page_tiles)


def _experiment_html(experiment: Experiment) -> str:
    """An experiment's static HTML (a saved notebook's transcript of its grid)."""
    from .widget.experiment import static_html

    return static_html(experiment)


shown_with(_experiment_grid, _experiment_html)  # an experiment runs with no widget: this shows it

_LAZY = {  # widget and HTTP layers load on first use: `import mastra_notebook` stays light
    "StreamView": "widget.streamview",
    "RunStream": "runs.stream",
    "stream": "runs.stream",
    "view": "widget.streamview",
    "MastraClient": "client.mastra",
    "MastraError": "client.transport",
    "tool": "client.tools",
    "renderer": "render.renderers",
    "replay": "widget.replay",
    "ReplayView": "widget.replay",
    "compare": "analysis.compare",
    "to_dataframe": "analysis.dataframe",
    "Recording": "core.recording",
    "Feedback": "core.feedback",
    "Score": "core.score",
    "scorer": "core.score",
    "Span": "core.trace",
    "Trace": "core.trace",
    "TraceUnavailable": "client.trace",
}
# Chunk-level names moved to mastra_notebook.chunks; still found here so older notebooks run.
_MOVED = {"Chunk", "InvalidChunk", "UnknownChunk", "parse_chunk", "aread_chunks"}


def __dir__() -> list[str]:
    """The public API, the lazily imported names included (tab completion, ``dir(mn)``)."""
    return sorted({*__all__, "__version__", *(n for n in globals() if n.startswith("__"))})


def __getattr__(name: str) -> Any:
    from importlib import import_module

    if name in _MOVED:
        return getattr(import_module(".chunks", __name__), name)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mastra_notebook' has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = [
    "Cost",
    "Decision",
    "ErrorInfo",
    "Experiment",
    "Feedback",
    "MastraClient",
    "MastraError",
    "Recording",
    "ReplayView",
    "Run",
    "RunResult",
    "RunStream",
    "Score",
    "Span",
    "Step",
    "StepTiming",
    "StreamView",
    "Timing",
    "ToolCall",
    "Trace",
    "TraceUnavailable",
    "Tripwire",
    "Usage",
    "collect",
    "compare",
    "load_experiment",
    "read_chunks",
    "renderer",
    "replay",
    "scorer",
    "stream",
    "to_dataframe",
    "tool",
    "view",
]
