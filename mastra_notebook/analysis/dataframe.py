"""Runs as a pandas DataFrame: one row per run (pandas is an optional extra)."""

from __future__ import annotations

from typing import Any

from ..core.result import RunResult
from .compare import as_result


def row(result: RunResult, prompt: Any = None) -> dict[str, Any]:
    """The facts of one run as a flat dict, with a ``score_<name>`` column per score it has."""
    usage, timing = result.usage, result.timing
    facts: dict[str, Any] = {
        "prompt": prompt,
        "status": result.status,
        "text": result.text,
        "tool_calls": [call.tool_name for call in result.tool_calls],
        "tool_call_count": len(result.tool_calls),
        "tool_errors": sum(call.status == "error" for call in result.tool_calls),
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,  # this run's own steps
        "total_tokens_with_nested": result.usage_with_nested.total_tokens,  # and its sub-agents
        "reasoning_tokens": usage.reasoning_tokens,
        "duration_s": timing.total,
        "time_to_first_token_s": timing.time_to_first_token,
        # over the steps' streaming spans only, at least 0.25 s of them (the view's rule: core/figures.py)
        "tokens_per_second": timing.tokens_per_second,
        "tool_time_s": timing.tool_time,  # the server's spans once the trace is known; no human wait
        "tool_time_source": timing.source,  # "trace" (Mastra's spans) or "arrival" (the kernel's)
        "human_wait_s": timing.human_wait,
        "cost_usd": result.cost.total_usd,  # None for a model genai-prices does not know
        "cost_reason": result.cost.reason,
        "steps": len(result.steps),
        "finish_reason": result.finish_reason,
        "error": result.error.message if result.error else None,
        "run_id": result.run_id,
        "trace_id": result.trace_id,  # Mastra's trace of it, when the run named one
        **feedback_columns(result),
    }
    for score in result.scores:  # Mastra's (by scorer id) and Python scorers' (by name)
        facts[f"score_{score.scorer}"] = score.score
    return facts


def feedback_columns(result: RunResult) -> dict[str, Any]:
    """A person's label of the run (``result.feedback``), as columns: always there (None when the run
    has no label), so ``df[df.feedback_thumbs == "down"]`` works on any frame."""
    label = result.feedback
    return {
        "feedback_thumbs": label.thumbs if label else None,
        "feedback_score": label.score if label else None,
        "feedback_comment": label.comment if label else None,
        "feedback_sent": label.sent_to_mastra if label else None,  # Mastra's server has it
    }


def to_dataframe(runs: Any) -> Any:
    """One row per run (prompt, status, text, tool calls, tokens, timing, cost, the person's label as
    ``feedback_*`` columns, a ``score_<name>`` column per score) from a batch, or a list of views,
    RunResults or recordings. Anything with its own ``to_dataframe()`` (an experiment, a dataset's
    experiment, a trace) gives that: ``mn.to_dataframe(exp)`` is ``exp.to_dataframe()``.

    A batch gives the rows so far, at once: one per prompt, in prompt order, each as far as its run
    got (status ``queued`` or ``running`` until it ends). Call it again for more."""
    own = getattr(runs, "to_dataframe", None)
    if callable(own):  # its own rows (one per input, variant and repeat for an experiment)
        return own()
    try:
        import pandas as pd
    except ImportError as error:
        raise ImportError("to_dataframe needs pandas: pip install 'mastra-notebook[pandas]'") from error
    items = list(getattr(runs, "tiles", runs))
    rows = [row(as_result(item), getattr(item, "prompt", None)) for item in items]
    for item, facts in zip(items, rows, strict=True):
        status = getattr(item, "status", None)  # a batch's tile: queued and running are its own words
        if isinstance(status, str):
            facts["status"] = status
    return pd.DataFrame(rows)
