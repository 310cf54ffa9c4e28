"""OpenTelemetry's GenAI conventions, both ways: a RunResult as a tree of spans (``invoke_agent`` for the
run, ``chat`` for each model step, ``execute_tool`` for each tool call, a nested run under its tool
call; scores and labels as ``gen_ai.evaluation.result`` events), and an OTLP/JSON export of such spans
(``resourceSpans`` -> ``scopeSpans`` -> ``spans``, from any tool that speaks the conventions) as the
chunks of a run, which ``mn.view(path)`` and ``mn.collect(path)`` read as they read a recording.

Pure data: no OpenTelemetry package is imported here. ``mastra_notebook.otel`` sends the spans through
the OpenTelemetry SDK. What the conventions carry comes back the same (a round trip gives the same
RunResult): the steps' text, reasoning, model, provider, response id, finish reason and usage; each
tool call's id, name, arguments, result or error (bounded: ``TOOL_VALUE``); the run's id, agent,
status and error; scores and a person's label; the spans' times (a step's text arrives at the end of
its ``chat`` span: the conventions have no time of the first token).
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

from . import values
from .bounding import Bounds, bounded
from .feedback import THUMB_VALUES, Feedback
from .feedback import line as feedback_line
from .result import RunResult, Step, ToolCall, Usage
from .score import Score, scores_line
from .state import TIME_KEY

Attribute = str | bool | int | float | Sequence[str]
Redact = Callable[[str], str]

# The conventions' names (https://opentelemetry.io/docs/specs/semconv/gen-ai/), and the notebook's own
OPERATION = "gen_ai.operation.name"
INVOKE_AGENT, INVOKE_WORKFLOW, CHAT, EXECUTE_TOOL = "invoke_agent", "invoke_workflow", "chat", "execute_tool"
RUNS = (INVOKE_AGENT, INVOKE_WORKFLOW)
AGENT_NAME, AGENT_ID, WORKFLOW_NAME = "gen_ai.agent.name", "gen_ai.agent.id", "gen_ai.workflow.name"
PROVIDER = "gen_ai.provider.name"
REQUEST_MODEL, RESPONSE_MODEL = "gen_ai.request.model", "gen_ai.response.model"
RESPONSE_ID, FINISH_REASONS = "gen_ai.response.id", "gen_ai.response.finish_reasons"
OUTPUT_MESSAGES = "gen_ai.output.messages"
TOOL_NAME, TOOL_CALL_ID, TOOL_TYPE = "gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.tool.type"
TOOL_ARGUMENTS, TOOL_RESULT = "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"
ERROR_TYPE = "error.type"
EVALUATION = "gen_ai.evaluation.result"  # an event
EVALUATION_NAME, EVALUATION_VALUE = "gen_ai.evaluation.name", "gen_ai.evaluation.score.value"
EVALUATION_LABEL, EVALUATION_EXPLANATION = "gen_ai.evaluation.score.label", "gen_ai.evaluation.explanation"
USAGE_ATTRIBUTES = {  # Usage's field: the conventions' attribute
    "input_tokens": "gen_ai.usage.input_tokens",
    "output_tokens": "gen_ai.usage.output_tokens",
    "cached_input_tokens": "gen_ai.usage.cache_read.input_tokens",
    "cache_creation_input_tokens": "gen_ai.usage.cache_creation.input_tokens",
    "reasoning_tokens": "gen_ai.usage.reasoning.output_tokens",
}
OWN = "mastra_notebook."  # the notebook's own attributes: what the conventions do not name
RUN_ID, STATUS, STEP_INDEX = OWN + "run.id", OWN + "status", OWN + "step.index"
TOOL_STATUS, RAN_IN = OWN + "tool.status", OWN + "tool.ran_in"
EVALUATION_KIND, SCORE_SOURCE, SCORE_THRESHOLD = (
    OWN + "evaluation.kind",
    OWN + "score.source",
    OWN + "score.threshold",
)
# an experiment's run: which input, variant and repeat (runs/experiment.py's export_otel sets them)
INPUT_INDEX, INPUT_ID, VARIANT, REPEAT = (
    OWN + "input.index",
    OWN + "input.id",
    OWN + "variant",
    OWN + "repeat",
)
EXPERIMENT = OWN + "experiment.name"

TOOL_VALUE = Bounds(string=4_000, value=16_000)  # a tool call's arguments or result, as a span carries it
TEXT_CHARS = 32_000  # a step's text or reasoning, as a span carries it
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass(slots=True)
class EventOut:
    """A span event: its name, time (ns since the epoch) and attributes."""

    name: str
    at_ns: int
    attributes: dict[str, Attribute]


@dataclass(slots=True)
class SpanOut:
    """A span to send: its name, times (ns since the epoch), attributes, events, children, and why it
    failed (its status description), if it did."""

    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Attribute]
    events: list[EventOut] = field(default_factory=list)
    children: list[SpanOut] = field(default_factory=list)
    error: str | None = None

    def walk(self) -> Iterable[SpanOut]:
        """This span and all below it, parents first."""
        yield self
        for child in self.children:
            yield from child.walk()


# ---- out: a RunResult as spans -------------------------------------------------------------------


def ns(moment: datetime | None, default: int) -> int:
    """``moment`` in ns since the epoch (microseconds, as a datetime holds), or ``default``."""
    if moment is None:
        return default
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    delta = moment - _EPOCH
    return ((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds) * 1_000


def _json(value: Any) -> str:
    """A value as the JSON text a span carries, bounded (``TOOL_VALUE``)."""
    cut, _ = bounded(value, TOOL_VALUE)
    return values.dump(cut)


def _usage(usage: Usage | None) -> dict[str, Attribute]:
    if usage is None:
        return {}
    return {name: getattr(usage, key) for key, name in USAGE_ATTRIBUTES.items() if getattr(usage, key)}


def evaluation(
    name: str,
    at_ns: int,
    *,
    value: float | None = None,
    label: str | None = None,
    explanation: str | None = None,
    **own: Attribute | None,
) -> EventOut:
    """A ``gen_ai.evaluation.result`` event; ``own``: the notebook's attributes (``kind="score"``...)."""
    attributes: dict[str, Attribute] = {EVALUATION_NAME: name}
    if value is not None and math.isfinite(value):
        attributes[EVALUATION_VALUE] = float(value)
    if label is not None:
        attributes[EVALUATION_LABEL] = label
    if explanation:
        attributes[EVALUATION_EXPLANATION] = explanation
    attributes.update({OWN + key.replace("_", "."): v for key, v in own.items() if v is not None})
    return EventOut(EVALUATION, at_ns, attributes)


