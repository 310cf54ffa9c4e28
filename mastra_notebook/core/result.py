"""The finished (or unfinished) run as a Python object: the same from a server, a file or a list."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from datetime import datetime
from html import escape
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, PrivateAttr, SerializerFunctionWrapHandler, WrapSerializer

from .cost import Cost
from .documented import Documented
from .feedback import Feedback
from .request import ModelRequest
from .score import Score, named
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


class _Result(Documented):
    """A part of a run's result."""


class Usage(_Result):
    """Tokens, as the provider reported them (a step's, or a run's total)."""

    input_tokens: int = 0
    """Tokens the model read: the prompt, the history and the tool results sent back to it."""
    output_tokens: int = 0
    """Tokens the model wrote: text, reasoning and tool-call arguments."""
    total_tokens: int = 0
    """All tokens, as the provider counts them (input plus output, in most)."""
    reasoning_tokens: int = 0
    """Of the output tokens, those spent reasoning (0 where the provider does not say)."""
    cached_input_tokens: int = 0
    """Of the input tokens, those read from the provider's prompt cache (billed less)."""
    cache_creation_input_tokens: int = 0
    """Of the input tokens, those written to the provider's prompt cache (Anthropic bills them more):
    Mastra's ``cacheCreationInputTokens``."""


class ErrorInfo(_Result):
    """Why a run, a tool call, a workflow step or a background task failed."""

    message: str
    """What went wrong, as the server or the tool said it."""
    name: str | None = None
    """The error's class or kind (``TypeError``, ``APICallError``...), when given."""
    status_code: int | None = None
    """The HTTP status of a failed request (400, 429, 500...), when the error came from one."""
    details: Value = None
    """Anything else the error carried (the cause, the provider's response body), as sent."""


class Tripwire(_Result):
    """A guardrail that stopped the run: which one, and why."""

    reason: str
    """Why a guardrail (an input or output processor) stopped the run."""
    processor_id: str | None = None
    """The id of the processor that tripped, when given."""
    metadata: Value = None
    """What the processor attached to its decision, as sent."""


class Decision(_Result):
    """How a person answered a tool call or workflow step that waited for them."""

    action: Literal["approve", "decline", "resume"]
    """``approve`` or ``decline`` (a tool call waiting for approval), or ``resume`` (a suspended one)."""
    by: Literal["view", "python"]
    """``view``: a click in the widget; ``python``: a call such as ``view.approve()``."""
    at: datetime | None = None
    """When the decision was made (UTC)."""
    waited: float | None = None
    """Seconds from the request to the decision: time a person took, kept out of the tool's time."""


def _waited(decision: Decision | None) -> float:
    if decision is None or decision.waited is None:
        return 0.0
    return decision.waited


class ToolCall(_Result):
    """One tool call: its arguments, what became of it, who decided on it, and the run it ran
    inside it (a sub-agent or a workflow), if any."""

    tool_call_id: str
    """The call's id, as the model gave it (providers may reuse one across steps)."""
    tool_name: str
    """The tool the model called."""
    args: Value = None
    """The arguments, parsed from JSON (``None`` until they are complete)."""
    args_text: str = ""
    """The arguments' JSON text as it streamed in, complete or not."""
    status: str = "running"
    """Where the call is: ``running``, ``done``, ``error``, ``awaiting-approval``, ``suspended`` or
    ``denied``."""
    result: Value = None
    """What the tool returned, as JSON: for a client tool, what the model was sent."""
    value: Any = Field(default=None, exclude=True, repr=False)
    """A client tool's own return, the Python object (a DataFrame, a figure...), kept in this kernel
    only: not written, not saved (``result`` is its JSON form). None for other tools."""
    error: ErrorInfo | None = None
    """Why the tool failed, when its status is ``error``."""
    outputs: list[Value] = Field(default_factory=list)
    """What the tool streamed while it ran (``tool-output`` chunks that are not a nested run)."""
    children: NestedRun = None
    """The run a tool ran inside it (a sub-agent or a workflow), with its own text, calls and usage."""
    approval: Value = None
    """What the approval request carried (its ``resume_schema``), while or after it waited."""
    suspend_payload: Value = None
    """What the tool sent when it suspended, for the person who resumes it."""
    denied_reason: str | None = None
    """Why the call was declined, when a reason was given."""
    decision: Decision | None = None
    """Who approved, declined or resumed it, and when."""
    continue_with: str | None = None
    """While it waits: the call that answers it, such as ``view.approve("call_1")``."""
    provider_executed: bool = False
    """Run by the provider (web search, code execution), not by Mastra."""
    ran_in: str | None = None
    """``notebook`` for a client tool (``agent.stream(tools=...)``) run in this kernel; else ``None``."""
    orphan: bool = False
    """Its output or result came without the call itself in this stream."""
    started_at: datetime | None = None
    """When the call began to stream (its arguments' first characters), on the run's clock."""
    called_at: datetime | None = None
    """When its arguments were complete and the tool ran."""
    finished_at: datetime | None = None
    """When its result, error or denial came."""
    traced_time: float | None = None
    """Seconds its span took on the server, by Mastra's trace (``view.trace()``, or the trace kept
    in a recording); ``None`` while the trace is not known."""

    @property
    def tool_time(self) -> float | None:
        """Seconds the tool itself took: its span by Mastra's trace when known (``traced_time``),
        else by its chunks' arrival, from the call (its arguments complete) to its end, less the time
        a person decided. ``timing_source`` says which."""
        if self.traced_time is not None:
            return self.traced_time
        start = self.called_at or self.started_at
        if start is None or self.finished_at is None:
            return None
        return (self.finished_at - start).total_seconds() - _waited(self.decision)

    @property
    def timing_source(self) -> Literal["trace", "arrival"] | None:
        """What measured ``tool_time``: ``"trace"`` (the server's span) or ``"arrival"`` (when its
        chunks came to the notebook, the network and the server's buffering included); ``None``
        while it is not known."""
        if self.traced_time is not None:
            return "trace"
        return None if self.tool_time is None else "arrival"

    def __repr__(self) -> str:
        decided = f", {self.decision.action} by {self.decision.by}" if self.decision else ""
        return f"ToolCall({self.tool_name!r}, {self.status}, id={self.tool_call_id!r}{decided})"

    __str__ = __repr__


