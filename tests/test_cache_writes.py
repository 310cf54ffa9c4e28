"""Prompt-cache writes (Anthropic's ``cache_creation_input_tokens``, Mastra's
``cacheCreationInputTokens``) are counted in ``Usage`` and priced by genai-prices (issue 19)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from genai_prices import Usage as PriceUsage
from genai_prices import calc_price

import mastra_notebook as mn

RECORDING = Path(__file__).parent / "fixtures" / "providers" / "anthropic-text.jsonl"
WRITTEN = 1000  # of the step's input tokens, written to the cache


def _with_cache_writes(value: object) -> object:
    """``value`` with every Mastra usage in it (the step's, the run's, ``output.steps[i]``'s) saying
    that ``WRITTEN`` of its input tokens were written to the cache."""
    if isinstance(value, list):
        return [_with_cache_writes(item) for item in value]
    if not isinstance(value, dict):
        return value
    changed = {key: _with_cache_writes(item) for key, item in value.items()}
    if "cacheCreationInputTokens" in changed:
        changed["inputTokens"] += WRITTEN  # Mastra's inputTokens counts the cache's writes
        changed["totalTokens"] += WRITTEN
        changed["cacheCreationInputTokens"] = WRITTEN
    return changed


def test_cache_writes_are_counted_and_priced() -> None:
    plain = mn.collect(RECORDING)
    chunks = [
        _with_cache_writes(orjson.loads(line)) for line in RECORDING.read_bytes().splitlines() if line.strip()
    ]
    written = mn.collect(chunks)

    assert plain.usage.cache_creation_input_tokens == 0
    assert written.usage.cache_creation_input_tokens == WRITTEN
    assert written.steps[0].usage is not None
    assert written.steps[0].usage.cache_creation_input_tokens == WRITTEN

    step = written.steps[0]
    assert step.model_id is not None
    usage = written.usage
    expected = calc_price(
        PriceUsage(
            input_tokens=usage.input_tokens,
            cache_write_tokens=WRITTEN,
            output_tokens=usage.output_tokens,
        ),
        step.model_id,
        provider_id="anthropic",
    ).total_price
    assert written.cost.total_usd == pytest.approx(float(expected))
    # a written token costs more than a plain one (Anthropic: 1.25x): the cost is not the plain price
    assert plain.cost.total_usd is not None
    assert written.cost.total_usd is not None
    unwritten = calc_price(
        PriceUsage(input_tokens=usage.input_tokens, output_tokens=usage.output_tokens),
        step.model_id,
        provider_id="anthropic",
    ).total_price
    assert written.cost.total_usd > float(unwritten)
