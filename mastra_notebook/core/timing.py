"""Timing figures a user can trust: time to first token, tokens per second over each step's streaming
span only, tool time without the time a person spent deciding, and the total.

All times are the run's one clock (the kernel's, ``state.Clock``): a replay or a read recording uses
the recorded times, so these figures are the same at any replay speed. The rules are those of
``figures.py``, which the widget's header and footer show too.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from pydantic import Field

from . import figures
from .documented import Documented

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
    streaming_ms = union_ms(spans) if spans else None
    return StepTiming(
        index=index,
        streaming=None if streaming_ms is None else streaming_ms / 1000,
        output_tokens=output_tokens,
        tokens_per_second=figures.tokens_per_second(output_tokens, streaming_ms),
    )


def seconds(ms: float | None) -> float | None:
    """Milliseconds as seconds; None stays None."""
    return None if ms is None else ms / 1000