class Step(_Result):
    """One model step, as Mastra's StepResult: the text, reasoning and tool calls made in it."""

    index: int
    """The step's number in the run, from 1, as the view's "Step 1" says it (``steps[0].index``
    is 1; Mastra's trace names it ``step: 0``, from 0)."""
    text: str = ""
    """The text the model wrote in this step."""
    reasoning_text: str = ""
    """The reasoning the model streamed in this step."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    """The tool calls the model made in this step."""
    finish_reason: str | None = None
    """Why the step ended, as the provider said (``stop``, ``tool-calls``, ``length``...)."""
    usage: Usage | None = None
    """The tokens of this step alone, as Mastra's StepResult reports them."""
    warnings: list[Value] = Field(default_factory=list)
    """The provider's warnings for this step (an unsupported setting, say)."""
    model_id: str | None = None
    """The model that ran the step, as the provider named it."""
    provider: str | None = None
    """The provider that ran the step (``openai.chat``, ``anthropic.messages``...)."""
    response_id: str | None = None
    """The provider's id of its response."""
    started_at: datetime | None = None
    """When the step started."""
    first_token_at: datetime | None = None
    """When the first delta of its text, reasoning or tool arguments came."""
    last_token_at: datetime | None = None
    """When the last delta of its parts came: with ``first_token_at``, its streaming span."""
    finished_at: datetime | None = None
    """When the step finished."""
    request: ModelRequest | None = None
    """What the model was given in this step: system prompt, messages, tools offered and settings
    (from the stream's ``step-start``); None when the stream did not carry it (``request_reason``)."""
    request_reason: str | None = None
    """Why ``request`` is None, and what to turn on on the server to see it."""


class Source(_Result):
    """A source the model cited (a URL or a document)."""

    source_type: str | None = None
    """``url`` or ``document``, as the provider said."""
    id: str | None = None
    """The source's id."""
    url: str | None = None
    """Where the source is (a URL source)."""
    title: str | None = None
    """The source's title, when given."""
    media_type: str | None = None
    """The document's media type (a document source)."""
    filename: str | None = None
    """The document's file name (a document source)."""
    citations: list[str] = Field(default_factory=list)
    """The passages of the text that cite it."""


class File(_Result):
    """A file the model made (an image, say)."""

    model_config = ConfigDict(extra="forbid", ser_json_bytes="base64", val_json_bytes="base64")

    media_type: str | None = None
    """The file's media type (``image/png``...)."""
    data: bytes = b""
    """The file's bytes (base64 in JSON)."""
    name: str | None = None
    """The file's name, when given."""


class BackgroundTask(_Result):
    """A task the run started in the background: its statuses, outputs and result."""

    task_id: str
    """The task's id."""
    tool_name: str | None = None
    """The tool the task runs, when it runs one."""
    tool_call_id: str | None = None
    """The tool call that started the task, when one did."""
    status: str
    """The task's latest status (``started``, ``running``, ``suspended``, ``cancelled``...)."""
    history: list[str] = Field(default_factory=list)
    """Every status it went through, in order."""
    outputs: list[Value] = Field(default_factory=list)
    """What the task streamed while it ran."""
    result: Value = None
    """What the task returned."""
    error: ErrorInfo | None = None
    """Why the task failed, when it did."""


