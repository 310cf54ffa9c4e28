"""Read a run's state into a RunResult (the Python object users keep).

Nested runs are read children first, in a loop over the state tree, never by recursion: a stream
nested a thousand levels deep reads like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from . import captions, figures
from .cost import Cost, combine, step_price
from .feedback import Feedback
from .request import NO_BODY_REASON, NO_STEP_START_REASON, ModelRequest, normalise_request
from .result import (
    BackgroundTask,
    Decision,
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
    WorkflowResult,
    WorkflowStep,
)
from .score import Score
from .state import RunState, StepState
from .timing import StepTiming, Timing, seconds, step_timing
from .trace import filled_from_run
from .tree import Node


def read_result(
    root: RunState, *, traced: Sequence[ModelRequest] = (), overrides: Mapping[str, Any] | None = None
) -> RunResult:
    """The RunResult of ``root`` and of every run nested in it. ``traced``: what each of the root's
    steps was given, from Mastra's trace (for the steps whose stream body was redacted);
    ``overrides``: what the root run's request overrode on purpose."""
    order = root.nested()
    owner = {id(child): key for state in order for key, child in state.children.items()}
    nested: dict[str, RunResult] = {}  # node id of a tool call or step -> the run nested under it
    for state in reversed(order):  # children before their parents
        if state is root:
            result = _read_run(state, nested, traced)
            result.overrides = dict(overrides or {})
            return result
        result = _read_run(state, nested, state.traced)  # a nested run's steps' requests by the trace
        nested[owner[id(state)]] = result
    raise AssertionError("unreachable: the root is in its own order")


def _time(ms: Any) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc) if isinstance(ms, (int, float)) else None


def _error(value: Any) -> ErrorInfo | None:
    return ErrorInfo.model_validate(value) if isinstance(value, dict) else None


def _decision(value: Any) -> Decision | None:
    if not isinstance(value, dict):
        return None
    waited = value.get("waited_ms")
    return Decision(
        action=value["action"],
        by=value["by"],
        at=_time(value["at"]),
        waited=waited / 1000 if isinstance(waited, (int, float)) else None,
    )


def _usage(value: Any) -> Usage | None:
    return Usage(**value) if value else None


def _tool_call(node: Node, nested: dict[str, RunResult], value: Any = None) -> ToolCall:
    get = node.get
    return ToolCall(
        value=value,
        **_same(node, "tool_call_id", "tool_name", "args", "result", "approval", "denied_reason", "ran_in"),
        args_text=node.text("args_text"),
        provider_executed=bool(get("provider_executed")),
        orphan=bool(get("orphan")),
        called_at=_time(get("called_at")),
        traced_time=seconds(figures.span_ms(get("trace_start"), get("trace_end"))),
        **_waiting_work(node, nested),
    )


def _same(node: Node, *names: str) -> dict[str, Any]:
    """Fields the result keeps as the node has them, by the same names."""
    return {name: node.get(name) for name in names}


def _workflow_step(node: Node, nested: dict[str, RunResult]) -> WorkflowStep:
    return WorkflowStep(**_same(node, "step_name", "input", "output"), **_waiting_work(node, nested))


def _waiting_work(node: Node, nested: dict[str, RunResult]) -> dict[str, Any]:
    """What a tool call and a workflow step both hold: a status, outputs, a nested run, and a
    suspension someone may answer."""
    get = node.get
    return {
        "status": get("status"),
        "error": _error(get("error")),
        "outputs": list(get("outputs") or ()),
        "children": nested.get(node.id),
        "suspend_payload": get("suspend_payload"),
        "decision": _decision(get("decision")),
        "continue_with": get("continue_with"),
        "started_at": _time(get("started_at")),
        "finished_at": _time(get("ended_at")),
    }


def _request(
    step: StepState, provider: Any, traced: ModelRequest | None, before: Sequence[ToolCall] = ()
) -> tuple[ModelRequest | None, str | None]:
    """What the model was given in ``step``, from its step-start's body (else from Mastra's trace,
    ``traced``, its abbreviated tool calls filled from the run's calls ``before`` the step), or why
    it is not known."""
    body = step.request.get("body") if step.request is not None else None
    if body is not None and body != {}:
        hint = provider if isinstance(provider, str) else None
        if step.request_read is None or step.request_read[0] != hint:
            step.request_read = (hint, normalise_request(body, hint))
        return step.request_read[1], None
    if traced is not None:  # redacted (or not seen): the trace's model_generation span has it
        return filled_from_run(traced, before), None
    return None, NO_STEP_START_REASON if step.request is None else NO_BODY_REASON


