"""How the kernel's figures read: integers with thousands separators, durations, fixed decimals.

A leaf of core: the figures (core/figures.py) and the static renderer both format with it, so a
number reads the same in the header, the footer, the transcript and ``mn.compare``. The rounding is
JavaScript's (``toFixed``, ``Math.round``), as the browser's figures were before they were shipped.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["format_duration", "format_int", "js_round", "to_fixed"]


def to_fixed(value: float, digits: int) -> str:
    """``Number.prototype.toFixed``: the exact value rounded, halves up."""
    quantum = Decimal(1).scaleb(-digits)
    return str(Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP))


def js_round(value: float) -> int:
    return math.floor(value + 0.5)


def format_int(value: float) -> str:
    return f"{js_round(value):,}"


def format_duration(ms: float) -> str:
    """``340 ms``, ``3.2 s``, ``2 m 5 s``."""
    ms = max(ms, 0)
    if ms < 1000:
        return f"{js_round(ms)} ms"
    if ms < 60_000:
        return f"{to_fixed(ms / 1000, 1)} s"
    seconds = js_round(ms / 1000)
    return f"{seconds // 60} m {seconds % 60} s"
