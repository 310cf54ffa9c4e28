"""What an experiment's repeats say: pass@k and pass^k per variant, the inputs whose repeats disagree,
the cost of a passing run, the distinct tool-call sequences an input's repeats took, and where the
repeats' trajectories part (``exp.forks(input)``): the first aligned step where every failing run
differs from every passing run. Pure functions over outcomes: no widget, no HTTP.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.result import RunResult, Step
from .align import align, canonical, step_key, step_likeness
from .intervals import input_passes
from .outcomes import Item, Outcome, known_cost, scorer_names, trajectory


def pass_at_k(n: int, passed: int, k: int) -> float:
    """The chance that at least one of ``k`` repeats drawn from ``n`` (``passed`` of them passing)
    passes: ``1 - C(n - passed, k) / C(n, k)`` (the unbiased estimator of Chen et al., 2021)."""
    if not 0 < k <= n:
        return math.nan
    return 1.0 - math.comb(n - passed, k) / math.comb(n, k)


def pass_hat_k(n: int, passed: int, k: int) -> float:
    """The chance that all ``k`` repeats drawn from ``n`` pass: ``C(passed, k) / C(n, k)``
    (pass^k; with ``k = n``, whether every repeat passed)."""
    if not 0 < k <= n:
        return math.nan
    return math.comb(passed, k) / math.comb(n, k)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def repeat_rows(outcomes: Sequence[Outcome], variant: str, scorer: str, k: int) -> dict[str, float]:
    """For ``variant`` and ``scorer``'s pass/fail verdicts: ``pass@k`` and ``pass^k`` (each input's
    estimate, averaged over the inputs with at least ``k`` judged repeats) and ``disagree``, the share
    of inputs with two or more judged repeats whose repeats did not all pass or all fail."""
    passes = input_passes(outcomes, variant, scorer)
    usable = [runs for runs in passes.values() if len(runs) >= k]
    several = [runs for runs in passes.values() if len(runs) > 1]
    return {
        "pass@k": _mean([pass_at_k(len(runs), sum(runs), k) for runs in usable]),
        "pass^k": _mean([pass_hat_k(len(runs), sum(runs), k) for runs in usable]),
        "disagree": _mean([float(len(set(runs)) > 1) for runs in several]),
    }


def cost_per_pass(outcomes: Sequence[Outcome], variant: str, scorer: str) -> float | None:
    """``variant``'s cost (USD) over its ended runs divided by its runs that passed ``scorer``;
    None when a run's cost is unknown (a partial sum would understate it) or none passed."""
    ended = [o for o in outcomes if o.variant == variant and o.ended]
    costs = [known_cost(o.result) for o in ended]
    passed = sum(s.passed is True for o in ended for s in o.result.scores if s.scorer == scorer)
    if not ended or any(cost is None for cost in costs) or passed == 0:
        return None
    return sum(cost for cost in costs if cost is not None) / passed


def distinct_sequences(outcomes: Sequence[Outcome], item: int, variant: str) -> int:
    """How many distinct tool-call sequences (tool names and canonical arguments, in order) the
    ended repeats of input ``item`` with ``variant`` took."""
    return len(
        {trajectory(o.result) for o in outcomes if o.item == item and o.variant == variant and o.ended}
    )


# ---- forks ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fork:
    """Where an input's repeats part: ``rows`` of aligned steps (one step index per repeat, None for a
    gap), ``passed`` per repeat (None when not judged), and ``separating``, the first row where every
    failing repeat's step differs from every passing repeat's (None: no step separates them, or the
    repeats did not both pass and fail)."""

    item: int
    variant: str
    labels: list[str]
    results: list[RunResult]
    passed: list[bool | None]
    rows: list[list[int | None]]
    separating: int | None

    def step(self, run: int, row: int) -> Step | None:
        """Repeat ``run``'s step at aligned ``row`` (None for a gap)."""
        index = self.rows[row][run]
        return None if index is None else self.results[run].steps[index]

    def sentence(self) -> str:
        """What the fork says in words."""
        judged = [p for p in self.passed if p is not None]
        if not (True in judged and False in judged):
            return "the repeats did not both pass and fail: nothing to separate"
        if self.separating is None:
            return "no step separates them"
        parts = []
        for run, label in enumerate(self.labels):
            verdict = {True: "passed", False: "failed", None: "not judged"}[self.passed[run]]
            parts.append(f"{label} ({verdict}): {described_step(self.step(run, self.separating))}")
        return f"step {self.separating + 1} separates them: " + "; ".join(parts)

    def comparison(self) -> Any:
        """The repeats compared step by step, as ``mn.compare`` draws them."""
        from .compare import compare

        return compare(*self.results, labels=self.labels)

    def _repr_html_(self) -> str:
        from html import escape

        return f"<p>{escape(self.sentence())}</p>" + str(self.comparison()._repr_html_())

    def __repr__(self) -> str:
        return f"<Fork of input {self.item} · {self.variant}: {self.sentence()}>"


