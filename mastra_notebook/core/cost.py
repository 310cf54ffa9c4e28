"""What a run cost in USD, per step and in all, from genai-prices (pydantic's price database).

Prices come from the data bundled in the installed genai-prices: nothing is fetched at run time. A
step is priced from its model id and provider (the step metadata's ``modelId`` and the model's
provider, or the router's ``provider/model``) and the usage Mastra reports, cached and reasoning
tokens included. A model genai-prices does not know, or a step without usage, makes the cost
``None`` with a reason: never a guess.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import Any

from pydantic import Field

from .documented import Documented


class Cost(Documented):
    """USD: ``total_usd`` (this run's steps and the runs nested in it) and ``steps_usd`` (one figure per
    step, ``None`` where unknown). ``reason`` says why ``total_usd`` is ``None``."""

    total_usd: float | None = None
    """USD for this run's steps and the runs nested in it; ``None`` when any is unknown (see ``reason``)."""
    steps_usd: list[float | None] = Field(default_factory=list)
    """USD per step, in order; ``None`` for a step whose model or usage is unknown."""
    nested_usd: float | None = None
    """USD of the sub-agents and workflows this run's tools ran (``None``: none, or unknown)."""
    reason: str | None = None
    """Why ``total_usd`` is ``None``: a model genai-prices does not know, a step without usage..."""


def model_ref(model_id: str | None, provider: str | None) -> tuple[str | None, str | None]:
    """genai-prices' model and provider ids: ``anthropic.messages`` names provider ``anthropic``; the
    model router's ``openai/gpt-4o`` names both."""
    if model_id and "/" in model_id and not provider:
        provider, _, model_id = model_id.partition("/")
    elif model_id and "/" in model_id and provider and model_id.startswith(provider.split(".")[0] + "/"):
        model_id = model_id.partition("/")[2]
    return model_id or None, provider.split(".")[0] if provider else None


_COUNTS = (
    "input_tokens",
    "cached_input_tokens",
    "cache_creation_input_tokens",
    "output_tokens",
    "reasoning_tokens",
)


@lru_cache(maxsize=4096)
def _price(model: str, provider: str | None, counts: tuple[int, ...]) -> float | str:
    """USD for one step's usage, or why it has no price."""
    from genai_prices import Usage, calc_price  # its data loads on first use (about 0.4 s)

    input_tokens, cached, cache_writes, output_tokens, reasoning = counts
    usage = Usage(  # input_tokens counts the cache's reads and writes too, as Mastra's inputTokens does
        input_tokens=input_tokens,
        cache_read_tokens=cached,
        cache_write_tokens=cache_writes,
        output_tokens=output_tokens,
        output_reasoning_tokens=reasoning,
    )
    try:
        price = calc_price(usage, model, provider_id=provider)
    except LookupError:
        of = f" of provider {provider!r}" if provider else ""
        return f"genai-prices has no price for model {model!r}{of}"
    return float(price.total_price)


def step_price(index: Any, model_id: Any, provider: Any, usage: dict[str, int] | None) -> float | str:
    """USD for one step (``usage`` in our snake_case counts), or why it has none."""
    model, provider_id = model_ref(
        model_id if isinstance(model_id, str) else None, provider if isinstance(provider, str) else None
    )
    if model is None:
        return f"step {index} names no model"
    if not usage:
        return f"step {index} reported no usage (it did not finish)"
    counts = tuple(usage.get(key, 0) for key in _COUNTS)
    return _price(model, provider_id, counts)


def warm() -> None:
    """Load genai-prices' data ahead of the first step's end (about half a second), once, off the
    caller's thread: a live view does not stall at its first step."""
    if _price.cache_info().currsize == 0 and not _warming.is_set():
        _warming.set()
        threading.Thread(target=_price, args=("gpt-4o", "openai", (0, 0, 0, 0, 0)), daemon=True).start()


_warming = threading.Event()


def combine(prices: list[float | str], nested: list[Cost], tokens_without_steps: bool = False) -> Cost:
    """A run's cost from its steps' prices (USD, or why none) and its nested runs' costs."""
    steps_usd = [price if isinstance(price, float) else None for price in prices]
    reasons = [price for price in prices if isinstance(price, str)]
    known = [cost.total_usd for cost in nested if cost.total_usd is not None]
    reasons += [f"a nested run: {cost.reason}" for cost in nested if cost.total_usd is None]
    nested_usd = sum(known) if nested and len(known) == len(nested) else None
    if not prices and tokens_without_steps and not reasons:
        reasons.append("tokens were used but no model step says which model")
    if reasons:
        return Cost(steps_usd=steps_usd, nested_usd=nested_usd, reason="; ".join(dict.fromkeys(reasons)))
    total = sum(price for price in steps_usd if price is not None) + (nested_usd or 0.0)
    return Cost(total_usd=total, steps_usd=steps_usd, nested_usd=nested_usd)


def format_usd(value: float | None) -> str:
    """``$0.00206``, ``$1.23``: three significant digits below a dollar (a step costs fractions of a
    cent), cents above; "" when unknown."""
    if value is None:
        return ""
    if value == 0 or value >= 1:
        return f"${value:,.2f}"
    digits = max(2, 2 - math.floor(math.log10(value)))
    return f"${value:.{digits}f}".rstrip("0").rstrip(".")
