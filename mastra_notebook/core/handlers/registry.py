"""The handler registry: which function folds which chunk type, and the helpers every family uses.

A handler changes a :class:`RunState` through its methods. A handler of an envelope (a chunk that
wraps another) returns where the inner chunk goes, ``(state, inner)``, and the caller folds it
there: nesting is followed by a loop, never by recursion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..state import RunState

Next = tuple[RunState, Any] | None
Handler = Callable[[RunState, dict[str, Any]], Next]
HANDLERS: dict[str, Handler] = {}  # by type, or by prefix for a family (``data-``)


def on(*types: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for chunk_type in types:
            HANDLERS[chunk_type] = handler
        return handler

    return register


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def payload_of(chunk: dict[str, Any]) -> dict[str, Any]:
    return as_dict(chunk.get("payload"))