def score_event(score: Score, at_ns: int) -> EventOut:
    """A score as an evaluation event: its value, ``pass``/``fail`` as the label when it has a threshold."""
    label = None if score.passed is None else ("pass" if score.passed else "fail")
    return evaluation(
        score.scorer,
        at_ns,
        value=score.score,
        label=label,
        explanation=score.reason,
        evaluation_kind="score",
        score_source=score.source,
        score_threshold=score.threshold,
    )


LABEL_NAME = "label"  # a person's label's evaluation name


def label_event(feedback: Feedback, at_ns: int) -> EventOut:
    """A person's label as an evaluation event: thumbs as the label (``up``/``down``), the score as
    the value (else the thumbs' 1 or 0), the comment as the explanation."""
    value = feedback.score
    if value is None and feedback.thumbs is not None:
        value = float(THUMB_VALUES[feedback.thumbs])
    at = ns(feedback.at, at_ns)
    return evaluation(
        LABEL_NAME,
        at,
        value=value,
        label=feedback.thumbs,
        explanation=feedback.comment,
        evaluation_kind="label",
        label_score=feedback.score,
    )


def run_spans(
    result: RunResult,
    *,
    attributes: Mapping[str, Attribute] | None = None,
    events: Sequence[EventOut] = (),
    redact: Redact | None = None,
) -> SpanOut:
    """``result`` as a tree of spans: ``invoke_agent`` (``invoke_workflow`` for a workflow) with its
    ``chat`` steps and ``execute_tool`` calls (a nested run under its call); its scores and label as
    evaluation events, with ``events`` (pairwise verdicts); ``attributes`` on the run's span (an
    experiment's input, variant, repeat). Times are the run's own (none: the epoch). ``redact``: every
    string said, with secrets hidden (a transport's ``redact``)."""
    span = _run_span(result, ns(result.started_at, 0))
    end = span.end_ns
    span.events += [score_event(score, end) for score in result.scores]
    if result.feedback is not None and not result.feedback.empty:
        span.events.append(label_event(result.feedback, end))
    span.events += events
    span.attributes.update(attributes or {})
    if redact is not None:
        for each in span.walk():
            each.attributes = {key: _redacted(value, redact) for key, value in each.attributes.items()}
            for event in each.events:
                event.attributes = {key: _redacted(value, redact) for key, value in event.attributes.items()}
            each.error = None if each.error is None else redact(each.error)
    return span


