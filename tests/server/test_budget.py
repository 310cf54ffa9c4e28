"""Issue 33, item 3, against the bundled Mastra server: ``max_tokens`` stops an experiment within one
wave of concurrent runs of the limit, on the scripted models' usage (their ids are mocks genai-prices
does not price: ``max_cost_usd`` says it cannot be checked for them; tests/test_budget.py checks it
on priced recorded streams)."""

from __future__ import annotations

import pytest

import mastra_notebook as mn

from ..helpers import stopped_by_max_tokens_within_one_wave

pytestmark = pytest.mark.server

INPUTS = [f"Question number {n}: why is the sky blue?" for n in range(12)]


def test_max_tokens_stops_within_one_wave_and_unknown_costs_are_said(client: mn.MastraClient) -> None:
    concurrency, limit = 3, 400
    exp = (
        client.agent("dynamic")
        .experiment(INPUTS, concurrency=concurrency, view=False, max_tokens=limit, max_cost_usd=1.0)
        .wait(300)
    )
    stopped_by_max_tokens_within_one_wave(exp, limit, concurrency)
