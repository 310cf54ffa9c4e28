"""The node tree of a RunResult that did not come from a run (loaded from JSON, a nested run):
its parts as the nodes the reducer would have written, so the one renderer draws it too."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Any

from . import captions, feedback, figures
from .result import RunResult, Step, ToolCall, WorkflowStep, view_snapshot
from .score import badge
from .state import VIEW_DEPTH
from .values import capped

_FILE_PREVIEW = 2048
_INLINE_IMAGE = 2 * 1024 * 1024


def _ms(moment: datetime | None) -> float | None:
    return moment.timestamp() * 1000 if moment is not None else None


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json") if model is not None else None


def _decision(item: ToolCall | WorkflowStep) -> dict[str, Any] | None:
    decision = item.decision
    if decision is None:
        return None
    waited = decision.waited * 1000 if decision.waited is not None else None
    return {
        "action": decision.action,
        "by": decision.by,
        "at": _ms(decision.at),
        "waited_ms": waited,
        "waited": captions.waited(waited),
    }


def _request_label(result: RunResult, step: Step | None) -> dict[str, Any]:
    """A step's "Request" toggle label (or why it has none), as the run wrote it."""
    if step is None or step.request is None:
        return {"request_reason": step.request_reason} if step is not None and step.request_reason else {}
    position = result.steps.index(step)
    before = result.steps[position - 1].request if position > 0 else None
    history = captions.new_messages_from(step.request, before)
    return {"request_summary": captions.request_summary(step.request, history)}


def _tool(call: ToolCall) -> dict[str, Any]:
    return {
        "kind": "tool",
        "tool_call_id": call.tool_call_id,
        "tool_name": call.tool_name,
        "status": call.status,
        "args_text": call.args_text,
        "args": capped(call.args),
        "result": capped(call.result),
        "error": _dump(call.error),
        "outputs": [capped(output) for output in call.outputs],
        "started_at": _ms(call.started_at),
        "ended_at": _ms(call.finished_at),
        "suspend_payload": capped(call.suspend_payload),
        "denied_reason": call.denied_reason,
        "decision": _decision(call),
        "continue_with": call.continue_with,
        "provider_executed": call.provider_executed,
        "ran_in": getattr(call, "ran_in", None),
        "orphan": call.orphan,
    }


def _step(step: WorkflowStep) -> dict[str, Any]:
    return {
        "kind": "workflow-step",
        "step_name": step.step_name,
        "status": step.status,
        "input": capped(step.input),
        "output": capped(step.output),
        "error": _dump(step.error),
        "outputs": [capped(output) for output in step.outputs],
        "suspend_payload": capped(step.suspend_payload),
        "decision": _decision(step),
        "continue_with": step.continue_with,
        "started_at": _ms(step.started_at),
        "ended_at": _ms(step.finished_at),
    }


def run_node(result: RunResult) -> dict[str, Any]:
    """The fields of ``result``'s root run node: those it was read with, or made from its parts."""
    ops = view_snapshot(result)
    root = ops[0][2] if ops else None
    return root if isinstance(root, dict) else _run(result, nested=False)


def _run(result: RunResult, nested: bool) -> dict[str, Any]:
    fields = _run_fields(result, nested)
    fields["figures"] = figures.run_figures(fields)
    return fields


def _run_fields(result: RunResult, nested: bool) -> dict[str, Any]:
    workflow = result.workflow
    streamed = [step for step in result.timing.steps if step.streaming and step.output_tokens]
    usage, everything = result.usage.model_dump(), result.usage_with_nested.model_dump()
    return {
        "kind": "run",
        "status": result.status,
        "nested": nested,
        "run_id": result.run_id,
        "agent_id": result.agent_id,
        "finish_reason": result.finish_reason,
        "usage": _dump(result.usage),
        "error": _dump(result.error),
        "tripwire": _dump(result.tripwire),
        "started_at": _ms(result.started_at),
        "first_token_at": _ms(result.first_token_at),
        "finished_at": _ms(result.finished_at),
        "steps": len(result.steps) or None,
        "workflow": None
        if workflow is None
        else {
            "workflow_id": workflow.workflow_id,
            "status": workflow.status,
            "result": capped(workflow.result),
        },
        "object": capped(result.object),
        "object_final": result.object is not None and result.status != "running",
        "invalid_count": len(result.invalid) or None,
        "cost": _dump(getattr(result, "cost", None)),
        "nested_usage": {key: everything[key] - usage[key] for key in usage},
        "streaming_ms": sum((step.streaming or 0.0) * 1000 for step in streamed) if streamed else None,
        "streamed_tokens": sum(step.output_tokens or 0 for step in streamed) if streamed else None,
        # its scores as a live run's node has them (core/run.py add_scores): the header's badges and
        # the footer's row draw them from a result read back from JSON too
        "scores": [score.model_dump() for score in result.scores] or None,
        "score_badges": [badge(score) for score in result.scores] or None,
        # a person's label as a live run's node has it (core/run.py label): the footer shows it
        "feedback": result.feedback.model_dump(mode="json") if result.feedback else None,
        "feedback_note": feedback.note(result.feedback) if result.feedback else None,
    }


