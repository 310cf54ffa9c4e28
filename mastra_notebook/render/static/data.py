"""A data part (data.ts): its type and value; observational memory's markers said as what they are."""

from __future__ import annotations

from typing import Any

from .common import NodeFields, SnapshotTree, obj, simple_card, string
from .html import bdi
from .json_view import maybe_json


def render_data(tree: SnapshotTree, node: NodeFields) -> str:
    marker = om_marker(string(node.get("type")) or "", node.get("data"))
    kind = "Data" if marker is None else "Observational memory"
    name = marker if marker is not None else string(node.get("type")) or ""
    return simple_card(node, kind, bdi(name), body=maybe_json("Value", node.get("data")))


def om_marker(type_: str, data: Any) -> str | None:
    """Mastra's observational-memory markers (``data-om-*``) in words, with their token counts (data.ts)."""
    d = obj(data) or {}

    def n(value: Any) -> str:
        whole = isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
        return str(int(value)) if whole else "?"  # as String() of a whole number in data.ts

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
