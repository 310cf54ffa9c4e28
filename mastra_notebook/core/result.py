"""The finished (or unfinished) run as a Python object: the same from a server, a file or a list."""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, SerializerFunctionWrapHandler, WrapSerializer

from .cost import Cost
from .timing import Timing
from .values import capped, depth_marker

Status = Literal["running", "finished", "error", "aborted", "tripwire", "suspended", "incomplete"]

# pydantic writes about 255 levels of nesting at most, counting nested runs and the values in them.
# A result keeps every level; what it writes is cut below these depths, with a marker.
RUNS_WRITTEN = 48  # nested runs
VALUE_DEPTH_WRITTEN = 100  # levels of one value (tool args, results, outputs, data)
_runs_deep: ContextVar[int] = ContextVar("runs_deep", default=0)


def _write_value(value: Any, handler: SerializerFunctionWrapHandler) -> Any:
    return handler(capped(value, VALUE_DEPTH_WRITTEN))


def _write_nested_run(value: Any, handler: SerializerFunctionWrapHandler) -> Any:
    depth = _runs_deep.get()
    if value is not None and depth >= RUNS_WRITTEN:
        return {"status": value.status, "text": value.text, "not_written": depth_marker("nested run")}
    token = _runs_deep.set(depth + 1)
    try:
        return handler(value)
    finally:
        _runs_deep.reset(token)


Value = Annotated[Any, WrapSerializer(_write_value)]


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Usage(_Result):
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    reasoning_tokens: int = 0
    cached_input_tokens: int = 0


class ErrorInfo(_Result):
    message: str
    name: str | None = None
    status_code: int | None = None
    details: Value = None


class Tripwire(_Result):
    reason: str
    processor_id: str | None = None
    metadata: Value = None


class Decision(_Result):
    """How a person answered a tool call or workflow step that waited for them."""

    action: Literal["approve", "decline", "resume"]
    by: Literal["view", "python"]  # a click in the widget, or a call such as view.approve()
    at: datetime | None = None
    waited: float | None = None  # seconds from the request to the decision: a human wait


def _waited(decision: Decision | None) -> float:
    if decision is None or decision.waited is None:
        return 0.0
    return decision.waited


class ToolCall(_Result):
    tool_call_id: str
    tool_name: str
    args: Value = None
    args_text: str = ""
    status: str = "running"
    result: Value = None
    error: ErrorInfo | None = None
    outputs: list[Value] = Field(default_factory=list)
    children: NestedRun = None
    approval: Value = None
    suspend_payload: Value = None
    denied_reason: str | None = None
    decision: Decision | None = None  # who approved, declined or resumed it, and when
    continue_with: str | None = None  # while it waits: the call that answers it (view.approve(...))
    provider_executed: bool = False  # run by the provider (web search, code execution), not by Mastra
    ran_in: str | None = None  # "notebook": a client tool (agent.stream(tools=...)) run in the kernel
    orphan: bool = False  # its output or result came without the call itself in this stream
    started_at: datetime | None = None
    called_at: datetime | None = None  # its arguments complete (streamed by the model before): it runs
    finished_at: datetime | None = None

    @property
    def tool_time(self) -> float | None:
        """Seconds the tool itself took: from the call (its arguments complete) to its end, less the
        time a person decided."""
        start = self.called_at or self.started_at
        if start is None or self.finished_at is None:
            return None
        return (self.finished_at - start).total_seconds() - _waited(self.decision)

    def __repr__(self) -> str:
        decided = f", {self.decision.action} by {self.decision.by}" if self.decision else ""
        return f"ToolCall({self.tool_name!r}, {self.status}, id={self.tool_call_id!r}{decided})"

    __str__ = __repr__


class Step(_Result):
    """One model step, as Mastra's StepResult: the text, reasoning and tool calls made in it."""

    index: int
    text: str = ""
    reasoning_text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage | None = None
    warnings: list[Value] = Field(default_factory=list)
    model_id: str | None = None
    provider: str | None = None
    response_id: str | None = None
    started_at: datetime | None = None
    first_token_at: datetime | None = None  # its streaming span: first to last delta of its parts
    last_token_at: datetime | None = None
    finished_at: datetime | None = None


class Source(_Result):
    source_type: str | None = None
    id: str | None = None
    url: str | None = None
    title: str | None = None
    media_type: str | None = None
    filename: str | None = None
    citations: list[str] = Field(default_factory=list)  # the passages of the text that cite it


class File(_Result):
    model_config = ConfigDict(extra="forbid", ser_json_bytes="base64", val_json_bytes="base64")

    media_type: str | None = None
    data: bytes = b""
    name: str | None = None


class BackgroundTask(_Result):
    task_id: str
    tool_name: str | None = None
    tool_call_id: str | None = None
    status: str
    history: list[str] = Field(default_factory=list)
    outputs: list[Value] = Field(default_factory=list)
    result: Value = None
    error: ErrorInfo | None = None


class Goal(_Result):
    evaluation: Value = None
    should_continue: bool = False


