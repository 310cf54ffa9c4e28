"""Watch, understand and keep Mastra agent and workflow runs in Jupyter.

The top level is a dozen verbs and entry points (``help(mn.<name>)`` for any of them):

======================  ===========================================================================
``MastraClient()``      a Mastra server: ``.agent(id)``, ``.workflow(id)``, ``.dataset(name)``, ...
``view(source)``        a live view of a recording, bytes or an iterable of chunks
``replay(path)``        a recording played at its pace (``pause_at="tool-call"`` for a lesson)
``collect(source)``     a recording straight to a ``RunResult``
``read_chunks(source)`` a recording's chunks, one by one
``Run()``               the bare reducer: ``run.feed(chunk)``, ``run.result``
``tool(fn)``            a Python function as a tool the agent calls (run in the kernel)
``scorer(fn)``          a Python scorer (``threshold=`` for pass or fail)
``renderer(name, fn)``  a tool's result drawn as data (a DataFrame, a figure)
``compare(*runs)``      runs side by side, step by step, the first divergence marked
``to_dataframe(runs)``  rows of runs (a batch, an experiment, views, results, recordings)
``load_experiment(p)``  a saved experiment, reopened without a server
``export_otel(runs, u)`` runs as OpenTelemetry GenAI spans, to Phoenix, MLflow, Langfuse (or a file)
``read_otel(path)``     every run of an OpenTelemetry export (OTLP/JSON) as a ``RunResult``
``stream(source)``      ``view(source)`` with no widget: a ``RunStream`` for a plain script
======================  ===========================================================================

plus the errors to catch, ``MastraError`` (a request the server refused) and ``TraceUnavailable``,
and two namespaces: ``mn.results``, the types of what calls give back (``RunResult``, ``Step``,
``ToolCall``, ``Usage``, ``Score``, ... and the live ``StreamView``, ``Gallery``, ``Experiment``,
``Chat``, ``Agent``, ``Dataset``, ...), and ``mn.chunks``, the chunk-level names (``Chunk``,
``parse_chunk``, ``aread_chunks``, ...). Names that lived at the top level before (``mn.RunResult``,
``mn.StreamView``, ``mn.Chunk``, ...) are still found there.

Watch a run
    ``client = mn.MastraClient()``; ``view = client.agent("weather").stream("...")`` shows a live
    view; ``result = view.wait()`` (or ``await view``) gives the finished ``RunResult``.
    ``view.approve()``, ``view.decline()``, ``view.resume(data)`` and ``view.stop()`` act on the run.
    Options are snake_case and become Mastra's body (``instructions=``, ``model_settings=``, ...);
    an unknown one raises before anything is sent, naming the closest.
    In a plain script, ``agent.stream(..., view=False)`` (or ``mn.stream(source)``) gives a
    ``RunStream``: the same run and calls with no widget (no ipywidgets imported).
Iterate on prompts and tools
    ``agent.stream(prompt, tools=[fn])``, ``agent.stream_many(prompts)`` (a gallery),
    ``agent.chat()`` (turn after turn), ``agent.experiment(inputs, variants={...})`` (every input
    with every variant: ``exp.summary()``, ``exp.compare(a, b)``).
Score runs
    ``agent.stream(prompt, scorers=["completeness-scorer", fn])`` scores a run with Mastra's scorers
    (by id: ``client.scorers()``) and Python ones (``mn.scorer(fn, threshold=...)``):
    ``result.scores``, ``result.score(name)``. On the server: ``client.create_dataset(name, items)``,
    ``dataset.experiment(agent=..., scorers=[...])``, ``dataset.compare(a, b)``.
    ``view.label(thumbs="up", score=4, comment=...)`` is a person's label (``result.feedback``).
"""

from __future__ import annotations

from importlib import metadata as _metadata
from typing import TYPE_CHECKING, Any

from . import chunks, results
from .analysis.agreement import agreed_with
from .core.display import draw_with
from .core.ingest import collect, read_chunks, read_otel
from .core.result import draw_html_with
from .core.run import Run
from .core.waiting import suggest_with
from .render.renderers import registered_drawer
from .results import RunResult as RunResult
from .runs.experiment import Experiment, load_experiment, shown_with
from .runs.review import Review, reviewed_with
from .widget.suggest import suggest_call

