"""A person's review of an experiment (``exp.review(rubric=...)``): the rubric (a small typed schema of
what a reviewer gives), the labels as typed records, the queue's order ("disagreements first") and
its resume point, and the labels' file in the experiment's folder (written whole, atomically, as each
label is made). Pure functions and records: no widget, no HTTP (the queue that moves and sends is
runs/review.py; its view, widget/review.py).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from ..core.documented import Documented
from ..core.files import write_atomically
from .intervals import by_input
from .outcomes import Outcome, scorer_names
from .pairwise import Pairwise

REVIEW_FILE = "review.json"  # the labels' file in an experiment's folder
FORMAT = "mastra-notebook review 1"
Order = Literal["disagreements first", "input"]
ORDERS: tuple[str, ...] = ("disagreements first", "input")
Choice = Literal["a", "b", "tie"]
COMMENT_LIMIT = 10_000  # characters, as a run's label (core/feedback.py)


class Rubric(Documented):
    """What a reviewer gives each item: ``thumbs`` (up or down), a score on ``scale`` (its lowest and
    highest whole numbers, each one key: 0 to 9), one of ``categories`` (at most 9, chosen with
    Shift and a digit), a ``comment``. A pairwise review adds its choice (a, b or tie) to these."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    thumbs: bool = False
    """Whether the reviewer gives thumbs up or down (keys u and d)."""
    scale: tuple[int, int] | None = None
    """The score's lowest and highest whole numbers, 0 to 9 (a digit key each), or None: no score."""
    categories: tuple[str, ...] = ()
    """Names the reviewer picks one of (Shift and a digit: the first is Shift+1), at most 9."""
    comment: bool = True
    """Whether the reviewer may write a comment (key c; Escape leaves the box)."""

    @field_validator("scale")
    @classmethod
    def _scale(cls, scale: tuple[int, int] | None) -> tuple[int, int] | None:
        if scale is not None and not 0 <= scale[0] < scale[1] <= 9:
            raise ValueError(f"scale is (low, high) with 0 <= low < high <= 9 (one key each), not {scale}")
        return scale

    @field_validator("categories")
    @classmethod
    def _categories(cls, categories: tuple[str, ...]) -> tuple[str, ...]:
        named = tuple(str(name).strip() for name in categories)
        if any(not name or len(name) > 60 for name in named):
            raise ValueError("each category is a name of 1 to 60 characters")
        if len(set(named)) != len(named):
            raise ValueError(f"categories are named once each, not {list(named)}")
        if len(named) > 9:
            raise ValueError(f"at most 9 categories (one key each), not {len(named)}")
        return named

    def values(
        self,
        *,
        thumbs: Any = None,
        score: Any = None,
        category: Any = None,
        comment: Any = None,
        choice: Any = None,
        pairwise: bool = False,
    ) -> Values:
        """What a reviewer gave, checked against this rubric (ValueError says what is wrong)."""
        if thumbs is not None and (not self.thumbs or thumbs not in ("up", "down")):
            raise ValueError(f"thumbs is 'up' or 'down' in a rubric with thumbs, not {thumbs!r}")
        if score is not None:
            low, high = self.scale or (None, None)
            if low is None or isinstance(score, bool) or not isinstance(score, int):
                raise ValueError(f"score is a whole number on the rubric's scale {self.scale}, not {score!r}")
            if not low <= score <= (high or 0):
                raise ValueError(f"score {score} is off the rubric's scale {self.scale}")
        if category is not None and category not in self.categories:
            raise ValueError(f"category is one of {list(self.categories)}, not {category!r}")
        if comment is not None and (not self.comment or not isinstance(comment, str)):
            raise ValueError("comment is text, in a rubric with comments")
        if choice is not None and (not pairwise or choice not in ("a", "b", "tie")):
            raise ValueError(f"choice is 'a', 'b' or 'tie' in a pairwise review, not {choice!r}")
        text = (comment or "").strip()[:COMMENT_LIMIT] or None
        return Values(thumbs=thumbs, score=score, category=category, comment=text, choice=choice)


