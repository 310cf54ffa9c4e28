"""Finished runs and experiments made in memory (no batch, no server), for the tests of an
experiment's numbers, its judging and its review (tests/test_judged.py, tests/test_review.py)."""

from __future__ import annotations

from typing import Any

import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import Item, Outcome
from mastra_notebook.core.score import Score
from mastra_notebook.runs.experiment import Cell, Experiment

from .compare_runs import run


def result(*steps: Any, scores: list[Score] | None = None, model: str = "gpt-4o") -> mn.RunResult:
    """A finished run of ``steps`` (compare_runs.run) by ``model``, with ``scores``."""
    chunks = run(*steps)
    for chunk in chunks:
        if chunk["type"] == "step-finish":
            chunk["payload"]["metadata"]["modelId"] = model
    made = mn.collect(chunks)
    return made.model_copy(update={"scores": scores or []})


def score(name: str, value: float | None, threshold: float | None = None) -> Score:
    passed = None if value is None or threshold is None else value >= threshold
    return Score(scorer=name, score=value, passed=passed, threshold=threshold)


def experiment_of(outcomes: list[Outcome], items: list[Item], repeats: int = 1) -> Experiment:
    """An experiment holding ``outcomes`` as a loaded one would (no batch, no server)."""
    variants = {o.variant: {} for o in outcomes}
    exp = Experiment(items, variants, repeats=repeats)
    for outcome in outcomes:
        exp.cells.append(Cell(outcome.item, outcome.variant, outcome.repeat, len(exp.cells), saved=outcome))
    return exp
