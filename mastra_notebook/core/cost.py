"""What a run cost in USD, per step and in all, from genai-prices (pydantic's price database).

Prices come from the data bundled in the installed genai-prices: nothing is fetched at run time. A
step is priced from its model id and provider (the step metadata's ``modelId`` and the model's
provider, or the router's ``provider/model``) and the usage Mastra reports, cached and reasoning
tokens included. A model genai-prices does not know, or a step without usage, makes the cost
``None`` with a reason: never a guess.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:  # result.py holds Cost as a field: no import at run time
    from .result import RunResult, Step


class Cost(BaseModel):
    """USD: ``total_usd`` (this run's steps and the runs nested in it) and ``steps_usd`` (one figure per
    step, ``None`` where unknown). ``reason`` says why ``total_usd`` is ``None``."""

    model_config = ConfigDict(extra="forbid")

    total_usd: float | None = None
    steps_usd: list[float | None] = Field(default_factory=list)
    nested_usd: float | None = None  # sub-agents and workflows run by this run's tools
    reason: str | None = None


def model_ref(model_id: str | None, provider: str | None) -> tuple[str | None, str | None]:
    """genai-prices' model and provider ids: ``anthropic.messages`` names provider ``anthropic``; the
    model router's ``openai/gpt-4o`` names both."""
    if model_id and "/" in model_id and not provider:
        provider, _, model_id = model_id.partition("/")
    elif model_id and "/" in model_id and provider and model_id.startswith(provider.split(".")[0] + "/"):
        model_id = model_id.partition("/")[2]
    return model_id or None, provider.split(".")[0] if provider else None


@lru_cache(maxsize=4096)
def _price(model: str, provider: str | None, counts: tuple[int, int, int, int]) -> float | str:
    """USD for one step's usage, or why it has no price."""
    from genai_prices import Usage, calc_price  # its data loads on first use (about 0.4 s)

    input_tokens, cached, output_tokens, reasoning = counts
    usage = Usage(
        input_tokens=input_tokens,
        cache_read_tokens=cached,
        output_tokens=output_tokens,
        output_reasoning_tokens=reasoning,
    )
    try:
        price = calc_price(usage, model, provider_id=provider)
    except LookupError:
        of = f" of provider {provider!r}" if provider else ""
        return f"genai-prices has no price for model {model!r}{of}"
    return float(price.total_price)


def step_cost(step: Step) -> float | str:
    """USD for one step, or why it has none."""
    model, provider = model_ref(step.model_id, step.provider)
    if model is None:
        return f"step {step.index} names no model"
    if step.usage is None:
        return f"step {step.index} reported no usage (it did not finish)"
    usage = step.usage
    counts = (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens, usage.reasoning_tokens)
    return _price(model, provider, counts)


def run_cost(result: RunResult) -> Cost:
    """The cost of ``result``: its steps, plus the nested runs (already priced) of its tool calls and
    workflow steps."""
    priced = [step_cost(step) for step in result.steps]
    steps_usd = [figure if isinstance(figure, float) else None for figure in priced]
    reasons = [figure for figure in priced if isinstance(figure, str)]
    nested = [call.children for call in result.tool_calls if call.children is not None]
    if result.workflow is not None:
        nested += [step.children for step in result.workflow.steps if step.children is not None]
    nested_known = [run.cost.total_usd for run in nested if run.cost.total_usd is not None]
    reasons += [f"a nested run: {run.cost.reason}" for run in nested if run.cost.total_usd is None]
    nested_usd = sum(nested_known) if nested and len(nested_known) == len(nested) else None
    if not result.steps and result.usage.total_tokens and not reasons:
        reasons.append("tokens were used but no model step says which model")
    if reasons:
        return Cost(steps_usd=steps_usd, nested_usd=nested_usd, reason="; ".join(dict.fromkeys(reasons)))
    total = sum(figure for figure in steps_usd if figure is not None) + (nested_usd or 0.0)
    return Cost(total_usd=total, steps_usd=steps_usd, nested_usd=nested_usd if nested else None)
