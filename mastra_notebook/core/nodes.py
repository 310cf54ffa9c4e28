"""The view nodes, typed once: one model per node kind the reducer writes (docs/view-protocol.md).

The reducer (``state.py``, ``handlers/``) writes these fields; the widget (``js/src/render/``) and
the static renderer draw them. This module only declares them: the repository's
``scripts/contract.py`` writes the TypeScript types (``js/src/contract.generated.ts``) and the
protocol's node table from it, and a test runs every fixture through the reducer to check that no
node carries a field declared nowhere here.

Every node field may be missing or ``null`` until it is known. Values from a stream (text, names,
arguments, results, urls) are untrusted data. A field's docstring is its documentation.
"""

from __future__ import annotations

import typing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .cost import Cost
from .result import ErrorInfo, Tripwire, Usage  # as a RunResult has them: one model each
from .score import Score


class Shape(BaseModel):
    """A value nested in a node field; its fields' docstrings document it."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class WorkflowState(Shape):
    """A workflow run's own state, beside its steps."""

    workflow_id: str | None = None
    """The workflow's id (``workflow-start``)."""
    status: str
    """Mastra's word: ``running success failed suspended paused canceled ...``."""
    result: Any = None
    """The workflow's final result."""


class RunFigures(Shape):
    """Every figure the header and footer show, formatted once in Python (``core/figures.py``).
    A key is missing where there is nothing to say."""

    input_tokens: str | None = None
    """Prompt tokens, e.g. ``"1,204"``."""
    output_tokens: str | None = None
    """Generated tokens."""
    reasoning_tokens: str | None = None
    """Reasoning tokens (omitted when 0)."""
    cached_input_tokens: str | None = None
    """Cached prompt tokens (omitted when 0)."""
    tokens: str | None = None
    """``"453 tokens"``, or ``"453 tokens · 1,378 with sub-agents"``."""
    tokens_title: str | None = None
    """The tokens' tooltip: in and out, and with the runs nested in it."""
    tokens_with_nested: str | None = None
    """Total tokens with the runs nested in it, when more than its own."""
    first_token: str | None = None
    """Time to the first token, e.g. ``"340 ms"``."""
    tokens_per_second: str | None = None
    """Output tokens over the finished steps' streaming spans, e.g. ``"52.1"``."""
    duration: str | None = None
    """The run's length."""
    steps: str | None = None
    """How many model steps."""
    cost: str | None = None
    """``"$0.0021"`` or ``"unknown"``."""
    cost_title: str | None = None
    """The cost's source, or why it is unknown."""


class DecisionShown(Shape):
    """A person's answer to an approval or suspension."""

    action: str
    """``approve``, ``decline`` or ``resume``."""
    by: str
    """``view`` (a button) or ``python`` (a call)."""
    at: float | None = None
    """When they answered (epoch ms; null when untimed)."""
    waited_ms: float | None = None
    """How long the request waited for them."""
    waited: str | None = None
    """``waited_ms`` as the card shows it (``8.7 s``), written by the kernel (core/captions.py)."""


class Approval(Shape):
    """What a tool call waiting for approval asks."""

    resume_schema: Any = None
    """The JSON schema of the data that resumes it, when Mastra sent one."""


class NodeBase(Shape):
    """Every node: an id and a kind; its children are kept by the store, not as a field."""

    id: str
    """Unique in its run's tree; the root is ``"root"``."""


class ScoreBadge(Shape):
    """A score as the header's badge and the footer's scores row show it: written by the kernel
    (core/score.py ``badge``), drawn as given."""

    text: str
    """``answer-length 0.7``, ``exact 1 ✓``, ``judge failed``."""
    tone: str
    """``ok`` (passed), ``error`` (below its threshold), ``warn`` (the scorer failed), ``neutral``."""
    title: str
    """The scorer, where it ran, and its reason: shown on hover."""
    scorer: str | None = None
    """The scorer's name (a Mastra id or a Python scorer's name): the footer row's label."""
    value: str | None = None
    """``0.7``, ``1 ✓``, ``0 ✗``, ``failed``: the footer row's value and mark."""
    reason: str | None = None
    """The scorer's reason (or its error), ``""`` when it gave none: folded in the footer row."""