class Values(Documented):
    """One label's values (None: not given)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    thumbs: Literal["up", "down"] | None = None
    """``"up"``, ``"down"``, or None."""
    score: int | None = None
    """A whole number on the rubric's scale, or None."""
    category: str | None = None
    """One of the rubric's categories, or None."""
    comment: str | None = None
    """What the reviewer wrote, or None."""
    choice: Choice | None = None
    """A pairwise review's choice: ``"a"``, ``"b"`` or ``"tie"``, or None."""

    @property
    def empty(self) -> bool:
        """Nothing given."""
        return all(getattr(self, name) is None for name in type(self).model_fields)


@dataclass(frozen=True, slots=True)
class Place:
    """One item of the queue: input ``item``'s ``repeat`` of ``variants`` (one; two side by side for a
    pairwise review: a then b)."""

    item: int
    variants: tuple[str, ...]
    repeat: int

    @property
    def key(self) -> Hashable:
        """The label's key, as agreement reads it: ``(item, variant, repeat)``, or ``(item, repeat)``
        for a pair (as ``Pairwise.verdicts()``)."""
        if len(self.variants) == 1:
            return self.item, self.variants[0], self.repeat
        return self.item, self.repeat


class Label(Documented):
    """A reviewer's label of one queue item: where (``item``, ``variants``, ``repeat``), who
    (``reviewer``), what (``values``; ``skipped``: passed over), when (``at``, UTC), the runs' trace
    ids, and whether Mastra's feedback took it (``sent_to_mastra``: None while it is sent, False
    with ``reason`` when it is kept here only)."""

    item: int
    """The input's index in the experiment."""
    variants: tuple[str, ...]
    """The variant whose run it labels, or a pair's two (a, then b)."""
    repeat: int
    """The repeat (from 0)."""
    reviewer: str | None = None
    """Who labelled it (``exp.review(reviewer=...)``)."""
    values: Values = Field(default_factory=Values)
    """What the reviewer gave."""
    skipped: bool = False
    """Passed over ("skip"): no values, and resuming goes past it."""
    at: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))
    """When it was made (UTC)."""
    trace_ids: tuple[str, ...] = ()
    """The runs' Mastra trace ids (none for runs no MastraClient streamed)."""
    sent_to_mastra: bool | None = None
    """True once Mastra's feedback took it; False when kept here only (``reason`` says why)."""
    reason: str | None = None
    """Why it is kept here only, or None."""

    @model_validator(mode="after")
    def _variants(self) -> Label:
        if len(self.variants) not in (1, 2):
            raise ValueError("a label is of one variant's run, or of a pair's (two variants)")
        return self

    @property
    def place(self) -> Place:
        """The queue item it labels."""
        return Place(self.item, self.variants, self.repeat)


