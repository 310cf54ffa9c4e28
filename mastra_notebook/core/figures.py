"""Every figure a user reads about a run, each computed by one rule, here, in the kernel.

The reducer writes a run node's figures (``figures``, formatted for reading) from the node's own
fields; ``RunResult.timing`` is read from the same fields by the same rules; the widget's header and
footer, the transcript, ``mn.compare`` and ``to_dataframe`` show what these functions give. No
renderer computes a figure: each rule exists once (a test holds every place to agreeing on every
recording).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cost import format_usd
from .numbers import format_duration, format_int, to_fixed

# Over a shorter streaming span a rate says nothing: chunks that came in one burst (a provider's
# buffered answer, a recording fed at once) read as tens of thousands of tokens a second.
MIN_RATE_SPAN_MS = 250.0


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def span_ms(start: Any, end: Any) -> float | None:
    """Milliseconds from ``start`` to ``end`` (epoch ms on the run's one clock), never negative."""
    a, b = _num(start), _num(end)
    return None if a is None or b is None else max(b - a, 0.0)


def tokens_per_second(tokens: Any, streaming_ms: Any) -> float | None:
    """Output tokens over the time they streamed: ``None`` for no tokens, or a span too short to say."""
    count, ms = _num(tokens), _num(streaming_ms)
    if not count or ms is None or ms < MIN_RATE_SPAN_MS:
        return None
    return count / (ms / 1000)


def format_rate(rate: float | None) -> str | None:
    return None if rate is None else to_fixed(rate, 1)


def time_to_first_token_ms(run: Mapping[str, Any]) -> float | None:
    return span_ms(run.get("started_at"), run.get("first_token_at"))


def total_ms(run: Mapping[str, Any]) -> float | None:
    return span_ms(run.get("started_at"), run.get("finished_at"))


def run_rate(run: Mapping[str, Any]) -> float | None:
    """The run's tokens/s: its finished steps' output tokens over their streaming spans only."""
    return tokens_per_second(run.get("streamed_tokens"), run.get("streaming_ms"))


def _usage(value: Any) -> dict[str, float]:
    usage = value if isinstance(value, Mapping) else {}
    return {key: _num(count) or 0.0 for key, count in usage.items()}


def usage_with_nested(run: Mapping[str, Any]) -> dict[str, int]:
    """The run's usage with its nested runs' (sub-agents, workflows), to any depth. A run with no
    model step of its own (a workflow) reports its nested runs' usage as its own: counted once."""
    own, nested = run.get("usage") or {}, run.get("nested_usage") or {}
    if not _num(run.get("steps")) and nested.get("total_tokens"):
        return {key: int(count) for key, count in nested.items()}
    return {key: int(own.get(key, 0)) + int(nested.get(key, 0)) for key in {*own, *nested}}


def used_a_model(run: Mapping[str, Any]) -> bool:
    """Whether the run (or a run nested in it) has tokens to tell: a workflow without a model has none,
    and shows no "0 tokens"."""
    own, nested = _usage(run.get("usage")), _usage(run.get("nested_usage"))
    return bool(_num(run.get("steps")) or own.get("total_tokens") or nested.get("total_tokens"))


def cost_text(cost: Any) -> tuple[str, str] | None:
    """The run's cost and its tooltip: "$0.0021" (genai-prices), or "unknown" and why."""
    if not isinstance(cost, Mapping):
        return None
    usd, reason = _num(cost.get("total_usd")), cost.get("reason")
    if usd is not None:
        return format_usd(usd), "USD, from genai-prices (this run and the runs nested in it)"
    return ("unknown", str(reason)) if isinstance(reason, str) and reason else None


def run_figures(run: Mapping[str, Any]) -> dict[str, str]:
    """A run node's figures as the header and footer show them (a key is missing where there is
    nothing to say). ``run``: the run node's fields."""
    shown: dict[str, str] = {}
    usage = _usage(run.get("usage"))
    if used_a_model(run):
        for key in ("input_tokens", "output_tokens", "reasoning_tokens", "cached_input_tokens"):
            count = usage.get(key, 0.0)
            if count or key in ("input_tokens", "output_tokens"):
                shown[key] = format_int(count)
        total = usage.get("total_tokens") or usage.get("input_tokens", 0.0) + usage.get("output_tokens", 0.0)
        shown["tokens"] = f"{format_int(total)} tokens"
        in_, out = format_int(usage.get("input_tokens", 0.0)), format_int(usage.get("output_tokens", 0.0))
        shown["tokens_title"] = f"this run: in {in_}, out {out}"
        everything = usage_with_nested(run).get("total_tokens", 0)
        if everything > total:
            shown["tokens_with_nested"] = format_int(everything)
            shown["tokens"] += f" · {format_int(everything)} with sub-agents"  # the header's: both
            shown["tokens_title"] += f"; with the runs nested in it: {format_int(everything)}"
    ttft = time_to_first_token_ms(run)
    if ttft is not None:
        shown["first_token"] = format_duration(ttft)
    rate = format_rate(run_rate(run))
    if rate is not None:
        shown["tokens_per_second"] = rate
    took = total_ms(run)
    if took is not None:
        shown["duration"] = format_duration(took)
    steps = _num(run.get("steps"))
    if steps is not None:
        shown["steps"] = format_int(steps)
    cost = cost_text(run.get("cost"))
    if cost is not None:
        shown["cost"], shown["cost_title"] = cost
    return shown