class TraceSpan(Shape):
    """One span of Mastra's trace as the timeline's lane draws it (core/trace.py ``lane``)."""

    id: str
    """Mastra's span id."""
    parent: str | None = None
    """Its parent span's id."""
    depth: int
    """How deep it is drawn (0: a request of the run)."""
    name: str
    """Mastra's name for it (``llm: 'gpt-4o'``, ``memory: recall``, ``tool: 'getWeather'``)."""
    type: str
    """``agent_run``, ``model_generation``, ``memory_operation``, ``processor_run``, ``tool_call``..."""
    start: float | None = None
    """Its start (epoch ms, the server's clock)."""
    end: float | None = None
    """Its end (epoch ms); null while it runs."""
    status: str | None = None
    """``success``, ``error``... as Mastra says it."""
    error: str | None = None
    """Why it failed."""
    input: Any = None
    """What it was given, cut to a size the view carries."""
    output: Any = None
    """What it gave, cut alike."""
    attributes: Any = None
    """Its attributes, cut alike."""
    cut: bool = False
    """Its input, output or attributes were cut (``view.trace()`` returns them whole)."""


class TraceLane(Shape):
    """Mastra's trace of a run, fetched by ``view.trace()``: a lane of the run's timeline."""

    trace_id: str | None = None
    """The trace's id."""
    complete: bool
    """Every request of the run had its span stored and ended."""
    message: str | None = None
    """Why the lane is incomplete or empty, and what to turn on on the server."""
    spans: list[TraceSpan]
    """The spans drawn, in tree order (children in start order)."""
    hidden: int = 0
    """Spans not drawn: chunk and event spans, and those past the lane's limit."""


class FeedbackShown(Shape):
    """A person's label of a run, as the footer shows it (core/feedback.py ``Feedback``, as JSON)."""

    thumbs: Literal["up", "down"] | None = None
    """``up``, ``down`` or null."""
    score: float | None = None
    """The score the person gave, or null."""
    comment: str | None = None
    """What the person wrote, or null."""
    at: str | None = None
    """When it was given (ISO 8601, UTC)."""
    sent_to_mastra: bool | None = None
    """Mastra's server stored it (true), it is kept in the notebook only (false), or it is being sent."""
    reason: str | None = None
    """Why it is kept in the notebook only, and what to turn on to send it."""


class RunNode(NodeBase):
    """A run: the root, or a sub-agent / workflow nested in a tool or workflow step.
    Children: its parts in arrival order."""

    kind: Literal["run"]
    status: str | None = None
    """``running finished error aborted tripwire suspended incomplete``."""
    nested: bool | None = None
    """A sub-run inside a tool or workflow step."""
    run_id: str | None = None
    """Mastra's run id."""
    agent_id: str | None = None
    """The agent's id (``start``)."""
    finish_reason: str | None = None
    """Why the run ended (``stop``, ``tool-calls``, ``suspended``, ``aborted`` ...)."""
    usage: Usage | None = None
    """This run's own usage."""
    nested_usage: Usage | None = None
    """The usage of the runs nested in it, to any depth."""
    error: ErrorInfo | None = None
    """What ended the run in error."""
    tripwire: Tripwire | None = None
    """The processor that blocked it."""
    started_at: float | None = None
    """When its request was sent or its source started being read (epoch ms)."""
    first_token_at: float | None = None
    """Its first text or reasoning token."""
    finished_at: float | None = None
    """Its finish chunk, or the end of its stream."""
    trace_start: float | None = None
    """Its start by Mastra's trace (the span of its first request, or a sub-agent's run; epoch ms on
    the server's clock), once the trace is known: the timeline places the trace's times from it."""
    trace_end: float | None = None
    """Its end by Mastra's trace."""
    clock: Literal["recorded"] | None = None
    """``recorded``: a replay or a read recording, timed by the recording alone: its view's "so far"
    is its latest recorded moment, never the wall clock."""
    steps: int | None = None
    """How many model steps it took."""
    workflow: WorkflowState | None = None
    """A workflow run's own state."""
    object: Any = None
    """Structured output so far."""
    object_final: bool | None = None
    """The structured output is complete."""
    chunk_count: int | None = None
    """Chunks folded into it."""
    invalid_count: int | None = None
    """Lines that were not chunks."""
    cost: Cost | None = None
    """USD for its steps and nested runs (genai-prices)."""
    streaming_ms: float | None = None
    """Its finished steps' streaming spans: the denominator of tokens/s."""
    streamed_tokens: int | None = None
    """Its finished steps' output tokens: the numerator of tokens/s."""
    human_waits: list[tuple[float, float]] | None = None
    """``[from, to]`` pairs: time spent waiting for a person, kept out of its own time."""
    continue_with: str | None = None
    """The Python call that answers the latest request still waiting, e.g.
    ``view.resume({"approved": True}, step="request")``: its suspension banner says it."""
    trace_id: str | None = None
    """The id of Mastra's trace the client asked for (``tracingOptions.traceId``)."""
    trace: TraceLane | None = None
    """Mastra's trace of it, once ``view.trace()`` fetched it (or why it could not): the timeline's lane."""
    overrides: list[str] | None = None
    """What its request overrode on purpose (``instructions``, ``model``...): the header says
    "instructions overridden" when ``instructions`` is among them."""
    figures: RunFigures | None = None
    """The header's and footer's figures, formatted."""
    scoring: bool | None = None
    """Its scores are awaited (Mastra scores a run after its stream ends): the header says "scoring…"."""
    scores: list[Score] | None = None
    """Its scores, Mastra's and the notebook's, in the order asked for."""
    score_badges: list[ScoreBadge] | None = None
    """Its scores as the header's badges and the footer's scores row show them, in the same order
    (core/score.py ``badge``)."""
    feedback: FeedbackShown | None = None
    """A person's label of the run (``view.label(...)`` or the footer's control)."""
    feedback_note: str | None = None
    """The label's state as the footer says it: "sent to Mastra", or kept in the notebook and why."""