def _redacted(value: Attribute, redact: Redact) -> Attribute:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (list, tuple)):
        return [redact(item) for item in value]
    return value


def _run_span(result: RunResult, start: int) -> SpanOut:
    workflow = result.workflow is not None
    operation = INVOKE_WORKFLOW if workflow else INVOKE_AGENT
    name = result.agent_id or (result.workflow.workflow_id if result.workflow else None)
    attributes: dict[str, Attribute] = {OPERATION: operation, STATUS: result.status, **_usage(result.usage)}
    if name:
        attributes.update({WORKFLOW_NAME: name} if workflow else {AGENT_NAME: name, AGENT_ID: name})
    if result.run_id:
        attributes[RUN_ID] = result.run_id
    if result.text:
        attributes[OUTPUT_MESSAGES] = values.dump([_message([_text_part(result.text)], result.finish_reason)])
    span = SpanOut(f"{operation} {name}" if name else operation, start, start, attributes)
    clock = start
    for step in result.steps:
        chat, calls = _step_spans(step, clock)
        span.children += [chat, *calls]
        clock = max(clock, chat.end_ns, *(call.end_ns for call in calls))
    if result.workflow is not None:
        for workflow_step in result.workflow.steps:
            if workflow_step.children is not None:
                span.children.append(_run_span(workflow_step.children, ns(workflow_step.started_at, clock)))
    span.end_ns = max(ns(result.finished_at, clock), clock, *(child.end_ns for child in span.children))
    if result.status == "error" and result.error is not None:
        span.error = result.error.message
        attributes[ERROR_TYPE] = result.error.name or "error"
    elif result.status == "tripwire" and result.tripwire is not None:
        span.error = result.tripwire.reason
        attributes[ERROR_TYPE] = "tripwire"
    return span


def _text_part(text: str, kind: str = "text") -> dict[str, Any]:
    return {"type": kind, "content": text[:TEXT_CHARS]}


def _message(parts: list[dict[str, Any]], finish_reason: str | None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "parts": parts}
    if finish_reason:
        message["finish_reason"] = finish_reason
    return message


def _step_spans(step: Step, clock: int) -> tuple[SpanOut, list[SpanOut]]:
    """A step's ``chat`` span (the model's call: from the step's start to its last token, before its
    tools ran) and its tool calls' ``execute_tool`` spans."""
    start = ns(step.started_at, clock)
    ended = ns(step.last_token_at or step.finished_at, start)
    calls = [_tool_span(call, ended) for call in step.tool_calls]
    end = max(start, min([ended, *(call.start_ns for call in calls)]))
    model = step.model_id
    attributes: dict[str, Attribute] = {OPERATION: CHAT, STEP_INDEX: step.index, **_usage(step.usage)}
    requested = step.request.settings.model if step.request is not None else None
    if requested or model:
        attributes[REQUEST_MODEL] = str(requested or model)
    if model:
        attributes[RESPONSE_MODEL] = model
    if step.provider:
        attributes[PROVIDER] = step.provider
    if step.response_id:
        attributes[RESPONSE_ID] = step.response_id
    if step.finish_reason:
        attributes[FINISH_REASONS] = [step.finish_reason]
    parts = [_text_part(step.reasoning_text, "reasoning")] if step.reasoning_text else []
    if step.text:
        parts.append(_text_part(step.text))
    parts += [
        {"type": "tool_call", "id": c.tool_call_id, "name": c.tool_name, "arguments": c.args}
        for c in step.tool_calls
    ]
    attributes[OUTPUT_MESSAGES] = values.dump([_message(parts, step.finish_reason)])
    chat = SpanOut(f"{CHAT} {model}" if model else CHAT, start, end, attributes)
    return chat, calls