def _file(result: RunResult, index: int) -> dict[str, Any]:
    file = result.files[index]
    media_type = file.media_type or "application/octet-stream"
    inline = media_type.startswith("image/") and len(file.data) <= _INLINE_IMAGE
    preview = file.data[:_FILE_PREVIEW].decode("utf-8", "replace") if media_type.startswith("text/") else None
    return {
        "kind": "file",
        "media_type": file.media_type,
        "size": len(file.data),
        "base64": base64.b64encode(file.data).decode() if inline else None,
        "name": file.name,
        "text_preview": preview,
    }


def _part_nodes(result: RunResult) -> list[tuple[dict[str, Any], RunResult | None]]:
    """The nodes of ``result``'s parts, each with the run nested under it (if any)."""
    steps = result.workflow.steps if result.workflow else []
    tasks = {task.task_id: task for task in result.background_tasks}
    out: list[tuple[dict[str, Any], RunResult | None]] = []
    for part in result.parts:
        value = part.value
        index = value if isinstance(value, int) else -1
        if part.kind == "text":
            out.append(({"kind": "text", "text": part.text or ""}, None))
        elif part.kind == "reasoning":
            redacted = isinstance(value, dict) and value.get("redacted") is True
            out.append(
                ({"kind": "reasoning", "text": part.text or "", "done": True, "redacted": redacted}, None)
            )
        elif part.kind == "tool_call" and 0 <= index < len(result.tool_calls):
            call = result.tool_calls[index]
            out.append((_tool(call), call.children))
        elif part.kind == "workflow_step" and 0 <= index < len(steps):
            out.append((_step(steps[index]), steps[index].children))
        elif part.kind == "step":
            match = [step for step in result.steps if step.index == value]
            usage = _dump(match[0].usage) if match else None
            out.append(
                (
                    {
                        "kind": "step",
                        "index": value,
                        "finish_reason": match[0].finish_reason if match else None,
                        "usage": usage,
                        **_request_label(result, match[0] if match else None),
                    },
                    None,
                )
            )
        elif part.kind == "source" and 0 <= index < len(result.sources):
            source = result.sources[index]
            fields = {"source_type": source.source_type, "url": source.url, "title": source.title}
            fields |= {"source_id": source.id, "media_type": source.media_type, "filename": source.filename}
            out.append(({"kind": "source", **fields, "citations": source.citations}, None))
        elif part.kind == "file" and 0 <= index < len(result.files):
            out.append((_file(result, index), None))
        elif part.kind == "background_task" and value in tasks:
            task = tasks[value]
            fields = task.model_dump(mode="json")
            out.append(({"kind": "background-task", **fields}, None))
        elif part.kind == "goal":
            continues = any(goal.should_continue and goal.evaluation == value for goal in result.goals)
            out.append(
                (
                    {
                        "kind": "goal",
                        "type": part.type,
                        "evaluation": capped(value),
                        "should_continue": continues,
                    },
                    None,
                )
            )
        elif part.kind == "banner":
            out.append(
                ({"kind": "banner", "level": part.type, "message": part.text, "detail": capped(value)}, None)
            )
        elif part.kind in ("data", "unknown"):
            key = "data" if part.kind == "data" else "chunk"
            out.append(({"kind": part.kind, "type": part.type, key: capped(value)}, None))
        elif part.kind == "invalid":
            out.append(({"kind": "invalid", "raw": part.text or "", "error": value}, None))
    return out


def result_ops(result: RunResult) -> list[list[Any]]:
    """Snapshot ops for ``result``: runs nested below VIEW_DEPTH are left out, and counted."""
    ops: list[list[Any]] = []
    counter = iter(range(1, 1 << 62))
    stack: list[tuple[RunResult, str | None, int, dict[str, Any] | None]] = [(result, None, 0, None)]
    while stack:  # no recursion: a result may nest a thousand runs
        run, parent, depth, holder = stack.pop()
        if depth > VIEW_DEPTH:
            if holder is not None:
                holder["hidden_levels"] = max(holder.get("hidden_levels") or 0, _levels(run))
            continue
        run_id = "root" if parent is None else f"n{next(counter)}"
        ops.append(["add", parent, {"id": run_id, **_run(run, parent is not None)}])
        later = []
        for node, child in _part_nodes(run):
            node.update(
                captions.captions_of(node["kind"], node, nested=child is not None)
            )  # as the reducer does
            node_id = node["id"] = f"n{next(counter)}"
            ops.append(["add", run_id, node])
            if child is not None:
                later.append((child, node_id, depth + 1, node))
        stack.extend(reversed(later))
    return ops  # each parent before its children, as a store needs


def _levels(run: RunResult) -> int:
    levels, inner = 0, [run]
    while inner:
        levels += 1
        inner = [call.children for r in inner for call in r.tool_calls if call.children is not None]
    return levels