class Book:
    """The labels of an experiment, the latest per reviewer and queue item, and the folder they are
    written to (``review.json``, whole, through a temporary file and ``os.replace``: a kernel dying
    mid-write leaves the previous file). Each reviewer labels the runs on their own: a second
    reviewer's queue starts at its first item, whatever the first reviewer gave."""

    def __init__(
        self, labels: Iterable[Label] = (), folder: Path | None = None, rubric: Rubric | None = None
    ) -> None:
        self.labels: dict[tuple[str | None, Place], Label] = {}
        for label in labels:
            self.labels[label.reviewer, label.place] = label
        self.folder = folder
        self.rubric = rubric  # what the last review of single runs asked: a resumed queue asks it again

    def __len__(self) -> int:
        return len(self.labels)

    def reviewers(self, pairwise: bool | None = None) -> list[str | None]:
        """Who labelled (``pairwise``: pairs only, or single runs only), in the order they first did
        (None: a review given no ``reviewer``)."""
        return list(dict.fromkeys(
            reviewer for reviewer, place in self.labels
            if pairwise is None or (len(place.variants) == 2) == pairwise
        ))  # fmt: skip

    def get(self, place: Place, reviewer: str | None = None) -> Label | None:
        """``reviewer``'s label of ``place``, or None."""
        return self.labels.get((reviewer, place))

    def add(self, label: Label) -> Label:
        """Keep ``label`` (replacing its reviewer's earlier one of the item), written at once when
        there is a folder."""
        self.labels[label.reviewer, label.place] = label
        self.write()
        return label

    def write(self, folder: Path | None = None) -> Path | None:
        """Write the labels into ``folder`` (then it is this book's folder), or the book's own."""
        if folder is not None:
            self.folder = Path(folder)
        if self.folder is None:
            return None
        path = self.folder / REVIEW_FILE
        document = {
            "format": FORMAT,
            "labels": [label.model_dump(mode="json") for label in self.labels.values()],
            "rubric": None if self.rubric is None else self.rubric.model_dump(mode="json"),
        }
        write_atomically(path, json.dumps(document, ensure_ascii=False, indent=1))
        return path

    @classmethod
    def read(cls, folder: str | Path) -> Book:
        """The labels written into ``folder`` (none when it has no labels' file)."""
        folder = Path(folder)
        path = folder / REVIEW_FILE
        if not path.exists():
            return cls(folder=folder)
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("format") != FORMAT:
            raise ValueError(f"{path} holds no review this version reads (format {document.get('format')!r})")
        rubric = document.get("rubric")
        return cls(
            (Label.model_validate(entry) for entry in document["labels"]),
            folder,
            None if rubric is None else Rubric.model_validate(rubric),
        )

    def reviewer_of(self, reviewer: str | None = None, *, pairwise: bool | None = None) -> str | None:
        """Whose labels (of pairs, or of single runs: ``pairwise``) a call that names no reviewer
        reads: the one reviewer there is. With labels of several, a ValueError asks which
        (``reviewer=``); a named one must have labelled."""
        known = self.reviewers(pairwise)
        if reviewer is not None:
            if reviewer not in known:
                raise ValueError(f"{reviewer!r} labelled nothing here (reviewers: {_names(known)})")
            return reviewer
        if len(known) > 1:
            raise ValueError(
                f"{len(known)} reviewers labelled these runs ({_names(known)}): say whose labels, "
                "reviewer=..., or compare two with exp.agreement(review, other)"
            )
        return known[0] if known else None

    def given(
        self, field: str | None = None, *, pairwise: bool | None = None, reviewer: str | None = None
    ) -> dict[Hashable, Any]:
        """``reviewer``'s labels (None: those of a review given no reviewer) as ``exp.agreement``
        reads them, by key (see :attr:`Place.key`), skipped ones left out: ``field``'s value
        (``thumbs`` as True for up, False for down, as a scorer's pass), by default the first the
        labels have of choice, thumbs, score, category."""
        chosen: dict[Hashable, Any] = {}
        for (by, place), label in self.labels.items():
            kind_differs = pairwise is not None and (len(place.variants) == 2) != pairwise
            if by != reviewer or label.skipped or kind_differs:
                continue
            value = label_value(label.values, field)
            if value is not None:
                chosen[place.key] = value
        return chosen


def _names(reviewers: Sequence[str | None]) -> str:
    return ", ".join("unnamed" if reviewer is None else repr(reviewer) for reviewer in reviewers) or "none"


def label_value(values: Values, field: str | None = None) -> Any:
    """One value of a label: ``field``'s (thumbs read as True/False), or the first given of choice,
    thumbs, score, category."""
    fields = (field,) if field is not None else ("choice", "thumbs", "score", "category")
    for name in fields:
        if name not in Values.model_fields:
            raise ValueError(f"a label's values are {', '.join(Values.model_fields)}, not {name!r}")
        value = getattr(values, name)
        if value is not None:
            return {"up": True, "down": False}.get(value, value) if name == "thumbs" else value
    return None


# ---- the queue ------------------------------------------------------------------------------------


def places(outcomes: Sequence[Outcome], variants: Sequence[str], pair: tuple[str, str] | None) -> list[Place]:
    """The queue's items in input order: each ended run (input, variant, repeat), or for a pairwise
    review each input and repeat both variants of ``pair`` ended."""
    ended = {(o.item, o.variant, o.repeat) for o in outcomes if o.ended and not o.never_started}
    if pair is not None:
        a, b = pair
        pairs = sorted({(i, r) for i, v, r in ended if v == a and (i, b, r) in ended})
        return [Place(item, (a, b), repeat) for item, repeat in pairs]
    rank = {name: number for number, name in enumerate(variants)}
    listed = sorted(ended, key=lambda key: (key[0], rank.get(key[1], len(rank)), key[2]))
    return [Place(item, (variant,), repeat) for item, variant, repeat in listed]


