"""Issue 33, item 3, against the bundled Mastra server: ``max_tokens`` stops an experiment within one
wave of concurrent runs of the limit, on the scripted models' usage (their ids are mocks genai-prices
does not price: ``max_cost_usd`` says it cannot be checked for them; tests/test_budget.py checks it
on priced recorded streams)."""

from __future__ import annotations

import re

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server

INPUTS = [f"Question number {n}: why is the sky blue?" for n in range(12)]


def test_max_tokens_stops_within_one_wave_and_unknown_costs_are_said(client: mn.MastraClient) -> None:
    concurrency, limit = 3, 400
    exp = (
        client.agent("dynamic")
        .experiment(INPUTS, concurrency=concurrency, view=False, max_tokens=limit, max_cost_usd=1.0)
        .wait(300)
    )
    ran = [cell.result for cell in exp.cells if cell.status == "finished"]
    most = max(result.usage_with_nested.total_tokens for result in ran)
    assert most > 0
    stopped = [cell for cell in exp.cells if cell.status != "finished"]
    assert stopped  # 12 runs are far more than the limit
    assert {cell.outcome().failure for cell in stopped} == {"stopped"}
    budget = exp.batch.budget
    assert budget is not None
    said = budget.said()
    found = re.fullmatch(
        rf"stopped by max_tokens={limit} at ([\d,]+) tokens · max_cost_usd cannot be checked for "
        rf"{len(ran)} runs with unknown cost",
        said,
    )
    assert found, said
    crossed_at = int(found.group(1).replace(",", ""))
    assert limit <= crossed_at < limit + most  # the run whose end reached it
    assert budget.tokens <= crossed_at + (concurrency - 1) * most  # then only the runs streaming then
    assert said in repr(exp)
