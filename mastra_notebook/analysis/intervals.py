"""Numbers over an experiment's inputs, not its runs: the repeats of one input are not independent of
each other, so each input counts once (its repeats' mean), and intervals are Student's t over those
per-input means; two variants are compared input by input (paired). Pure functions over
:class:`~mastra_notebook.analysis.outcomes.Outcome` records: no widget, no HTTP.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .outcomes import LEVEL, Outcome, mean_interval

INTERVAL_RULE = (
    "95% intervals over inputs: each input's mean over its repeats, then Student's t over the inputs"
)


def by_input(
    outcomes: Sequence[Outcome], variant: str, scorer: str, part: str = "score"
) -> dict[int, list[Any]]:
    """The ended runs' scores of ``scorer`` for ``variant`` by input: each score's ``part`` (``score``,
    or ``passed``: whether it passed its threshold), scores without it (None) left out."""
    found: dict[int, list[Any]] = {}
    for outcome in outcomes:
        if outcome.variant != variant or not outcome.ended:
            continue
        for score in outcome.result.scores:
            value = getattr(score, part)
            if score.scorer == scorer and value is not None:
                found.setdefault(outcome.item, []).append(value)
    return found


def input_means(outcomes: Sequence[Outcome], variant: str, scorer: str) -> dict[int, float]:
    """Each input's mean score over its repeats (inputs with no score left out)."""
    return {item: statistics.fmean(values) for item, values in by_input(outcomes, variant, scorer).items()}


def clustered_interval(
    outcomes: Sequence[Outcome], variant: str, scorer: str, level: float = LEVEL
) -> tuple[float, float, float, int]:
    """The mean of ``scorer`` for ``variant`` and its interval over inputs (:data:`INTERVAL_RULE`),
    and how many inputs it covers: ``(mean, low, high, inputs)``. NaN for no inputs; the interval is
    NaN for one input."""
    means = input_means(outcomes, variant, scorer)
    mean, low, high = mean_interval(list(means.values()), level)
    return mean, low, high, len(means)


def failures(outcomes: Sequence[Outcome], variant: str, scorer: str) -> int:
    """How many of ``variant``'s ended runs ``scorer`` failed on (it raised: a score of None)."""
    return sum(
        1
        for outcome in outcomes
        if outcome.variant == variant and outcome.ended
        for score in outcome.result.scores
        if score.scorer == scorer and score.score is None
    )


def input_passes(outcomes: Sequence[Outcome], variant: str, scorer: str) -> dict[int, list[bool]]:
    """Whether each ended run passed ``scorer``'s threshold, by input (scores with no verdict left out)."""
    return by_input(outcomes, variant, scorer, "passed")


@dataclass(frozen=True)
class Paired:
    """``exp.compare_variants(a, b)`` for one scorer: the inputs both variants have a score on,
    ``mean_diff`` (a's per-input mean less b's, averaged over those inputs) with its interval
    (Student's t over the inputs' differences), the inputs a scored higher on (``wins``), lower
    (``losses``) and the same (``ties``); for a pass/fail scorer, McNemar's exact test on the inputs
    that passed with one variant and not the other (an input passes when more than half its repeats
    passed): ``only_a``, ``only_b`` and ``mcnemar_p`` (NaN otherwise)."""

    scorer: str
    a: str
    b: str
    inputs: int
    mean_diff: float
    ci_low: float
    ci_high: float
    wins: int
    losses: int
    ties: int
    only_a: int | None = None
    only_b: int | None = None
    mcnemar_p: float = math.nan

    def as_row(self) -> dict[str, Any]:
        """The comparison as a table's row."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def mcnemar_p(only_a: int, only_b: int) -> float:
    """McNemar's exact test: the two-sided binomial p-value of ``only_a`` among the discordant pairs
    at one half (scipy's ``binomtest``); 1.0 with no discordant pair, NaN without scipy."""
    if only_a + only_b == 0:
        return 1.0
    try:
        from scipy.stats import binomtest
    except ImportError:
        return math.nan
    return float(binomtest(only_a, only_a + only_b, 0.5).pvalue)


def paired(outcomes: Sequence[Outcome], a: str, b: str, scorer: str, level: float = LEVEL) -> Paired:
    """Variants ``a`` and ``b`` compared input by input on ``scorer`` (see :class:`Paired`)."""
    first, second = input_means(outcomes, a, scorer), input_means(outcomes, b, scorer)
    both = sorted(set(first) & set(second))
    diffs = [first[item] - second[item] for item in both]
    mean, low, high = mean_interval(diffs, level)
    wins = sum(round(d, 9) > 0 for d in diffs)
    losses = sum(round(d, 9) < 0 for d in diffs)
    passes_a, passes_b = input_passes(outcomes, a, scorer), input_passes(outcomes, b, scorer)
    judged = sorted(set(passes_a) & set(passes_b))
    only_a = only_b = None
    p = math.nan
    if judged:
        majority_a = {item: sum(passes_a[item]) * 2 > len(passes_a[item]) for item in judged}
        majority_b = {item: sum(passes_b[item]) * 2 > len(passes_b[item]) for item in judged}
        only_a = sum(majority_a[item] and not majority_b[item] for item in judged)
        only_b = sum(majority_b[item] and not majority_a[item] for item in judged)
        p = mcnemar_p(only_a, only_b)
    return Paired(scorer, a, b, len(both), mean, low, high, wins, losses, len(diffs) - wins - losses,
                  only_a, only_b, p)  # fmt: skip
