"""Read a Run's view tree into a RunResult (the Python object users keep)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from .result import (
    BackgroundTask,
    ErrorInfo,
    File,
    Goal,
    InvalidLine,
    Part,
    RunResult,
    Source,
    Step,
    ToolCall,
    Tripwire,
    Usage,
    Workflow,
    WorkflowStep,
)

if TYPE_CHECKING:
    from .run import Run
    from .tree import Node


def _time(ms: Any) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc) if isinstance(ms, (int, float)) else None


def _error(value: Any) -> ErrorInfo | None:
    return ErrorInfo.model_validate(value) if isinstance(value, dict) else None


def _child(run: Run, node: Node) -> RunResult | None:
    child = run._children.get(node.id)
    return read_result(child) if child is not None else None


def _tool_call(run: Run, node: Node) -> ToolCall:
    f = node.fields
    return ToolCall(
        tool_call_id=f["tool_call_id"],
        tool_name=f["tool_name"],
        args=f.get("args"),
        args_text=node.text("args_text"),
        status=f["status"],
        result=f.get("result"),
        error=_error(f.get("error")),
        outputs=list(f.get("outputs") or ()),
        children=_child(run, node),
        approval=f.get("approval"),
        suspend_payload=f.get("suspend_payload"),
        denied_reason=f.get("denied_reason"),
        started_at=_time(f.get("started_at")),
        finished_at=_time(f.get("ended_at")),
    )


def _workflow_step(run: Run, node: Node) -> WorkflowStep:
    f = node.fields
    return WorkflowStep(
        step_name=f["step_name"],
        status=f["status"],
        input=f.get("input"),
        output=f.get("output"),
        error=_error(f.get("error")),
        outputs=list(f.get("outputs") or ()),
        children=_child(run, node),
        started_at=_time(f.get("started_at")),
        finished_at=_time(f.get("ended_at")),
    )


def read_result(run: Run) -> RunResult:  # one flat branch per node kind, on purpose
    fields = run.node.fields
    parts: list[Part] = []
    tool_calls: list[ToolCall] = []
    steps: list[Step] = []
    sources: list[Source] = []
    files: list[File] = []
    tasks: list[BackgroundTask] = []
    goals: list[Goal] = []
    workflow_steps: list[WorkflowStep] = []
    warnings: list[Any] = []
    for node in run.node.children:
        f, kind = node.fields, node.kind
        if kind in ("text", "reasoning"):
            parts.append(Part(kind=kind, text=node.text("text")))
        elif kind == "tool":
            tool_calls.append(_tool_call(run, node))
            parts.append(Part(kind="tool_call", tool_call_id=f["tool_call_id"]))
        elif kind == "step":
            steps.append(
                Step(
                    index=f["index"],
                    finish_reason=f.get("finish_reason"),
                    usage=Usage(**f["usage"]) if f.get("usage") else None,
                    warnings=list(f.get("warnings") or ()),
                )
            )
            warnings += f.get("warnings") or ()
            parts.append(Part(kind="step", value=f["index"]))
        elif kind == "source":
            source_fields = {k: f.get(k) for k in Source.model_fields if k != "id"}
            sources.append(Source(id=f.get("source_id"), **source_fields))
            parts.append(Part(kind="source", value=len(sources) - 1))
        elif kind == "file":
            data = run._file_data.get(node.id, b"")
            files.append(File(media_type=f.get("media_type"), data=data, name=f.get("name")))
            parts.append(Part(kind="file", value=len(files) - 1))
        elif kind == "background-task":
            task_fields = {k: f.get(k) for k in BackgroundTask.model_fields if k != "error"}
            tasks.append(BackgroundTask(**task_fields, error=_error(f.get("error"))))
            parts.append(Part(kind="background_task", value=f["task_id"]))
        elif kind == "goal":
            goals.append(
                Goal(evaluation=f.get("evaluation"), should_continue=f.get("should_continue", False))
            )
            parts.append(Part(kind="goal", type=f.get("type"), value=f.get("evaluation")))
        elif kind == "workflow-step":
            workflow_steps.append(_workflow_step(run, node))
            parts.append(Part(kind="workflow_step", value=f["step_name"]))
        elif kind == "banner":
            parts.append(Part(kind="banner", type=f["level"], text=f["message"]))
        elif kind in ("data", "unknown"):
            parts.append(Part(kind=kind, type=f.get("type"), value=f.get("data", f.get("chunk"))))
        elif kind == "invalid":
            parts.append(Part(kind="invalid", text=f["raw"], value=f["error"]))

    workflow = None
    if fields.get("workflow") is not None or workflow_steps:
        state = fields.get("workflow") or {}
        workflow = Workflow(
            workflow_id=state.get("workflow_id"),
            status=state.get("status", "running"),
            steps=workflow_steps,
            result=state.get("result"),
        )
    tripwire = fields.get("tripwire")
    return RunResult(
        run_id=fields.get("run_id"),
        agent_id=fields.get("agent_id"),
        status=fields["status"],
        text="".join(node.text("text") for node in run._text_nodes[run._attempt_start :]),
        reasoning_text="".join(node.text("text") for node in run._reasoning.values()),
        tool_calls=tool_calls,
        steps=steps,
        usage=Usage(**fields["usage"]) if fields.get("usage") else Usage(),
        finish_reason=fields.get("finish_reason"),
        object=fields.get("object"),
        sources=sources,
        files=files,
        warnings=warnings,
        error=_error(fields.get("error")),
        tripwire=Tripwire.model_validate(tripwire) if tripwire else None,
        background_tasks=tasks,
        goals=goals,
        workflow=workflow,
        parts=parts,
        chunk_count=run.chunk_count,
        invalid=[InvalidLine(**line) for line in run.invalid],
        started_at=_time(fields.get("started_at")),
        first_token_at=_time(fields.get("first_token_at")),
        finished_at=_time(fields.get("finished_at")),
    )
