"""A data part (data.ts): its type and value; Mastra's own parts said as what they are."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from .common import NodeFields, SnapshotTree, num, obj, simple_card, string
from .html import PRE, badge, bdi, esc, tag
from .json_view import maybe_json

# the widget's .mn-term rules (widget.css), inline: a terminal-like block, stderr tinted
TERM = f"{PRE};font-family:monospace"
TERM_ERR = f"{TERM};background:rgba(229,83,75,0.14);border-left:3px solid #e5534b"


@dataclass(frozen=True)
class NamedPart:
    """How a named part is drawn (data.ts ``NamedPart``): kind, a line in words, exit badge, stream."""

    kind: str
    name: str
    exit: tuple[str, Literal["ok", "error"]] | None = None
    stream: Literal["stdout", "stderr"] | None = None


def render_data(tree: SnapshotTree, node: NodeFields) -> str:
    type_ = string(node.get("type")) or ""
    data = node.get("data")
    part = named_part(type_, data)
    d = obj(data)
    output = string((d or {}).get("output"))
    if part is not None and part.stream is not None and output is not None:
        body = tag("pre", esc(output), style=TERM_ERR if part.stream == "stderr" else TERM)
    elif part is not None and part.kind == "Structured output" and d is not None and "object" in d:
        body = maybe_json("Object", d["object"])
    else:
        body = maybe_json("Value", data)
    head = [bdi(part.name if part is not None else type_)]
    if part is not None and part.exit is not None:  # an exit code, not a status word: set in monospace
        head.append(badge(*part.exit).replace('style="', 'style="font-family:monospace;', 1))
    return simple_card(node, part.kind if part is not None else "Data", *head, body=body)


def _whole(value: Any) -> str:
    whole = isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    return str(int(value)) if whole else "?"  # as String() of a whole number in data.ts


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def named_part(type_: str, data: Any) -> NamedPart | None:
    """Mastra's own data parts in words (data.ts ``namedPart``); None for a part of the user's own."""
    d = obj(data) or {}
    om = om_marker(type_, data)
    if om is not None:
        return NamedPart("Observational memory", om)
    if type_ == "data-sandbox-stdout":
        return NamedPart("Sandbox", "stdout", stream="stdout")
    if type_ == "data-sandbox-stderr":
        return NamedPart("Sandbox", "stderr", stream="stderr")
    if type_ == "data-sandbox-exit":
        took = num(d.get("executionTimeMs"))
        ms = "" if took is None else f" in {_whole(math.floor(took + 0.5))} ms"  # Math.round in data.ts
        ok = d.get("success") is True or (
            "success" not in d and _number(d.get("exitCode")) and d["exitCode"] == 0
        )
        return NamedPart(
            "Sandbox", f"exited{ms}", exit=(f"exit {_whole(d.get('exitCode'))}", "ok" if ok else "error")
        )
    if type_ == "data-signal":
        tag_name = string(d.get("tagName"))
        said = [
            s for s in (string(d.get("type")), tag_name if tag_name is not None else string(d.get("id"))) if s
        ]
        return NamedPart("Signal", " ".join(said) or "signal")
    if type_ == "data-tripwire":
        by = string(d.get("processorId"))
        reason = string(d.get("reason"))
        reason = reason if reason is not None else string(d.get("tripwireReason"))
        return NamedPart(
            "Tripwire", f"blocked{'' if by is None else f' by {by}'}{'' if reason is None else f': {reason}'}"
        )
    if type_ == "data-structured-output":
        return NamedPart("Structured output", "the final object")
    if type_ == "data-token-limit-reached":
        at = f" ({_whole(d.get('tokens'))} counted)" if _number(d.get("tokens")) else ""
        return NamedPart("Token limit", f"output withheld past {_whole(d.get('limit'))} tokens{at}")
    return None


def om_marker(type_: str, data: Any) -> str | None:
    """Mastra's observational-memory markers (``data-om-*``) in words, with their token counts (data.ts)."""
    d = obj(data) or {}
    n = _whole

    if type_ == "data-om-status":
        messages = obj((obj((obj(d.get("windows")) or {}).get("active")) or {}).get("messages")) or {}
        tokens, threshold = n(messages.get("tokens")), n(messages.get("threshold"))
        return f"status: messages {tokens} of {threshold} tokens before observing"
    if type_ == "data-om-observation-start":
        return f"observing {n(d.get('tokensToObserve'))} tokens"
    if type_ == "data-om-observation-end":
        return (
            f"observed {n(d.get('tokensObserved'))} tokens into {n(d.get('observationTokens'))}"
            f" in {n(d.get('durationMs'))} ms"
        )
    return type_.removeprefix("data-om-") if type_.startswith("data-om-") else None
