"""Small normalisers for values as Mastra serialises them (usage, errors, bytes, partial JSON)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from typing import Any

import jiter
import orjson

USAGE_KEYS = {  # our snake_case count: Mastra's camelCase key
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "total_tokens": "totalTokens",
    "reasoning_tokens": "reasoningTokens",
    "cached_input_tokens": "cachedInputTokens",
    "cache_creation_input_tokens": "cacheCreationInputTokens",
}


def usage(value: Any) -> dict[str, int]:
    """Mastra's camelCase usage as our snake_case counts (missing or null counts are 0)."""
    source = value if isinstance(value, dict) else {}
    counts = {}
    for ours, theirs in USAGE_KEYS.items():
        count = source.get(theirs, source.get(ours))
        counts[ours] = count if isinstance(count, int) and not isinstance(count, bool) else 0
    if not counts["total_tokens"]:
        counts["total_tokens"] = counts["input_tokens"] + counts["output_tokens"]
    return counts


def add_usage(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {key: a.get(key, 0) + b.get(key, 0) for key in USAGE_KEYS}


ZERO_USAGE = usage(None)


def json_object(value: Any) -> dict[str, Any] | None:
    """A JSON object Mastra sends as an object or as its JSON text; anything else is none."""
    if isinstance(value, (str, bytes)):
        try:
            value = orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    return dict(value) if isinstance(value, dict) else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def error_info(value: Any) -> dict[str, Any]:
    """A readable ``{message, name?, details?}`` from whatever Mastra sent as an error.

    Errors arrive as strings or as serialised Error objects; tool errors often keep their text only
    in ``cause.message`` or ``details``.
    """
    if isinstance(value, str):
        return {"message": value or "error"}
    if not isinstance(value, dict):
        return {"message": "error" if value is None else orjson.dumps(value, default=repr).decode()}
    cause = _dict(value.get("cause"))
    details = _dict(value.get("details"))
    message = (
        _text(value.get("message"))
        or _text(cause.get("message"))
        or _text(details.get("errorMessage"))
        or _text(details.get("message"))
        or _text(value.get("error"))
        or _text(value.get("name"))
        or _text(value.get("id"))
        or dump(value)
    )
    info: dict[str, Any] = {"message": message}
    if _text(value.get("name")):
        info["name"] = value["name"]
    extra = {k: v for k, v in value.items() if k not in ("message", "name", "stack")}
    if extra:
        info["details"] = extra
    return info


def file_bytes(payload: dict[str, Any]) -> bytes:
    """A file's bytes: base64 text, a byte list, or a ``Uint8Array`` serialised as ``{"0": 137, ...}``."""
    data = payload.get("base64") or payload.get("data")
    if isinstance(data, str):
        try:
            return base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            return data.encode()
    if isinstance(data, dict):
        try:
            return bytes(data[str(i)] for i in range(len(data)))
        except (KeyError, TypeError, ValueError):
            return b""
    if isinstance(data, list):
        try:
            return bytes(data)
        except (TypeError, ValueError):
            return b""
    return b""


def partial_json(text: str) -> Any:
    """The best parse of JSON text that is still arriving (None when nothing parses yet)."""
    try:
        return jiter.from_json(text.encode(), partial_mode="trailing-strings")
    except ValueError:
        return None


def epoch_ms(value: Any) -> float | None:
    """A Mastra time (epoch ms, or an ISO string) as epoch ms."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        from datetime import datetime

        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000
        except ValueError:
            return None
    return None


# orjson writes at most 254 levels (and Python's json about as many as its stack allows). Values
# that go to a JSON writer are cut below WRITE_DEPTH, leaving room for the message around them.
WRITE_DEPTH = 200


def depth_marker(levels: str) -> str:
    return f"[mastra-notebook: {levels} more levels not written]"


def written_size(value: Any, headroom: int = 254 - WRITE_DEPTH) -> int | None:
    """The bytes of ``value`` as JSON (orjson, in C; what is not JSON as its ``repr``), or None when a
    writer cannot take it nested inside ``headroom`` more levels."""
    wrapped = value
    for _ in range(headroom if type(value) in (dict, list) else 0):
        wrapped = [wrapped]
    try:
        return len(orjson.dumps(wrapped, default=repr)) - 2 * (0 if wrapped is value else headroom)
    except orjson.JSONEncodeError:
        return None


def fits(value: Any, headroom: int = 254 - WRITE_DEPTH) -> bool:
    """Whether a writer can take ``value`` nested inside ``headroom`` more levels."""
    return type(value) not in (dict, list) or written_size(value, headroom) is not None


def capped(value: Any, depth: int = WRITE_DEPTH) -> Any:
    """``value`` with whatever lies deeper than ``depth`` levels replaced by a marker.

    The same object when nothing is that deep (the usual case): only deep values are copied.
    """
    if fits(value, 254 - depth):
        return value
    return _cut(value, depth)


def _cut(value: Any, depth: int) -> Any:
    if not isinstance(value, (dict, list)):
        return value
    if depth <= 0:
        return depth_marker("some")
    if isinstance(value, dict):
        return {key: _cut(item, depth - 1) for key, item in value.items()}
    return [_cut(item, depth - 1) for item in value]


def dump(value: Any) -> str:
    """Any decoded value as JSON text, however deep (for keeping a rejected chunk readable)."""
    return orjson.dumps(capped(value), default=repr).decode()


def find_key(value: Any, keys: tuple[str, ...], limit: int = 10_000) -> Any:
    """The first value under one of ``keys`` anywhere in ``value`` (a bounded walk, no recursion)."""
    stack = [value]
    while stack and limit > 0:
        limit -= 1
        item = stack.pop()
        if isinstance(item, dict):
            for key in keys:
                if item.get(key) not in (None, "", [], {}):
                    return item[key]
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return None


HIDDEN = "<hidden>"  # what a secret is replaced with in what is shown or sent


def hidden(text: str, secrets: Iterable[str]) -> str:
    """``text`` with each of ``secrets`` replaced by ``HIDDEN`` (give the longest first: a token that
    holds another secret is hidden whole)."""
    for secret in secrets:
        text = text.replace(secret, HIDDEN)
    return text
