"""Typed Mastra stream chunks: one chunk, never the run.

Every chunk is ``{type, runId?, from?, payload?, metadata?}`` (``object``/``object-result`` carry a
top-level ``object``; ``data-*`` chunks carry ``data``). Models keep extra keys. ``parse_chunk`` turns
anything (dict, JSON text, bytes) into a typed chunk, an :class:`UnknownChunk` for a type we do not
model, or an :class:`InvalidChunk` holding the raw text and a readable error. It never raises.

The reducer does not pay for a pydantic validation on hot chunks: :func:`check` validates
``text-delta``, ``reasoning-delta``, ``tool-call-delta`` and ``tool-output`` by hand and leaves the
model to be built lazily by whoever asks for it.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, NamedTuple, Union

import orjson
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter, ValidationError


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Payload(_Model):
    """A chunk payload; keys Mastra adds beyond the modelled ones are kept."""


class ChunkBase(_Model):
    type: str
    run_id: str | None = Field(None, alias="runId")
    from_: str | None = Field(None, alias="from")
    metadata: Any = None

    def to_dict(self) -> dict[str, Any]:
        """The chunk as Mastra sent it (camelCase keys, extra keys kept)."""
        return self.model_dump(by_alias=True, exclude_unset=True)


# ---- payloads -------------------------------------------------------------------------------


class IdPayload(Payload):
    id: str = ""


class TextPayload(IdPayload):
    text: str


class SignaturePayload(IdPayload):
    signature: str


class StartPayload(Payload):
    id: str | None = None
    message_id: str | None = Field(None, alias="messageId")


class StepStartPayload(Payload):
    message_id: str | None = Field(None, alias="messageId")
    warnings: list[Any] = []


class FinishPayload(Payload):
    step_result: dict[str, Any] = Field(default_factory=dict, alias="stepResult")
    output: dict[str, Any] = Field(default_factory=dict)


class SourcePayload(Payload):
    id: str | None = None
    source_type: str | None = Field(None, alias="sourceType")
    url: str | None = None
    title: str | None = None


class FilePayload(Payload):
    data: Any = None
    base64: str | None = None
    mime_type: str | None = Field(None, alias="mimeType")


class ToolPayload(Payload):
    tool_call_id: str = Field(alias="toolCallId")
    tool_name: str | None = Field(None, alias="toolName")


class ToolCallPayload(ToolPayload):
    args: Any = None


class ToolCallDeltaPayload(ToolPayload):
    args_text_delta: str = Field(alias="argsTextDelta")


class ToolResultPayload(ToolCallPayload):
    result: Any = None
    is_error: bool | None = Field(None, alias="isError")


class ToolErrorPayload(ToolCallPayload):
    error: Any = None


class ToolApprovalPayload(ToolCallPayload):
    resume_schema: Any = Field(None, alias="resumeSchema")


class ToolSuspendedPayload(ToolCallPayload):
    suspend_payload: Any = Field(None, alias="suspendPayload")
    resume_schema: Any = Field(None, alias="resumeSchema")


class ToolDeniedPayload(ToolCallPayload):
    approval: Any = None


class ToolOutputPayload(ToolPayload):
    output: Any = None


class ErrorPayload(Payload):
    error: Any = None


class TripwirePayload(Payload):
    reason: str | None = None
    processor_id: str | None = Field(None, alias="processorId")


class BackgroundTaskPayload(Payload):
    task_id: str = Field(alias="taskId")
    tool_name: str | None = Field(None, alias="toolName")
    tool_call_id: str | None = Field(None, alias="toolCallId")


class WorkflowStepPayload(Payload):
    step_name: str | None = Field(None, alias="stepName")
    id: str | None = None
    status: str | None = None


class WorkflowStepOutputPayload(WorkflowStepPayload):
    output: Any = None


# ---- chunks ---------------------------------------------------------------------------------

_CHUNK_CLASSES: dict[str, type[ChunkBase]] = {}


def _chunk(type_: str, payload: type[Payload] = Payload, *, class_name: str | None = None) -> type[ChunkBase]:
    """A chunk model whose ``type`` is ``type_`` and whose payload is ``payload``."""
    name = class_name or "".join(part.capitalize() for part in type_.split("-")) + "Chunk"
    cls: type[ChunkBase] = type(  # a pydantic model built from annotations, like a class statement
        name,
        (ChunkBase,),
        {
            "__annotations__": {"type": Literal[type_], "payload": payload},
            "__module__": __name__,
            "__doc__": f"A ``{type_}`` chunk.",
            # a loose payload may be missing (``abort`` sends ``{}``, some network chunks none)
            **({"payload": Field(default_factory=Payload)} if payload is Payload else {}),
        },
    )
    _CHUNK_CLASSES[type_] = cls
    return cls


StartChunk = _chunk("start", StartPayload)
StepStartChunk = _chunk("step-start", StepStartPayload)
StepFinishChunk = _chunk("step-finish", FinishPayload)
FinishChunk = _chunk("finish", FinishPayload)
TextStartChunk = _chunk("text-start", IdPayload)
TextDeltaChunk = _chunk("text-delta", TextPayload)
TextEndChunk = _chunk("text-end", IdPayload)
ReasoningStartChunk = _chunk("reasoning-start", IdPayload)
ReasoningDeltaChunk = _chunk("reasoning-delta", TextPayload)
ReasoningEndChunk = _chunk("reasoning-end", IdPayload)
ReasoningSignatureChunk = _chunk("reasoning-signature", SignaturePayload)
RedactedReasoningChunk = _chunk("redacted-reasoning", IdPayload)
ReasoningFileChunk = _chunk("reasoning-file", FilePayload)
SourceChunk = _chunk("source", SourcePayload)
FileChunk = _chunk("file", FilePayload)
ToolCallChunk = _chunk("tool-call", ToolCallPayload)
ToolCallInputStreamingStartChunk = _chunk("tool-call-input-streaming-start", ToolPayload)
ToolCallDeltaChunk = _chunk("tool-call-delta", ToolCallDeltaPayload)
ToolCallInputStreamingEndChunk = _chunk("tool-call-input-streaming-end", ToolPayload)
ToolResultChunk = _chunk("tool-result", ToolResultPayload)
ToolErrorChunk = _chunk("tool-error", ToolErrorPayload)
ToolCallApprovalChunk = _chunk("tool-call-approval", ToolApprovalPayload)
ToolCallSuspendedChunk = _chunk("tool-call-suspended", ToolSuspendedPayload)
ToolOutputDeniedChunk = _chunk("tool-output-denied", ToolDeniedPayload)
ToolOutputChunk = _chunk("tool-output", ToolOutputPayload)
StepOutputChunk = _chunk("step-output", Payload)
ErrorChunk = _chunk("error", ErrorPayload)
AbortChunk = _chunk("abort", Payload)
RawChunk = _chunk("raw", Payload)
ResponseMetadataChunk = _chunk("response-metadata", Payload)
WatchChunk = _chunk("watch", Payload)
GoalChunk = _chunk("goal", Payload)
IsTaskCompleteChunk = _chunk("is-task-complete", Payload)
CustomChunk = _chunk("custom", Payload)
TripwireChunk = _chunk("tripwire", TripwirePayload)

BACKGROUND_TASK_TYPES = tuple(
    f"background-task-{state}"
    for state in (
        "started", "running", "output", "progress", "completed",
        "failed", "cancelled", "suspended", "resumed",
    )
)  # fmt: skip
for _type in BACKGROUND_TASK_TYPES:
    _chunk(_type, BackgroundTaskPayload)

WORKFLOW_TYPES = (
    "workflow-start", "workflow-step-start", "workflow-step-result", "workflow-step-output",
    "workflow-step-suspended", "workflow-step-waiting", "workflow-step-progress",
    "workflow-step-finish", "workflow-paused", "workflow-canceled", "workflow-finish",
)  # fmt: skip
for _type in WORKFLOW_TYPES:
    _chunk(_type, WorkflowStepOutputPayload if _type == "workflow-step-output" else WorkflowStepPayload)

NETWORK_TYPES = (
    "routing-agent-start", "routing-agent-end", "routing-agent-abort", "routing-agent-text-start",
    "routing-agent-text-delta",
    *(f"{primitive}-execution-{state}"
      for primitive in ("agent", "workflow", "tool")
      for state in ("start", "end", "approval", "suspended", "abort")),
    "network-execution-event-step-finish", "network-execution-event-finish",
    "network-validation-start", "network-validation-end", "network-object", "network-object-result",
)  # fmt: skip
for _type in NETWORK_TYPES:
    _chunk(_type, Payload)


class ObjectChunk(ChunkBase):
    """A partial structured-output object (top-level ``object``, no payload)."""

    type: Literal["object"]
    object: Any = None


class ObjectResultChunk(ChunkBase):
    """The final structured-output object."""

    type: Literal["object-result"]
    object: Any = None


class DataChunk(ChunkBase):
    """A custom ``data-*`` chunk written by a tool or workflow: ``{type, data, id?, transient?}``."""

    data: Any = None
    id: str | None = None
    transient: bool | None = None


class ExecutionEventChunk(ChunkBase):
    """A network ``<agent|workflow|tool>-execution-event-<type>`` chunk: its payload is a whole inner
    chunk of the primitive the routing agent picked."""

    payload: Any = None


class UnknownChunk(ChunkBase):
    """A chunk whose ``type`` this version does not model: kept whole and shown raw."""

    payload: Any = None


class InvalidChunk(BaseModel):
    """Something that could not be a chunk: the original text, and why."""

    raw: str
    error: str


_CHUNK_CLASSES["object"] = ObjectChunk
_CHUNK_CLASSES["object-result"] = ObjectResultChunk
KNOWN_TYPES = frozenset(_CHUNK_CLASSES)


# Families of types named by a prefix: the rest of the name is free (``data-weather``,
# ``agent-execution-event-text-delta``).
PREFIXES: dict[str, type[ChunkBase]] = {
    "data-": DataChunk,
    "agent-execution-event-": ExecutionEventChunk,
    "workflow-execution-event-": ExecutionEventChunk,
    "tool-execution-event-": ExecutionEventChunk,
}


def family(chunk_type: str) -> str | None:
    """The registry entry of a type: itself when known, its prefix for a prefixed family, else None."""
    if chunk_type in KNOWN_TYPES:
        return chunk_type
    for prefix in PREFIXES:
        if chunk_type.startswith(prefix):
            return prefix
    return None


def _tag(value: Any) -> str:
    chunk_type = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    if not isinstance(chunk_type, str):
        return "unknown"
    return family(chunk_type) or "unknown"


_variants: list[Any] = [Annotated[cls, Tag(tag)] for tag, cls in _CHUNK_CLASSES.items()]
_variants += [Annotated[cls, Tag(prefix)] for prefix, cls in PREFIXES.items()]
_variants += [Annotated[UnknownChunk, Tag("unknown")]]
Chunk = Annotated[Union[tuple(_variants)], Discriminator(_tag)]  # type: ignore[valid-type]  # noqa: UP007
"""Any parsed chunk: a typed model per known type, ``DataChunk``, or ``UnknownChunk``."""


@cache
def _adapter() -> TypeAdapter[Any]:
    return TypeAdapter(Chunk)  # type: ignore[arg-type]  # a union built at import time


def _payload_error(value: dict[str, Any], key: str, kind: type) -> str | None:
    payload = value.get("payload")
    if not isinstance(payload, dict):
        return f"{value['type']}: payload must be an object, got {type(payload).__name__}"
    if not isinstance(payload.get(key), kind):
        return f"{value['type']}: payload.{key} must be a {kind.__name__}"
    return None


def _check_delta(value: dict[str, Any]) -> str | None:
    payload = value.get("payload")
    if type(payload) is dict and type(payload.get("text")) is str:  # the hottest check: inline
        return None
    return _payload_error(value, "text", str)


def _check_tool_delta(value: dict[str, Any]) -> str | None:
    payload = value.get("payload")
    if (
        type(payload) is dict
        and type(payload.get("argsTextDelta")) is str
        and type(payload.get("toolCallId")) is str
    ):
        return None
    return _payload_error(value, "argsTextDelta", str) or _payload_error(value, "toolCallId", str)


def _check_tool_output(value: dict[str, Any]) -> str | None:
    payload = value.get("payload")
    if type(payload) is dict and type(payload.get("toolCallId")) is str:
        return None
    return _payload_error(value, "toolCallId", str)


_HOT_CHECKS = {
    "text-delta": _check_delta,
    "reasoning-delta": _check_delta,
    "tool-call-delta": _check_tool_delta,
    "tool-output": _check_tool_output,
}


def _readable(error: ValidationError, chunk_type: str) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"][1:]) or "chunk"  # loc[0] is the union tag
    return f"{chunk_type}: {where}: {first['msg']}"


def check(value: dict[str, Any]) -> str | None:
    """Why ``value`` (a decoded JSON object) is not a valid chunk, or None when it is one.

    Cheap for hot chunk types; a full model validation for the rest. Unknown types are valid.
    """
    chunk_type = value.get("type")
    if chunk_type == "text-delta":  # the hottest check of all, inline
        payload = value.get("payload")
        if type(payload) is dict and type(payload.get("text")) is str:
            return None
    elif not isinstance(chunk_type, str):
        return "not a chunk: no string 'type'"
    hot = _HOT_CHECKS.get(chunk_type)
    if hot is not None:
        return hot(value)
    if chunk_type not in KNOWN_TYPES:
        return None
    try:
        _adapter().validate_python(value)
    except ValidationError as error:
        return _readable(error, chunk_type)
    return None


def raw_text(item: bytes | str) -> str:
    """The original line as text; undecodable bytes are backslash-escaped, never lost."""
    return item.decode("utf-8", "backslashreplace") if isinstance(item, bytes) else item


def coerce(item: Any) -> dict[str, Any] | InvalidChunk:
    """One input item as a decoded chunk, or an InvalidChunk saying why it is none. Never raises.

    The one reading of an item for every entry point (``Run.feed``, views, recordings, the
    inspector): a dict or a parsed chunk is a chunk; a ``str``, ``bytes``, ``bytearray`` or
    ``memoryview`` is the JSON text of ONE chunk (a stream in pieces goes to ``read_chunks``).
    """
    kind = type(item)
    if kind is bytearray or kind is memoryview:
        item, kind = bytes(item), bytes
    if kind is bytes or kind is str:  # the hot path: one record of a stream
        try:
            value = orjson.loads(item)
        except orjson.JSONDecodeError as error:
            return InvalidChunk(raw=raw_text(item), error=f"not JSON: {error}")
        if type(value) is dict:
            return value
        return InvalidChunk(raw=raw_text(item), error=f"not a chunk: a JSON {type(value).__name__}")
    if kind is dict:
        return item  # type: ignore[no-any-return]
    if isinstance(item, dict):
        return dict(item)
    if isinstance(item, ChunkBase):
        return item.to_dict()
    if isinstance(item, InvalidChunk):
        return item
    return InvalidChunk(raw=repr(item)[:4000], error=f"not a chunk: a {type(item).__name__}")


def raw_of(item: Any, chunk: dict[str, Any]) -> str:
    """The text of a rejected item: as it came when it came as text, else its JSON."""
    if isinstance(item, (bytes, bytearray, memoryview, str)):
        return raw_text(bytes(item) if not isinstance(item, str) else item)
    return _dump(chunk)


def parse_chunk(item: Any) -> Any:
    """A typed chunk (see :data:`Chunk`), or an :class:`InvalidChunk`. Never raises."""
    if isinstance(item, ChunkBase):
        return item
    original, item = item, coerce(item)
    if isinstance(item, InvalidChunk):
        return item
    if not isinstance(item.get("type"), str):
        return InvalidChunk(raw=_dump(item), error="not a chunk: no string 'type'")
    error = check(item)
    if error is not None:
        return InvalidChunk(raw=raw_of(original, item), error=error)
    try:
        return _adapter().validate_python(item)
    except (ValidationError, RecursionError) as validation_error:  # a value nested past Python's stack
        message = (
            _readable(validation_error, item["type"])
            if isinstance(validation_error, ValidationError)
            else f"{item['type']}: nested too deep to model"
        )
        return InvalidChunk(raw=raw_of(original, item), error=message)


def _dump(value: Any) -> str:
    from .values import dump

    return dump(value)


def is_chunk(value: Any) -> bool:
    """A value a tool wrote is a real nested chunk when it has a known type and a ``from``."""
    if not isinstance(value, dict) or not isinstance(value.get("from"), str):
        return False
    chunk_type = value.get("type")
    return isinstance(chunk_type, str) and family(chunk_type) is not None


class Envelope(NamedTuple):
    """What a wrapping chunk carries: ``inner`` (a real chunk, or a value a tool wrote) and where it
    goes: ``kind`` (tool, workflow-step, task, execution) and ``key`` (the id that routes it)."""

    kind: str
    key: str
    label: str
    inner: Any


def unwrap(chunk: dict[str, Any]) -> Envelope | None:
    """The envelope of a chunk that wraps another (one level), or None for a plain chunk.

    ``tool-output`` wraps what a tool wrote (a sub-agent's or workflow's chunks, or custom values),
    ``workflow-step-output`` what a step wrote, ``background-task-output`` a ``tool-output``, and a
    network's ``*-execution-event-*`` a whole chunk of the primitive it runs.
    """
    chunk_type = chunk.get("type")
    payload = chunk.get("payload")
    if not isinstance(payload, dict) or not isinstance(chunk_type, str):
        return None
    if chunk_type == "tool-output":
        key = str(payload.get("toolCallId", ""))
        return Envelope("tool", key, str(payload.get("toolName") or key), payload.get("output"))
    if chunk_type == "workflow-step-output":
        name = str(payload.get("stepName") or payload.get("id") or "step")
        return Envelope("workflow-step", name, name, payload.get("output"))
    if chunk_type == "background-task-output":
        key = str(payload.get("taskId"))
        return Envelope("task", key, f"task {payload.get('toolName') or key}", payload.get("payload"))
    if family(chunk_type) in ("agent-execution-event-", "workflow-execution-event-", "tool-execution-event-"):
        key = str(payload.get("runId"))
        return Envelope("execution", key, chunk_type.split("-", 1)[0], payload)
    return None


__all__ = [
    "BACKGROUND_TASK_TYPES",
    "KNOWN_TYPES",
    "NETWORK_TYPES",
    "PREFIXES",
    "WORKFLOW_TYPES",
    "Chunk",
    "ChunkBase",
    "DataChunk",
    "Envelope",
    "InvalidChunk",
    "ObjectChunk",
    "ObjectResultChunk",
    "UnknownChunk",
    "check",
    "coerce",
    "family",
    "is_chunk",
    "parse_chunk",
    "raw_of",
    "raw_text",
    "unwrap",
]