class WorkflowStep(_Result):
    step_name: str
    status: str
    input: Value = None
    output: Value = None
    error: ErrorInfo | None = None
    outputs: list[Value] = Field(default_factory=list)
    suspend_payload: Value = None
    decision: Decision | None = None  # who resumed it, and when
    continue_with: str | None = None  # while it waits: view.resume(..., step=...)
    children: NestedRun = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


class Workflow(_Result):
    workflow_id: str | None = None
    status: str = "running"
    steps: list[WorkflowStep] = Field(default_factory=list)
    result: Value = None


class InvalidLine(_Result):
    raw: str
    error: str


class Part(_Result):
    """One part of the run, in arrival order: ``kind`` plus what locates or holds it."""

    kind: str
    text: str | None = None
    tool_call_id: str | None = None
    type: str | None = None
    value: Value = None


# For hosts that reset the browser's styles (marimo); scoped to the transcript. GitHub drops <style>.
_HOST_RESET = (
    "<style>.mastra-notebook-transcript :where(ul){list-style:disc outside;padding-left:2em}"
    ".mastra-notebook-transcript :where(ol){list-style:decimal outside;padding-left:2em}"
    ".mastra-notebook-transcript :where(h1,h2,h3,h4,h5,h6){font-weight:600}"
    ".mastra-notebook-transcript :where(strong,b){font-weight:bolder}</style>"
)


class RunResult(_Result):
    run_id: str | None = None
    agent_id: str | None = None
    status: Status = "running"
    text: str = ""
    reasoning_text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None
    object: Value = None
    sources: list[Source] = Field(default_factory=list)
    files: list[File] = Field(default_factory=list)
    warnings: list[Value] = Field(default_factory=list)
    error: ErrorInfo | None = None
    tripwire: Tripwire | None = None
    background_tasks: list[BackgroundTask] = Field(default_factory=list)
    goals: list[Goal] = Field(default_factory=list)
    workflow: Workflow | None = None
    parts: list[Part] = Field(default_factory=list)
    provider_events: list[Value] = Field(default_factory=list)  # lifecycle ``custom`` chunks of providers
    chunk_count: int = 0
    invalid: list[InvalidLine] = Field(default_factory=list)
    started_at: datetime | None = None
    first_token_at: datetime | None = None
    finished_at: datetime | None = None
    timing: Timing = Field(default_factory=Timing)  # time to first token, tokens/s, tool time, total
    cost: Cost = Field(default_factory=Cost)  # USD, per step and in all, from genai-prices

    @property
    def duration(self) -> float | None:
        """Seconds from the first chunk to the end, when both are known."""
        if self.started_at is None or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()

    @property
    def human_wait(self) -> float:
        """Seconds this run waited for people to approve, decline or resume (not counted as tool
        time, nor in tokens/s)."""
        steps = self.workflow.steps if self.workflow else []
        return sum(_waited(c.decision) for c in self.tool_calls) + sum(_waited(s.decision) for s in steps)

    def tool_call(self, tool_call_id: str) -> ToolCall:
        """The latest tool call with this id (at this level: providers reuse ids across steps)."""
        for call in reversed(self.tool_calls):
            if call.tool_call_id == tool_call_id:
                return call
        raise KeyError(tool_call_id)

    def __repr__(self) -> str:
        """One line: the fields are many and long (``result.text``, ``result.model_dump()`` for all)."""
        calls = ", ".join(f"{c.tool_name} {c.status}" for c in self.tool_calls[:5])
        if len(self.tool_calls) > 5:
            calls += f", … {len(self.tool_calls) - 5} more"
        usage = self.usage
        bits = [
            self.status,
            f"text={len(self.text):,} characters",
            f"tool_calls={len(self.tool_calls)}" + (f" [{calls}]" if calls else ""),
            f"usage=in {usage.input_tokens:,} / out {usage.output_tokens:,}",
        ]
        if self.error is not None:
            bits.append(f"error={self.error.message[:80]!r}")
        if self.run_id:
            bits.append(f"run_id={self.run_id!r}")
        return f"RunResult({', '.join(bits)})"

    __str__ = __repr__

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython's text view
        printer.text(repr(self))

    def _repr_html_(self) -> str:
        """The same static transcript a view saves in a notebook, drawn from the same node tree."""
        from .transcript import render_html  # transcript imports this module

        return render_html(self)

    def _mime_(self) -> tuple[str, str]:
        """marimo's display: the transcript, with what a browser's own stylesheet gives said again
        (marimo's page loads Tailwind's reset: lists without markers, headings at normal weight)."""
        return "text/html", _HOST_RESET + self._repr_html_()

    _view: list[Any] | None = PrivateAttr(default=None)  # the view's snapshot ops it was read with


def keep_view(result: RunResult, ops: list[Any]) -> RunResult:
    """Remember the node tree (snapshot ops) ``result`` was read from: its transcript draws it."""
    result._view = ops
    return result


def view_snapshot(result: RunResult) -> list[Any] | None:
    """The snapshot ops ``result`` was read from, if it came from a run (not from JSON)."""
    return result._view


NestedRun = Annotated[RunResult | None, WrapSerializer(_write_nested_run)]
ToolCall.model_rebuild()
WorkflowStep.model_rebuild()
