"""Tool calls: arguments as they stream, results, errors, approvals, suspensions, and what tools
write (``tool-output``: custom values, or the chunks of a sub-agent or workflow, to any depth)."""

from __future__ import annotations

from typing import Any

from .. import values
from ..chunks import unwrap
from ..state import RunState
from ..tree import Node
from .registry import Next, as_dict, on, payload_of


def _ran_in(state: RunState, node: Node, payload: dict[str, Any]) -> None:
    """A chunk a client made for one of its own tools (``clientTool``): the run whose stream ended
    with the call goes on; ``ranIn`` ("notebook") says where the tool ran, for its card."""
    where = payload.get("ranIn")
    if isinstance(where, str):
        state.set(node, "ran_in", where)
    if payload.get("clientTool") is True or isinstance(where, str):
        state.resume()


@on("tool-call-input-streaming-start")
def input_start(state: RunState, chunk: dict[str, Any]) -> Next:
    state.open_call(payload_of(chunk))
    return None


@on("tool-call-delta")
def input_delta(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = chunk["payload"]
    state.grow_args(state.open_call(payload), payload["argsTextDelta"])
    return None


@on("tool-call-input-streaming-end")
def input_end(state: RunState, chunk: dict[str, Any]) -> Next:
    node = state.calls.get(str(payload_of(chunk).get("toolCallId", "")))
    if node is not None:
        state.parse_args_now(node)
    return None


@on("tool-call")
def tool_call(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = state.open_call(payload)
    state.parse_args_now(node)
    state.set(node, "args", payload.get("args"))
    if payload.get("providerExecuted") is True:
        state.set(node, "provider_executed", True)
    if node.fields["status"] == "streaming-args":
        state.call_status(node, "running")
    return None


@on("tool-result")
def tool_result(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = state.call_for(payload, "running")
    state.fill_args(node, payload.get("args"))
    if payload.get("providerExecuted") is True:
        state.set(node, "provider_executed", True)
    _ran_in(state, node, payload)
    state.set_result(node, payload.get("result"))
    state.draw_result(node, payload)
    state.call_status(node, "error" if payload.get("isError") else "done")
    return None


@on("tool-error")
def tool_error(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = state.call_for(payload, "running")
    _ran_in(state, node, payload)
    state.set(node, "error", values.error_info(payload.get("error")))
    state.call_status(node, "error")
    return None


def _call_with_args(state: RunState, payload: dict[str, Any], status: str) -> Node:
    """The call a decision chunk (approval asked, output denied) is about, with where it ran and the
    arguments it repeats."""
    node = state.call_for(payload, status)
    _ran_in(state, node, payload)
    state.fill_args(node, payload.get("args"))
    return node


def _waits(state: RunState, node: Node, status: str, resume_schema: Any = None) -> Next:
    """The call now waits for a person (to approve it, or to resume it with data)."""
    state.call_status(node, status)
    state.wait_for_human(node, resume_schema)
    return None


@on("tool-call-approval")
def approval(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = _call_with_args(state, payload, "awaiting-approval")
    state.set(node, "approval", {"resume_schema": payload.get("resumeSchema")})
    return _waits(state, node, "awaiting-approval")


@on("tool-call-suspended")
def suspended(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = state.call_for(payload, "suspended")
    state.set(node, "suspend_payload", payload.get("suspendPayload"))
    return _waits(state, node, "suspended", payload.get("resumeSchema"))


@on("tool-output-denied")
def denied(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = _call_with_args(state, payload, "denied")
    reason = as_dict(payload.get("approval")).get("reason")
    state.set(node, "denied_reason", reason if isinstance(reason, str) else None)
    state.call_status(node, "denied")
    return None


@on("tool-output")
def tool_output(state: RunState, chunk: dict[str, Any]) -> Next:
    envelope = unwrap(chunk)
    assert envelope is not None  # check() made sure of the payload and its toolCallId
    node = state.call_for(chunk["payload"], "running")
    child = state.output(node, envelope.inner, "tool")
    return None if child is None else (child, envelope.inner)