def _tool_span(call: ToolCall, clock: int) -> SpanOut:
    start = ns(call.called_at or call.started_at, clock)
    end = max(start, ns(call.finished_at, start))
    attributes: dict[str, Attribute] = {
        OPERATION: EXECUTE_TOOL,
        TOOL_NAME: call.tool_name,
        TOOL_CALL_ID: call.tool_call_id,
        TOOL_TYPE: "extension" if call.provider_executed else "function",
        TOOL_STATUS: call.status,
    }
    if call.args is not None:
        attributes[TOOL_ARGUMENTS] = _json(call.args)
    if call.result is not None:
        attributes[TOOL_RESULT] = _json(call.result)
    if call.ran_in:
        attributes[RAN_IN] = call.ran_in
    span = SpanOut(f"{EXECUTE_TOOL} {call.tool_name}", start, end, attributes)
    if call.error is not None:
        span.error = call.error.message
        attributes[ERROR_TYPE] = call.error.name or "error"
    if call.children is not None:
        span.children.append(_run_span(call.children, start))
        span.end_ns = max(span.end_ns, span.children[0].end_ns)
    return span


# ---- in: an OTLP/JSON export as a run's chunks ----------------------------------------------------


@dataclass(slots=True)
class SpanIn:
    """A span of an OTLP/JSON export, its attributes as plain values."""

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    events: list[tuple[str, int, dict[str, Any]]]
    error: str | None

    @property
    def operation(self) -> str | None:
        """The span's ``gen_ai.operation.name`` (``invoke_agent``, ``chat``...), when it says one."""
        found = self.attributes.get(OPERATION)
        return found if isinstance(found, str) else None


_SNIFF = 4096
# An export's first field is its only one (ExportTraceServiceRequest): a recording whose lines merely
# mention it (a garbage line, a tool's text) is no export
_OTLP_START = re.compile(rb'\{\s*"(?:resourceSpans|resource_spans)"\s*:')


def documents(source: Any) -> list[dict[str, Any]] | None:
    """The OTLP/JSON documents of ``source`` (a path, bytes, or a parsed document): one JSON object
    (pretty-printed or not), or one per line (a collector's file exporter); None when ``source`` is
    not OTLP/JSON (a recording)."""
    if isinstance(source, dict):
        return [source] if "resourceSpans" in source or "resource_spans" in source else None
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            with path.open("rb") as file:
                head = file.read(_SNIFF)
        except OSError:
            return None  # framing's reading says what is wrong with the path
        data: bytes | None = None
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        head = data[:_SNIFF]
    else:
        return None
    if not _OTLP_START.match(head.lstrip(b"\xef\xbb\xbf \t\r\n")):
        return None
    if data is None:
        data = path.read_bytes()
    try:
        whole = orjson.loads(data)
    except orjson.JSONDecodeError:
        try:
            parsed = [orjson.loads(line) for line in (line.strip() for line in data.splitlines()) if line]
        except orjson.JSONDecodeError:
            return None  # a line that is no JSON: read as a recording, which keeps and reports it
    else:
        parsed = [whole]
    return [doc for doc in parsed if isinstance(doc, dict)]


def _field(given: dict[str, Any], name: str) -> Any:
    """A field of an OTLP/JSON object by its lowerCamelCase name, or by its proto name (snake_case,
    which a proto3 JSON reader takes too: Phoenix's ``/spans/otlpv1`` writes it); null is absent."""
    found = given.get(name)
    if found is None:
        found = given.get(re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name))
    return found


def _value(given: Any) -> Any:
    """An OTLP/JSON AnyValue as a plain value."""
    if not isinstance(given, dict):
        return None
    for name, kind in (("stringValue", str), ("boolValue", bool), ("intValue", int), ("doubleValue", float)):
        found = _field(given, name)
        if found is not None:
            return kind(found)
    listed = _field(given, "arrayValue")
    if listed is not None:
        return [_value(item) for item in listed.get("values") or []]
    pairs = _field(given, "kvlistValue")
    if pairs is not None:
        return plain_attributes(pairs.get("values") or [])
    return None


