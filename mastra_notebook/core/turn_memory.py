"""What memory did in one chat turn (:class:`TurnMemory`): the messages recalled and saved, the
working memory before and after, and the counts beside Mastra's trace. Core's, not the client's: a
chat saved to a file (core/chat_file.py) keeps it, and a replay of that file reads it back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ConfigDict

from .documented import Documented


class RecalledMessage(Documented):
    """One message recalled from memory: its role and its text (tool calls and results summarised)."""

    model_config = ConfigDict(frozen=True)  # fields documented in help() (Documented)
    role: str
    """Who said it: ``user``, ``assistant``, ``system`` or ``tool``."""
    text: str
    """What it said, as text (a tool call or result as a one-line summary)."""


class TurnMemory(Documented):
    """What memory did in one chat turn: the messages recalled into it and saved by it, and the
    working memory before and after it (None when there is none). ``note`` says why there is nothing
    to show, and what to turn on on the server; ``counts`` sets the turn's counts beside the trace's
    once it is read (``chat.wait()``)."""

    model_config = ConfigDict(frozen=True)  # fields documented in help() (Documented)
    recalled: list[RecalledMessage] = []
    """The messages memory brought into the turn from earlier ones (not the turn's own)."""
    working_before: str | None = None
    """The thread's working memory as the turn began (None when there was none)."""
    working_after: str | None = None
    """The working memory as the turn ended: what the agent wrote into it shows as the difference."""
    note: str | None = None
    """Why there is nothing to show (no memory, no working memory), and what to turn on on the server."""
    saved: list[RecalledMessage] = []
    """The messages this turn added to the thread: its own input, then what the agent answered."""
    traced_recalled: int | None = None
    """How many messages Mastra's trace says the turn recalled (its ``memory: recall`` span's
    ``messageCount``); None until the turn's trace is read (``chat.wait()``), or without traces."""
    traced_saved: int | None = None
    """How many messages the trace says the turn saved (its ``memory: save`` spans' ``messageCount``)."""
    counts: str | None = None
    """The counts beside the trace's: that they agree, or why they differ; or why there is no trace."""


COUNTED_APART = (
    "they differ because the trace counts stored messages, where one assistant message holds a "
    "step's text, tool calls and results, and the turn lists model messages, where each tool result "
    "is a message of its own"
)


def traced_counts(spans: Iterable[Any]) -> tuple[int | None, int | None]:
    """(recalled, saved) as Mastra's trace counts them: the ``messageCount`` of its ``memory: recall``
    span and the sum over its ``memory: save`` spans (None where the trace has no such span).
    ``spans``: the trace's spans (``Trace.spans``)."""
    found: dict[str, int | None] = {"recall": None, "save": None}
    for span in spans:
        attributes = span.attributes if isinstance(span.attributes, dict) else {}
        kind, count = attributes.get("operationType"), attributes.get("messageCount")
        if span.type == "memory_operation" and kind in found and isinstance(count, int):
            found[kind] = (found[kind] or 0) + count
    return found["recall"], found["save"]


def counted(memory: TurnMemory, recalled: int | None, saved: int | None) -> TurnMemory:
    """``memory`` with the trace's counts, and a sentence on how they stand beside the turn's own."""
    mine = (len(memory.recalled), len(memory.saved))
    if recalled is None and saved is None:
        counts = "the trace has no memory spans for this turn"
    elif (recalled, saved) == mine:
        counts = f"the trace agrees: {recalled} recalled, {saved} saved"
    else:
        counts = (
            f"the trace counts {_count(recalled)} recalled and {_count(saved)} saved, this turn lists "
            f"{mine[0]} and {mine[1]}: {COUNTED_APART}"
        )
    return memory.model_copy(update={"traced_recalled": recalled, "traced_saved": saved, "counts": counts})


def _count(value: int | None) -> str:
    return "none" if value is None else str(value)
