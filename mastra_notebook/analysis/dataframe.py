"""Runs as a pandas DataFrame: one row per run (pandas is an optional extra)."""

from __future__ import annotations

from typing import Any

from ..core.result import RunResult
from .compare import as_result


def _seconds(start: Any, end: Any) -> float | None:
    return None if start is None or end is None else (end - start).total_seconds()


def row(result: RunResult, prompt: Any = None) -> dict[str, Any]:
    """The facts of one run as a flat dict."""
    usage = result.usage
    return {
        "prompt": prompt,
        "status": result.status,
        "text": result.text,
        "tool_calls": [call.tool_name for call in result.tool_calls],
        "tool_call_count": len(result.tool_calls),
        "tool_errors": sum(call.status == "error" for call in result.tool_calls),
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
        "reasoning_tokens": usage.reasoning_tokens,
        "duration_s": result.duration,
        "time_to_first_token_s": _seconds(result.started_at, result.first_token_at),
        "steps": len(result.steps),
        "finish_reason": result.finish_reason,
        "error": result.error.message if result.error else None,
        "run_id": result.run_id,
    }


def to_dataframe(runs: Any) -> Any:
    """One row per run (prompt, status, text, tool calls, tokens, durations) from a batch, or a list
    of views, RunResults or recordings."""
    try:
        import pandas as pd
    except ImportError as error:
        raise ImportError("to_dataframe needs pandas: pip install 'mastra-notebook[pandas]'") from error
    items = list(getattr(runs, "views", runs))
    return pd.DataFrame([row(as_result(item), getattr(item, "prompt", None)) for item in items])
