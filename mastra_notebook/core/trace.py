"""Mastra's trace of a run, as data: its spans, and what each model step was given.

A server with observability stores a trace per request (``GET /api/observability/traces/:traceId``
answers ``{traceId, spans}``). :func:`read_trace` reads that answer into a :class:`Trace`; each
:class:`Span` has its id, parent, name, type (``agent_run``, ``model_generation``, ``model_step``,
``memory_operation``, ``processor_run``, ``tool_call``...), start and end, input, output, attributes,
error and status.

:func:`traced_requests` reads what the model was given in each step of the trace's runs (source
``"trace"``): the ``model_generation`` span's ``input.messages`` (system included) for a run's first
step, each ``model_step`` span's ``input`` for the later ones (Mastra records those messages in
short: a tool call as ``[tool: name]``), and the generation's ``attributes``: ``parameters``,
``tools``, ``model``, ``provider``. That is how a stream whose bodies the server redacted still shows
its requests. Pure data: nothing here does I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from pydantic import Field

from .bounding import Bounds, bounded
from .documented import Documented
from .request import (
    FilePart,
    ImagePart,
    ModelRequest,
    OfferedTool,
    OtherPart,
    ReasoningPart,
    RequestMessage,
    RequestPart,
    RequestSettings,
    SystemMessage,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)
from .result import RunResult, ToolCall
from .timing import TracedTimes

# What to turn on, on the server, for a trace to exist (DESIGN.md, "Evaluation, tracing and memory").
OBSERVABILITY_HINT = (
    "serve Mastra with observability on storage: `new Mastra({..., observability: new Observability({"
    "configs: {default: {serviceName: 'mastra', exporters: [new MastraStorageExporter()]}}})})` "
    "(@mastra/observability), with a storage on the Mastra instance"
)


class TraceUnavailable(RuntimeError):
    """The server has no trace of the run to give: it keeps no traces, or not this one (yet)."""


class Span(Documented):
    """One span of Mastra's trace: an agent run, a model generation or step, a memory operation, a
    processor, a tool call..."""

    id: str
    """The span's id (Mastra's ``spanId``)."""
    parent: str | None = None
    """Its parent span's id; None for a root (each request of the run is a root)."""
    name: str = ""
    """Mastra's name for it (``llm: 'gpt-4o'``, ``memory: recall``, ``tool: 'getWeather'``)."""
    type: str = ""
    """Its type: ``agent_run``, ``model_generation``, ``model_step``, ``model_inference``,
    ``model_chunk``, ``memory_operation``, ``processor_run``, ``tool_call``, ``workflow_run``..."""
    start: datetime | None = None
    """When it started."""
    end: datetime | None = None
    """When it ended (None while it runs, and for an event span, which never ends)."""
    input: Any = None
    """What it was given, as Mastra recorded it."""
    output: Any = None
    """What it gave, as Mastra recorded it."""
    attributes: dict[str, Any] = Field(default_factory=dict)
    """Its attributes (a model generation's ``model``, ``provider``, ``parameters``, ``tools``,
    ``usage``; an agent run's ``instructions``...)."""
    error: Any = None
    """Why it failed, when it did."""
    status: str | None = None
    """``success``, ``error``... as Mastra says it."""
    is_event: bool = False
    """An event span: a moment (a chunk), not a span of time."""

    @property
    def duration(self) -> float | None:
        """Seconds from its start to its end, when both are known."""
        if self.start is None or self.end is None:
            return None
        return (self.end - self.start).total_seconds()


