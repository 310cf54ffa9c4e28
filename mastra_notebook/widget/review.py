"""A review queue shown (``exp.review(...)``): the item's data sent to one anywidget drawn by
``js/src/views/review.ts`` (its runs by the run view itself, from their ops: render/transcript.py),
and what the reviewer did (a label, skip, next, previous) handed to the queue (runs/review.py). A
saved notebook shows the item as the same TypeScript draws it, through render/engine.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..analysis.review import Values
from ..render.engine import engine
from ..render.transcript import transcript_input
from ..runs.review import Review
from .bundle import packaged, shared_module

__all__ = ["ReviewView", "ReviewWidget", "review_html", "review_state"]

TEXT_CHARS = 4_000  # of an input or an expected answer shown


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else "" if value is None else repr(value)
    return text[:TEXT_CHARS] + ("…" if len(text) > TEXT_CHARS else "")


def review_state(review: Review, *, runs: bool = True, error: str = "") -> dict[str, Any]:
    """The item shown as the view draws it (``js/src/views/review.ts`` ``ReviewState``); ``runs``:
    with its runs' ops (the live view; a saved notebook's HTML draws none)."""
    place = review.place
    state: dict[str, Any] = {
        "position": review.position,
        "total": len(review),
        "progress": review.progress,
        "reviewer": review.reviewer or "",
        "note": review.note(),
        "pairwise": review.pairwise,
        "done": place is None,
        "rubric": {
            "thumbs": review.rubric.thumbs,
            "scale": list(review.rubric.scale) if review.rubric.scale else None,
            "categories": list(review.rubric.categories),
            "comment": review.rubric.comment,
        },
        "place": "", "input": "", "expected": "", "given": None, "skipped": False, "status": "",
        "runs": [], "error": error,
    }  # fmt: skip
    if place is None:
        return state
    item = review.items[place.item]
    label = review.label_of(place)
    names = (
        [f"{side} · {v}" for side, v in zip("ab", place.variants, strict=False)]
        if review.pairwise
        else list(place.variants)
    )
    repeat = f" · repeat {place.repeat + 1}" if place.repeat else ""
    state.update(
        place=f"#{place.item + 1} · {' vs '.join(place.variants)}{repeat}",
        input=_text(item.input),
        expected=_text(item.expected),
        given=label.values.model_dump() if label is not None and not label.skipped else None,
        skipped=bool(label and label.skipped),
        status=_status(label.sent_to_mastra, label.reason) if label is not None and not label.skipped else "",
    )
    if runs:
        state["runs"] = [
            {"name": name, **_drawn(review, place.item, variant, place.repeat, name)}
            for name, variant in zip(names, place.variants, strict=True)
        ]
    return state


def _status(sent: bool | None, reason: str | None) -> str:
    if sent is None:
        return "labelled: sending to Mastra…"
    if sent:
        return "labelled: sent to Mastra's feedback"
    return f"labelled: kept here ({reason})" if reason else "labelled: kept here"


def _drawn(review: Review, item: int, variant: str, repeat: int, name: str) -> dict[str, Any]:
    result = review.runs.result_of(item, variant, repeat)
    drawn = transcript_input(result, title=name, subtitle=_text(review.items[item].input)[:200])
    return {key: drawn[key] for key in ("ops", "title", "subtitle", "requests")}


def review_html(review: Review) -> str:
    """The item shown as a saved notebook shows it (the view's own drawing, no controls, no runs)."""
    return engine().draw("review", state=review_state(review, runs=False)) or ""


class ReviewWidget(anywidget.AnyWidget):
    """The review in the browser: the item's data (``state``), drawn by ``js/src/views/review.ts``."""

    _esm = traitlets.Unicode(
        shared_module((Path(__file__).parent.parent / "static" / "review.js").read_text(), packaged().css)
    ).tag(sync=True)
    state = traitlets.Dict().tag(sync=True)


class ReviewView:
    """A review's widget: the item shown sent whenever the queue moves or labels; the browser's
    messages (``label``, ``skip``, ``go``) handed to the queue; a value the rubric refuses shown."""

    def __init__(self, review: Review) -> None:
        self.review = review
        self.widget = ReviewWidget()
        self.widget.add_class("mn-review-widget")
        self.widget.on_msg(self._on_message)
        review.listeners.append(self.draw)
        self.draw()

    def draw(self, error: str = "") -> None:
        """Send the item shown (only when it changed)."""
        state = review_state(self.review, error=error)
        if self.widget.state != state:
            self.widget.state = state

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        try:
            self.handle(content)
        except (ValueError, IndexError) as error:
            self.draw(error=str(error)[:300])

    def handle(self, content: dict[str, Any]) -> None:
        """What the reviewer did: ``{"label": values}``, ``{"skip": true}``, ``{"go": "next"|"previous"}``."""
        go, label = content.get("go"), content.get("label")
        if go == "next":
            self.review.next()
        elif go == "previous":
            self.review.previous()
        elif content.get("skip") is True:
            self.review.skip()
        elif isinstance(label, dict):
            given = {name: label.get(name) for name in Values.model_fields}
            self.review.label(**given, wait=False)  # sent in the background: the next item at once

    def bundle(self, **_kwargs: Any) -> dict[str, Any]:
        """The widget's MIME bundle with the item as HTML beside it (a saved notebook's)."""
        return {
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2, "version_minor": 0, "model_id": self.widget.model_id,
            },
            "text/plain": repr(self.review),
            "text/html": review_html(self.review),
        }  # fmt: skip

    def display(self) -> None:
        """Display the review."""
        from IPython.display import display

        display(self.bundle(), raw=True)  # type: ignore[no-untyped-call]
