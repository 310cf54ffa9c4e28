"""Agent networks: the routing agent's decisions, each primitive it runs as a nested run, its result."""

from __future__ import annotations

from typing import Any

from .. import values
from ..chunks import unwrap
from ..state import RunState
from .registry import Next, on, payload_of

_PRIMITIVES = ("agent", "workflow", "tool")


def _kind(chunk: dict[str, Any]) -> str:
    return str(chunk["type"]).split("-", 1)[0]


def _primitive(chunk: dict[str, Any]) -> dict[str, Any]:
    """The payload naming the primitive. A tool's start holds the routing step's input, with the
    tool's name, call id and arguments inside; its chunks carry the network's runId, shared by every
    tool it runs, so a tool is known by its call id."""
    payload = payload_of(chunk)
    if _kind(chunk) != "tool":
        return payload
    args = payload.get("args")
    inner = args if isinstance(args, dict) and "toolName" in args else payload
    call_id = inner.get("toolCallId") or payload.get("runId")
    return {**payload, "runId": call_id, "toolName": inner.get("toolName"), "args": inner.get("args")}


@on(*(f"{kind}-execution-start" for kind in _PRIMITIVES))
def execution_start(state: RunState, chunk: dict[str, Any]) -> Next:
    payload, kind = _primitive(chunk), _kind(chunk)
    waiting = [
        node
        for node in state.executions.values()
        if node.fields.get("tool_name") == payload.get("toolName") and node.fields.get("decision") is not None
        and node.fields.get("status") in ("awaiting-approval", "suspended")
    ]  # fmt: skip
    if kind == "tool" and waiting:  # a decided tool runs again, under a new call id: the same card
        state.executions[str(payload["runId"])] = waiting[-1]
        state.call_status(waiting[-1], "running")
    state.execution(payload, kind)
    return None


@on(*(f"{kind}-execution-end" for kind in _PRIMITIVES))
def execution_end(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = _primitive(chunk)
    node = state.execution(payload, _kind(chunk))
    state.set(node, "result", payload.get("result"))
    state.call_status(node, "done")
    return None


@on(*(f"{kind}-execution-{what}" for kind in _PRIMITIVES for what in ("suspended", "approval")))
def execution_waits(state: RunState, chunk: dict[str, Any]) -> Next:
    node = state.execution(_primitive(chunk), _kind(chunk))
    state.call_status(node, "suspended" if chunk["type"].endswith("suspended") else "awaiting-approval")
    state.calls.setdefault(str(node.fields["tool_call_id"]), node)  # for the decision on it
    state.wait_for_human(node)
    return None


@on(*(f"{kind}-execution-abort" for kind in _PRIMITIVES), "routing-agent-abort")
def execution_abort(state: RunState, chunk: dict[str, Any]) -> Next:
    state.abort(f"The network was aborted ({chunk['type']}).")
    return None


@on(*(f"{kind}-execution-event-" for kind in _PRIMITIVES))
def execution_event(state: RunState, chunk: dict[str, Any]) -> Next:
    """``<primitive>-execution-event-<type>``: its payload is a whole chunk of the primitive the routing
    agent picked, whose runId names that execution. Folded into that primitive's nested run."""
    envelope = unwrap(chunk)
    assert envelope is not None  # check() made sure of the payload
    node = state.latest_execution(envelope.inner.get("runId"), _kind(chunk))
    return state.child(node), envelope.inner


@on("routing-agent-end")
def routing_decision(state: RunState, chunk: dict[str, Any]) -> Next:
    """Which primitive the routing agent picked, and why: shown, for a reader to follow the network."""
    payload = payload_of(chunk)
    keys = ("iteration", "primitiveType", "primitiveId", "prompt", "selectionReason", "isComplete")
    state.add("data", type="routing", data={key: payload.get(key) for key in keys if key in payload})
    return None


@on("routing-agent-text-start")
def routing_text_start(state: RunState, chunk: dict[str, Any]) -> Next:
    state.routing_text = state.text_part(f"routing-{payload_of(chunk).get('runId', '')}")
    return None


@on("routing-agent-text-delta")
def routing_text_delta(state: RunState, chunk: dict[str, Any]) -> Next:
    """The network's final result, streamed by the routing agent: the run's text."""
    text = payload_of(chunk).get("text")
    if isinstance(text, str):
        node = state.routing_text or state.text_part("routing")
        state.first_token()
        state.tree.append(node, "text", text)
    return None


@on("network-validation-end")
def validation(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    state.add("goal", type=chunk["type"], evaluation=payload, should_continue=payload.get("passed") is False)
    return None


@on("network-execution-event-finish")
def network_finish(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    result = payload.get("result")
    if not state.text_nodes and isinstance(result, str) and result:  # a result that was not streamed
        state.add_text("network-result", result)
    if "usage" in payload:
        state.turn_ended(values.usage(payload["usage"]))
    if not state.is_final():
        state.set(state.node, "finish_reason", "stop" if payload.get("isComplete") else "incomplete")
        state.set_status("finished")
    state.finished()
    return None
