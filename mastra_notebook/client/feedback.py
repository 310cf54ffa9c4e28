"""Sending a person's label of a run to Mastra's feedback route, through the client's Transport.

``POST /api/observability/feedback`` stores one feedback record (``{feedback: {traceId,
feedbackType, value, ...}}``, core/feedback.py ``mastra_records``) in the server's observability
store, anchored to the run's trace. A server with no observability store answers 501 (an older one,
without the route, 404): the label is then kept in the notebook, and its reason says what to turn on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.feedback import Feedback, mastra_records
from ..core.trace import OBSERVABILITY_HINT
from .transport import MastraError, Transport

FEEDBACK_PATH = "/api/observability/feedback"
_NO_STORE = (404, 501)  # no such route (an older server), no observability storage domain
# a storage whose observability domain keeps no feedback (@mastra/libsql 1.x: core's base class
# throws "This storage provider does not support creating feedback", answered as a 500)
_UNSUPPORTED = ("does not support", "NOT_IMPLEMENTED")
FEEDBACK_HINT = (
    f"{OBSERVABILITY_HINT}, a storage whose observability domain keeps feedback (InMemoryStore "
    "does; @mastra/libsql's does not)"
)


class MastraFeedback:
    """Sends the labels of one run (its trace ``trace_id``; ``run_id`` read when sent): ``send`` from
    a cell (blocking, as ``view.trace()``), ``asend`` on the loop (a click in the view)."""

    def __init__(self, transport: Transport, trace_id: str, run_id: Callable[[], str | None]) -> None:
        self.transport = transport
        self.trace_id = trace_id
        self.run_id = run_id

    def __repr__(self) -> str:
        return f"<MastraFeedback trace {self.trace_id}>"

    def send(self, label: Feedback) -> Feedback:
        """``label`` as it stands once sent: ``sent_to_mastra`` True, or False with the reason."""
        if label.empty:
            return cleared(label)
        try:
            for body in mastra_records(label, self.trace_id, self.run_id()):
                self.transport.call("POST", FEEDBACK_PATH, json=body)
        except MastraError as error:
            return kept(label, error)
        return label.model_copy(update={"sent_to_mastra": True, "reason": None})

    def send_records(self, bodies: list[dict[str, Any]]) -> tuple[bool, str | None]:
        """Post feedback records made elsewhere (a pair's preference: core/feedback.py
        ``preference_records``): whether Mastra took them, and why not."""
        try:
            for body in bodies:
                self.transport.call("POST", FEEDBACK_PATH, json=body)
        except MastraError as error:
            return False, refused(error)
        return True, None

    async def asend(self, label: Feedback) -> Feedback:
        """``send`` without blocking the running loop."""
        if label.empty:
            return cleared(label)
        try:
            for body in mastra_records(label, self.trace_id, self.run_id()):
                await self.transport.send("POST", FEEDBACK_PATH, json=body)
        except MastraError as error:
            return kept(label, error)
        return label.model_copy(update={"sent_to_mastra": True, "reason": None})


def kept(label: Feedback, error: MastraError) -> Feedback:
    """``label`` kept in the notebook only, because the server did not take it (and what to do)."""
    return label.model_copy(update={"sent_to_mastra": False, "reason": refused(error)})


def refused(error: MastraError) -> str:
    """Why the server did not take a label, and what to do."""
    unsupported = error.status_code == 500 and any(word in error.problem for word in _UNSUPPORTED)
    if error.status_code in _NO_STORE or unsupported:
        return (
            f"Mastra's server keeps no feedback ({error.problem}); to send labels with the run's "
            f"trace, {FEEDBACK_HINT}"
        )
    return f"Mastra's server did not take it ({error}); labelling again sends it again"


def cleared(label: Feedback) -> Feedback:
    """An empty label (the thumbs, score and comment taken back): nothing to send, Mastra's records stay."""
    reason = "the label was cleared (Mastra's feedback records, if any, stay on the server)"
    return label.model_copy(update={"sent_to_mastra": False, "reason": reason})
