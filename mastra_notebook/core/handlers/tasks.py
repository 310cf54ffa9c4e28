"""Background tasks (a tool that runs on after its step) and goals (an agent sent back to work)."""

from __future__ import annotations

from typing import Any

from .. import values
from ..chunks import unwrap
from ..state import RunState
from ..tree import Node
from .registry import Next, as_dict, on, payload_of

_TASK_STATES = ("started", "running", "progress", "suspended", "resumed", "cancelled")


def _task(state: RunState, chunk: dict[str, Any]) -> Node:
    payload = chunk["payload"]
    task_id = str(payload.get("taskId"))
    node = state.tasks.get(task_id)
    if node is None:
        node = state.tasks[task_id] = state.add(
            "background-task",
            task_id=task_id,
            tool_name=payload.get("toolName"),
            tool_call_id=payload.get("toolCallId"),
            status="started",
            history=[],
            outputs=[],
            result=None,
            error=None,
        )
    return node


@on(*(f"background-task-{status}" for status in _TASK_STATES))
def task_status(state: RunState, chunk: dict[str, Any]) -> Next:
    node = _task(state, chunk)
    status = chunk["type"].removeprefix("background-task-")
    state.set(node, "status", status)
    state.tree.push(node, "history", status)
    return None


@on("background-task-output")
def task_output(state: RunState, chunk: dict[str, Any]) -> Next:
    """Progress of a background tool: shown once, on its tool call (or on the task when the call is
    not in this stream)."""
    node = _task(state, chunk)
    value: Any = chunk["payload"].get("payload")
    inner = unwrap(value) if isinstance(value, dict) and value.get("type") == "tool-output" else None
    if inner is not None:
        call_id = str(as_dict(value.get("payload")).get("toolCallId") or node.fields.get("tool_call_id"))
        call = state.calls.get(call_id)
        if call is not None:
            child = state.output(call, inner.inner, "task")
            return None if child is None else (child, inner.inner)
        value = inner.inner
    state.tree.push(node, "outputs", value)
    return None


@on("background-task-completed")
def task_completed(state: RunState, chunk: dict[str, Any]) -> Next:
    state.set(_task(state, chunk), "result", chunk["payload"].get("result"))
    return task_status(state, chunk)


@on("background-task-failed")
def task_failed(state: RunState, chunk: dict[str, Any]) -> Next:
    state.set(_task(state, chunk), "error", values.error_info(chunk["payload"].get("error")))
    return task_status(state, chunk)


@on("goal", "is-task-complete")
def goal(state: RunState, chunk: dict[str, Any]) -> Next:
    evaluation = payload_of(chunk)
    should_continue = chunk["type"] == "goal" and evaluation.get("shouldContinue") is True
    key = f"{chunk['type']}:{evaluation.get('iteration')}"
    node = state.goals.get(key)
    if node is None:  # a "pending" pre-evaluation chunk is followed by the same iteration's verdict
        node = state.goals[key] = state.add("goal", type=chunk["type"], evaluation=evaluation)
    state.set(node, "evaluation", evaluation)
    state.set(node, "should_continue", should_continue)
    if should_continue:
        state.new_attempt()
    return None
