"""Text and reasoning parts, sources (citations included) and files."""

from __future__ import annotations

import base64
from typing import Any

from .. import values
from ..state import RunState
from .registry import Next, as_dict, on, payload_of

_RASTER = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"}
_MAX_INLINE_IMAGE = 2 << 20


@on("text-start")
def text_start(state: RunState, chunk: dict[str, Any]) -> Next:
    state.text_part(str(payload_of(chunk).get("id", "")))
    return None


@on("text-delta")
def text_delta(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = chunk["payload"]  # (handlers.fold folds a valid one itself, the same way)
    state.add_text(payload.get("id", ""), payload["text"])
    return None


@on("text-end")
def text_end(state: RunState, chunk: dict[str, Any]) -> Next:
    """A text part ends: its id may name a new part later. Citations on it become sources."""
    payload = payload_of(chunk)
    node = state.close_text(str(payload.get("id", "")))
    citations = payload.get("citations")
    if isinstance(citations, list):
        text = node.text("text") if node is not None else ""
        for citation in citations:
            _cite(state, as_dict(citation), text)
    return None


def _cite(state: RunState, citation: dict[str, Any], text: str) -> None:
    """OpenAI cites ``{source, startIndex, endIndex}`` into the text, Anthropic ``{source, citedText}``."""
    source = as_dict(citation.get("source")) or citation
    cited = citation.get("citedText")
    start, end = citation.get("startIndex"), citation.get("endIndex")
    if not isinstance(cited, str) and isinstance(start, int) and isinstance(end, int) and 0 <= start < end:
        cited = text[start:end] or None
    state.source(_source_fields(source), cited if isinstance(cited, str) else None)


def _source_fields(payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "source_type": payload.get("sourceType"),
        "source_id": payload.get("id"),
        "url": payload.get("url"),
        "title": payload.get("title"),
        "media_type": payload.get("mediaType") or payload.get("mimeType"),
        "filename": payload.get("filename"),
    }


@on("source")
def source(state: RunState, chunk: dict[str, Any]) -> Next:
    state.source(_source_fields(payload_of(chunk)))
    return None


def _details(payload: dict[str, Any]) -> dict[str, Any]:
    """What a reasoning chunk carries beyond text: a signature, encrypted content, provider metadata."""
    return {"signature": payload.get("signature"), "provider_metadata": payload.get("providerMetadata")}


@on("reasoning-start", "reasoning-end")
def reasoning_bound(state: RunState, chunk: dict[str, Any]) -> Next:
    """The reasoning block a start opens (or finds) and an end closes, with its details."""
    payload = payload_of(chunk)
    block = state.reasoning_part if chunk["type"] == "reasoning-start" else state.close_reasoning
    state.keep_reasoning_details(block(str(payload.get("id", ""))), _details(payload))
    return None


@on("reasoning-delta")
def reasoning_delta(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = chunk["payload"]
    node = state.reasoning_part(str(payload.get("id", "")))
    if payload["text"]:
        state.first_token()
        state.tree.append(node, "text", payload["text"])
    if "providerMetadata" in payload:
        state.keep_reasoning_details(node, _details(payload))
    return None


@on("reasoning-signature")
def reasoning_signature(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    reasoning_id = str(payload.get("id", ""))
    node = state.open_reasoning.get(reasoning_id)
    if node is None and state.reasoning_nodes:  # after its end: the latest block
        node = state.reasoning_nodes[-1]
    if node is not None:
        state.keep_reasoning_details(node, _details(payload))
    return None


@on("redacted-reasoning")
def redacted_reasoning(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    node = state.reasoning_part(str(payload.get("id", "")))
    state.set(node, "redacted", True)
    state.keep_reasoning_details(node, {"redacted_data": payload.get("data"), **_details(payload)})
    state.close_reasoning(str(payload.get("id", "")))
    return None


@on("file", "reasoning-file")
def file(state: RunState, chunk: dict[str, Any]) -> Next:
    payload = payload_of(chunk)
    data = values.file_bytes(payload)
    media_type = str(payload.get("mimeType") or payload.get("mediaType") or "application/octet-stream")
    inline = media_type in _RASTER and len(data) <= _MAX_INLINE_IMAGE
    preview = data[:2048].decode("utf-8", "replace") if media_type.startswith("text/") else None
    node = state.add(
        "file",
        media_type=media_type,
        size=len(data),
        base64=base64.b64encode(data).decode() if inline else None,
        name=payload.get("filename") or payload.get("name"),
        text_preview=preview,
    )
    state.file_data[node.id] = data
    return None
