"""Human labels of a run: thumbs, a score and a comment (``view.label(...)``, or the view's footer).

A label lives on the run (``result.feedback``), in its recording as one line of the notebook's own
(``{"type": "mn-feedback", "from": "USER", "payload": {...}}``: other readers of Mastra JSONL skip an
unknown chunk type; ``mn.view(path)`` and ``mn.collect(path)`` read it back), and, when the run was
traced on a Mastra server that keeps observability, in Mastra's feedback store
(``POST /api/observability/feedback``, one record per signal: see :func:`mastra_records`).
"""

from __future__ import annotations

import math
from datetime import datetime, timezone
from typing import Any, Literal

from .documented import Documented

FEEDBACK_TYPE = "mn-feedback"  # the recording's line of a label (the notebook's own chunk type)
Thumbs = Literal["up", "down"]
# Mastra's feedback value is a number or a string: thumbs up 1, down 0 (so a mean is an approval rate)
THUMB_VALUES: dict[str, int] = {"up": 1, "down": 0}
COMMENT_LIMIT = 10_000  # characters: a label's comment is a note, not a document


class Feedback(Documented):
    """A person's label of a run: thumbs, a score, a category and a comment, and where it went."""

    thumbs: Thumbs | None = None
    """``"up"``, ``"down"``, or None."""
    score: float | None = None
    """A number the person gave (any scale: 1-5, 0-1...), or None."""
    comment: str | None = None
    """What the person wrote, or None."""
    category: str | None = None
    """A review's category (one of its rubric's ``categories``), or None."""
    at: datetime | None = None
    """When it was given (UTC)."""
    sent_to_mastra: bool | None = None
    """True once Mastra's server stored it (``/api/observability/feedback``, with the run's trace
    id); False when it is kept in the notebook only (``reason`` says why); None while it is sent."""
    reason: str | None = None
    """Why it is kept in the notebook only, and what to turn on to send it; None once sent."""

    @property
    def empty(self) -> bool:
        """No thumbs, no score, no category, no comment: the label was cleared."""
        return self.thumbs is None and self.score is None and not self.category and not self.comment


def make(
    thumbs: Any = None,
    score: Any = None,
    comment: Any = None,
    *,
    category: str | None = None,
    at: datetime | None = None,
) -> Feedback:
    """A label from what a person gave (``view.label`` or the footer); ValueError says what is wrong."""
    if thumbs is True or thumbs is False:  # label(thumbs=True) reads as up
        thumbs = "up" if thumbs else "down"
    if thumbs is not None and thumbs not in THUMB_VALUES:
        raise ValueError(f'thumbs is "up", "down" or None, not {thumbs!r}')
    if score is not None:
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
            raise ValueError(f"score is a finite number or None, not {score!r}")
        score = float(score)
    if comment is not None and not isinstance(comment, str):
        raise ValueError(f"comment is a string or None, not {type(comment).__name__}")
    comment = (comment or "").strip()[:COMMENT_LIMIT] or None
    if category is not None and not isinstance(category, str):
        raise ValueError(f"category is a string or None, not {type(category).__name__}")
    return Feedback(
        thumbs=thumbs,
        score=score,
        comment=comment,
        category=category or None,
        at=at or datetime.now(timezone.utc),
    )


def line(feedback: Feedback, run_id: str | None = None) -> dict[str, Any]:
    """The recording's line of ``feedback`` (shaped as a Mastra chunk, so a recording stays JSONL)."""
    chunk: dict[str, Any] = {
        "type": FEEDBACK_TYPE,
        "from": "USER",
        "payload": feedback.model_dump(mode="json"),
    }
    if run_id is not None:
        chunk["runId"] = run_id
    return chunk


def read(chunk: Any) -> Feedback | None:
    """The label a recording's line holds, or None for any other chunk (or a payload not a label)."""
    if type(chunk) is not dict or chunk.get("type") != FEEDBACK_TYPE:
        return None
    try:
        return Feedback.model_validate(chunk.get("payload"))
    except ValueError:
        return None


def note(feedback: Feedback) -> str:
    """The footer's sentence for a label's state: sending, sent, or kept (and why)."""
    if feedback.sent_to_mastra is None:
        return "sending to Mastra…"
    if feedback.sent_to_mastra:
        return "sent to Mastra"
    return f"kept in the notebook: {feedback.reason}" if feedback.reason else "kept in the notebook"


def mastra_records(feedback: Feedback, trace_id: str, run_id: str | None = None) -> list[dict[str, Any]]:
    """The bodies of ``POST /api/observability/feedback`` for ``feedback`` (the shape of
    ``createFeedbackBodySchema`` in @mastra/server 1.67: ``{feedback: {traceId, feedbackType, value,
    comment?, feedbackSource?, runId?, metadata?}}``): one record per signal, thumbs (``"thumbs"``,
    1 up or 0 down), score (``"rating"``) and a review's category (``"category"``, its name as the
    value: Mastra's value may be a string); the comment rides on the first, or is a record of its own
    (``"comment"``, the text as its value) when it is all the label has."""
    signals: list[tuple[str, float | str]] = []
    if feedback.thumbs is not None:
        signals.append(("thumbs", THUMB_VALUES[feedback.thumbs]))
    if feedback.score is not None:
        signals.append(("rating", feedback.score))
    if feedback.category:
        signals.append(("category", feedback.category))
    if not signals and feedback.comment:
        signals.append(("comment", feedback.comment))
    bodies = []
    for index, (kind, value) in enumerate(signals):
        record: dict[str, Any] = {
            "traceId": trace_id,
            "feedbackSource": "user",
            "feedbackType": kind,
            "value": value,
            "metadata": {"client": "mastra-notebook"},
        }
        if index == 0 and feedback.comment and kind != "comment":
            record["comment"] = feedback.comment
        if run_id is not None:
            record["runId"] = run_id
        bodies.append({"feedback": record})
    return bodies


Preference = Literal["better", "worse", "tie"]
# A pairwise review's choice, for each of the two runs: won 1, tied 0.5, lost 0 (a mean is a win rate)
PREFERENCE_VALUES: dict[str, float] = {"better": 1, "tie": 0.5, "worse": 0}


def preference_records(
    preference: Preference,
    trace_id: str,
    *,
    other_trace_id: str | None = None,
    comment: str | None = None,
    run_id: str | None = None,
) -> list[dict[str, Any]]:
    """The body of ``POST /api/observability/feedback`` for one run of a pair a person compared
    (``exp.review(pairwise=...)``): ``feedbackType`` ``"preference"``, its value 1 when the run was
    chosen, 0 when the other was, 0.5 for a tie; the other run's trace id in its metadata."""
    metadata: dict[str, Any] = {"client": "mastra-notebook", "pairwise": preference}
    if other_trace_id is not None:
        metadata["otherTraceId"] = other_trace_id
    record: dict[str, Any] = {
        "traceId": trace_id,
        "feedbackSource": "user",
        "feedbackType": "preference",
        "value": PREFERENCE_VALUES[preference],
        "metadata": metadata,
    }
    if comment:
        record["comment"] = comment
    if run_id is not None:
        record["runId"] = run_id
    return [{"feedback": record}]


NO_TRACE = (
    "this run names no Mastra trace (it was not streamed by a MastraClient), so there is nothing on "
    "a server to attach it to"
)