def plain_attributes(listed: Any) -> dict[str, Any]:
    """OTLP/JSON's key-value list of attributes as a dict of plain values."""
    if not isinstance(listed, list):
        return {}
    return {kv["key"]: _value(kv.get("value")) for kv in listed if isinstance(kv, dict) and "key" in kv}


def hex_id(value: Any) -> str:
    """A trace or span id as hex (OTLP/JSON's; a protobuf mapping's base64 is read as well)."""
    if not isinstance(value, str) or not value:
        return ""
    if len(value) in (16, 32) and all(c in "0123456789abcdefABCDEF" for c in value):
        return value.lower()
    try:
        return base64.b64decode(value).hex()
    except (binascii.Error, ValueError):
        return value


def spans_of(docs: Iterable[dict[str, Any]]) -> list[SpanIn]:
    """Every span of OTLP/JSON documents, in the order they started."""
    found: list[SpanIn] = []
    for doc in docs:
        for resource in _field(doc, "resourceSpans") or []:
            for scope in _field(resource or {}, "scopeSpans") or []:
                for span in (scope or {}).get("spans") or []:
                    if isinstance(span, dict):
                        found.append(_span_in(span))
    found.sort(key=lambda span: span.start_ns)
    return found


def _span_in(span: dict[str, Any]) -> SpanIn:
    status = span.get("status") or {}
    failed = status.get("code") in (2, "STATUS_CODE_ERROR")
    events = [
        (str(e.get("name", "")), int(_field(e, "timeUnixNano") or 0), plain_attributes(e.get("attributes")))
        for e in span.get("events") or []
        if isinstance(e, dict)
    ]
    return SpanIn(
        hex_id(_field(span, "traceId")),
        hex_id(_field(span, "spanId")),
        hex_id(_field(span, "parentSpanId")),
        str(span.get("name", "")),
        int(_field(span, "startTimeUnixNano") or 0),
        int(_field(span, "endTimeUnixNano") or 0),
        plain_attributes(span.get("attributes")),
        events,
        (status.get("message") or "error") if failed else None,
    )


@dataclass(slots=True)
class Read:
    """A run read from spans: its chunks, each with its time (``mnReceivedMs``), the run's start
    (epoch ms), and the trace id its spans were in."""

    chunks: list[dict[str, Any]]
    start_ms: float
    trace_id: str
    runs: int  # how many runs the export holds


def read(docs: Sequence[dict[str, Any]]) -> Read:
    """The first run of OTLP/JSON documents (``read_all``'s first) as the chunks of a Mastra stream."""
    return read_all(docs, first_only=True)[0]


def read_all(docs: Sequence[dict[str, Any]], *, first_only: bool = False) -> list[Read]:
    """Every run of OTLP/JSON documents, in the export's order, as the chunks of Mastra streams: each
    top-level ``invoke_agent`` / ``invoke_workflow`` span (a sub-agent's stays in its run), else each
    trace's ``chat`` spans (a model's instrumentation, no agent). Never empty: no span reads as one
    run of nothing."""
    spans = spans_of(docs)
    by_id = {span.span_id: span for span in spans}
    roots = [s for s in spans if s.operation in RUNS and not _under_a_run(s, by_id)]
    if roots:
        kids: dict[str, list[SpanIn]] = {}
        for span in spans:
            kids.setdefault(span.parent_id, []).append(span)
        return [
            Read(_chunks(root, kids.get(root.span_id, []), root.start_ns, root.end_ns), root.start_ns / 1e6,
                 root.trace_id, len(roots))
            for root in roots[: 1 if first_only else None]
        ]  # fmt: skip
    traces: dict[str, list[SpanIn]] = {}
    for span in spans:
        if span.operation in (CHAT, EXECUTE_TOOL):
            traces.setdefault(span.trace_id, []).append(span)
    if not traces:
        return [Read(_chunks(None, [], 0, 0), 0.0, spans[0].trace_id if spans else "", 1)]
    reads = []
    for trace_id, children in list(traces.items())[: 1 if first_only else None]:
        start = min(s.start_ns for s in children)
        end = max(s.end_ns for s in children)
        reads.append(Read(_chunks(None, children, start, end), start / 1e6, trace_id, len(traces)))
    return reads