class Trace(Documented):
    """Mastra's trace of a run (``view.trace()``): its spans, in the order they started.

    ``complete`` is False when the time was up before the span of each request of the run was stored
    and ended: ``message`` then says so, and ``spans`` holds what was stored by then (``view.trace()``
    again reads the rest)."""

    trace_id: str
    """The trace's id (the ``tracingOptions.traceId`` the client sent)."""
    spans: list[Span] = Field(default_factory=list)
    """Every span, in the order they started."""
    complete: bool = True
    """The span of each request of the run (``requests``) was stored and had ended when it was read."""
    message: str | None = None
    """Why the trace is not complete, when it is not."""

    @property
    def requests(self) -> list[Span]:
        """The span of each request of the run, in order: the roots, and the runs continuations
        resumed (``agent run: 'x' (resumed)``), which Mastra nests under the step that waited."""
        return [span for span in self.spans if _top_run(span.parent, span.type, span.name)]

    @property
    def roots(self) -> list[Span]:
        """The spans without a parent: one per request of the run (a client-tool round is one more)."""
        return [span for span in self.spans if span.parent is None]

    def spans_of(self, kind: str) -> list[Span]:
        """The spans of one type (``model_generation``, ``memory_operation``, ``tool_call``...)."""
        return [span for span in self.spans if span.type == kind]

    def children(self, span: Span | str) -> list[Span]:
        """The spans whose parent is ``span`` (a span or its id), in the order they started."""
        parent = span if isinstance(span, str) else span.id
        return [child for child in self.spans if child.parent == parent]

    def to_dataframe(self) -> Any:
        """One row per span: id, parent, name, type, start, end, duration_s, status, error, input,
        output, attributes (needs pandas: ``pip install 'mastra-notebook[pandas]'``)."""
        try:
            import pandas as pd
        except ImportError as error:
            raise ImportError("to_dataframe needs pandas: pip install 'mastra-notebook[pandas]'") from error
        rows = [
            {
                "id": span.id,
                "parent": span.parent,
                "name": span.name,
                "type": span.type,
                "start": span.start,
                "end": span.end,
                "duration_s": span.duration,
                "status": span.status,
                "error": span.error,
                "input": span.input,
                "output": span.output,
                "attributes": span.attributes,
            }
            for span in self.spans
        ]
        columns = ["id", "parent", "name", "type", "start", "end", "duration_s", "status", "error"]
        return pd.DataFrame(rows, columns=[*columns, "input", "output", "attributes"])

    def __repr__(self) -> str:
        counts: dict[str, int] = {}
        for span in self.spans:
            counts[span.type] = counts.get(span.type, 0) + 1
        kinds = ", ".join(f"{kind} {count}" for kind, count in counts.items())
        state = "complete" if self.complete else f"INCOMPLETE: {self.message}"
        return f"Trace({self.trace_id}, {len(self.spans)} spans [{kinds}], {state})"

    __str__ = __repr__

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython's text view
        printer.text(repr(self))


TRACE_LINE = "mn-trace"  # a saved recording's line of the run's trace (the notebook's own chunk type)


def trace_line(trace: Trace) -> dict[str, Any]:
    """A saved recording's line of the run's trace, shaped as a Mastra chunk (other readers skip its
    unknown type): a replay in a kernel with no server shows the steps' requests and the trace lane."""
    return {"type": TRACE_LINE, "from": "USER", "payload": {"trace": trace.model_dump(mode="json")}}


def read_trace_line(chunk: Any) -> Trace | None:
    """The trace a recording's line holds, or None for any other chunk (or a payload not a trace)."""
    if type(chunk) is not dict or chunk.get("type") != TRACE_LINE:
        return None
    payload = chunk.get("payload")
    try:
        return Trace.model_validate(payload.get("trace")) if isinstance(payload, dict) else None
    except ValueError:
        return None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def read_span(raw: Any) -> Span:
    """One span of Mastra's answer (``spanId``, ``parentSpanId``, ``spanType``, ``startedAt``...)."""
    raw = _dict(raw)
    return Span(
        id=str(raw.get("spanId") or ""),
        parent=_str(raw.get("parentSpanId")),
        name=_str(raw.get("name")) or "",
        type=_str(raw.get("spanType")) or "",
        start=_time(raw.get("startedAt")),
        end=_time(raw.get("endedAt")),
        input=raw.get("input"),
        output=raw.get("output"),
        attributes=_dict(raw.get("attributes")),
        error=raw.get("error"),
        status=_str(raw.get("status")),
        is_event=raw.get("isEvent") is True,
    )


def _top_run(parent: Any, kind: Any, name: Any) -> bool:
    """A span of one request of the run: a root (the first request, a client-tool round), or the
    run a continuation resumed (an approval, a resume: ``agent run: 'x' (resumed)``, nested under
    the step that waited)."""
    resumed = isinstance(kind, str) and kind.endswith("_run") and str(name).endswith("(resumed)")
    return parent is None or resumed


def settled(answer: Any, requests: int = 1) -> bool:
    """Mastra's answer holds a span for each of the run's ``requests`` (see ``_top_run``), and each
    of them has ended (event spans never end; a request's span ends once its run has)."""
    spans = [_dict(span) for span in _dict(answer).get("spans") or ()]
    top = [s for s in spans if _top_run(s.get("parentSpanId"), s.get("spanType"), s.get("name"))]
    return len(top) >= max(requests, 1) and all(span.get("endedAt") for span in top)