class Timed(NodeBase):
    """A node with a span on the run's clock (epoch ms): a part, a step, a call."""

    started_at: float | None = None
    """Its first chunk (a workflow step's is moved back by the server's own length of the step)."""
    ended_at: float | None = None
    """Its last: a part's end (``text-end``), a step's ``step-finish``, a call's result, error or
    denial; null while it runs (and in an untimed run)."""
    trace_start: float | None = None
    """A step's or tool call's start by Mastra's trace (its span, epoch ms on the server's clock),
    once the trace is known: its duration and its bar come from the span then."""
    trace_end: float | None = None
    """Its end by Mastra's trace."""


class Streamed(Timed):
    """A part of the model's answer that streams as text."""

    text: str | None = None
    """The text so far (grows by ``append``)."""


class TextNode(Streamed):
    """A text part of the model's answer (markdown)."""

    kind: Literal["text"]


class ReasoningNode(Streamed):
    """A reasoning part."""

    kind: Literal["reasoning"]
    done: bool | None = None
    """It ended: said apart from its time."""
    redacted: bool | None = None
    """The provider sent it encrypted: nothing to read."""
    duration: str | None = None
    """How long it took, as shown (``Thought for 2.1 s``); null while it streams (core/captions.py)."""


class HumanStep(Timed):
    """What a tool call and a workflow step share: they run, may wait for a person, may hold a run."""

    error: ErrorInfo | None = None
    """Why it failed."""
    outputs: list[Any] | None = None
    """Custom values it wrote (``tool-output``, ``workflow-step-output``)."""
    suspend_payload: Any = None
    """What it said when it suspended."""
    waiting_since: float | None = None
    """Since when it waits for a person."""
    decision: DecisionShown | None = None
    """The person's answer."""
    continue_with: str | None = None
    """The Python call that answers it while it waits, e.g. ``view.approve("call_1")``."""
    hidden_levels: int | None = None
    """How many levels of runs nested below it are not drawn (deeper than the view's depth)."""
    outcome: str | None = None
    """The folded head's outcome (``→ 18``, ``→ error: ...``, ``→ declined: ...``, at most 80
    characters; a sub-run's answer text when a run is nested), or "" (core/captions.py)."""
    duration: str | None = None
    """How long it took without the person's wait (``1.3 s``); null until it ended."""
    duration_source: Literal["trace", "arrival"] | None = None
    """What measured ``duration``: the server's span (``trace``) or its chunks' arrival."""
    duration_title: str | None = None
    """The duration's tooltip: what measured it (core/captions.py)."""


class RichDisplay(Shape):
    """A value drawn as data rather than JSON (a tool's result, or its arguments as they stream): a
    MIME bundle made in the kernel from a Python object or a renderer's return, bounded on the wire.
    Untrusted: sanitised wherever it is drawn (DOMPurify in the widget, the static renderer's
    sanitiser in transcripts)."""

    data: dict[str, Any] | None = None
    """MIME type to payload: ``text/html``, ``image/svg+xml``, ``text/markdown``, ``text/plain`` (text);
    ``image/png``, ``image/jpeg``, ``image/gif``, ``image/webp`` (base64 text); ``application/json``
    (any JSON). The richest type the renderer can draw safely wins."""
    source: str | None = None
    """Where it came from: ``value`` (a Python tool's return), ``renderer`` (``mn.renderer``)."""
    preview: str | None = None
    """What stayed in the kernel when the whole was too large, e.g. ``first 50 of 1,000,000 rows``."""
    error: str | None = None
    """The renderer raised: its message. The JSON result stays one click away."""


