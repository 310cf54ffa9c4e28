"""How far two raters agree (a scorer and a person's labels, two reviewers, a pairwise judge and
pairwise labels): Cohen's kappa (statsmodels) for categories, Krippendorff's alpha (the
``krippendorff`` package) for ordinal or interval scales, the confusion matrix, and the items they
disagree on. Pure functions over labels keyed alike: no widget, no HTTP. An experiment's agreement
(``exp.agreement``) opens its review queue at the runs they disagree on (``Agreement.review``); its
view (the package wires the widget layer's in: :func:`agreed_with`) has a button for each, and the
same TypeScript draws it in a saved notebook (``js/src/views/agreement.ts``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..render.engine import engine

Level = Literal["nominal", "ordinal", "interval", "ratio"]
SHOWN = 20  # disagreements listed in the view (all in to_dataframe())
NEEDS = "agreement needs statsmodels and krippendorff: pip install 'mastra-notebook[stats]'"
_VIEWS: list[Callable[[Agreement], Any]] = []


def agreed_with(view: Callable[[Agreement], Any]) -> None:
    """How an experiment's agreement is shown: its view, with a button opening the review queue at
    each disagreeing run (the package wires the widget layer's in)."""
    _VIEWS[:] = [view]


def place_words(key: Hashable) -> str:
    """A run's key as the review queue names it: ``(2, "concise", 1)`` is "#3 · concise · repeat 2",
    a pair's ``(2, 0)`` "#3"; any other key as it prints."""
    if isinstance(key, tuple) and key and isinstance(key[0], int):
        variant = [str(key[1])] if len(key) == 3 else []
        repeat = key[-1] if len(key) in (2, 3) and isinstance(key[-1], int) else 0
        return " · ".join([f"#{key[0] + 1}", *variant, *([f"repeat {repeat + 1}"] if repeat else [])])
    return str(key)


def keyed(labels: Any) -> dict[Hashable, Any]:
    """Labels as a dict: a mapping, a pandas Series (its index the keys), or pairs of key and label."""
    if isinstance(labels, Mapping):
        return dict(labels)
    items = getattr(labels, "items", None)
    if callable(items):  # a Series
        return dict(items())
    try:
        return dict(labels)
    except (TypeError, ValueError) as error:
        raise TypeError(
            "labels are a mapping (or a Series) from a run's key to its label, or (key, label) pairs"
        ) from error


@dataclass(frozen=True)
class Rater:
    """One side of an agreement: its ``name`` (the table's heads), its ``labels`` by run key, and for
    pairwise verdicts or choices the ``pair`` of variants they choose between (a, then b)."""

    name: str
    labels: Mapping[Any, Any]
    pair: tuple[str, str] | None = None

    def naming(self, pair: tuple[str, str]) -> Rater:
        """Its pairwise labels with ``a`` and ``b`` read as the pair's variants' names (``tie`` kept)."""
        names = {"a": pair[0], "b": pair[1]}
        return replace(self, labels={key: names.get(value, value) if isinstance(value, str) else value
                                     for key, value in self.labels.items()})  # fmt: skip


@dataclass
class Agreement:
    """Two raters' labels on the keys both gave: ``n`` keys, ``kappa`` (Cohen's, nominal labels) or
    ``alpha`` (Krippendorff's, for a scale: ``level``), ``confusion`` (a DataFrame, the first rater's
    labels as rows), and ``disagreements``: each key with both labels."""

    names: tuple[str, str]
    level: Level
    n: int
    kappa: float
    alpha: float
    confusion: Any
    disagreements: list[tuple[Hashable, Any, Any]] = field(default_factory=list)
    labelled: list[Hashable] = field(default_factory=list)  # the keys both raters labelled
    # the review queue of the runs they disagree on (an experiment's agreement: exp.review(only=...))
    reviewing: Callable[..., Any] | None = field(default=None, repr=False, compare=False)

    @property
    def of_pairs(self) -> bool:
        """Whether its keys are pairs of runs, ``(input_index, repeat)`` (a pairwise judge's verdicts,
        a pairwise review's choices), rather than runs."""
        return bool(self.labelled) and all(
            isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, int) for k in key)
            for key in self.labelled
        )

    @property
    def keys(self) -> list[Hashable]:
        """The keys of the runs they disagree on, in order: what ``exp.review(only=...)`` takes."""
        return [key for key, _, _ in self.disagreements]

    def review(self, at: Hashable | None = None, **options: Any) -> Any:
        """The review queue of the runs they disagree on (``exp.review(only=agreement)``), shown at
        the run ``at`` (a key of ``keys``; by default where the queue resumes); ``options`` as
        ``exp.review`` takes them (``rubric=``, ``reviewer=``). Only an experiment's agreement
        (``exp.agreement``) has runs to review."""
        if self.reviewing is None:
            raise ValueError(
                "only an experiment's agreement opens a review queue: exp.agreement(scorer, labels)"
            )
        return self.reviewing(at=at, **options)

    def state(self, *, reviewable: bool = False) -> dict[str, Any]:
        """What ``js/src/views/agreement.ts`` draws: the caption, the confusion matrix, the first
        ``SHOWN`` runs they disagree on (and how many more), and whether a click reviews them."""
        what = f"Cohen's kappa {self.kappa:.3f}" if self.level == "nominal" else f"alpha {self.alpha:.3f}"
        first, second = (str(name) for name in self.names)
        return {
            "caption": f"{first} and {second} on {self.n} {'pairs' if self.of_pairs else 'runs'}: {what}; "
            f"{len(self.disagreements)} disagree.",
            "names": [first, second],
            "columns": [str(column) for column in self.confusion.columns],
            "rows": [
                {"label": str(label), "counts": [int(count) for count in counts]}
                for label, counts in zip(
                    self.confusion.index, self.confusion.to_numpy().tolist(), strict=True
                )
            ],
            "disagreements": [
                {"place": place_words(key), "first": repr(a), "second": repr(b)}
                for key, a, b in self.disagreements[:SHOWN]
            ],
            "more": max(0, len(self.disagreements) - SHOWN),
            "reviewable": reviewable and self.reviewing is not None,
        }

    def to_dataframe(self) -> Any:
        """The disagreements: a row per key with both raters' labels."""
        import pandas

        return pandas.DataFrame(
            [{"key": key, self.names[0]: a, self.names[1]: b} for key, a, b in self.disagreements],
            columns=["key", *self.names],
        )

    def _repr_html_(self) -> str:
        """As a saved notebook shows it: the view's own drawing, no buttons."""
        return engine().draw("agreement", state=self.state()) or ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """An experiment's agreement as its view (a button reviews each disagreeing run), else HTML."""
        if self.reviewing is not None and _VIEWS:
            return _VIEWS[0](self).bundle(**kwargs)
        return {"text/html": self._repr_html_(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        figure = f"kappa={self.kappa:.3f}" if self.level == "nominal" else f"alpha={self.alpha:.3f}"
        raters = f"{self.names[0]} and {self.names[1]}"
        return f"<Agreement of {raters}: n={self.n}, {figure}, {len(self.disagreements)} disagree>"


def agreement(
    first: Any, second: Any, *, names: tuple[str, str] = ("first", "second"), level: Level = "nominal"
) -> Agreement:
    """How far ``first`` and ``second`` (labels keyed alike: see :func:`keyed`) agree on the keys
    both labelled. Nominal labels: Cohen's kappa (``statsmodels.stats.inter_rater.cohens_kappa``
    on the square table of both raters' categories); ``level`` ordinal, interval or ratio:
    Krippendorff's alpha (``krippendorff.alpha``, numeric labels), kappa NaN. A key one rater left
    unlabelled (None) is left out."""
    try:
        import krippendorff
        import numpy
        import pandas
        from statsmodels.stats.inter_rater import cohens_kappa
    except ImportError as error:
        raise ImportError(NEEDS) from error
    a, b = keyed(first), keyed(second)
    keys = [key for key in a if key in b and a[key] is not None and b[key] is not None]
    if not keys:
        raise ValueError(f"{names[0]} and {names[1]} labelled no run in common")
    left, right = [a[key] for key in keys], [b[key] for key in keys]
    categories = sorted({*left, *right}, key=lambda value: (str(type(value)), value))
    confusion = pandas.crosstab(
        pandas.Categorical(left, categories=categories),
        pandas.Categorical(right, categories=categories),
        rownames=[names[0]],
        colnames=[names[1]],
        dropna=False,
    )
    kappa = alpha = math.nan
    if level == "nominal":
        with numpy.errstate(all="ignore"):  # one rater using one label: statsmodels' z is 0/0, kappa 0
            kappa = 1.0 if len(categories) == 1 else float(cohens_kappa(confusion.to_numpy()).kappa)
    else:
        alpha = float(krippendorff.alpha(reliability_data=[left, right], level_of_measurement=level))
    disagreements = [(key, a[key], b[key]) for key in keys if a[key] != b[key]]
    return Agreement(names, level, len(keys), kappa, alpha, confusion, disagreements, keys)


def scorer_labels(outcomes: Any, scorer: str) -> dict[Hashable, Any]:
    """A scorer's labels of the ended runs, keyed ``(input_index, variant, repeat)``: whether each
    passed its threshold, or its score for a scorer without one (failed scores left out)."""
    labels: dict[Hashable, Any] = {}
    for outcome in outcomes:
        if not outcome.ended:
            continue
        for score in outcome.result.scores:
            if score.scorer == scorer and score.score is not None:
                labels[outcome.item, outcome.variant, outcome.repeat] = (
                    score.passed if score.passed is not None else score.score
                )
    return labels