def read_trace(answer: Any, trace_id: str, *, complete: bool = True, message: str | None = None) -> Trace:
    """Mastra's ``{traceId, spans}`` as a :class:`Trace`, its spans in the order they started."""
    spans = [read_span(raw) for raw in _dict(answer).get("spans") or () if isinstance(raw, dict)]
    spans.sort(key=lambda span: (span.start is None, span.start or datetime.min))
    found = _str(_dict(answer).get("traceId")) or trace_id
    return Trace(trace_id=found, spans=spans, complete=complete, message=message)


# ---- what each step was given, from the trace ------------------------------------------------------


def _part(part: Any) -> RequestPart:
    """A part of an AI SDK prompt message: ``text``, ``reasoning``, ``tool-call {toolCallId,
    toolName, input}``, ``tool-result {toolCallId, toolName, output: {type, value}}``, ``image``,
    ``file``; anything else as it was."""
    part = _dict(part)
    kind = part.get("type")
    if kind == "text" and isinstance(part.get("text"), str):
        return TextPart(text=part["text"])
    if kind == "reasoning":
        return ReasoningPart(text=_str(part.get("text")) or "")
    if kind == "tool-call":
        args = part.get("input", part.get("args"))
        return ToolCallPart(id=_str(part.get("toolCallId")), name=_str(part.get("toolName")), args=args)
    if kind == "tool-result":
        output = part.get("output", part.get("result"))
        wrapped = isinstance(output, dict) and "value" in output and "type" in output
        result = output["value"] if wrapped else output
        return ToolResultPart(id=_str(part.get("toolCallId")), name=_str(part.get("toolName")), result=result)
    if kind in ("image", "file"):
        data = part.get("image", part.get("data"))
        media = _str(part.get("mediaType")) or _str(part.get("mimeType"))
        url = data if isinstance(data, str) and data.startswith(("http://", "https://")) else None
        inline = data if isinstance(data, str) and url is None else None
        if kind == "image" or (media or "").startswith("image/"):
            return ImagePart(media_type=media, url=url, data=inline)
        return FilePart(media_type=media, url=url, data=inline, filename=_str(part.get("filename")))
    return OtherPart(value=part)


# Mastra's trace records a later step's tool calls and results in short: ``[tool: getWeather]``,
# ``[tool-result: getWeather]``. They are read as tool parts with no value, noted as abbreviated;
# ``filled_from_run`` gives them the run's own calls' arguments and results.
_ABBREVIATED = re.compile(r"\[(tool|tool-result): ([^\]]+)\]")
ABBREVIATED = (
    "Mastra's trace abbreviates it, and this run made no such call before this step (an earlier turn's)"
)
FROM_RUN = "from the run's tool call (Mastra's trace abbreviates it)"


def _abbreviated(content: str) -> list[RequestPart] | None:
    """The tool parts a content of abbreviations alone stands for, or None for any other text."""
    found = list(_ABBREVIATED.finditer(content))
    if not found or _ABBREVIATED.sub("", content).strip():
        return None
    return [
        ToolCallPart(name=match[2], note=ABBREVIATED)
        if match[1] == "tool"
        else ToolResultPart(name=match[2], note=ABBREVIATED)
        for match in found
    ]


def _messages(raw: Any) -> tuple[str | None, list[RequestMessage]]:
    """The system prompt (the leading system messages, joined by a blank line) and the rest."""
    messages = []
    for given in raw if isinstance(raw, list) else ():
        message = _dict(given)
        content = message.get("content")
        short = _abbreviated(content) if isinstance(content, str) else None
        if short is not None:
            parts = short
        else:
            parts = (
                [TextPart(text=content)] if isinstance(content, str) else [_part(p) for p in content or ()]
            )
        messages.append(RequestMessage(role=_str(message.get("role")) or "", parts=parts))
    count = next((i for i, message in enumerate(messages) if message.role != "system"), len(messages))
    system = "\n\n".join(message.text for message in messages[:count]) if count else None
    return system, messages[count:]


_AGENT_NAME = re.compile(r"^agent run: '(.+)'")