def _under_a_run(span: SpanIn, by_id: Mapping[str, SpanIn]) -> bool:
    """Whether a run's span is nested in another run of the export (a sub-agent)."""
    parent = by_id.get(span.parent_id)
    while parent is not None:
        if parent.operation in RUNS:
            return True
        parent = by_id.get(parent.parent_id)
    return False


def _loads(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return text


def _parts(span: SpanIn) -> list[dict[str, Any]]:
    """The parts of a span's output messages (``gen_ai.output.messages``)."""
    messages = _loads(span.attributes.get(OUTPUT_MESSAGES))
    if not isinstance(messages, list):
        return []
    return [
        part
        for m in messages
        if isinstance(m, dict)
        for part in m.get("parts") or []
        if isinstance(part, dict)
    ]


def _usage_in(attributes: Mapping[str, Any]) -> dict[str, int]:
    """Mastra's usage (camelCase) from the conventions' attributes."""
    return {
        values.USAGE_KEYS[key]: int(attributes[name])
        for key, name in USAGE_ATTRIBUTES.items()
        if isinstance(attributes.get(name), (int, float))
    }


def _chunks(root: SpanIn | None, children: list[SpanIn], start: int, end: int) -> list[dict[str, Any]]:
    attributes = root.attributes if root is not None else {}
    run_id = attributes.get(RUN_ID) or (root.trace_id if root is not None else None)
    agent = attributes.get(AGENT_ID) or attributes.get(AGENT_NAME) or attributes.get(WORKFLOW_NAME)
    chunks: list[dict[str, Any]] = []

    def add(at_ns: int, kind: str, payload: dict[str, Any]) -> None:
        chunk: dict[str, Any] = {"type": kind, "runId": run_id, "from": "AGENT", "payload": payload}
        chunk[TIME_KEY] = round((at_ns - start) / 1e6, 3)
        chunks.append(chunk)

    add(start, "start", {"id": agent} if agent else {})
    chats = [s for s in children if s.operation == CHAT]
    tools = [s for s in children if s.operation == EXECUTE_TOOL]
    owner: dict[int, list[SpanIn]] = {id(chat): [] for chat in chats}
    for tool in tools:  # a tool's step: the chat that asked for it, else the last one before it
        call_id = tool.attributes.get(TOOL_CALL_ID)
        asked = [
            c for c in chats if any(p.get("id") == call_id for p in _parts(c) if p.get("type") == "tool_call")
        ]
        before = [c for c in chats if c.start_ns <= tool.start_ns]
        candidates = asked[:1] or before[-1:] or chats[:1]
        if candidates:
            owner[id(candidates[0])].append(tool)
    last_reason = None
    for index, chat in enumerate(chats):
        add(chat.start_ns, "step-start", {})
        parts = _parts(chat)
        for kind, chunk_type in (("reasoning", "reasoning-delta"), ("text", "text-delta")):
            text = "".join(str(p.get("content", "")) for p in parts if p.get("type") == kind)
            if text:
                add(chat.end_ns, chunk_type, {"id": f"{kind}-{index}", "text": text})
        finished = chat.end_ns
        for tool in sorted(owner[id(chat)], key=lambda t: t.start_ns):
            add(tool.start_ns, *_tool_chunks(tool)[0])
            ending = _tool_chunks(tool)[1]
            if ending is not None:
                add(tool.end_ns, *ending)
            finished = max(finished, tool.end_ns)
        reasons = chat.attributes.get(FINISH_REASONS)
        last_reason = reasons[0] if isinstance(reasons, list) and reasons else None
        model = chat.attributes.get(RESPONSE_MODEL) or chat.attributes.get(REQUEST_MODEL)
        metadata: dict[str, Any] = {"id": chat.attributes.get(RESPONSE_ID), "modelId": model}
        if chat.attributes.get(PROVIDER):
            metadata["modelMetadata"] = {"modelProvider": chat.attributes[PROVIDER]}
        add(
            finished,
            "step-finish",
            {
                "stepResult": {"reason": last_reason},
                "metadata": metadata,
                "output": {"usage": _usage_in(chat.attributes)},
            },
        )
    _ending(root, chats, end, add, reason=last_reason)
    chunks += _evaluations(root, run_id)
    return chunks


def _tool_chunks(tool: SpanIn) -> tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]] | None]:
    """A tool span's call chunk, and its ending's (its result, or its error), if it ended."""
    attributes = tool.attributes
    call = {
        "toolCallId": attributes.get(TOOL_CALL_ID) or tool.span_id,
        "toolName": attributes.get(TOOL_NAME) or tool.name.removeprefix(f"{EXECUTE_TOOL} "),
    }
    if attributes.get(RAN_IN):
        call["ranIn"] = attributes[RAN_IN]
    args = _loads(attributes.get(TOOL_ARGUMENTS))
    status = attributes.get(TOOL_STATUS)
    if tool.error is not None or status == "error":
        error = {"message": tool.error or "error", "name": attributes.get(ERROR_TYPE)}
        return ("tool-call", {**call, "args": args}), ("tool-error", {**call, "error": error})
    if TOOL_RESULT in attributes or status in (None, "done"):
        result = _loads(attributes.get(TOOL_RESULT))
        return ("tool-call", {**call, "args": args}), ("tool-result", {**call, "result": result})
    return ("tool-call", {**call, "args": args}), None