class Goal(_Result):
    """One evaluation of a run's goal (an agent network or a task loop)."""

    evaluation: Value = None
    """The network's or agent's evaluation of its goal, as sent."""
    should_continue: bool = False
    """True when the evaluation says the run goes on (the goal is not met yet)."""


class WorkflowStep(_Result):
    """One step of a workflow: its input, output and status, and the run it ran inside it."""

    step_name: str
    """The step's id in the workflow."""
    status: str
    """Where the step is: ``running``, ``success``, ``failed``, ``suspended``, ``waiting``..."""
    input: Value = None
    """What the step was given."""
    output: Value = None
    """What the step returned."""
    error: ErrorInfo | None = None
    """Why the step failed, when it did."""
    outputs: list[Value] = Field(default_factory=list)
    """What the step streamed while it ran (``step-output`` chunks that are not a nested run)."""
    suspend_payload: Value = None
    """What the step sent when it suspended, for the person who resumes it."""
    decision: Decision | None = None
    """Who resumed it, and when."""
    continue_with: str | None = None
    """While it waits: the call that resumes it, such as ``view.resume(..., step=...)``."""
    children: NestedRun = None
    """The run the step ran inside it (an agent or a nested workflow)."""
    started_at: datetime | None = None
    """When the step started."""
    finished_at: datetime | None = None
    """When the step ended."""


class WorkflowResult(_Result):
    """A workflow run: its status, its steps and its result."""

    workflow_id: str | None = None
    """The workflow's id."""
    status: str = "running"
    """The workflow's status (``running``, ``success``, ``failed``, ``suspended``...)."""
    steps: list[WorkflowStep] = Field(default_factory=list)
    """Its steps, in the order they started."""
    result: Value = None
    """What the workflow returned."""


class InvalidLine(_Result):
    """A line or item of the source that is not a chunk: kept, with why."""

    raw: str
    """The line (or item) as it came, cut when long."""
    error: str
    """Why it is not a chunk."""


class Part(_Result):
    """One part of the run, in arrival order: ``kind`` plus what locates or holds it."""

    kind: str
    """What the part is: ``text``, ``reasoning``, ``tool_call``, ``step``, ``source``, ``file``,
    ``background_task``, ``goal``, ``workflow_step``, ``banner``, ``data``, ``unknown`` or ``invalid``."""
    text: str | None = None
    """Its text: a text or reasoning part's, a banner's message, a workflow step's name, an invalid
    line."""
    tool_call_id: str | None = None
    """The tool call it is, for a ``tool_call`` part."""
    type: str | None = None
    """A banner's level, or the chunk type of a goal, data or unknown part."""
    value: Value = None
    """Where it is in the result (an index into ``tool_calls``, ``sources``, ``files`` or the workflow's
    steps; a step's index), or what it holds (reasoning details, a data chunk's value)."""


# For hosts that reset the browser's styles (marimo); scoped to the transcript. GitHub drops <style>.
_HOST_RESET = (
    "<style>.mastra-notebook-transcript :where(ul){list-style:disc outside;padding-left:2em}"
    ".mastra-notebook-transcript :where(ol){list-style:decimal outside;padding-left:2em}"
    ".mastra-notebook-transcript :where(h1,h2,h3,h4,h5,h6){font-weight:600}"
    ".mastra-notebook-transcript :where(strong,b){font-weight:bolder}</style>"
)


