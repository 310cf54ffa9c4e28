"""The reducer's handlers: how each chunk type changes a Run (one function per type)."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import values
from .chunks import is_chunk

if TYPE_CHECKING:
    from .run import Run
    from .tree import Node

TERMINAL_TOOL_STATUSES = {"done", "error", "denied"}
_RASTER = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"}
_MAX_INLINE_IMAGE = 2 << 20
_WORKFLOW_STATUS = {
    "success": "finished",
    "failed": "error",
    "suspended": "suspended",
    "canceled": "aborted",
    "cancelled": "aborted",
    "tripwire": "tripwire",
    "bailed": "finished",
}

Handler = Callable[["Run", dict[str, Any]], None]
HANDLERS: dict[str, Handler] = {}


def _on(*types: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for chunk_type in types:
            HANDLERS[chunk_type] = handler
        return handler

    return register


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def now_ms() -> float:
    return time.time() * 1000


def _payload(chunk: dict[str, Any]) -> dict[str, Any]:
    payload = chunk.get("payload")
    return payload if isinstance(payload, dict) else {}


@_on("start")
def _start(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    if run.node.fields.get("agent_id") is None and isinstance(payload.get("id"), str):
        run._set(run.node, "agent_id", payload["id"])


@_on("step-start")
def _step_start(run: Run, chunk: dict[str, Any]) -> None:
    run._open_step = run._add("step", index=len(run._steps) + 1, finish_reason=None, usage=None)
    run._steps.append(run._open_step)
    warnings = _payload(chunk).get("warnings")
    if warnings:
        run._tree.set(run._open_step, "warnings", warnings)


@_on("step-finish")
def _step_finish(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    step = run._open_step
    if step is None:  # a continuation finishes the step its first stream began
        step = run._add("step", index=len(run._steps) + 1, finish_reason=None, usage=None)
        run._steps.append(step)
    run._open_step = None
    step_usage = values.usage(_dict(payload.get("output")).get("usage"))
    run._usage_open = values.add_usage(run._usage_open, step_usage)
    run._set(step, "finish_reason", _dict(payload.get("stepResult")).get("reason"))
    run._set(step, "usage", step_usage)
    run._set(run.node, "steps", len(run._steps))
    run._set(run.node, "usage", values.add_usage(run._usage_done, run._usage_open))


def _turn_ended(run: Run, usage: dict[str, int]) -> None:
    """A turn (an agent's finish, a workflow's, a network's) adds its usage to the run's total."""
    run._usage_done = values.add_usage(run._usage_done, usage)
    run._usage_open = values.ZERO_USAGE
    run._set(run.node, "usage", run._usage_done)


@_on("finish")
def _finish(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    output = _dict(payload.get("output"))
    _turn_ended(run, values.usage(output.get("usage")) if "usage" in output else run._usage_open)
    if "object" in output and not run.node.fields.get("object_final") and output["object"] is not None:
        run._set(run.node, "object", output["object"])
        run._set(run.node, "object_final", True)
    if run.node.fields["status"] not in ("aborted", "tripwire"):  # their reason stands
        reason = _dict(payload.get("stepResult")).get("reason") or payload.get("finishReason")
        run._set(run.node, "finish_reason", reason)
    if not run._is_final():
        run._set_status("finished")
    run._set(run.node, "finished_at", now_ms())


@_on("text-start")
def _text_start(run: Run, chunk: dict[str, Any]) -> None:
    run._text_node(str(_payload(chunk).get("id", "")))


@_on("text-delta")
def _text_delta(run: Run, chunk: dict[str, Any]) -> None:
    payload = chunk["payload"]
    node = run._texts.get(payload.get("id", "")) or run._text_node(str(payload.get("id", "")))
    if run._waiting_first_token:
        run._first_token()
    run._tree.append(node, "text", payload["text"])


@_on(
    "routing-agent-start",
    "network-validation-start",
    "network-execution-event-step-finish",
    "text-end",
    "reasoning-signature",
    "tool-call-input-streaming-end",
    "response-metadata",
    "watch",
    "workflow-step-finish",
)
def _quiet(run: Run, chunk: dict[str, Any]) -> None:
    """Chunks that change nothing a user sees (counted, kept in recordings)."""


@_on("reasoning-start")
def _reasoning_start(run: Run, chunk: dict[str, Any]) -> None:
    run._reasoning_node(str(_payload(chunk).get("id", "")))


@_on("reasoning-delta")
def _reasoning_delta(run: Run, chunk: dict[str, Any]) -> None:
    payload = chunk["payload"]
    run._first_token()
    run._tree.append(run._reasoning_node(str(payload.get("id", ""))), "text", payload["text"])


@_on("reasoning-end")
def _reasoning_end(run: Run, chunk: dict[str, Any]) -> None:
    run._set(run._reasoning_node(str(_payload(chunk).get("id", ""))), "ended_at", now_ms())


@_on("redacted-reasoning")
def _redacted_reasoning(run: Run, chunk: dict[str, Any]) -> None:
    node = run._reasoning_node(str(_payload(chunk).get("id", "")))
    run._set(node, "redacted", True)
    run._set(node, "ended_at", now_ms())


@_on("source")
def _source(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    run._add(
        "source",
        source_type=payload.get("sourceType"),
        source_id=payload.get("id"),
        url=payload.get("url"),
        title=payload.get("title"),
        media_type=payload.get("mediaType") or payload.get("mimeType"),
        filename=payload.get("filename"),
    )


@_on("file", "reasoning-file")
def _file(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    data = values.file_bytes(payload)
    media_type = str(payload.get("mimeType") or payload.get("mediaType") or "application/octet-stream")
    inline = media_type in _RASTER and len(data) <= _MAX_INLINE_IMAGE
    preview = data[:2048].decode("utf-8", "replace") if media_type.startswith("text/") else None
    node = run._add(
        "file",
        media_type=media_type,
        size=len(data),
        base64=base64.b64encode(data).decode() if inline else None,
        name=payload.get("filename") or payload.get("name"),
        text_preview=preview,
    )
    run._file_data[node.id] = data


@_on("tool-call-input-streaming-start")
def _tool_input_start(run: Run, chunk: dict[str, Any]) -> None:
    run._tool(_payload(chunk))


@_on("tool-call-delta")
def _tool_delta(run: Run, chunk: dict[str, Any]) -> None:
    payload = chunk["payload"]
    node = run._tools.get(payload["toolCallId"]) or run._tool(payload)
    run._tree.append(node, "args_text", payload["argsTextDelta"])
    run._set(node, "args", values.partial_json(node.text("args_text")))  # parsed as they grow


@_on("tool-call")
def _tool_call(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = run._tool(payload)
    run._set(node, "args", payload.get("args"))
    if node.fields["status"] == "streaming-args":
        run._tool_status(node, "running")


@_on("tool-result")
def _tool_result(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = run._tool(payload)
    if node.fields.get("args") is None and payload.get("args") is not None:
        run._set(node, "args", payload["args"])
    run._set(node, "result", payload.get("result"))
    run._tool_status(node, "error" if payload.get("isError") else "done")


@_on("tool-error")
def _tool_error(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = run._tool(payload)
    run._set(node, "error", values.error_info(payload.get("error")))
    run._tool_status(node, "error")


@_on("tool-call-approval")
def _tool_approval(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = run._tool(payload)
    if node.fields.get("args") is None:
        run._set(node, "args", payload.get("args"))
    run._set(node, "approval", {"resume_schema": payload.get("resumeSchema")})
    run._tool_status(node, "awaiting-approval")
    run._awaiting.add(node.id)


@_on("tool-call-suspended")
def _tool_suspended(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = run._tool(payload)
    run._set(node, "suspend_payload", payload.get("suspendPayload"))
    run._tool_status(node, "suspended")
    run._awaiting.add(node.id)


@_on("tool-output-denied")
def _tool_denied(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = run._tool(payload)
    if node.fields.get("args") is None:
        run._set(node, "args", payload.get("args"))
    reason = _dict(payload.get("approval")).get("reason")
    run._set(node, "denied_reason", reason if isinstance(reason, str) else None)
    run._tool_status(node, "denied")


@_on("tool-output")
def _tool_output(run: Run, chunk: dict[str, Any]) -> None:
    payload = chunk["payload"]
    node = run._tools.get(payload["toolCallId"]) or run._tool(payload)
    run._output(node, payload.get("output"), "tool")


@_on("error")
def _error(run: Run, chunk: dict[str, Any]) -> None:
    run._fail(values.error_info(_payload(chunk).get("error")))


@_on("abort")
def _abort(run: Run, chunk: dict[str, Any]) -> None:
    if run._is_final():  # the first ending stands (an error, say); the banner still tells
        run._banner("abort", "The run was aborted.")
    else:
        run._abort("The run was aborted.")


@_on("tripwire")
def _tripwire(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    reason = str(payload.get("reason") or "blocked by a processor")
    tripwire = {
        "reason": reason,
        "processor_id": payload.get("processorId"),
        "metadata": payload.get("metadata"),
    }
    run._set(run.node, "tripwire", tripwire)
    if not run._is_final():  # the first ending stands
        run._set_status("tripwire")
        run._set(run.node, "finish_reason", "tripwire")
    run._banner("tripwire", reason, {k: v for k, v in tripwire.items() if k != "reason" and v is not None})


def _object_value(chunk: dict[str, Any]) -> Any:
    """An agent's object chunk carries ``object`` at the top; a network's carries it in its payload."""
    return chunk.get("object", _payload(chunk).get("object"))


@_on("object", "network-object")
def _object(run: Run, chunk: dict[str, Any]) -> None:
    run._set(run.node, "object", _object_value(chunk))


@_on("object-result", "network-object-result")
def _object_result(run: Run, chunk: dict[str, Any]) -> None:
    run._set(run.node, "object", _object_value(chunk))
    run._set(run.node, "object_final", True)


@_on("goal", "is-task-complete")
def _goal(run: Run, chunk: dict[str, Any]) -> None:
    evaluation = _payload(chunk)
    should_continue = chunk["type"] == "goal" and evaluation.get("shouldContinue") is True
    key = f"{chunk['type']}:{evaluation.get('iteration')}"
    node = run._goals.get(key)
    if node is None:  # a "pending" pre-evaluation chunk is followed by the same iteration's verdict
        node = run._goals[key] = run._add("goal", type=chunk["type"], evaluation=evaluation)
    run._set(node, "evaluation", evaluation)
    run._set(node, "should_continue", should_continue)
    if should_continue:  # a new attempt: its text replaces the last one's in result.text
        run._attempt_start = len(run._text_nodes)


@_on("raw", "step-output", "custom")
def _shown_raw(run: Run, chunk: dict[str, Any]) -> None:
    run._add("data", type=chunk["type"], data=chunk.get("payload"))


def _task(run: Run, chunk: dict[str, Any]) -> Node:
    payload = chunk["payload"]
    task_id = str(payload.get("taskId"))
    node = run._tasks.get(task_id)
    if node is None:
        node = run._tasks[task_id] = run._add(
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


_TASK_STATES = ("started", "running", "progress", "suspended", "resumed", "cancelled")


@_on(*(f"background-task-{state}" for state in _TASK_STATES))
def _task_status(run: Run, chunk: dict[str, Any]) -> None:
    node = _task(run, chunk)
    status = chunk["type"].removeprefix("background-task-")
    run._set(node, "status", status)
    run._tree.push(node, "history", status)


@_on("background-task-output")
def _task_output(run: Run, chunk: dict[str, Any]) -> None:
    """Progress of a background tool: shown once, on its tool call (or on the task when the call is
    not in this stream)."""
    node = _task(run, chunk)
    inner = _dict(chunk["payload"].get("payload"))
    value: Any = inner or chunk["payload"].get("payload")
    if inner.get("type") == "tool-output":
        inner_payload = _dict(inner.get("payload"))
        value = inner_payload.get("output")
        tool = run._tools.get(str(inner_payload.get("toolCallId") or node.fields.get("tool_call_id")))
        if tool is not None:
            run._output(tool, value, "task")
            return
    if not is_chunk(value):
        run._tree.push(node, "outputs", value)


@_on("background-task-completed")
def _task_completed(run: Run, chunk: dict[str, Any]) -> None:
    node = _task(run, chunk)
    run._set(node, "result", chunk["payload"].get("result"))
    _task_status(run, chunk)


@_on("background-task-failed")
def _task_failed(run: Run, chunk: dict[str, Any]) -> None:
    node = _task(run, chunk)
    run._set(node, "error", values.error_info(chunk["payload"].get("error")))
    _task_status(run, chunk)


# ---- agent networks -------------------------------------------------------------------------------

_PRIMITIVES = ("agent", "workflow", "tool")


@_on(*(f"{kind}-execution-start" for kind in _PRIMITIVES))
def _execution_start(run: Run, chunk: dict[str, Any]) -> None:
    run._execution(_payload(chunk), chunk["type"].split("-", 1)[0])


@_on(*(f"{kind}-execution-end" for kind in _PRIMITIVES))
def _execution_end(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = run._execution(payload, chunk["type"].split("-", 1)[0])
    run._set(node, "result", payload.get("result"))
    run._tool_status(node, "done")


@_on(*(f"{kind}-execution-{state}" for kind in _PRIMITIVES for state in ("suspended", "approval")))
def _execution_waits(run: Run, chunk: dict[str, Any]) -> None:
    node = run._execution(_payload(chunk), chunk["type"].split("-", 1)[0])
    run._tool_status(node, "suspended" if chunk["type"].endswith("suspended") else "awaiting-approval")
    run._awaiting.add(node.id)


@_on(*(f"{kind}-execution-abort" for kind in _PRIMITIVES), "routing-agent-abort")
def _execution_abort(run: Run, chunk: dict[str, Any]) -> None:
    run._abort(f"The network was aborted ({chunk['type']}).")


@_on("routing-agent-end")
def _routing_decision(run: Run, chunk: dict[str, Any]) -> None:
    """Which primitive the routing agent picked, and why: shown, for a reader to follow the network."""
    payload = _payload(chunk)
    keys = ("iteration", "primitiveType", "primitiveId", "prompt", "selectionReason", "isComplete")
    run._add("data", type="routing", data={key: payload.get(key) for key in keys if key in payload})


@_on("routing-agent-text-start")
def _routing_text_start(run: Run, chunk: dict[str, Any]) -> None:
    run._text_node(f"routing-{_payload(chunk).get('runId', '')}")
    run._routing_text = run._text_nodes[-1]


@_on("routing-agent-text-delta")
def _routing_text_delta(run: Run, chunk: dict[str, Any]) -> None:
    """The network's final result, streamed by the routing agent: the run's text."""
    text = _payload(chunk).get("text")
    if isinstance(text, str):
        node = run._routing_text or run._text_node("routing")
        run._first_token()
        run._tree.append(node, "text", text)


@_on("network-validation-end")
def _network_validation(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    run._add("goal", type=chunk["type"], evaluation=payload, should_continue=payload.get("passed") is False)


@_on("network-execution-event-finish")
def _network_finish(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    result = payload.get("result")
    if not run._text_nodes and isinstance(result, str) and result:  # a result that was not streamed
        run._tree.append(run._text_node("network-result"), "text", result)
    if "usage" in payload:
        _turn_ended(run, values.usage(payload["usage"]))
    if not run._is_final():
        run._set(run.node, "finish_reason", "stop" if payload.get("isComplete") else "incomplete")
        run._set_status("finished")
    run._set(run.node, "finished_at", now_ms())


# ---- workflows ------------------------------------------------------------------------------


def _workflow(run: Run) -> dict[str, Any]:
    return dict(run.node.fields.get("workflow") or {"workflow_id": None, "status": "running", "result": None})


@_on("workflow-start")
def _workflow_start(run: Run, chunk: dict[str, Any]) -> None:
    state = _workflow(run)
    state["workflow_id"] = _payload(chunk).get("workflowId")
    state["status"] = "running"
    run._set(run.node, "workflow", state)


def _workflow_step(run: Run, payload: dict[str, Any]) -> Node:
    name = str(payload.get("stepName") or payload.get("id") or "step")
    node = run._workflow_steps.get(name)
    rerun = (  # a step that ran before and starts again (a loop) is a new node
        node is not None
        and node.fields["status"] not in ("running", "suspended", "waiting")
        and payload.get("stepCallId", node.fields.get("step_call_id")) != node.fields.get("step_call_id")
    )
    if node is None or rerun:
        node = run._workflow_steps[name] = run._add(
            "workflow-step",
            step_name=name,
            step_call_id=payload.get("stepCallId"),
            status="running",
            input=payload.get("payload"),
            output=None,
            error=None,
            outputs=[],
            started_at=values.epoch_ms(payload.get("startedAt")) or now_ms(),
            ended_at=None,
        )
    return node


@_on("workflow-step-start")
def _workflow_step_start(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = _workflow_step(run, payload)
    run._set(node, "status", payload.get("status") or "running")


@_on("workflow-step-result")
def _workflow_step_result(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = _workflow_step(run, payload)
    status = str(payload.get("status") or "success")
    run._set(node, "status", status)
    if "output" in payload:
        run._set(node, "output", payload["output"])
    if payload.get("error") is not None:
        run._set(node, "error", values.error_info(payload["error"]))
    run._set(node, "ended_at", values.epoch_ms(payload.get("endedAt")) or now_ms())
    if status == "suspended":
        run._awaiting.add(node.id)
    else:
        run._awaiting.discard(node.id)


@_on("workflow-step-output")
def _workflow_step_output(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    run._output(_workflow_step(run, payload), payload.get("output"), "tool")


@_on("workflow-step-suspended", "workflow-step-waiting")
def _workflow_step_waiting(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    node = _workflow_step(run, payload)
    status = chunk["type"].removeprefix("workflow-step-")
    run._set(node, "status", status)
    if status == "suspended":
        run._set(node, "suspend_payload", payload.get("suspendPayload"))
        run._awaiting.add(node.id)


@_on("workflow-step-progress")
def _workflow_step_progress(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    run._set(_workflow_step(run, payload), "progress", {k: v for k, v in payload.items() if k != "stepName"})


@_on("workflow-paused", "workflow-canceled")
def _workflow_paused(run: Run, chunk: dict[str, Any]) -> None:
    state = _workflow(run)
    state["status"] = "paused" if chunk["type"] == "workflow-paused" else "canceled"
    run._set(run.node, "workflow", state)
    if state["status"] == "canceled":
        run._abort("The workflow was canceled.")


@_on("workflow-finish")
def _workflow_finish(run: Run, chunk: dict[str, Any]) -> None:
    payload = _payload(chunk)
    state = _workflow(run)
    mastra_status = str(payload.get("workflowStatus") or "success")
    state["status"] = mastra_status
    state["result"] = payload.get("finalWorkflowResult", payload.get("result"))
    run._set(run.node, "workflow", state)
    output = _dict(payload.get("output"))
    if "usage" in output:
        _turn_ended(run, values.usage(output["usage"]))
    status = _WORKFLOW_STATUS.get(mastra_status, "finished")
    if status == "error" and not run._is_final():
        run._fail(values.error_info(payload.get("error") or f"workflow {mastra_status}"))
    elif status == "aborted" and not run._is_final():
        run._abort("The workflow was canceled.")
    elif not run._is_final():
        run._set_status(status)
        run._set(run.node, "finish_reason", "suspended" if status == "suspended" else mastra_status)
    run._set(run.node, "finished_at", now_ms())
