"""The widget's words and numbers, in Python: js/src/format.ts, function for function.

The transcript and the widget must print the same text for the same node tree (a test compares
them on every fixture), so JSON, durations and summaries are written as JavaScript writes them:
``1.0`` is ``1``, integer-like keys come first, ``toFixed`` rounds half up.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

from ...core.numbers import to_fixed

_INDEX_KEY = re.compile(r"0|[1-9][0-9]{0,9}")
_MAX_INDEX = 2**32 - 2


def js_keys(value: dict[str, Any]) -> list[str]:
    """The order of a JavaScript object's keys: array-index keys ascending, then the rest as they came."""
    keys = [str(key) for key in value]
    index = [key for key in keys if _INDEX_KEY.fullmatch(key) and int(key) <= _MAX_INDEX]
    if not index:
        return keys
    indexed = set(index)
    return sorted(index, key=int) + [key for key in keys if key not in indexed]


def _items(value: dict[str, Any]) -> list[tuple[str, Any]]:
    by_text = {str(key): item for key, item in value.items()}
    return [(key, by_text[key]) for key in js_keys(value)]


def js_number(value: float) -> str:
    """``Number.prototype.toString`` (what JSON.stringify writes): ``1``, ``0.1``, ``1e+21``, ``1e-7``."""
    if not math.isfinite(value):
        return "null"
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(float(value))
    if "e" not in text:
        return text
    digits, exponent = text.split("e")
    power = int(exponent)
    if -7 < power < 21:  # JavaScript writes these positionally
        return format(Decimal(text), "f")
    return f"{digits.removesuffix('.0')}e{'+' if power > 0 else '-'}{abs(power)}"


def _scalar(value: Any) -> str:
    if value is None or value is True or value is False:
        return "null" if value is None else ("true" if value else "false")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(str(value), ensure_ascii=False)  # not JSON: the widget never sees one


def _is_container(value: Any) -> bool:
    return isinstance(value, (dict, list, tuple))


def flat_json(value: Any) -> str:
    """One line, a space after ``:`` and ``,`` (format.ts ``flatJson``)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(key)}: {flat_json(item)}" for key, item in _items(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flat_json(item) for item in value) + "]"
    return _scalar(value)


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
        entries = [f"{inner}{_scalar(key)}: {_compact_at(item, inner, width)}" for key, item in _items(value)]
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
        rows = [f"{inner}{_scalar(key)}: {_pretty_at(item, inner)}" for key, item in _items(value)]
        return "{\n" + ",\n".join(rows) + f"\n{indent}}}"
    if isinstance(value, (list, tuple)) and value:
        return "[\n" + ",\n".join(inner + _pretty_at(item, inner) for item in value) + f"\n{indent}]"
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, (list, tuple)):
        return "[]"
    return _scalar(value)


def human_size(size: float) -> str:
    units = ["B", "KB", "MB", "GB", "TB"]
    n, i = float(size), 0
    while n >= 1024 and i < len(units) - 1:
        n /= 1024
        i += 1
    return f"{js_number(n)} B" if i == 0 else f"{to_fixed(n, 1 if n < 10 else 0)} {units[i]}"


# Direction controls (embeddings, overrides, isolates, marks): a one-line summary drops them.
_BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _utf16_slice(text: str, end: int) -> str:
    """``text.slice(0, end)`` in UTF-16 code units, as JavaScript counts (a lone half is dropped)."""
    if end <= 0:
        return ""
    if text.isascii() or _utf16_len(text) <= end:
        return text if _utf16_len(text) <= end else text[:end]
    units = text.encode("utf-16-le")[: 2 * end]
    return units.decode("utf-16-le", errors="ignore")


def truncate(text: str, maximum: int) -> str:
    if _utf16_len(text) <= maximum:
        return text
    return _utf16_slice(text, max(0, maximum - 1)) + "…"


def summarize_text(text: str, maximum: int = 80) -> str:
    """The first line of ``text``, without direction controls, cut to ``maximum`` characters."""
    line = _utf16_slice(text, maximum + 1).split("\n", 1)[0]
    if _utf16_len(line) < _utf16_len(text):
        line = _utf16_slice(line, maximum - 1) + "…"
    return truncate(_BIDI_CONTROLS.sub("", line), maximum)


def _join_short(parts: list[str], maximum: int) -> str:
    out = ""
    for i, part in enumerate(parts):
        joined = part if i == 0 else f"{out}, {part}"
        if _utf16_len(joined) > maximum and i > 0:
            return f"{out}, …"
        out = joined
    return out


def _summary_of(value: Any, maximum: int, depth: int) -> str:
    if isinstance(value, str):
        return json.dumps(summarize_text(value, max(8, maximum - 2)), ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        if depth > 0:
            return f"[{len(value)}]"
        return "[" + _join_short([_summary_of(item, 24, depth + 1) for item in value], maximum - 2) + "]"
    if isinstance(value, dict):
        if depth > 0:
            return "{}" if not value else "{…}"
        parts = [f"{key}: {_summary_of(item, 24, depth + 1)}" for key, item in _items(value)]
        return "{" + _join_short(parts, maximum - 2) + "}"
    return _scalar(value)


def summarize_value(value: Any, maximum: int = 60) -> str:
    """A folded card's one-line form of a value: ``{city: "Paris", temperatureC: 18, …}``."""
    return truncate(_BIDI_CONTROLS.sub("", _summary_of(value, maximum, 0)), maximum)


def summarize_args(args: Any, maximum: int = 48) -> str:
    """Arguments as ``city="Paris", days=3`` (an object), or the value's summary."""
    if not isinstance(args, dict):
        return "" if args is None else summarize_value(args, maximum)
    parts = [f"{key}={_summary_of(item, 24, 1)}" for key, item in _items(args)]
    return truncate(_BIDI_CONTROLS.sub("", _join_short(parts, maximum)), maximum)
