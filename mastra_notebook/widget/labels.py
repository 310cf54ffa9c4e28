"""A person's label given in the view (the footer's control): shown at once, sent without blocking.

The label is kept on the run as ``view.label()`` keeps it (``RunStream.keep_label``), but the
kernel's loop is not held while Mastra's feedback route answers: the run first shows it as being
sent, then as sent or kept in the notebook (and why).
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.feedback import Feedback
from ..core.feedback import make as make_label
from ..runs.loops import Work, running_loop, schedule
from ..runs.stream import LabelSender, RunStream, sent
from .contract import LabelMsg


class LabelsFromView:
    """The label messages of a view's footer, each kept on the run the view shows."""

    def __init__(
        self, stream: Callable[[], RunStream], shown: Callable[[], None], flush: Callable[[], None]
    ) -> None:
        """``stream``: the stream the view shows now; ``shown``: the run changed outside its stream
        (the view sends it again); ``flush``: send the ops waiting now."""
        self._stream, self._shown, self._flush = stream, shown, flush
        self.sending: Work | None = None  # the label sent last
        self._in_flight: set[Work] = set()  # every label being sent (kept: a task is not collected)

    def given(self, msg: LabelMsg) -> None:
        """The footer labelled the run: shown at once as being sent, then as sent or kept."""
        label = make_label(msg.thumbs, msg.score, msg.comment)
        stream = self._stream()
        if stream.labels is None or label.empty:  # nothing to send (an empty label sends no request)
            self._keep(stream, sent(stream.labels, label))
            return
        stream.run.label(label)  # "sending to Mastra…"
        self._flush()
        self.sending = schedule(self._send(stream, stream.labels, label), stream.loop or running_loop())
        self._in_flight.add(self.sending)
        self.sending.add_done_callback(self._in_flight.discard)

    async def _send(self, stream: RunStream, labels: LabelSender, label: Feedback) -> None:
        answered = await labels.asend(label)
        current = stream.result.feedback
        if current is not None and current.at == label.at:  # else labelled again meanwhile: that one stands
            self._keep(stream, answered)

    def _keep(self, stream: RunStream, label: Feedback) -> None:
        """``label`` kept on the run it was given to (the view may show another run by now)."""
        stream.keep_label(label)
        self._shown()