def _ending(
    root: SpanIn | None,
    chats: list[SpanIn],
    end: int,
    add: Callable[[int, str, dict[str, Any]], None],
    *,
    reason: Any,
) -> None:
    """The run's last chunk: finish, error, abort or tripwire (none: the run reads as incomplete)."""
    attributes = root.attributes if root is not None else {}
    status = attributes.get(STATUS) or ("error" if root is not None and root.error else "finished")
    if status == "finished":
        usage = _usage_in(attributes)
        if not usage:  # no total on the run's span: the steps'
            usage = {}
            for chat in chats:
                for key, count in _usage_in(chat.attributes).items():
                    usage[key] = usage.get(key, 0) + count
        add(end, "finish", {"stepResult": {"reason": reason}, "output": {"usage": usage}})
    elif status == "error":
        message = root.error if root is not None and root.error else "error"
        add(end, "error", {"error": {"message": message, "name": attributes.get(ERROR_TYPE)}})
    elif status == "aborted":
        add(end, "abort", {})
    elif status == "tripwire":
        add(end, "tripwire", {"reason": root.error if root is not None else None})


def _evaluations(root: SpanIn | None, run_id: Any) -> list[dict[str, Any]]:
    """The run's scores and label (its span's evaluation events), as a recording's own lines."""
    if root is None:
        return []
    scores: list[Score] = []
    label: Feedback | None = None
    for name, at_ns, attributes in root.events:
        if name != EVALUATION:
            continue
        kind = attributes.get(EVALUATION_KIND)
        value = attributes.get(EVALUATION_VALUE)
        said = attributes.get(EVALUATION_LABEL)
        if kind == LABEL_NAME:
            thumbs = said if said in THUMB_VALUES else None
            at = datetime.fromtimestamp(at_ns / 1e9, timezone.utc) if at_ns else None
            label = Feedback(
                thumbs=thumbs,
                score=attributes.get(OWN + "label.score"),
                comment=attributes.get(EVALUATION_EXPLANATION),
                at=at,
            )
        elif kind in (None, "score"):
            passed = {"pass": True, "fail": False}.get(said) if isinstance(said, str) else None
            source = attributes.get(SCORE_SOURCE)
            scores.append(
                Score(
                    scorer=str(attributes.get(EVALUATION_NAME, "")),
                    score=float(value) if isinstance(value, (int, float)) else None,
                    reason=attributes.get(EVALUATION_EXPLANATION),
                    source=source if source in ("mastra", "notebook") else "notebook",
                    passed=passed,
                    threshold=attributes.get(SCORE_THRESHOLD),
                )
            )
    lines = [scores_line(scores, run_id)] if scores else []
    if label is not None:
        lines.append(feedback_line(label, run_id))
    return lines
