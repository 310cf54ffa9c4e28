"""Timing figures a user can trust: time to first token, tokens per second over each step's streaming
span only, tool time without the time a person spent deciding, and the total.

All times are the run's one clock (the kernel's, ``state.Clock``): a replay or a read recording uses
the recorded times, so these figures are the same at any replay speed. The rules are those of
``figures.py``, which the widget's header and footer show too.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal

from pydantic import Field

from . import figures
from .documented import Documented

Interval = tuple[float, float]  # epoch milliseconds, start and end
# What measured a duration: Mastra's trace (the server's span of it), or when its chunks arrived in the
# kernel (the network and the server's buffering included: all that time to first token and the
# streaming rate can be measured by, since only the kernel saw the tokens come).
Source = Literal["trace", "arrival"]


class StepTiming(Documented):
    """One model step: how long its parts streamed, and how fast."""

    index: int
    """The step's number in the run, from 1, as ``Step.index`` and the view's "Step 1" say it."""
    duration: float | None = None
    """Seconds the step took: its span by Mastra's trace when known, else from its start to its end
    as its chunks arrived (``source`` says which)."""
    source: Source | None = None
    """What measured ``duration``: ``"trace"`` (the server's span) or ``"arrival"``. ``streaming``
    and ``tokens_per_second`` are always by arrival: only the kernel saw the tokens come."""
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
    """Seconds the tools themselves took: each call's span by Mastra's trace when known, else from
    its call to its end as its chunks arrived, people's decisions left out (``source``)."""
    source: Source = "arrival"
    """What measured ``tool_time`` and the steps' ``duration``: ``"trace"`` once Mastra's trace of
    the run is known (``view.trace()``, or kept in a recording), else ``"arrival"``. The other
    figures (``time_to_first_token``, ``total``, ``tokens_per_second``) are always by arrival."""
    human_wait: float = 0.0
    """Seconds people took to approve, decline or resume: in neither ``tool_time`` nor the rates."""
    tokens_per_second: float | None = None
    """All steps' output tokens over their streaming spans."""
    steps: list[StepTiming] = Field(default_factory=list)
    """Each model step's streaming time and rate."""
    untimed: str | None = None
    """Why the durations are ``None``: the source carried no arrival times (a file read at once)."""


class TracedTimes(Documented):
    """How long the parts of a run took by Mastra's spans (epoch ms on the server's clock): the
    figures a run's view and result give once its trace is known, in place of when the chunks
    arrived in the kernel (which holds the network, the server's buffering and the chunks' order)."""

    request: Interval | None = None
    """The span of the run's first request (its root ``agent_run``)."""
    tools: dict[str, Interval] = Field(default_factory=dict)
    """Each tool call's span (``tool_call``), by its tool call id (a sub-agent's run is inside it)."""
    runs: dict[str, Interval] = Field(default_factory=dict)
    """The span of the run nested in a tool call (a sub-agent's ``agent_run``), by the call's id."""
    steps: dict[str, list[Interval]] = Field(default_factory=dict)
    """Each model step's span (``model_step``), in order, of the run itself (key ``""``) and of the
    run nested in each tool call (by the call's id)."""


def union_ms(intervals: Iterable[Interval]) -> float:
    """Milliseconds covered by the intervals, each moment counted once (parts stream in parallel)."""
    covered, reach = 0.0, float("-inf")
    for start, end in sorted(intervals):
        if end <= reach:
            continue
        covered += end - max(start, reach)
        reach = end
    return covered


def step_timing(
    index: int, output_tokens: int | None, spans: list[Interval], took: tuple[float, str] | None = None
) -> StepTiming:
    """A step's streaming span is the union of its parts' spans: not the tools' execution between
    them. ``took``: how long the whole step took in ms, and what measured it (core/captions.py)."""
    streaming_ms = union_ms(spans) if spans else None
    return StepTiming(
        index=index,
        duration=None if took is None else took[0] / 1000,
        source=None if took is None else "trace" if took[1] == "trace" else "arrival",
        streaming=None if streaming_ms is None else streaming_ms / 1000,
        output_tokens=output_tokens,
        tokens_per_second=figures.tokens_per_second(output_tokens, streaming_ms),
    )


def seconds(ms: float | None) -> float | None:
    """Milliseconds as seconds; None stays None."""
    return None if ms is None else ms / 1000
