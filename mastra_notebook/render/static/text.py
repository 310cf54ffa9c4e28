"""JSON as the widget writes it, in Python: js/src/format.ts ``flatJson``, ``compactJson`` and
``prettyJson``, function for function.

These format what a person expands (arguments, results, structured output, a chunk's JSON), so each
renderer formats them itself: shipped from the kernel as text, every such value would cross the wire
twice. The short texts a card shows folded (summaries, durations, sizes) are written once, by the
kernel (core/labels.py), and shown as they come. JavaScript's key order and number text are
core/labels.py's too (``js_items``, ``js_scalar``).
"""

from __future__ import annotations

from typing import Any

from ...core.labels import js_items, js_scalar


def _is_container(value: Any) -> bool:
    return isinstance(value, (dict, list, tuple))


def flat_json(value: Any) -> str:
    """One line, a space after ``:`` and ``,`` (format.ts ``flatJson``)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{js_scalar(key)}: {flat_json(item)}" for key, item in js_items(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flat_json(item) for item in value) + "]"
    return js_scalar(value)


def _pack_lines(items: list[str], indent: str, width: int) -> str:
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(indent) + len(line) + len(item) + 2 > width:
            lines.append(f"{indent}{line},")
            line = ""
        line = f"{line}, {item}" if line else item
    if line:
        lines.append(indent + line)
    return "\n".join(lines)


def _compact_at(value: Any, indent: str, width: int) -> str:
    flat = flat_json(value)
    if not _is_container(value) or len(indent) + len(flat) <= width:
        return flat
    inner = indent + "  "
    if isinstance(value, (list, tuple)) and not any(_is_container(item) for item in value):
        return f"[\n{_pack_lines([flat_json(item) for item in value], inner, width)}\n{indent}]"
    if isinstance(value, dict):
        entries = [
            f"{inner}{js_scalar(key)}: {_compact_at(item, inner, width)}" for key, item in js_items(value)
        ]
    else:
        entries = [inner + _compact_at(item, inner, width) for item in value]
    if not entries:
        return flat
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    body = ",\n".join(entries)
    return f"{opening}\n{body}\n{indent}{closing}"


def compact_json(value: Any, width: int = 72) -> str:
    """Short objects and arrays on one line, wider ones broken (format.ts ``compactJson``)."""
    if isinstance(value, str):
        return value
    return _compact_at(value, "", width)


def pretty_json(value: Any) -> str:
    """``JSON.stringify(value, null, 2)``; strings as they are (format.ts ``prettyJson``)."""
    if isinstance(value, str):
        return value
    return _pretty_at(value, "")


def _pretty_at(value: Any, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        rows = [f"{inner}{js_scalar(key)}: {_pretty_at(item, inner)}" for key, item in js_items(value)]
        return "{\n" + ",\n".join(rows) + f"\n{indent}}}"
    if isinstance(value, (list, tuple)) and value:
        return "[\n" + ",\n".join(inner + _pretty_at(item, inner) for item in value) + f"\n{indent}]"
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, (list, tuple)):
        return "[]"
    return js_scalar(value)
