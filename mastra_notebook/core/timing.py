"""Timing figures a user can trust: time to first token, tokens per second over each step's streaming
span only, tool time without the time a person spent deciding, and the total.

All times are the chunks' arrival times (``state.now_ms``): a replay or a read recording uses the
recorded times, so these figures are the same at any replay speed.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import Field

from .documented import Documented

if TYPE_CHECKING:  # result.py holds Timing as a field: no import at run time
    from .result import RunResult

Interval = tuple[float, float]  # epoch milliseconds, start and end


class StepTiming(Documented):
    """One model step: how long its parts streamed, and how fast."""

    index: int
    """The step's position in the run, from 0 (as in ``RunResult.steps``)."""
    streaming: float | None = None
    """Seconds its text, reasoning and tool arguments streamed (the union of their spans: the tools'
    own time left out)."""
    output_tokens: int | None = None
    """The step's output tokens, as reported."""
    tokens_per_second: float | None = None
    """Output tokens over the streaming span only; ``None`` without tokens, or for a span too short to say."""


class Timing(Documented):
    """The run's figures, in seconds. ``None`` where the stream did not tell (no first token, say)."""

    started_at: datetime | None = None
    """When the run started (UTC)."""
    first_token_at: datetime | None = None
    """When its first token (text, reasoning or tool arguments) came."""
    finished_at: datetime | None = None
    """When it ended."""
    time_to_first_token: float | None = None
    """Seconds from the start to the first token."""
    total: float | None = None
    """Seconds from the run's start (its request sent, or its source begun to be read) to its end."""
    tool_time: float = 0.0
    """Seconds the tools themselves took (from their call to their end), people's decisions left out."""
    human_wait: float = 0.0
    """Seconds people took to approve, decline or resume: in neither ``tool_time`` nor the rates."""
    tokens_per_second: float | None = None
    """All steps' output tokens over their streaming spans."""
    steps: list[StepTiming] = Field(default_factory=list)
    """Each model step's streaming time and rate."""
    untimed: str | None = None
    """Why the durations are ``None``: the source carried no arrival times (a file read at once)."""

    def without_durations(self, reason: str) -> Timing:
        """The same figures with every duration left out: a source read at once, with no arrival
        times, was timed by how fast it was read, which says nothing of the stream."""
        steps = [
            step.model_copy(update={"streaming": None, "tokens_per_second": None}) for step in self.steps
        ]
        cleared = {"time_to_first_token": None, "total": None, "tool_time": 0.0, "tokens_per_second": None}
        return self.model_copy(update={**cleared, "steps": steps, "untimed": reason})


def union_ms(intervals: Iterable[Interval]) -> float:
    """Milliseconds covered by the intervals, each moment counted once (parts stream in parallel)."""
    covered, reach = 0.0, float("-inf")
    for start, end in sorted(intervals):
        if end <= reach:
            continue
        covered += end - max(start, reach)
        reach = end
    return covered


def step_timing(index: int, output_tokens: int | None, spans: list[Interval]) -> StepTiming:
    """A step's streaming span is the union of its parts' spans: not the tools' execution between them."""
    streaming = union_ms(spans) / 1000 if spans else None
    rate = output_tokens / streaming if streaming and output_tokens else None
    return StepTiming(index=index, streaming=streaming, output_tokens=output_tokens, tokens_per_second=rate)


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    return (end - start).total_seconds() if start is not None and end is not None else None


def run_timing(result: RunResult, steps: list[StepTiming]) -> Timing:
    """The run's figures from its result (read without timing) and its steps' streaming spans."""
    tool_times = [call.tool_time for call in result.tool_calls]
    timed = [step for step in steps if step.tokens_per_second is not None]
    streaming = sum(step.streaming or 0.0 for step in timed)
    tokens = sum(step.output_tokens or 0 for step in timed)
    return Timing(
        started_at=result.started_at,
        first_token_at=result.first_token_at,
        finished_at=result.finished_at,
        time_to_first_token=_seconds(result.started_at, result.first_token_at),
        total=_seconds(result.started_at, result.finished_at),
        tool_time=sum(max(time, 0.0) for time in tool_times if time is not None),
        human_wait=result.human_wait,
        tokens_per_second=tokens / streaming if streaming else None,
        steps=steps,
    )
