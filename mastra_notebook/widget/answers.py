"""What a view answers the browser (widget/contract.py, docs/view-protocol.md).

A hello or a resync gets the run's snapshot, Stop stops it, a tool card's buttons decide as the person
in the view, the footer labels it, the inspector lists its chunks, and a step's Request toggle gets
the request the model was sent. A replay answers its own controls first (``ReplayView``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.request_bounded import request_reply
from ..runs.stream import RunStream
from .contract import (
    ApproveMsg,
    BrowserMessage,
    ChunkJsonMsg,
    DeclineMsg,
    HelloMsg,
    InspectMsg,
    LabelMsg,
    RequestMsg,
    RequestReplyMsg,
    ResyncMsg,
    StopMsg,
)
from .inspector import Inspector
from .labels import LabelsFromView
from .sync import OpSync


def request_answer(stream: RunStream, node_id: str) -> RequestReplyMsg:
    """The request of step node ``node_id``, bounded for the wire, or why there is none."""
    reply = request_reply(stream.run.snapshot(), stream.result, node_id)
    answer = RequestReplyMsg(t="request", id=node_id, request=reply.get("request"), where=reply.get("where"))
    if "reason" in reply:
        answer["reason"] = reply["reason"]
    return answer


class Answers:
    """A view's answers to the browser's messages, from the parts it is made of."""

    def __init__(
        self,
        send: Callable[[Any], None],
        stream: Callable[[], RunStream],
        stop: Callable[[], None],
        *,
        sync: OpSync,
        inspector: Inspector,
        labels: LabelsFromView,
    ) -> None:
        """``send``: a message to the browser; ``stream``: the stream the view shows now; ``stop``:
        the view's Stop (a replay pauses)."""
        self._send, self._stream, self._stop = send, stream, stop
        self._sync, self._inspector, self._labels = sync, inspector, labels

    def answer(self, msg: BrowserMessage) -> None:
        """``msg`` answered (a replay's controls are not: ``ReplayView`` answers them)."""
        stream = self._stream()
        if isinstance(msg, (HelloMsg, ResyncMsg)):
            self._send(self._sync.snapshot(stream.run.snapshot()))
        elif isinstance(msg, StopMsg):
            self._stop()
        elif isinstance(msg, ApproveMsg):  # the view's buttons decide as the person in the view
            stream.controlled("approve").approve(msg.tool_call_id, "view")
        elif isinstance(msg, DeclineMsg):
            stream.controlled("decline").decline(msg.tool_call_id, msg.reason, "view")
        elif isinstance(msg, LabelMsg):  # the footer's label control
            self._labels.given(msg)
        elif isinstance(msg, (InspectMsg, ChunkJsonMsg)):
            self._inspector.answer(msg)
        elif isinstance(msg, RequestMsg):  # a step's Request toggle opened
            self._send(request_answer(stream, msg.id))
