"""Scores of a run: Mastra's (read from its server) and the notebook's own Python scorers.

A Python scorer is any ``fn(result, *, input=None, expected=None) -> float | bool | Score``, sync or
async; :func:`scorer` names it and gives it a threshold. Running one never raises: an exception
becomes a :class:`Score` with ``score`` None and the error as its ``reason``.
"""

from __future__ import annotations

import asyncio
import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, overload

from .documented import Documented

Source = Literal["mastra", "notebook"]
SCORES_TYPE = "mn-scores"  # a saved recording's line of the run's scores (the notebook's own chunk type)


class Score(Documented):
    """One score of a run: a Mastra scorer's (by its id) or a Python scorer's (by its name)."""

    scorer: str
    """The scorer: a Mastra scorer's id, or a Python scorer's name."""
    score: float | None = None
    """The score (a bool is 1.0 or 0.0); ``None`` when the scorer failed (``reason`` says why)."""
    reason: str | None = None
    """Why, as the scorer said it; or the error of a scorer that failed."""
    source: Source = "notebook"
    """``mastra`` (scored on the server) or ``notebook`` (a Python scorer, run in the kernel)."""
    passed: bool | None = None
    """``score >= threshold`` for a scorer with a threshold (a bool scorer's own answer); else None."""
    threshold: float | None = None
    """The scorer's threshold, when it has one."""


ScorerFunction = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Scorer:
    """A named Python scorer (made by :func:`scorer`): ``await scorer.ascore(result)`` or
    ``scorer(result)`` gives its :class:`Score`, never an exception. ``result`` is a RunResult
    (typed ``Any`` here: core/result.py imports this module, not the other way)."""

    function: ScorerFunction
    name: str
    threshold: float | None = None

    def __call__(self, result: Any, *, input: Any = None, expected: Any = None) -> Score:
        """Score ``result`` here (an async scorer runs on a loop of its own: outside a running loop)."""
        try:
            value = self.function(result, **self._given(input, expected))
            if inspect.isawaitable(value):
                value = asyncio.run(_awaited(value))
        except Exception as error:
            return self.failed(error)
        return self.as_score(value)

    async def ascore(self, result: Any, *, input: Any = None, expected: Any = None) -> Score:
        """Score ``result`` without blocking the running loop: an async scorer is awaited on it, a
        plain function runs in a thread (as client tools do)."""
        try:
            if inspect.iscoroutinefunction(self.function):
                value = await self.function(result, **self._given(input, expected))
            else:
                value = await asyncio.to_thread(self.function, result, **self._given(input, expected))
                if inspect.isawaitable(value):
                    value = await value
        except Exception as error:
            return self.failed(error)
        return self.as_score(value)

    def _given(self, input: Any, expected: Any) -> dict[str, Any]:
        """``input`` and ``expected``, as far as the function takes them (``lambda r: ...`` scores too)."""
        try:
            parameters = inspect.signature(self.function).parameters.values()
        except (TypeError, ValueError):  # a builtin without a signature: give it both
            return {"input": input, "expected": expected}
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
            return {"input": input, "expected": expected}
        names = {p.name for p in parameters if p.kind is not inspect.Parameter.POSITIONAL_ONLY}
        return {k: v for k, v in (("input", input), ("expected", expected)) if k in names}

    def failed(self, error: BaseException) -> Score:
        """The score of a run this scorer could not score: None, the error as the reason."""
        return Score(scorer=self.name, reason=f"{type(error).__name__}: {error}", threshold=self.threshold)

    def as_score(self, value: Any) -> Score:
        """What the function returned, as a Score (a float, a bool or a Score; else a failed one)."""
        if isinstance(value, Score):
            score = value.model_copy(update={"source": "notebook"})
            if score.threshold is None and self.threshold is not None:
                score.threshold = self.threshold
            if score.passed is None:
                score.passed = _passed(score.score, score.threshold)
            return score
        if isinstance(value, bool):
            return Score(scorer=self.name, score=float(value), passed=value, threshold=self.threshold)
        if isinstance(value, (int, float)) and not math.isnan(value):
            number = float(value)
            return Score(
                scorer=self.name,
                score=number,
                passed=_passed(number, self.threshold),
                threshold=self.threshold,
            )
        what = f"returned {type(value).__name__} {value!r}"[:200]
        return Score(
            scorer=self.name, reason=f"{what}, not a number, a bool or a Score", threshold=self.threshold
        )