class ValueCut(Shape):
    """A card's note on a value the view shows cut for its size (core/bounding.py ``FIELD``): the
    node keeps it whole in the kernel. Written by the kernel (core/captions.py ``value_cut``)."""

    note: str
    """What was cut and the whole size (``Cut for the view: 50 MB of JSON in all, ...``)."""
    where: str | None = None
    """Where the whole value is, as Python (``result.tool_call('call_1').result``); null: in the run's
    result."""


class ArgsDisplay(Shape):
    """How a tool's arguments are drawn while they stream (``mn.renderer(name, args=...)``)."""

    field: str | None = None
    """The argument drawn as code (``query``)."""
    language: str | None = None
    """Its language: ``sql python json markdown``."""
    display: RichDisplay | None = None
    """``args=fn``'s display of the partial arguments, throttled like the rest of the view."""


class ToolNode(HumanStep):
    """A tool call (or a primitive a network runs). Children: at most one ``run``, the sub-agent or
    workflow it ran."""

    kind: Literal["tool"]
    tool_call_id: str | None = None
    """The call's id."""
    tool_name: str | None = None
    """The tool's name."""
    status: str | None = None
    """``streaming-args running done error awaiting-approval suspended denied``."""
    args_text: str | None = None
    """The arguments' raw JSON text as streamed."""
    args: Any = None
    """The best parse of the arguments so far."""
    result: Any = None
    """What the tool returned (shown cut when it is large: ``result_cut`` says so)."""
    result_cut: ValueCut | None = None
    """The result is shown cut for its size: what was cut, and where the whole value is."""
    called_at: float | None = None
    """Its arguments were complete: it runs."""
    approval: Approval | None = None
    """What its approval request asks."""
    denied_reason: str | None = None
    """Why the call was declined."""
    provider_executed: bool | None = None
    """The provider ran it (web search ...), not Mastra."""
    orphan: bool | None = None
    """A result, output or approval came for a call this stream never announced."""
    ran_in: str | None = None
    """Where a client tool ran (``notebook``)."""
    args_summary: str | None = None
    """The folded head's arguments (``city="Paris", days=3``, at most 48 characters as JavaScript
    counts them); null while they stream. Written by the kernel (core/captions.py)."""
    display: RichDisplay | None = None
    """The result drawn as data (a table, a chart, an image), when the kernel has one."""
    args_display: ArgsDisplay | None = None
    """How its arguments are drawn as they stream, when a renderer asks."""


class WorkflowStepNode(HumanStep):
    """A workflow step (a loop's iterations are steps of their own). Children: at most one ``run``,
    an agent streamed inside it."""

    kind: Literal["workflow-step"]
    step_name: str | None = None
    """The step's id."""
    step_call_id: str | None = None
    """Mastra's id of this execution of the step."""
    status: str | None = None
    """Mastra's word: ``running success failed suspended waiting ...``."""
    input: Any = None
    """What the step received."""
    output: Any = None
    """What it returned."""
    progress: Any = None
    """Its latest ``workflow-step-progress`` payload."""
    server_started_at: float | None = None
    """The server's ``startedAt`` (another clock: only its difference to ``endedAt`` is used)."""


class SourceNode(NodeBase):
    """A source (once per URL); citations add the text they cite."""

    kind: Literal["source"]
    source_type: str | None = None
    """``url`` or ``document``."""
    source_id: str | None = None
    """The provider's id for it."""
    url: str | None = None
    """Its address (shown as a link only for http(s) and mailto)."""
    title: str | None = None
    """Its title."""
    media_type: str | None = None
    """A document's media type."""
    filename: str | None = None
    """A document's file name."""
    citations: list[str] | None = None
    """The texts that cite it."""


class FileNode(NodeBase):
    """A file the model produced."""

    kind: Literal["file"]
    media_type: str | None = None
    """Its media type."""
    size: int | None = None
    """Its size in bytes."""
    base64: str | None = None
    """Its bytes, only for raster images up to 2 MB."""
    name: str | None = None
    """Its file name."""
    text_preview: str | None = None
    """The first 2 KB of a ``text/*`` file."""
    size_label: str | None = None
    """``size`` as shown (``1.5 KB``), written by the kernel (core/captions.py)."""


