"""A JSON value cut to a budget, each cut said in place: what the view, the transcript and the trace
lane carry of a request, a span's input or output, or a node's field (a tool's result), so a huge
value stays cheap to send, save and draw.

Every part of the value spends from one budget of characters (a string its kept characters, a key
its length, a number or a flag a few), so a value of a thousand long strings, or of a million small
numbers, is cut as a whole and not only piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .values import capped, written_size

SCALAR_CHARS = 8  # what a number, a flag or a null spends of the budget (about its JSON)


@dataclass(frozen=True, slots=True)
class Bounds:
    """How much of a value is carried: each string, each value in all, and the whole (JSON bytes, for
    callers that carry many values)."""

    string: int
    value: int
    whole: int = 0
    items: int = 100  # entries of a list or object
    depth: int = 12  # levels of nested lists and objects


class Budget:
    """The characters a value may still spend (see the module's text); ``cut`` once anything was."""

    def __init__(self, bounds: Bounds, chars: int | None = None) -> None:
        self.bounds = bounds
        self.left = bounds.value if chars is None else chars
        self.cut = False

    def string(self, text: str) -> str:
        """``text``, or its head with the rest counted."""
        keep = max(0, min(len(text), self.bounds.string, self.left))
        self.left -= keep
        if keep == len(text):
            return text
        self.cut = True
        return f"{text[:keep]}… [{len(text) - keep:,} more characters]"

    def value(self, value: Any, depth: int = 0) -> Any:
        """``value`` as JSON, its strings, lists and objects cut (marked where they were)."""
        if isinstance(value, str):
            return self.string(value)
        if value is None or isinstance(value, (bool, int, float)):
            self.left -= SCALAR_CHARS
            return value
        if not isinstance(value, (dict, list, tuple)):
            return self.string(str(value))
        if depth >= self.bounds.depth:
            self.cut = True
            return "… [deeper levels cut]"
        entries = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        kept: list[tuple[Any, Any]] = []
        for key, item in entries[: self.bounds.items]:
            if self.left <= 0:
                break
            self.left -= len(str(key)) + 2 if isinstance(value, dict) else 1
            kept.append((key, self.value(item, depth + 1)))
        more = len(entries) - len(kept)
        self.cut = self.cut or more > 0
        if isinstance(value, dict):
            out = {str(key): item for key, item in kept}
            if more:
                out["…"] = f"{more:,} more keys"
            return out
        return [item for _, item in kept] + ([f"… {more:,} more items"] if more else [])


def bounded(value: Any, bounds: Bounds, chars: int | None = None) -> tuple[Any, bool]:
    """A copy of ``value`` within ``bounds`` (and ``chars`` characters in all, if given), and whether
    anything was cut."""
    budget = Budget(bounds, chars)
    return budget.value(value), budget.cut


FIELD = Bounds(string=2_000, value=16_000, whole=32_000)
"""A view node's field (a tool's result, a step's output): one over ``whole`` bytes of JSON is shown
cut to about ``value`` characters, in the view, the saved notebook, the recording's view and the
export page; the node keeps it whole for the RunResult (core/tree.py)."""


def for_view(value: Any, bounds: Bounds = FIELD) -> tuple[Any, int]:
    """``value`` as a view node shows it, and the size of the whole in bytes of JSON when it was cut
    for its size (0: it was not). A value nested deeper than a writer takes is cut there
    (``values.capped``), whatever its size."""
    if isinstance(value, str):
        if len(value) <= bounds.whole:
            return value, 0
        return Budget(replace(bounds, string=bounds.value)).string(value), written_size(value) or len(value)
    size = written_size(value)
    if size is None:  # too deep to write: cut at the writer's depth, then measured
        value = capped(value)
        size = written_size(value) or 0
    if size <= bounds.whole:
        return value, 0
    return bounded(value, bounds)[0], size
