"""An experiment's summary per variant: each scorer's mean with its interval over inputs (each input
its repeats' mean; :data:`~mastra_notebook.analysis.intervals.INTERVAL_RULE`), how many runs it failed
on, its pass rate and, with repeats, pass@k, pass^k and the share of inputs whose repeats disagree;
tokens, cost (unknown stays unknown) and latency, each saying how many runs it covers. Pure
functions over outcomes: no widget, no HTTP.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..core.result import RunResult
from ..core.score import as_scorer
from .intervals import clustered_interval, failures
from .outcomes import Item, Outcome, known_cost, percentile, scorer_names
from .repeats import cost_per_pass, repeat_rows


def summary_rows(
    outcomes: Sequence[Outcome], variants: Sequence[str], repeats: int = 1
) -> list[dict[str, Any]]:
    """One row per variant (see ``Experiment.summary``)."""
    scorers = scorer_names(outcomes)
    table = []
    for variant in variants:
        runs = [outcome for outcome in outcomes if outcome.variant == variant]
        ended = [outcome for outcome in runs if outcome.ended]
        facts: dict[str, Any] = {
            "variant": variant,
            "n": len(runs),
            "ended": len(ended),
            "errors": sum(outcome.status != "finished" and not outcome.never_started for outcome in ended),
            "not_started": sum(outcome.never_started for outcome in ended),
        }
        for name in scorers:
            mean, low, high, inputs = clustered_interval(outcomes, variant, name)
            facts[f"{name}_mean"], facts[f"{name}_ci_low"], facts[f"{name}_ci_high"] = mean, low, high
            facts[f"{name}_inputs"] = inputs
            facts[f"{name}_failed"] = failures(outcomes, variant, name)
            judged = [
                s.passed for o in ended for s in o.result.scores if s.scorer == name and s.passed is not None
            ]
            facts[f"{name}_pass_rate"] = sum(judged) / len(judged) if judged else math.nan
            if repeats > 1:
                figures = repeat_rows(outcomes, variant, name, repeats)
                facts[f"{name}_pass@{repeats}"] = figures["pass@k"]
                facts[f"{name}_pass^{repeats}"] = figures["pass^k"]
                facts[f"{name}_disagree"] = figures["disagree"]
            if judged:
                facts[f"{name}_cost_per_pass_usd"] = cost_per_pass(outcomes, variant, name)
        costs = [cost for o in ended if (cost := known_cost(o.result)) is not None]
        latencies = [o.result.timing.total for o in ended if o.result.timing.total is not None]
        facts["tokens"] = sum(outcome.result.usage.total_tokens for outcome in runs)
        facts["cost_usd"] = sum(costs) if costs else math.nan
        facts["cost_runs"] = len(costs)
        facts["latency_p50_s"] = percentile(latencies, 50)
        facts["latency_p95_s"] = percentile(latencies, 95)
        facts["latency_runs"] = len(latencies)
        table.append(facts)
    return table


def rescored(
    result: RunResult, scorers: Sequence[Any], *, input: Any = None, expected: Any = None
) -> RunResult:
    """``result`` with ``scorers``' scores (a scorer that raises gives a failed score, as ever), each
    replacing the score of its name; the others kept."""
    new = [as_scorer(scorer)(result, input=input, expected=expected) for scorer in scorers]
    names = {score.scorer for score in new}
    kept = [score for score in result.scores if score.scorer not in names]
    return result.model_copy(update={"scores": [*kept, *new]})


def rescored_outcomes(
    outcomes: Sequence[Outcome], items: Sequence[Item], scorers: Sequence[Any]
) -> list[Outcome]:
    """Every ended run scored again by ``scorers`` (Python scorers, run here: no server), each new
    score replacing the run's score of that name; runs not ended are kept as they are."""
    return [
        Outcome(o.item, o.variant, o.repeat, o.status,
                rescored(o.result, scorers, input=items[o.item].input, expected=items[o.item].expected))
        if o.ended else o
        for o in outcomes
    ]  # fmt: skip