class RunResult(_Result):
    """A run, finished or not: its text, tool calls, steps, usage, timing and cost. The same from a
    server, a file or a list of chunks (``view.result``, ``mn.collect(...)``, ``view.wait()``)."""

    run_id: str | None = None
    """The run's id, as Mastra gave it (``None`` for a source that names none)."""
    agent_id: str | None = None
    """The agent (or workflow) that ran, when known."""
    status: Status = "running"
    """How the run stands: ``running``, ``finished``, ``error``, ``aborted`` (stopped), ``tripwire`` (a
    guardrail stopped it), ``suspended`` (it waits for a person) or ``incomplete`` (the stream ended without
    a finish)."""
    text: str = ""
    """The answer: the text of every step, in order."""
    reasoning_text: str = ""
    """The reasoning the model streamed, every step's, in order."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    """The tool calls of every step, in order (the nested runs' are in their ``children``)."""
    steps: list[Step] = Field(default_factory=list)
    """The model steps, as Mastra's StepResults: each one's text, tool calls and usage."""
    usage: Usage = Field(default_factory=Usage)
    """The tokens of this run's own model steps (Mastra's total usage)."""
    usage_with_nested: Usage = Field(default_factory=Usage)
    """With the tokens of the sub-agents and workflows its tools ran, to any depth (equal to ``usage``
    when none used a model)."""
    finish_reason: str | None = None
    """Why the last step ended, as the provider said (``stop``, ``tool-calls``, ``length``...)."""
    object: Value = None
    """The structured output, for a run asked for one (``structuredOutput``)."""
    sources: list[Source] = Field(default_factory=list)
    """The sources the model cited."""
    files: list[File] = Field(default_factory=list)
    """The files the model made."""
    warnings: list[Value] = Field(default_factory=list)
    """The provider's warnings, every step's."""
    error: ErrorInfo | None = None
    """Why the run failed, when its status is ``error``."""
    tripwire: Tripwire | None = None
    """Which guardrail stopped the run and why, when its status is ``tripwire``."""
    background_tasks: list[BackgroundTask] = Field(default_factory=list)
    """The background tasks the run started."""
    goals: list[Goal] = Field(default_factory=list)
    """The evaluations of the run's goal (an agent network or a task loop), in order."""
    workflow: WorkflowResult | None = None
    """The workflow's steps and result, for a workflow run."""
    parts: list[Part] = Field(default_factory=list)
    """Everything the run showed, in arrival order: text, reasoning, tool calls, banners..."""
    provider_events: list[Value] = Field(default_factory=list)
    """The providers' lifecycle ``custom`` chunks, as sent."""
    chunk_count: int = 0
    """How many chunks the run was read from."""
    invalid: list[InvalidLine] = Field(default_factory=list)
    """The lines or items that were not chunks (kept, not fatal)."""
    started_at: datetime | None = None
    """When the run started: its request sent, or its source begun to be read."""
    first_token_at: datetime | None = None
    """When the first token (text, reasoning or tool arguments) came."""
    finished_at: datetime | None = None
    """When the run ended."""
    timing: Timing = Field(default_factory=Timing)
    """Time to first token, tokens per second, tool time and the total, in seconds."""
    cost: Cost = Field(default_factory=Cost)
    """What the run cost in USD, per step and in all (its nested runs included), from genai-prices."""
    trace_id: str | None = None
    """The id of Mastra's trace of this run: the ``tracingOptions.traceId`` (32 hex digits) the
    client sent with it and with each of its continuations (``view.trace()`` reads it)."""
    overrides: dict[str, Value] = Field(default_factory=dict)
    """What this run's request overrode on purpose (``instructions``, ``system``, ``context``,
    ``model_settings``, ``request_context``, ``model``), by the name it was given to ``stream()``."""
    figures: dict[str, str] = Field(default_factory=dict)
    """The run's figures as the view's header and footer show them, formatted ("340 ms", "52.1",
    "$0.0021"): the same strings everywhere (core/figures.py), kept as the run ended. A key is
    missing where the run has nothing to say (no rate over a short span, no durations for an untimed
    source)."""
    scores: list[Score] = Field(default_factory=list)
    """The run's scores: Mastra's scorers' (``source="mastra"``) and Python scorers' (``"notebook"``),
    in the order they were asked for (``agent.stream(..., scorers=[...])``)."""
    feedback: Feedback | None = None
    """A person's label of the run (``view.label(thumbs=..., score=..., comment=...)`` or the
    view's footer): thumbs, score, comment, and whether Mastra's server has it (``sent_to_mastra``)."""

    @property
    def duration(self) -> float | None:
        """Seconds from the run's start to its end, when both are known (``timing.total``)."""
        return self.timing.total

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

    def score(self, name: str) -> Score:
        """The score of scorer ``name`` (a Mastra id or a Python scorer's name); KeyError lists the others."""
        return named(self.scores, name)

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
        """The same static transcript a view saves in a notebook, drawn from the same node tree (by
        the render layer: see ``draw_html_with``)."""
        if not _html_drawers:  # core alone draws nothing: its text, escaped
            return f"<pre>{escape(repr(self))}</pre>"
        return _html_drawers[0](self)

    def _mime_(self) -> tuple[str, str]:
        """marimo's display: the transcript, with what a browser's own stylesheet gives said again
        (marimo's page loads Tailwind's reset: lists without markers, headings at normal weight)."""
        return "text/html", _HOST_RESET + self._repr_html_()

    _view: list[Any] | None = PrivateAttr(default=None)  # the view's snapshot ops it was read with


_html_drawers: list[Callable[[RunResult], str]] = []


def draw_html_with(drawer: Callable[[RunResult], str]) -> None:
    """Set how a RunResult draws itself in a notebook (``_repr_html_``). Core knows no rendering: the
    package sets the render layer's transcript here when it is imported (mastra_notebook/__init__.py)."""
    _html_drawers[:] = [drawer]


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
