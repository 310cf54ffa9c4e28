"""A run's life: start, steps, finish, errors, aborts, tripwires, structured output, raw chunks."""

from __future__ import annotations

from typing import Any

from .. import values
from ..state import RunState
from ..status_words import status_word
from .registry import Next, as_dict, on, payload_of

_ABORTED = f"The run was {status_word('aborted')}."


@on("start")
def start(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    if state.node.fields.get("agent_id") is None and isinstance(payload.get("id"), str):
        state.set(state.node, "agent_id", payload["id"])
    return None


@on("step-start")
def step_start(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    state.start_step(payload.get("warnings"), as_dict(payload.get("request")))
    return None


@on("step-finish")
def step_finish(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    metadata = as_dict(payload.get("metadata"))
    model = as_dict(metadata.get("modelMetadata"))
    reason = as_dict(payload.get("stepResult")).get("reason")
    fields = {
        "finish_reason": reason,
        "model_id": metadata.get("modelId") or model.get("modelId"),
        "provider": model.get("modelProvider"),
        "response_id": metadata.get("id"),
    }
    warnings = as_dict(payload.get("stepResult")).get("warnings")
    if warnings:
        fields["warnings"] = warnings
    step = state.step
    output = as_dict(payload.get("output"))
    state.finish_step(fields, values.usage(_step_usage(output, metadata.get("id"))), output.get("text"))
    if reason == "content-filter" and not any(node.text("text") for node in step.texts):
        details = values.find_key(payload, ("stopDetails", "refusal", "finishMessage"))
        said = as_dict(details).get("explanation") if isinstance(details, dict) else details
        why = f": {said}" if isinstance(said, str) and said else "."
        state.banner("warning", f"The provider refused to answer (content-filter){why}", details)
    return None


def _step_usage(output: dict[str, Any], response_id: Any) -> Any:
    """This step's usage, as Mastra's StepResult has it. ``output.usage`` may be the run's total so far
    (over HTTP, a last step's reads the sum of every step), so the step is found in ``output.steps``
    by its response id when it is there."""
    steps = output.get("steps")
    if isinstance(steps, list) and response_id is not None:
        for step in reversed(steps):
            mine = isinstance(step, dict) and as_dict(step.get("response")).get("id") == response_id
            if mine and isinstance(step.get("usage"), dict):
                return step["usage"]
    return output.get("usage")


@on("finish")
def finish(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    output = as_dict(payload.get("output"))
    state.turn_ended(values.usage(output.get("usage")) if "usage" in output else state.usage_open)
    fields = state.node.fields
    if "object" in output and not fields.get("object_final") and output["object"] is not None:
        state.set(state.node, "object", output["object"])
        state.set(state.node, "object_final", True)
    if state.status not in ("aborted", "tripwire"):  # their reason stands
        reason = as_dict(payload.get("stepResult")).get("reason") or payload.get("finishReason")
        state.set(state.node, "finish_reason", reason)
    if not state.is_final():
        state.set_status("finished")
    state.finished()
    return None


@on("error")
def error(state: RunState, chunk: dict[str, Any]) -> Next:
    state.fail(values.error_info(payload_of(chunk).get("error")))
    return None


@on("abort")
def abort(state: RunState, chunk: dict[str, Any]) -> Next:
    if state.is_final():  # the first ending stands (an error, say); the banner still tells
        state.banner("abort", _ABORTED)
    else:
        state.abort(_ABORTED)
    return None


@on("tripwire")
def tripwire(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    reason = str(payload.get("reason") or "blocked by a processor")
    info = {"reason": reason, "processor_id": payload.get("processorId"), "metadata": payload.get("metadata")}
    state.set(state.node, "tripwire", info)
    if not state.is_final():  # the first ending stands
        state.set_status("tripwire")
        state.set(state.node, "finish_reason", "tripwire")
    state.banner("tripwire", reason, {k: v for k, v in info.items() if k != "reason" and v is not None})
    return None


def _object_value(chunk: dict[str, Any]) -> Any:
    """An agent's object chunk carries ``object`` at the top; a network's carries it in its payload."""
    return chunk.get("object", payload_of(chunk).get("object"))


@on("object", "network-object")
def partial_object(state: RunState, chunk: dict[str, Any]) -> Next:
    state.set(state.node, "object", _object_value(chunk))
    return None


@on("object-result", "network-object-result")
def object_result(state: RunState, chunk: dict[str, Any]) -> Next:
    state.set(state.node, "object", _object_value(chunk))
    state.set(state.node, "object_final", True)
    return None


@on("custom")
def custom(state: RunState, chunk: dict[str, Any]) -> Next:
    """A provider's lifecycle event (``kind: "anthropic.message_start"``) is kept, not drawn at every
    step; any other custom chunk is the user's data and is shown."""
    payload = chunk.get("payload")
    kind = as_dict(payload).get("kind")
    if isinstance(kind, str) and "." in kind:
        state.provider_events.append(payload)
    else:
        state.add("data", type="custom", data=payload)
    return None


@on("raw", "step-output")
def shown_raw(state: RunState, chunk: dict[str, Any]) -> Next:
    state.add("data", type=chunk["type"], data=chunk.get("payload"))
    return None


@on("data-")
def data(state: RunState, chunk: dict[str, Any]) -> Next:
    state.add("data", type=chunk["type"], data=chunk.get("data"))
    return None


@on(
    "routing-agent-start",
    "network-validation-start",
    "network-execution-event-step-finish",
    "response-metadata",
    "watch",
    "workflow-step-finish",
)
def quiet(state: RunState, chunk: dict[str, Any]) -> Next:
    """Chunks that change nothing a user sees (counted, kept in recordings)."""
    return None


def unknown(state: RunState, chunk: dict[str, Any]) -> Next:
    """A type this version does not know: kept whole and shown raw."""
    state.add("unknown", type=str(chunk["type"]), chunk=chunk)
    return None