def repeats_disagree(outcomes: Sequence[Outcome]) -> set[tuple[int, str]]:
    """The (input, variant) pairs whose repeats disagree: a scorer passed some and failed others, or
    (a scorer without a threshold) gave them different scores."""
    found: set[tuple[int, str]] = set()
    scorers = scorer_names(outcomes)
    for variant in {o.variant for o in outcomes}:
        for scorer in scorers:
            for part in ("passed", "score"):
                for item, values in by_input(outcomes, variant, scorer, part).items():
                    if len(set(values)) > 1:
                        found.add((item, variant))
    return found


def judge_disagrees(outcomes: Sequence[Outcome], judged: Sequence[Pairwise]) -> set[tuple[int, int, str]]:
    """The (input, repeat, variant) runs of a pair a pairwise judge decided otherwise than a scorer
    (the scorer prefers the higher score; equal scores are a tie)."""
    scores: dict[tuple[int, str, int], dict[str, float]] = {}
    for o in outcomes:
        if o.ended:
            scores[o.item, o.variant, o.repeat] = {
                s.scorer: s.score for s in o.result.scores if s.score is not None
            }
    found: set[tuple[int, int, str]] = set()
    for pairwise in judged:
        for judgement in pairwise.judged:
            a = scores.get((judgement.item, pairwise.a, judgement.repeat), {})
            b = scores.get((judgement.item, pairwise.b, judgement.repeat), {})
            for name in a.keys() & b.keys():
                prefers = "a" if a[name] > b[name] else "b" if b[name] > a[name] else "tie"
                if prefers != judgement.verdict:
                    found |= {(judgement.item, judgement.repeat, pairwise.a),
                              (judgement.item, judgement.repeat, pairwise.b)}  # fmt: skip
    return found


def ordered(
    listed: Sequence[Place],
    outcomes: Sequence[Outcome],
    judged: Sequence[Pairwise] = (),
    order: str = ORDERS[0],
) -> list[Place]:
    """The queue in ``order``: ``"input"`` as listed; ``"disagreements first"`` the items where the
    repeats disagree (:func:`repeats_disagree`) or a pairwise judge and a scorer do
    (:func:`judge_disagrees`) first, each part as listed."""
    if order not in ORDERS:
        raise ValueError(f"order is one of {', '.join(map(repr, ORDERS))}, not {order!r}")
    if order == "input":
        return list(listed)
    repeats, judges = repeats_disagree(outcomes), judge_disagrees(outcomes, judged)

    def disagreed(place: Place) -> bool:
        return any(
            (place.item, v) in repeats or (place.item, place.repeat, v) in judges for v in place.variants
        )

    return [p for p in listed if disagreed(p)] + [p for p in listed if not disagreed(p)]


def resume_at(queue: Sequence[Place], book: Book, reviewer: str | None = None) -> int:
    """Where ``reviewer``'s queue resumes: its first item they gave no label (skipped ones count as
    labelled); its end when all are."""
    return next(
        (number for number, place in enumerate(queue) if book.get(place, reviewer) is None), len(queue)
    )


def dataset_rows(
    book: Book, items: Sequence[Any], where: Any = None, field: str | None = None
) -> list[dict[str, Any]]:
    """Reviewed items as dataset items (``{"input", "expected"}``), the label's value (``field``, or
    :func:`label_value`'s first) as the expected answer: one per input (its latest label), those
    ``where`` (a function of the Label) keeps; skipped labels left out."""
    latest: dict[int, Label] = {}
    for label in sorted(book.labels.values(), key=lambda label: label.at):
        if not label.skipped and (where is None or where(label)):
            latest[label.item] = label
    rows = []
    for item, label in sorted(latest.items()):
        value = label_value(label.values, field)
        if value is not None:
            rows.append({"input": items[item].input, "expected": value})
    return rows
