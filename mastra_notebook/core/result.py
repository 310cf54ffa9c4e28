"""The finished (or unfinished) run as a Python object: the same from a server, a file or a list."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["running", "finished", "error", "aborted", "tripwire", "suspended", "incomplete"]


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Usage(_Result):
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    reasoning_tokens: int = 0
    cached_input_tokens: int = 0


class ErrorInfo(_Result):
    message: str
    name: str | None = None
    status_code: int | None = None
    details: Any = None


class Tripwire(_Result):
    reason: str
    processor_id: str | None = None
    metadata: Any = None


class ToolCall(_Result):
    tool_call_id: str
    tool_name: str
    args: Any = None
    args_text: str = ""
    status: str = "running"
    result: Any = None
    error: ErrorInfo | None = None
    outputs: list[Any] = Field(default_factory=list)
    children: RunResult | None = None
    approval: Any = None
    suspend_payload: Any = None
    denied_reason: str | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


class Step(_Result):
    index: int
    finish_reason: str | None = None
    usage: Usage | None = None
    warnings: list[Any] = Field(default_factory=list)


class Source(_Result):
    source_type: str | None = None
    id: str | None = None
    url: str | None = None
    title: str | None = None
    media_type: str | None = None
    filename: str | None = None


class File(_Result):
    model_config = ConfigDict(extra="forbid", ser_json_bytes="base64", val_json_bytes="base64")

    media_type: str | None = None
    data: bytes = b""
    name: str | None = None


class BackgroundTask(_Result):
    task_id: str
    tool_name: str | None = None
    tool_call_id: str | None = None
    status: str
    history: list[str] = Field(default_factory=list)
    outputs: list[Any] = Field(default_factory=list)
    result: Any = None
    error: ErrorInfo | None = None


class Goal(_Result):
    evaluation: Any = None
    should_continue: bool = False


class WorkflowStep(_Result):
    step_name: str
    status: str
    input: Any = None
    output: Any = None
    error: ErrorInfo | None = None
    outputs: list[Any] = Field(default_factory=list)
    children: RunResult | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


class Workflow(_Result):
    workflow_id: str | None = None
    status: str = "running"
    steps: list[WorkflowStep] = Field(default_factory=list)
    result: Any = None


class InvalidLine(_Result):
    raw: str
    error: str


class Part(_Result):
    """One part of the run, in arrival order: ``kind`` plus what locates or holds it."""

    kind: str
    text: str | None = None
    tool_call_id: str | None = None
    type: str | None = None
    value: Any = None


class RunResult(_Result):
    run_id: str | None = None
    agent_id: str | None = None
    status: Status = "running"
    text: str = ""
    reasoning_text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None
    object: Any = None
    sources: list[Source] = Field(default_factory=list)
    files: list[File] = Field(default_factory=list)
    warnings: list[Any] = Field(default_factory=list)
    error: ErrorInfo | None = None
    tripwire: Tripwire | None = None
    background_tasks: list[BackgroundTask] = Field(default_factory=list)
    goals: list[Goal] = Field(default_factory=list)
    workflow: Workflow | None = None
    parts: list[Part] = Field(default_factory=list)
    chunk_count: int = 0
    invalid: list[InvalidLine] = Field(default_factory=list)
    started_at: datetime | None = None
    first_token_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def duration(self) -> float | None:
        """Seconds from the first chunk to the end, when both are known."""
        if self.started_at is None or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()

    def tool_call(self, tool_call_id: str) -> ToolCall:
        """The tool call with this id (at this level)."""
        for call in self.tool_calls:
            if call.tool_call_id == tool_call_id:
                return call
        raise KeyError(tool_call_id)