def _steps(
    state: RunState, calls: dict[str, ToolCall], traced: Sequence[ModelRequest] = ()
) -> tuple[list[Step], list[StepTiming]]:
    """Each model step as Mastra's StepResult: its text, reasoning and calls, and how it finished.
    ``traced``: what each step was given by Mastra's trace, in order (core/trace.py)."""
    steps, timings = [], []
    made: list[ToolCall] = []  # the run's calls in the steps before this one
    for position, step in enumerate(state.steps):
        assert step.node is not None  # a step in ``steps`` has its node
        get = step.node.get
        text = "".join(node.text("text") for node in step.texts)
        spans = step.spans(get("ended_at", state.node.fields.get("finished_at")))
        usage = _usage(get("usage"))
        took = captions.duration_ms(step.node.fields)
        timings.append(step_timing(get("index"), usage.output_tokens if usage else None, spans, took))
        from_trace = traced[position] if position < len(traced) else None
        request, request_reason = _request(step, get("provider"), from_trace, made)
        steps.append(
            Step(
                index=get("index"),
                # a continuation finishes a step whose text came in the stream before it
                text=text or step.reported_text or "",
                reasoning_text="".join(node.text("text") for node in step.reasoning),
                tool_calls=[calls[node.id] for node in step.calls if node.id in calls],
                finish_reason=get("finish_reason"),
                usage=usage,
                warnings=list(get("warnings") or ()),
                model_id=get("model_id"),
                provider=get("provider"),
                response_id=get("response_id"),
                started_at=_time(get("started_at", min((s for s, _ in spans), default=None))),
                first_token_at=_time(min((s for s, _ in spans), default=None)),
                last_token_at=_time(max((e for _, e in spans), default=None)),
                finished_at=_time(get("ended_at")),
                request=request,
                request_reason=request_reason,
            )
        )
        made = [*made, *steps[-1].tool_calls]
    return steps, timings