class StepNode(Timed):
    """A divider between model steps."""

    kind: Literal["step"]
    index: int | None = None
    """1-based, as the view's "Step 1" and ``Step.index`` say it (Mastra's trace: ``step: 0``)."""
    duration: str | None = None
    """How long the step took (``1.3 s``): its span by Mastra's trace when known, else from its
    start to its finish as its chunks arrived; null until it ended (core/captions.py)."""
    duration_source: Literal["trace", "arrival"] | None = None
    """What measured ``duration``: the server's span (``trace``) or its chunks' arrival."""
    duration_title: str | None = None
    """The duration's tooltip: what measured it."""
    finish_reason: str | None = None
    """Why the step ended."""
    usage: Usage | None = None
    """The step's usage."""
    model_id: str | None = None
    """The model that ran it."""
    provider: str | None = None
    """The model's provider."""
    response_id: str | None = None
    """The provider's response id."""
    warnings: Any = None
    """The provider's warnings."""
    cost_usd: float | None = None
    """Its price (genai-prices)."""
    cost_reason: str | None = None
    """Why it has no price."""
    streaming_ms: float | None = None
    """The union of its parts' streaming spans."""
    request_summary: str | None = None
    """The folded "Request" toggle's label (``system · 6 messages (4 history) · 2 tools``): what the
    model was given in this step. The request itself is not a node field: it is sent on demand."""
    request_reason: str | None = None
    """Why this step has no request, and what to turn on, on the server."""
    note: str | None = None
    """A teacher's note on the step (``view.note(step, text)``): text, never HTML."""


class BackgroundTaskNode(NodeBase):
    """A tool that runs on after its step."""

    kind: Literal["background-task"]
    task_id: str | None = None
    """The task's id."""
    tool_name: str | None = None
    """The tool it runs."""
    tool_call_id: str | None = None
    """The call it runs for."""
    status: str | None = None
    """``started running completed failed cancelled ...``."""
    history: list[str] | None = None
    """Every status, in order."""
    outputs: list[Any] | None = None
    """Progress not shown on its tool call."""
    result: Any = None
    """What it returned."""
    error: ErrorInfo | None = None
    """Why it failed."""


class GoalNode(NodeBase):
    """A goal's (or a network's validation's) verdict on an attempt."""

    kind: Literal["goal"]
    type: str | None = None
    """The chunk type: ``goal``, ``is-task-complete`` or ``network-validation-end``."""
    evaluation: Any = None
    """The payload as Mastra sent it."""
    should_continue: bool | None = None
    """The agent was sent back to work."""


class BannerNode(NodeBase):
    """A message across the run: an error, an abort, a tripwire, a warning."""

    kind: Literal["banner"]
    level: str | None = None
    """``error abort tripwire suspended warning``."""
    message: str | None = None
    """What to say."""
    detail: Any = None
    """What else is known, as JSON."""


class DataNode(NodeBase):
    """A value the run wrote for its reader: ``data-*``, ``custom``, ``raw``, a network's routing."""

    kind: Literal["data"]
    type: str | None = None
    """The chunk type, e.g. ``data-progress`` (``routing`` for a network's decision)."""
    data: Any = None
    """The value."""


class UnknownNode(NodeBase):
    """A chunk type this version does not know: kept whole and shown raw."""

    kind: Literal["unknown"]
    type: str | None = None
    """Its type."""
    chunk: Any = None
    """The whole chunk."""


class InvalidNode(NodeBase):
    """A line that was not a chunk."""

    kind: Literal["invalid"]
    raw: str | None = None
    """Its text (first 4,000 characters)."""
    error: str | None = None
    """What is wrong with it."""


NODE_MODELS: tuple[type[NodeBase], ...] = (
    RunNode,
    TextNode,
    ReasoningNode,
    ToolNode,
    WorkflowStepNode,
    SourceNode,
    FileNode,
    StepNode,
    BackgroundTaskNode,
    GoalNode,
    BannerNode,
    DataNode,
    UnknownNode,
    InvalidNode,
)


def kind_of(model: type[NodeBase]) -> str:
    """The ``kind`` a node model stands for."""
    (kind,) = typing.get_args(model.model_fields["kind"].annotation)
    return str(kind)


BY_KIND: dict[str, type[NodeBase]] = {kind_of(model): model for model in NODE_MODELS}


def fields_of(kind: str) -> frozenset[str]:
    """The fields a node of ``kind`` may carry (``id`` and ``kind`` included); empty: an unknown kind."""
    model = BY_KIND.get(kind)
    return frozenset(model.model_fields) if model else frozenset()
