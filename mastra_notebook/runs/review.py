"""A review queue (``exp.review(rubric=...)``): one item at a time (a run, or two side by side for a
pairwise review), moved through with next, previous and skip, each label kept as it is made (the
experiment's labels' file, written atomically) and sent to Mastra's feedback with the run's trace id
where the run has one. No widget: the package wires its view in (:func:`reviewed_with`;
widget/review.py draws it); the rubric, labels and order are analysis/review.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..analysis.outcomes import Item
from ..analysis.review import REVIEW_FILE, Book, Label, Place, Rubric, resume_at
from ..core.feedback import NO_TRACE, Feedback, Preference, preference_records
from ..core.feedback import make as make_feedback
from ..core.result import RunResult
from .loops import Work, schedule
from .stream import LabelSender, sent

__all__ = ["Review", "reviewed_with"]

# a pair's choice, for run a and run b
PREFERENCES: dict[str, tuple[Preference, Preference]] = {
    "a": ("better", "worse"), "b": ("worse", "better"), "tie": ("tie", "tie"),
}  # fmt: skip


@runtime_checkable
class RecordSender(Protocol):
    """Where feedback records made here go (a pair's preference): client/feedback.py's."""

    def send_records(self, bodies: list[dict[str, Any]]) -> tuple[bool, str | None]:
        """Post ``bodies``: whether Mastra took them, and why not."""


class Runs(Protocol):
    """What a review reads of its experiment: a run's result, where its labels go, and how a label
    is kept on the run (its ``result.feedback``)."""

    def result_of(self, item: int, variant: str, repeat: int) -> RunResult:
        """The run's result."""

    def sender_of(self, item: int, variant: str, repeat: int) -> LabelSender | None:
        """Where the run's labels are sent (Mastra's feedback with its trace id), or None."""

    def keep_feedback(self, item: int, variant: str, repeat: int, feedback: Feedback) -> None:
        """The run's label as its result keeps it (its tile shows it)."""


_VIEWS: list[Callable[[Review], Any]] = []


def reviewed_with(view: Callable[[Review], Any]) -> None:
    """How a review is shown: its view, made when first shown (the package wires the widget layer's in)."""
    _VIEWS[:] = [view]


class Review:
    """``exp.review(rubric=..., pairwise=None, order="disagreements first", reviewer=None)``: a queue
    of the experiment's ended runs (or pairs), one shown at a time; ``label(...)`` labels the item
    shown and moves on, ``skip()``, ``next()``, ``previous()``, ``go(n)``; ``progress`` ("12 of
    60"); ``labels`` (the labels made, as records). Shown, a keyboard-first view: n/p or the arrows,
    digits score, a/b/t choose, s skips, u/d thumbs, c the comment (Escape leaves it)."""

    def __init__(
        self,
        runs: Runs,
        items: Sequence[Item],
        queue: Sequence[Place],
        book: Book,
        *,
        rubric: Rubric,
        reviewer: str | None = None,
    ) -> None:
        self.runs = runs
        self.items = list(items)
        self.queue = list(queue)
        self.book = book
        self.rubric = rubric
        self.reviewer = reviewer
        self.pairwise = bool(self.queue) and len(self.queue[0].variants) == 2
        self.position = resume_at(self.queue, book, reviewer)
        self.listeners: list[Callable[[], None]] = []
        self.sending: list[Work] = []  # labels being sent without blocking (kept: a task is not collected)
        self._view: Any = None
        self._send_unanswered()

    # ---- where ----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.queue)

    @property
    def place(self) -> Place | None:
        """The item shown (None past the end)."""
        return self.queue[self.position] if self.position < len(self.queue) else None

    @property
    def progress(self) -> str:
        """Where the queue is: "12 of 60" (the item shown), or "done: 60 of 60 labelled"."""
        if self.place is None:
            return f"done: {self.labelled} of {len(self.queue)} labelled"
        return f"{self.position + 1} of {len(self.queue)}"

    @property
    def labelled(self) -> int:
        """How many of the queue's items have a label (a skip included)."""
        return sum(self.label_of(place) is not None for place in self.queue)

    def label_of(self, place: Place) -> Label | None:
        """This reviewer's label of ``place`` (another reviewer's labels are theirs), or None."""
        return self.book.get(place, self.reviewer)

    def given(self, field: str | None = None) -> dict[Hashable, Any]:
        """This reviewer's labels as ``exp.agreement`` reads them (``exp.review_labels``)."""
        return self.book.given(field, pairwise=self.pairwise, reviewer=self.reviewer)

    @property
    def labels(self) -> list[Label]:
        """This reviewer's labels of the queue's items, in queue order."""
        return [label for place in self.queue if (label := self.label_of(place)) is not None]

    def go(self, position: int) -> None:
        """Show the queue's item ``position`` (0 the first; the end shows "done")."""
        self.position = max(0, min(position, len(self.queue)))
        self._changed()

    def next(self) -> None:
        """Show the next item."""
        self.go(self.position + 1)

    def previous(self) -> None:
        """Show the previous item."""
        self.go(self.position - 1)

    # ---- labelling ------------------------------------------------------------------------------

    def label(
        self,
        *,
        thumbs: str | None = None,
        score: int | None = None,
        category: str | None = None,
        comment: str | None = None,
        choice: str | None = None,
        wait: bool = True,
    ) -> Label:
        """Label the item shown (the rubric checks the values: ValueError says what is wrong), keep
        it (written at once into the experiment's folder when it has one), send it to Mastra's
        feedback with the run's trace id where it has one, and show the next item. ``wait=False``
        (the view's keys): sent in the background, the label kept as "sending" until it is."""
        place = self._shown()
        values = self.rubric.values(thumbs=thumbs, score=score, category=category, comment=comment,
                                    choice=choice, pairwise=self.pairwise)  # fmt: skip
        if values.empty:
            raise ValueError("a label gives something the rubric asks for (or skip() the item)")
        made = self.book.add(self._made(place, values=values))  # kept before it is sent
        sender = self._sender(made)
        if wait or sender is None or self._feedback(made).empty:
            made = self.book.add(self._sent(made, sender))
        else:
            self.sending = [work for work in self.sending if not work.done()]
            self.sending.append(schedule(self._send_later(made, sender)))
        self.next()
        return made

    def skip(self) -> Label:
        """Pass over the item shown (a label that says so: resuming goes past it) and show the next."""
        place = self._shown()
        made = self.book.add(self._made(place, skipped=True).model_copy(
            update={"sent_to_mastra": False, "reason": "skipped"}))  # fmt: skip
        self.next()
        return made

    def _shown(self) -> Place:
        if self.place is None:
            raise IndexError(f"the queue is done ({self.progress}): go(n) shows an item again")
        return self.place

    def _made(self, place: Place, **fields: Any) -> Label:
        traces = [self.runs.result_of(place.item, v, place.repeat).trace_id for v in place.variants]
        return Label(item=place.item, variants=place.variants, repeat=place.repeat, reviewer=self.reviewer,
                     trace_ids=tuple(t for t in traces if t), **fields)  # fmt: skip

    def _send_unanswered(self) -> None:
        """Send again the labels kept before Mastra answered them (``sent_to_mastra`` None: the last
        kernel stopped meanwhile), in the background."""
        for place in self.queue:
            label = self.label_of(place)
            if label is None or label.skipped or label.sent_to_mastra is not None:
                continue
            sender = self._sender(label)
            if sender is None or self._feedback(label).empty:
                self.book.add(self._sent(label, sender))
            else:
                self.sending.append(schedule(self._send_later(label, sender)))

    def _sender(self, label: Label) -> LabelSender | None:
        """Where ``label`` goes: its run's feedback (None: a pair's, or a run with no trace)."""
        if self.pairwise:
            return None
        return self.runs.sender_of(label.item, label.variants[0], label.repeat)

    def _feedback(self, label: Label) -> Feedback:
        """``label`` as a run's label: its thumbs, score, category and comment (core/feedback.py)."""
        values = label.values
        return make_feedback(
            values.thumbs, values.score, values.comment, category=values.category, at=label.at
        )

    def _sent(self, label: Label, sender: LabelSender | None) -> Label:
        """``label`` sent to Mastra's feedback (a single run's thumbs, score, category and comment,
        with its trace id) and kept on the run; as it stands then."""
        if self.pairwise:
            return self._sent_pair(label)
        return self._kept(label, sent(sender, self._feedback(label)))

    def _sent_pair(self, label: Label) -> Label:
        """A pair's choice sent to Mastra's feedback: a preference record on each run's trace (1 the
        run chosen, 0 the other, 0.5 each for a tie), the other run's trace id beside it."""
        choice = label.values.choice
        if choice is None:
            return label.model_copy(update={"sent_to_mastra": False, "reason": "no choice to send"})
        runs = [self.runs.result_of(label.item, v, label.repeat) for v in label.variants]
        senders = [self.runs.sender_of(label.item, v, label.repeat) for v in label.variants]
        reasons = []
        for side, (preference, result, sender) in enumerate(
            zip(PREFERENCES[choice], runs, senders, strict=True)
        ):
            if not isinstance(sender, RecordSender) or result.trace_id is None:
                reasons.append(NO_TRACE)
                continue
            bodies = preference_records(preference, result.trace_id, other_trace_id=runs[1 - side].trace_id,
                                        comment=label.values.comment, run_id=result.run_id)  # fmt: skip
            taken, why = sender.send_records(bodies)
            if not taken:
                reasons.append(why or "Mastra's server did not take it")
        return label.model_copy(
            update={"sent_to_mastra": not reasons, "reason": reasons[0] if reasons else None}
        )

    async def _send_later(self, label: Label, sender: LabelSender) -> None:
        answered = self._kept(label, await sender.asend(self._feedback(label)))
        current = self.label_of(label.place)
        if current is not None and current.at == label.at:  # not labelled again meanwhile
            self.book.add(answered)
            self._changed()

    def _kept(self, label: Label, feedback: Feedback) -> Label:
        self.runs.keep_feedback(label.item, label.variants[0], label.repeat, feedback)
        return label.model_copy(update={"sent_to_mastra": feedback.sent_to_mastra, "reason": feedback.reason})

    def note(self) -> str:
        """One sentence on where the labels go: Mastra's feedback, or kept here only and why."""
        where = (
            f"Labels are written to {self.book.folder / REVIEW_FILE} as they are made"
            if self.book.folder is not None
            else "Labels stay in this kernel until exp.save(folder) writes them (and each one after)"
        )
        shown = self.place or (self.queue[0] if self.queue else None)
        if shown is None or self.runs.sender_of(shown.item, shown.variants[0], shown.repeat) is None:
            return f"{where}, not sent to Mastra: these runs name no Mastra trace (no MastraClient ran them)."
        what = "a preference on each run's trace" if self.pairwise else "each run's trace id"
        return f"{where}, and sent to Mastra's feedback with {what}."

    # ---- shown ----------------------------------------------------------------------------------

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    @property
    def view(self) -> Any:
        """The review's view (made when first shown: widget/review.py's)."""
        if self._view is None:
            if not _VIEWS:
                raise RuntimeError("no widget layer is wired in to show a review (import mastra_notebook)")
            self._view = _VIEWS[0](self)
        return self._view

    def _ipython_display_(self) -> None:
        self.view.display()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython
        return self.view.bundle(**kwargs)

    def __repr__(self) -> str:
        kind = "pairwise review" if self.pairwise else "review"
        return f"<{kind.capitalize()} of {len(self.queue)} items: {self.progress}, {self.labelled} labelled>"