def _authors(trace: Trace) -> dict[str, str]:
    """Each agent's instructions, to the agent's id (from its run span's name): who wrote a system message."""
    found: dict[str, str] = {}
    for run in trace.spans_of("agent_run"):
        instructions, named = run.attributes.get("instructions"), _AGENT_NAME.match(run.name)
        if isinstance(instructions, str) and named:
            found.setdefault(instructions, named[1])
    return found


def _system_texts(raw: Any) -> list[str]:
    """The text of each leading system message, apart."""
    texts = []
    for given in raw if isinstance(raw, list) else ():
        message = _dict(given)
        if message.get("role") != "system":
            break
        content = message.get("content")
        parts = [content] if isinstance(content, str) else [_dict(p).get("text") for p in content or ()]
        texts.append("".join(part for part in parts if isinstance(part, str)))
    return texts


# AI SDK call settings (a generation's ``attributes.parameters``) -> RequestSettings
_SETTINGS = {
    "temperature": "temperature",
    "maxOutputTokens": "max_tokens",
    "maxTokens": "max_tokens",
    "topP": "top_p",
    "topK": "top_k",
    "stopSequences": "stop",
    "seed": "seed",
    "presencePenalty": "presence_penalty",
    "frequencyPenalty": "frequency_penalty",
}


def _settings(generation: Span, inference: Span | None) -> RequestSettings:
    parameters = _dict((inference or generation).attributes.get("parameters")) or _dict(
        generation.attributes.get("parameters")
    )
    read: dict[str, Any] = {}
    other: dict[str, Any] = {}
    for key, value in parameters.items():
        if key in _SETTINGS and value is not None:
            read[_SETTINGS[key]] = value
        else:
            other[key] = value
    choice = inference.attributes.get("toolChoice") if inference is not None else None
    try:
        return RequestSettings(
            model=_str(generation.attributes.get("model")), tool_choice=choice, **read, other=other
        )
    except ValueError:  # a value of another type than the setting's: kept as it was
        return RequestSettings(
            model=_str(generation.attributes.get("model")), tool_choice=choice, other=parameters
        )


def _tools(generation: Span) -> list[OfferedTool]:
    tools = []
    for listed in generation.attributes.get("tools") or ():
        tool = _dict(listed)
        function = _dict(tool.get("function")) or tool  # chat's {function: {...}} or the flat shape
        kind = _str(tool.get("type"))
        tools.append(
            OfferedTool(
                name=_str(function.get("name")) or _str(tool.get("id")) or kind or "",
                description=_str(function.get("description")),
                input_schema=function.get("parameters", function.get("inputSchema")),
                provider_type=kind if kind not in (None, "function", "dynamic") else None,
            )
        )
    return tools


def _generation_requests(trace: Trace, generation: Span) -> list[ModelRequest]:
    """One request per ``model_step`` of ``generation`` (its first step: the generation's own input)."""
    steps = sorted(_children(trace, generation, "model_step"), key=_step_index)
    authors = _authors(trace)
    tools = _tools(generation)
    provider = _str(generation.attributes.get("provider"))
    requests = []
    for index, step in enumerate(steps or [None]):
        given = _dict(generation.input).get("messages") if index == 0 else (step.input if step else None)
        if index == 0 and given is None and step is not None:
            given = step.input
        system, messages = _messages(given)
        systems = [SystemMessage(text=text, agent=authors.get(text)) for text in _system_texts(given)]
        inferences = _children(trace, step, "model_inference") if step is not None else []
        raw = {
            "messages": given,
            "attributes": generation.attributes,
            **({"step": step.attributes} if step is not None else {}),
        }
        requests.append(
            ModelRequest(
                system=system,
                system_messages=systems,
                messages=messages,
                tools=tools,
                settings=_settings(generation, inferences[0] if inferences else None),
                provider=provider,
                raw=raw,
                source="trace",
            )
        )
    return requests


def _step_index(span: Span) -> tuple[int, datetime]:
    index = span.attributes.get("stepIndex")
    return (index if isinstance(index, int) else 1 << 30, span.start or datetime.min)


def traced_requests(trace: Trace) -> list[ModelRequest]:
    """What the model was given in each step of the run the trace holds, in order: the steps of the
    model generations directly under the span of each of its requests (``Trace.requests``), not
    those of sub-agents run by its tools."""
    requests = {span.id: span for span in trace.requests}
    found: list[ModelRequest] = []
    for generation in trace.spans_of("model_generation"):
        run = requests.get(generation.parent or "")
        if run is None:
            continue
        steps = _generation_requests(trace, generation)
        # a resumed run's first step finishes the one that waited (its tool runs): no request of its own
        found += steps[1:] if run.parent is not None else steps
    return found


