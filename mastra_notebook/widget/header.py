"""What a view's frame is made of: its header's second line (what was asked) and its height as CSS."""

from __future__ import annotations

import math
from typing import Any


def css_length(value: str | float | None) -> str:
    """``max_height`` as the browser takes it: pixels for a number, "" for no limit."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise TypeError(f"max_height must be a CSS length, a number of pixels or None, not {value!r}")
    if isinstance(value, str):
        return value.strip()
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"max_height must be a positive number of pixels, not {value!r}")
    return f"{value:g}px"


def first_line(prompt: Any, limit: int = 200) -> str:
    """The first line of what was asked (a string, or the last user message's text), for a header."""
    text = prompt if isinstance(prompt, str) else ""
    if isinstance(prompt, (list, tuple)):
        users = [m for m in prompt if isinstance(m, dict) and m.get("role") == "user"]
        content = users[-1].get("content") if users else None
        if isinstance(content, list):  # content parts: the first text part
            texts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
            content = texts[0] if texts else None
        text = content if isinstance(content, str) else ""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"
