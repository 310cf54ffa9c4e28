"""The types of what this package gives back: for type hints, ``isinstance`` and ``help()``.

The calls of ``mastra_notebook`` return them; only a :class:`Rubric` (what ``exp.review`` asks a
person for) is made by hand, and a dict of its fields does as well.

A run, as data (pydantic models; JSON keys snake_case)
    :class:`RunResult` (``view.result``, ``view.wait()``, ``mn.collect(...)``) with its
    :class:`Step`, :class:`ToolCall`, :class:`Usage`, :class:`Timing` (:class:`StepTiming` per
    step), :class:`Cost`, :class:`ErrorInfo`, :class:`Tripwire` and :class:`Decision` (a person's
    approval or decline of a tool call); :class:`Score` (``result.scores``) and :class:`Feedback`
    (``result.feedback``, a person's label).
Mastra's trace of a run
    :class:`Trace` of :class:`Span` (``view.trace()``); :class:`TraceUnavailable` (raised) says what
    to turn on on a server that keeps no traces.
What a call gives back, live
    :class:`StreamView` (``agent.stream``, ``workflow.stream``, ``mn.view``), :class:`RunStream`
    (the same with no widget: ``agent.stream(..., view=False)``, ``mn.stream``), :class:`ReplayView`
    (``mn.replay``), :class:`Gallery` (``agent.stream_many``), :class:`Experiment`
    (``agent.experiment``, ``dataset.experiment``, ``mn.load_experiment``), :class:`Chat`
    (``agent.chat``) whose ``history`` holds a :class:`TurnResult` per turn (with its :class:`TurnMemory`),
    :class:`Conversation` (``agent.thread(id)``), :class:`Comparison` (``mn.compare``),
    :class:`Recording` (``view.recording``), and the server's objects: :class:`Agent`,
    :class:`Workflow`, :class:`WorkflowRun` and :class:`Dataset`.
What a server lists (frozen records: attributes, a repr, and the server's own keys, ``record["modelId"]``)
    :class:`AgentRecord` (``client.agents()``, by id), :class:`AgentInfo` (``agent.info()``),
    :class:`WorkflowRecord` (``client.workflows()``), :class:`WorkflowRunRecord` (``workflow.runs()``,
    ``run.info()``), :class:`ScorerRecord` (``client.scorers()``), :class:`ThreadRecord`
    (``agent.threads()``), :class:`DatasetRecord` (``client.datasets()``) and :class:`ExperimentRecord`
    (``dataset.experiments()``).

The data types load with the package; the live ones (widgets, HTTP) on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core.cost import Cost
from .core.feedback import Feedback
from .core.records import (
    AgentRecord,
    DatasetRecord,
    ExperimentRecord,
    ScorerRecord,
    ThreadRecord,
    WorkflowRecord,
    WorkflowRunRecord,
)
from .core.result import Decision, ErrorInfo, RunResult, Step, ToolCall, Tripwire, Usage
from .core.score import Score
from .core.timing import StepTiming, Timing

if TYPE_CHECKING:  # what the lazy names below are, for type checkers and editors
    from .analysis.compare import Comparison
    from .analysis.review import Rubric
    from .client.agents import Agent
    from .client.catalogue import AgentInfo
    from .client.chat import Chat, TurnResult
    from .client.datasets import Dataset
    from .client.workflows import Workflow, WorkflowRun
    from .core.recording import Recording
    from .core.trace import Span, Trace, TraceUnavailable
    from .core.turn_memory import TurnMemory
    from .runs.experiment import Experiment
    from .runs.stream import RunStream
    from .widget.conversation import Conversation
    from .widget.gallery import Gallery
    from .widget.replay import ReplayView
    from .widget.streamview import StreamView

LAZY = {  # name -> the module that defines it, loaded on first use (widgets, HTTP, traces)
    "Comparison": "analysis.compare",
    "Rubric": "analysis.review",
    "Chat": "client.chat",
    "TurnResult": "client.chat",
    "Dataset": "client.datasets",
    "DatasetExperiment": "client.datasets",  # the old name of a dataset's experiment: an Experiment
    "Agent": "client.agents",
    "AgentInfo": "client.catalogue",
    "Workflow": "client.workflows",
    "WorkflowRun": "client.workflows",
    "TurnMemory": "core.turn_memory",
    "Recording": "core.recording",
    "Span": "core.trace",
    "Trace": "core.trace",
    "TraceUnavailable": "core.trace",
    "Conversation": "widget.conversation",
    "Experiment": "runs.experiment",
    "RunStream": "runs.stream",
    "Gallery": "widget.gallery",
    "ReplayView": "widget.replay",
    "StreamView": "widget.streamview",
}


def __getattr__(name: str) -> Any:
    from importlib import import_module

    module = LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mastra_notebook.results' has no attribute {name!r}")
    return getattr(import_module(f"mastra_notebook.{module}"), name)


def __dir__() -> list[str]:
    return sorted({*__all__, *(n for n in globals() if n.startswith("__"))})


__all__ = [
    "Agent",
    "AgentInfo",
    "AgentRecord",
    "Chat",
    "Comparison",
    "Conversation",
    "Cost",
    "Dataset",
    "DatasetRecord",
    "Decision",
    "ErrorInfo",
    "Experiment",
    "ExperimentRecord",
    "Feedback",
    "Gallery",
    "Recording",
    "ReplayView",
    "Rubric",
    "RunResult",
    "RunStream",
    "Score",
    "ScorerRecord",
    "Span",
    "Step",
    "StepTiming",
    "StreamView",
    "ThreadRecord",
    "Timing",
    "ToolCall",
    "Trace",
    "TraceUnavailable",
    "Tripwire",
    "TurnMemory",
    "TurnResult",
    "Usage",
    "Workflow",
    "WorkflowRecord",
    "WorkflowRun",
    "WorkflowRunRecord",
]
