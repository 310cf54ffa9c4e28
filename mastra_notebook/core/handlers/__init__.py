"""How each chunk type changes a run, grouped by chunk family:

- ``lifecycle``: start, steps, finish, errors, aborts, tripwires, structured output, raw chunks;
- ``text``: text and reasoning parts, sources and citations, files;
- ``tools``: tool calls, their arguments, results, approvals, and what tools write;
- ``workflow``: workflow runs and their steps;
- ``network``: agent networks;
- ``tasks``: background tasks and goals.

:func:`fold` is the one loop that applies them, following envelopes to any depth without recursion.
"""

from __future__ import annotations

from typing import Any

from ..chunks import check, family, raw_of
from ..state import RunState
from . import lifecycle, network, tasks, text, tools, workflow
from .registry import HANDLERS, Handler

__all__ = ["HANDLERS", "fold", "handler_for", "lifecycle", "network", "tasks", "text", "tools", "workflow"]


def handler_for(chunk_type: str) -> Handler:
    handler = HANDLERS.get(chunk_type)
    if handler is None:
        handler = HANDLERS.get(family(chunk_type) or "", lifecycle.unknown)
    return handler


def fold(state: RunState, chunk: dict[str, Any], item: Any) -> None:
    """Fold one chunk (decoded from ``item``) into ``state``, and what it wraps into nested runs."""
    while True:
        if chunk.get("type") == "text-delta":  # the hottest chunk of all: checked and folded here
            payload = chunk.get("payload")  # (what check() and text.text_delta do, one call fewer each)
            if type(payload) is dict and type(delta := payload.get("text")) is str:
                state.chunk_count += 1
                if state.unsettled:
                    state.settle(chunk)
                state.add_text(payload.get("id", ""), delta)
                return
        error = check(chunk)
        if error is not None:
            state.add_invalid(raw_of(item, chunk), error)
            return
        state.chunk_count += 1
        if state.unsettled:
            state.settle(chunk)
        following = (HANDLERS.get(chunk["type"]) or handler_for(chunk["type"]))(state, chunk)
        if following is None:
            return
        state, chunk = following
        item = chunk  # a wrapped chunk has no text of its own