if TYPE_CHECKING:  # what the lazy and moved names are (`as`: re-exported), for type checkers and editors
    from .analysis.compare import compare
    from .analysis.dataframe import to_dataframe
    from .chunks import Chunk as Chunk
    from .chunks import InvalidChunk as InvalidChunk
    from .chunks import UnknownChunk as UnknownChunk
    from .chunks import aread_chunks as aread_chunks
    from .chunks import parse_chunk as parse_chunk
    from .client.mastra import MastraClient
    from .client.tools import tool
    from .client.transport import MastraError
    from .core.score import scorer
    from .core.trace import TraceUnavailable
    from .otel import export_otel
    from .render.renderers import renderer
    from .results import Cost as Cost
    from .results import Decision as Decision
    from .results import ErrorInfo as ErrorInfo
    from .results import Feedback as Feedback
    from .results import Recording as Recording
    from .results import ReplayView as ReplayView
    from .results import RunStream as RunStream
    from .results import Score as Score
    from .results import Span as Span
    from .results import Step as Step
    from .results import StepTiming as StepTiming
    from .results import StreamView as StreamView
    from .results import Timing as Timing
    from .results import ToolCall as ToolCall
    from .results import Trace as Trace
    from .results import Tripwire as Tripwire
    from .results import Usage as Usage
    from .runs.stream import stream
    from .widget.replay import replay
    from .widget.streamview import view

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
    from .widget.experiment_view import Grid

    return Grid(experiment, page_tiles)


def _experiment_html(experiment: Experiment) -> str:
    """An experiment's static HTML (a saved notebook's transcript of its grid)."""
    from .widget.experiment_view import static_html

    return static_html(experiment)


shown_with(_experiment_grid, _experiment_html)  # an experiment runs with no widget: this shows it


def _review_view(review: Review) -> Any:
    """A review queue's view: the widget layer, loaded when a review is first shown."""
    from .widget.review import ReviewView

    return ReviewView(review)


reviewed_with(_review_view)


def _agreement_view(agreement: Any) -> Any:
    """An experiment's agreement's view (a button reviews each disagreeing run): the widget layer."""
    from .widget.agreement import AgreementView

    return AgreementView(agreement)


agreed_with(_agreement_view)

_LAZY = {  # widget and HTTP layers load on first use: `import mastra_notebook` stays light
    "stream": "runs.stream",
    "view": "widget.streamview",
    "MastraClient": "client.mastra",
    "MastraError": "client.transport",
    "tool": "client.tools",
    "renderer": "render.renderers",
    "replay": "widget.replay",
    "compare": "analysis.compare",
    "to_dataframe": "analysis.dataframe",
    "scorer": "core.score",
    "TraceUnavailable": "core.trace",
    "export_otel": "otel",
}
# Types moved to mastra_notebook.results, chunk-level names to mastra_notebook.chunks: still found
# here (not listed by dir()), so older notebooks run.
_RESULTS = ("Cost", "Decision", "ErrorInfo", "Feedback", "Recording", "ReplayView", "Rubric", "RunResult",
            "RunStream", "Score", "Span", "Step", "StepTiming", "StreamView", "Timing", "ToolCall",
            "Trace", "Tripwire", "Usage")  # fmt: skip
_MOVED = {**dict.fromkeys(chunks.__all__, chunks), **dict.fromkeys(_RESULTS, results)}


def __dir__() -> list[str]:
    """The public API, the lazily imported names included (tab completion, ``dir(mn)``)."""
    return sorted({*__all__, "__version__", *(n for n in globals() if n.startswith("__"))})


def __getattr__(name: str) -> Any:
    from importlib import import_module

    moved = _MOVED.get(name)
    if moved is not None:
        return getattr(moved, name)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mastra_notebook' has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = [  # the top level: a dozen verbs and entry points, the errors to catch, two namespaces
    "MastraClient",
    "MastraError",
    "Run",
    "TraceUnavailable",
    "chunks",
    "collect",
    "compare",
    "export_otel",
    "load_experiment",
    "read_chunks",
    "read_otel",
    "renderer",
    "replay",
    "results",
    "scorer",
    "stream",
    "to_dataframe",
    "tool",
    "view",
]