def _read_run(  # one branch per node kind
    state: RunState, nested: dict[str, RunResult], traced: Sequence[ModelRequest] = ()
) -> RunResult:
    parts: list[Part] = []
    calls: dict[str, ToolCall] = {}  # by node id
    sources: list[Source] = []
    files: list[File] = []
    tasks: list[BackgroundTask] = []
    goals: list[Goal] = []
    workflow_steps: list[WorkflowStep] = []
    for node in state.node.children:
        get, kind = node.get, node.kind
        if kind == "text":
            parts.append(Part(kind=kind, text=node.text("text")))
        elif kind == "reasoning":
            details = {"redacted": bool(get("redacted")), **state.reasoning_details.get(node.id, {})}
            parts.append(Part(kind=kind, text=node.text("text"), value=details))
        elif kind == "tool":
            call = calls[node.id] = _tool_call(node, nested, state.kept.get(node.id))
            parts.append(Part(kind="tool_call", tool_call_id=call.tool_call_id, value=len(calls) - 1))
        elif kind == "step":
            parts.append(Part(kind="step", value=get("index")))
        elif kind == "source":
            sources.append(
                Source(
                    id=get("source_id"),
                    **{key: get(key) for key in Source.model_fields if key not in ("id", "citations")},
                    citations=list(get("citations") or ()),
                )
            )
            parts.append(Part(kind="source", value=len(sources) - 1))
        elif kind == "file":
            data = state.file_data.get(node.id, b"")
            files.append(File(media_type=get("media_type"), data=data, name=get("name")))
            parts.append(Part(kind="file", value=len(files) - 1))
        elif kind == "background-task":
            task_fields = {key: get(key) for key in BackgroundTask.model_fields if key != "error"}
            tasks.append(BackgroundTask(**task_fields, error=_error(get("error"))))
            parts.append(Part(kind="background_task", value=get("task_id")))
        elif kind == "goal":
            goals.append(Goal(evaluation=get("evaluation"), should_continue=get("should_continue", False)))
            parts.append(Part(kind="goal", type=get("type"), value=get("evaluation")))
        elif kind == "workflow-step":
            workflow_steps.append(_workflow_step(node, nested))
            parts.append(Part(kind="workflow_step", text=get("step_name"), value=len(workflow_steps) - 1))
        elif kind == "banner":
            parts.append(Part(kind="banner", type=get("level"), text=get("message"), value=get("detail")))
        elif kind in ("data", "unknown"):
            parts.append(Part(kind=kind, type=get("type"), value=get("data", get("chunk"))))
        elif kind == "invalid":
            parts.append(Part(kind="invalid", text=get("raw"), value=get("error")))

    get = state.node.get
    workflow = None
    if get("workflow") is not None or workflow_steps:
        workflow_state = get("workflow") or {}
        workflow = WorkflowResult(
            workflow_id=workflow_state.get("workflow_id"),
            status=workflow_state.get("status", "running"),
            steps=workflow_steps,
            result=workflow_state.get("result"),
        )
    steps, step_timings = _steps(state, calls, traced)
    tripwire = get("tripwire")
    result = RunResult(
        run_id=get("run_id"),
        agent_id=get("agent_id"),
        status=get("status"),
        text="".join(node.text("text") for node in state.text_nodes[state.attempt_start :]),
        reasoning_text="".join(node.text("text") for node in state.reasoning_nodes),
        tool_calls=list(calls.values()),
        steps=steps,
        usage=_usage(get("usage")) or Usage(),
        usage_with_nested=Usage(**figures.usage_with_nested(state.node.fields)),
        finish_reason=get("finish_reason"),
        object=get("object"),
        sources=sources,
        files=files,
        warnings=[warning for step in steps for warning in step.warnings],
        error=_error(get("error")),
        tripwire=Tripwire.model_validate(tripwire) if tripwire else None,
        background_tasks=tasks,
        goals=goals,
        workflow=workflow,
        parts=parts,
        provider_events=list(state.provider_events),
        chunk_count=state.chunk_count,
        invalid=[InvalidLine(**line) for line in state.invalid],
        started_at=_time(get("started_at")),
        first_token_at=_time(get("first_token_at")),
        finished_at=_time(get("finished_at")),
        trace_id=get("trace_id"),
    )
    result.timing = run_timing(result, state.node.fields, step_timings, state.clock.untimed)
    result.cost = run_cost(result)
    result.figures = dict(state.node.fields.get("figures") or {})
    result.scores = [Score.model_validate(score) for score in get("scores") or ()]
    labelled = get("feedback")
    result.feedback = Feedback.model_validate(labelled) if labelled else None
    return result


# ---- the run's cost and timing, from the result being made (cost.py and timing.py are leaves) ----


def step_cost(step: Step) -> float | str:
    usage = step.usage.model_dump() if step.usage is not None else None
    return step_price(step.index, step.model_id, step.provider, usage)


def run_cost(result: RunResult) -> Cost:
    """The cost of ``result``: its steps, plus the nested runs (already priced) of its tool calls and
    workflow steps."""
    nested = [call.children for call in result.tool_calls if call.children is not None]
    if result.workflow is not None:
        nested += [step.children for step in result.workflow.steps if step.children is not None]
    prices = [step_cost(step) for step in result.steps]
    return combine(prices, [run.cost for run in nested], result.usage.total_tokens > 0)


def run_timing(
    result: RunResult, run: Mapping[str, Any], steps: list[StepTiming], untimed: str | None
) -> Timing:
    """The run's figures from its node's fields (``run``), by the rules the view shows them with."""
    tool_times = [call.tool_time for call in result.tool_calls]
    return Timing(
        started_at=result.started_at,
        first_token_at=result.first_token_at,
        finished_at=result.finished_at,
        time_to_first_token=seconds(figures.time_to_first_token_ms(run)),
        total=seconds(figures.total_ms(run)),
        tool_time=sum(max(time, 0.0) for time in tool_times if time is not None),
        human_wait=result.human_wait,
        tokens_per_second=figures.run_rate(run),
        steps=steps,
        untimed=untimed,
        source="trace" if run.get("trace_start") is not None else "arrival",
    )
