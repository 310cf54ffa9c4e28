"""Workflows: the run's workflow state, and each step (a loop's iterations are steps of their own)."""

from __future__ import annotations

from typing import Any

from .. import values
from ..chunks import unwrap
from ..state import RunState
from ..tree import Node
from .registry import Next, on, payload_of

_WORKFLOW_STATUS = {
    "success": "finished",
    "failed": "error",
    "suspended": "suspended",
    "canceled": "aborted",
    "cancelled": "aborted",
    "tripwire": "tripwire",
    "bailed": "finished",
}


def _workflow(state: RunState) -> dict[str, Any]:
    return dict(
        state.node.fields.get("workflow") or {"workflow_id": None, "status": "running", "result": None}
    )


@on("workflow-start")
def workflow_start(state: RunState, chunk: dict[str, Any]) -> Next:
    workflow = _workflow(state)
    workflow["workflow_id"] = payload_of(chunk).get("workflowId")
    workflow["status"] = "running"
    state.set(state.node, "workflow", workflow)
    return None


def _step(state: RunState, payload: dict[str, Any]) -> Node:
    name = str(payload.get("stepName") or payload.get("id") or "step")
    node = state.workflow_steps.get(name)
    rerun = (  # a step that ran before and starts again (a loop) is a new node
        node is not None
        and node.fields["status"] not in ("running", "suspended", "waiting")
        and payload.get("stepCallId", node.fields.get("step_call_id")) != node.fields.get("step_call_id")
    )
    if node is None or rerun:
        node = state.workflow_steps[name] = state.add(
            "workflow-step",
            step_name=name,
            step_call_id=payload.get("stepCallId"),
            status="running",
            input=payload.get("payload"),
            output=None,
            error=None,
            outputs=[],
            started_at=state.now(),
            server_started_at=values.epoch_ms(payload.get("startedAt")),
            ended_at=None,
        )
    return node


def _ended(state: RunState, node: Node, server_end: float | None) -> None:
    """The step ended now, on the run's clock. The server's own times are another clock: used only as
    the step's length, placed back from its end and never before the run that holds it began."""
    end, start = state.now(), node.fields.get("started_at")
    state.set(node, "ended_at", end)
    server_start = node.fields.get("server_started_at")
    if end is None or not isinstance(start, (int, float)) or server_start is None or server_end is None:
        return
    run_start = state.node.fields.get("started_at")
    earliest = run_start if isinstance(run_start, (int, float)) else start
    state.set(node, "started_at", max(earliest, min(start, end - max(server_end - server_start, 0.0))))


@on("workflow-step-start")
def step_start(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    state.set(_step(state, payload), "status", payload.get("status") or "running")
    return None


@on("workflow-step-result")
def step_result(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = _step(state, payload)
    status = str(payload.get("status") or "success")
    state.set(node, "status", status)
    if "output" in payload:
        state.set(node, "output", payload["output"])
    if payload.get("error") is not None:
        state.set(node, "error", values.error_info(payload["error"]))
    _ended(state, node, values.epoch_ms(payload.get("endedAt")))
    if status == "suspended":
        state.wait_for_human(node)
    else:
        state.human_done(node)
    return None


@on("workflow-step-output")
def step_output(state: RunState, chunk: dict[str, Any]) -> Next:
    envelope = unwrap(chunk)
    assert envelope is not None  # check() made sure of the payload
    child = state.output(_step(state, payload_of(chunk)), envelope.inner, "tool")
    return None if child is None else (child, envelope.inner)


@on("workflow-step-suspended", "workflow-step-waiting")
def step_waiting(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = _step(state, payload)
    status = chunk["type"].removeprefix("workflow-step-")
    state.set(node, "status", status)
    if status == "suspended":
        state.set(node, "suspend_payload", payload.get("suspendPayload"))
        state.wait_for_human(node)
    return None


@on("workflow-step-progress")
def step_progress(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    state.set(_step(state, payload), "progress", {k: v for k, v in payload.items() if k != "stepName"})
    return None


@on("workflow-paused", "workflow-canceled")
def paused(state: RunState, chunk: dict[str, Any]) -> Next:
    workflow = _workflow(state)
    workflow["status"] = "paused" if chunk["type"] == "workflow-paused" else "canceled"
    state.set(state.node, "workflow", workflow)
    if workflow["status"] == "canceled":
        state.abort("The workflow was canceled.")
    return None


@on("workflow-finish")
def finish(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    workflow = _workflow(state)
    mastra_status = str(payload.get("workflowStatus") or "success")
    workflow["status"] = mastra_status
    workflow["result"] = payload.get("finalWorkflowResult", payload.get("result"))
    state.set(state.node, "workflow", workflow)
    output = payload.get("output")
    if isinstance(output, dict) and "usage" in output:
        state.turn_ended(values.usage(output["usage"]))
    status = _WORKFLOW_STATUS.get(mastra_status, "finished")
    if state.is_final():
        pass  # the first ending stands
    elif status == "error":
        state.fail(values.error_info(payload.get("error") or f"workflow {mastra_status}"))
    elif status == "aborted":
        state.abort("The workflow was canceled.")
    else:
        state.set_status(status)
        state.set(state.node, "finish_reason", "suspended" if status == "suspended" else mastra_status)
    state.finished()
    return None