def nested_requests(trace: Trace) -> dict[str, list[ModelRequest]]:
    """What the model was given in each step of each run nested in a tool call (a sub-agent's), by
    the call's id, in order: the steps of the model generations directly under that run's span."""
    generations: dict[str, list[Span]] = {}
    for generation in trace.spans_of("model_generation"):
        generations.setdefault(generation.parent or "", []).append(generation)
    return {
        call_id: [
            request
            for run in runs
            for generation in generations.get(run.id, [])
            for request in _generation_requests(trace, generation)
        ]
        for call_id, _, runs in _calls(trace)
        if runs
    }


def _calls(trace: Trace) -> Iterator[tuple[str, Span, list[Span]]]:
    """Each tool call's id, its span and the spans of the runs nested in it (a sub-agent's), in order."""
    for call in trace.spans_of("tool_call"):
        call_id = _str(call.attributes.get("toolCallId"))
        if call_id is not None:
            yield call_id, call, [span for span in trace.children(call) if span.type.endswith("_run")]


def filled_from_run(request: ModelRequest, calls: Sequence[ToolCall]) -> ModelRequest:
    """``request`` with the tool calls and results Mastra's trace abbreviated filled from ``calls``
    (the run's calls made before this step, in order), each noted as such. They are paired from the
    end: the latest abbreviated call is the run's latest call of that name (the history before them
    may hold an earlier turn's, which stay abbreviated and say so)."""
    if not any(
        isinstance(part, (ToolCallPart, ToolResultPart)) and part.note == ABBREVIATED
        for message in request.messages
        for part in message.parts
    ):
        return request
    left = {"tool-call": list(calls), "tool-result": list(calls)}
    messages = []
    for message in reversed(request.messages):
        parts: list[RequestPart] = []
        for part in reversed(message.parts):
            short = isinstance(part, (ToolCallPart, ToolResultPart)) and part.note == ABBREVIATED
            parts.append(_filled(part, left[part.type]) if short else part)  # type: ignore[arg-type]
        messages.append(message.model_copy(update={"parts": parts[::-1]}))
    return request.model_copy(update={"messages": messages[::-1]})


def _filled(part: ToolCallPart | ToolResultPart, calls: list[ToolCall]) -> ToolCallPart | ToolResultPart:
    """The abbreviated ``part`` filled from the latest of ``calls`` (taken from it) of its name."""
    if not calls or calls[-1].tool_name != part.name:
        calls.clear()  # out of step with the run: what is earlier is an earlier turn's
        return part
    call = calls.pop()
    if isinstance(part, ToolCallPart):
        return ToolCallPart(id=call.tool_call_id, name=call.tool_name, args=call.args, note=FROM_RUN)
    outcome = call.result if call.error is None else {"error": call.error.message}
    return ToolResultPart(id=call.tool_call_id, name=call.tool_name, result=outcome, note=FROM_RUN)


def with_trace(result: RunResult, trace: Trace) -> RunResult:
    """A copy of ``result`` whose steps without a request (their stream body redacted) take it from
    ``trace``, in order (``view.trace()`` does this for a live view's run; this serves a result read
    back from JSON, say). Steps that have one keep it."""
    traced = traced_requests(trace)
    steps = [
        step.model_copy(
            update={"request": filled_from_run(traced[i], _before(result, i)), "request_reason": None}
        )
        if step.request is None and i < len(traced)
        else step
        for i, step in enumerate(result.steps)
    ]
    return result.model_copy(update={"steps": steps})


def _before(result: RunResult, position: int) -> list[ToolCall]:
    return [call for step in result.steps[:position] for call in step.tool_calls]


def _children(trace: Trace, parent: Span, kind: str) -> list[Span]:
    return [span for span in trace.children(parent) if span.type == kind]


# ---- how long each part took, by the server's spans ------------------------------------------------


def _interval(span: Span) -> tuple[float, float] | None:
    start, end = _ms(span.start), _ms(span.end)
    return None if start is None or end is None else (start, end)


def _run_steps(trace: Trace, runs: list[Span]) -> list[tuple[float, float]]:
    """The model steps of these runs' own generations, in order (a resumed run's first step finishes
    the one that waited: not a step of its own, as in ``traced_requests``)."""
    found: list[tuple[float, float]] = []
    for run in runs:
        for generation in _children(trace, run, "model_generation"):
            steps = sorted(_children(trace, generation, "model_step"), key=_step_index)
            for step in steps[1:] if run.parent is not None and run in trace.requests else steps:
                interval = _interval(step)
                if interval is not None:
                    found.append(interval)
    return found


