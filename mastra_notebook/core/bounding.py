"""A JSON value cut to a budget, each cut said in place: what the view, the transcript and the trace
lane carry of a request, a span's input or output, so a huge value stays cheap to send and draw.

Every part of the value spends from one budget of characters (a string its kept characters, a key
its length, a number or a flag a few), so a value of a thousand long strings, or of a million small
numbers, is cut as a whole and not only piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