def badge(score: Score) -> dict[str, str]:
    """How a view shows ``score``: the header's badge (``answer-length 0.7``, ``exact 1 ✓``) with its
    tone (``ok`` passed, ``error`` failed its threshold, ``warn`` the scorer failed, else ``neutral``)
    and title (its reason, on hover), and the footer's row (``scorer``, ``value``, ``reason``); written
    once here, drawn as given by both renderers."""
    value = "failed" if score.score is None else f"{score.score:.3g}"
    mark = "" if score.passed is None else " ✓" if score.passed else " ✗"
    if score.score is None:
        tone = "warn"
    else:
        tone = "neutral" if score.passed is None else "ok" if score.passed else "error"
    about = f"{score.scorer} ({'Mastra' if score.source == 'mastra' else 'Python'} scorer)"
    return {
        "text": f"{score.scorer} {value}{mark}",
        "tone": tone,
        "title": f"{about}: {score.reason}" if score.reason else about,
        "scorer": score.scorer,
        "value": f"{value}{mark}",
        "reason": score.reason or "",
    }


def _passed(score: float | None, threshold: float | None) -> bool | None:
    return None if score is None or threshold is None else score >= threshold


async def _awaited(value: Any) -> Any:
    return await value


@overload
def scorer(fn: ScorerFunction, name: str | None = None, threshold: float | None = None) -> Scorer: ...
@overload
def scorer(
    fn: None = None, name: str | None = None, threshold: float | None = None
) -> Callable[[ScorerFunction], Scorer]: ...
def scorer(
    fn: ScorerFunction | None = None, name: str | None = None, threshold: float | None = None
) -> Scorer | Callable[[ScorerFunction], Scorer]:
    """``mn.scorer(fn, name=None, threshold=None)``: ``fn(result, *, input=None, expected=None)``
    returning a float, a bool or a Score, named (``fn.__name__`` by default); with ``threshold``, its
    scores say whether they ``passed`` (``score >= threshold``). Also a decorator:
    ``@mn.scorer(threshold=0.5)``."""
    if fn is None:
        return lambda function: scorer(function, name, threshold)
    if isinstance(fn, Scorer):
        return Scorer(fn.function, name or fn.name, fn.threshold if threshold is None else threshold)
    if not callable(fn):
        raise TypeError(f"a scorer is a function of the result, not {type(fn).__name__}")
    return Scorer(fn, name or getattr(fn, "__name__", None) or "scorer", threshold)


def as_scorer(value: Any) -> Scorer:
    """A Scorer as given, or a plain function named after itself."""
    return value if isinstance(value, Scorer) else scorer(value)


def named(scores: list[Score], name: str) -> Score:
    """The score of scorer ``name`` (the latest, if it scored twice); KeyError names those there."""
    for score in reversed(scores):
        if score.scorer == name:
            return score
    there = ", ".join(repr(score.scorer) for score in scores) or "none"
    raise KeyError(f"no score {name!r} on this run (scores: {there})")


def scores_line(scores: list[Score], run_id: str | None = None) -> dict[str, Any]:
    """A saved recording's line of a run's scores (shaped as a Mastra chunk: other readers of the
    JSONL skip its unknown type). Mastra scores a run after its stream, so no chunk of it says them."""
    chunk: dict[str, Any] = {
        "type": SCORES_TYPE,
        "from": "USER",
        "payload": {"scores": [score.model_dump(mode="json") for score in scores]},
    }
    if run_id is not None:
        chunk["runId"] = run_id
    return chunk


def scored_lines(result: Any) -> list[dict[str, Any]]:
    """What a saved recording of ``result`` (a RunResult) ends with: the line of its scores, if any."""
    return [scores_line(result.scores, result.run_id)] if result.scores else []


def read_scores(chunk: Any) -> list[Score] | None:
    """The scores a recording's line holds, or None for any other chunk (or a payload not scores)."""
    if type(chunk) is not dict or chunk.get("type") != SCORES_TYPE:
        return None
    payload = chunk.get("payload")
    listed = payload.get("scores") if isinstance(payload, dict) else None
    try:
        return [Score.model_validate(score) for score in listed] if isinstance(listed, list) else None
    except ValueError:
        return None