def traced_times(trace: Trace) -> TracedTimes:
    """The spans of the run's tool calls (by id), of the runs nested in them, and of each run's
    model steps, from ``trace``."""
    times = TracedTimes(steps={"": _run_steps(trace, trace.requests)})
    first = trace.requests[0] if trace.requests else None
    times.request = _interval(first) if first is not None else None
    for call_id, call, nested in _calls(trace):
        interval = _interval(call)
        if interval is None:
            continue
        times.tools[call_id] = interval
        if nested:
            run = _interval(nested[0])
            if run is not None:
                times.runs[call_id] = run
            times.steps[call_id] = _run_steps(trace, nested)
    return times


# ---- the trace as the timeline draws it (the run node's ``trace`` field) ----------------------------

LANE_SPANS = 300  # spans drawn in the lane; the rest are counted
VALUE_CHARS = 6_000  # of one span's input, output or attributes, roughly, kept for its details
LANE_CHARS = 150_000  # of all the spans' details: a trace of many big spans stays cheap on the wire
SPAN_VALUE = Bounds(
    string=1_000, value=VALUE_CHARS, items=40, depth=8
)  # one span's input, output or attributes
UNDRAWN = ("model_chunk",)  # one span per chunk: many, and the run's own parts draw them already


def _ms(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp() * 1000


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    found = _dict(value).get("message")
    return found if isinstance(found, str) else str(value)


def lane(trace: Trace) -> dict[str, Any]:
    """The trace as a lane of the run's timeline (the run node's ``trace`` field, drawn by
    js/src/render/timeline.ts and render/timeline.py): its spans in tree order, each with its depth,
    times in epoch ms, and its input, output and attributes cut to a size the view can carry
    (``view.trace()`` returns them whole). Chunk spans and event spans are counted, not drawn."""
    drawn = [span for span in trace.spans if not span.is_event and span.type not in UNDRAWN]
    ids = {span.id for span in drawn}
    kids: dict[str | None, list[Span]] = {}
    for span in drawn:  # drawn is in start order: so are each span's children
        kids.setdefault(span.parent if span.parent in ids else None, []).append(span)
    ordered: list[tuple[Span, int]] = []
    stack = [(span, 0) for span in reversed(kids.get(None, []))]
    while stack:
        span, depth = stack.pop()
        ordered.append((span, depth))
        stack += [(kid, depth + 1) for kid in reversed(kids.get(span.id, []))]
    budget = LANE_CHARS
    spans = []
    for span, depth in ordered[:LANE_SPANS]:
        details: dict[str, Any] = {}
        cut = False
        for key in ("input", "output", "attributes"):
            value = getattr(span, key)
            if budget <= 0:
                cut = cut or bool(value)
                continue
            kept, trimmed = bounded(value, SPAN_VALUE, min(VALUE_CHARS, budget))
            budget -= len(str(kept))
            details[key], cut = kept, cut or trimmed
        spans.append(
            {
                "id": span.id,
                "parent": span.parent,
                "depth": depth,
                "name": _lane_name(span),
                "type": span.type,
                "start": _ms(span.start),
                "end": _ms(span.end),
                "status": span.status,
                "error": _text(span.error),
                **details,
                "cut": cut,
            }
        )
    hidden = len(trace.spans) - len(spans)
    return {
        "trace_id": trace.trace_id,
        "complete": trace.complete,
        "message": trace.message,
        "spans": spans,
        "hidden": hidden,
    }


def _lane_name(span: Span) -> str:
    """A span's name in the lane: a model step numbered from 1, as the view's "Step 1" and
    ``Step.index`` number it (Mastra names it from 0: ``step: 0``, kept in its attributes)."""
    index = span.attributes.get("stepIndex")
    if span.type == "model_step" and isinstance(index, int) and not isinstance(index, bool):
        return f"step {index + 1}"
    return span.name


def unavailable_lane(trace_id: str | None, message: str) -> dict[str, Any]:
    """The lane of a run whose trace the server could not give: ``message`` says what to turn on."""
    return {"trace_id": trace_id, "complete": False, "message": message, "spans": [], "hidden": 0}