def described_step(step: Step | None) -> str:
    """A step as a line: its tool calls with their arguments, or its text; "no step" for a gap."""
    if step is None:
        return "no step"
    if step.tool_calls:
        return ", ".join(f"{call.tool_name}({_args(call.args)})" for call in step.tool_calls)
    return repr(step.text[:200])


def _args(args: Any) -> str:
    return canonical(args)[:200]


def separating_row(keys: Sequence[Sequence[Any]], passed: Sequence[bool | None]) -> int | None:
    """The first row of ``keys`` (one key per run and row; None a gap) where no failing run's key
    equals a passing run's; None when no row does, or the runs did not both pass and fail."""
    good = [i for i, p in enumerate(passed) if p is True]
    bad = [i for i, p in enumerate(passed) if p is False]
    if not good or not bad:
        return None
    for number, row in enumerate(keys):
        if not {row[i] for i in bad} & {row[i] for i in good}:
            return number
    return None


def fork(outcomes: Sequence[Outcome], item: int, variant: str, scorer: str | None) -> Fork:
    """Input ``item``'s ended repeats with ``variant`` aligned step by step (align.py: tool calls
    and canonical arguments; answers alike whatever their wording), and the step that separates
    the repeats that passed ``scorer`` from those that failed (see :class:`Fork`)."""
    runs = sorted((o for o in outcomes if o.item == item and o.variant == variant and o.ended),
                  key=lambda o: o.repeat)  # fmt: skip
    if not runs:
        raise KeyError(f"no ended run of input {item} with variant {variant!r}")
    keys = [[step_key(step) for step in o.result.steps] for o in runs]
    rows: list[list[int | None]] = align(keys, step_likeness)
    passed: list[bool | None] = []
    for o in runs:
        verdicts = [s.passed for s in o.result.scores if s.scorer == scorer and s.passed is not None]
        passed.append(verdicts[-1] if verdicts else None)
    by_row = [[None if i is None else keys[run][i] for run, i in enumerate(row)] for row in rows]
    return Fork(item, variant, [f"repeat {o.repeat + 1}" for o in runs], [o.result for o in runs],
                passed, rows, separating_row(by_row, passed))  # fmt: skip


def input_rows(
    outcomes: Sequence[Outcome], items: Sequence[Item], variants: Sequence[str]
) -> list[dict[str, Any]]:
    """A row per input and variant: ``runs`` (ended), ``sequences`` (distinct tool-call sequences
    its repeats took), and per scorer ``<name>_mean`` over its repeats and ``<name>_passed`` (how
    many repeats passed; None for a scorer without a threshold)."""
    scorers = scorer_names(outcomes)
    table = []
    for item in range(len(items)):
        for variant in variants:
            runs = [o for o in outcomes if o.item == item and o.variant == variant and o.ended]
            facts: dict[str, Any] = {
                "input_index": item,
                "variant": variant,
                "input": items[item].input,
                "runs": len(runs),
                "sequences": distinct_sequences(runs, item, variant),
            }
            for name in scorers:
                scores = [s for o in runs for s in o.result.scores if s.scorer == name]
                values = [s.score for s in scores if s.score is not None]
                verdicts = [s.passed for s in scores if s.passed is not None]
                facts[f"{name}_mean"] = sum(values) / len(values) if values else math.nan
                facts[f"{name}_passed"] = sum(verdicts) if verdicts else None
            table.append(facts)
    return table
