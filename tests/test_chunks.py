"""Chunk models: every type typed, extra keys kept, unknown kept, invalid explained, never raising."""

from __future__ import annotations

from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core import chunks
from mastra_notebook.core.chunks import InvalidChunk, UnknownChunk, parse_chunk

from .conftest import FIXTURES


def test_every_recorded_chunk_parses_to_its_typed_model() -> None:
    seen: set[str] = set()
    for path in FIXTURES.glob("*.jsonl"):
        for chunk in mn.read_chunks(path):
            assert not isinstance(chunk, (InvalidChunk, UnknownChunk)), chunk
            assert type(chunk).__name__.endswith("Chunk")
            seen.add(chunk.type)
    assert {
        "text-delta",
        "tool-call-delta",
        "tool-output",
        "workflow-step-output",
        "object-result",
        "tool-call-approval",
        "tool-output-denied",
        "background-task-output",
        "tripwire",
    } <= seen


@pytest.mark.parametrize("chunk_type", sorted(chunks.KNOWN_TYPES))
def test_every_known_type_has_a_model(chunk_type: str) -> None:
    model = chunks._CHUNK_CLASSES[chunk_type]
    assert model.model_fields["type"].annotation is not None
    assert chunk_type in chunks.KNOWN_TYPES


def test_the_seed_types_and_the_ones_beyond_it_are_modelled() -> None:
    seed = {
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "reasoning-signature",
        "tool-call",
        "tool-result",
        "tool-call-input-streaming-start",
        "tool-call-delta",
        "tool-call-input-streaming-end",
        "tool-error",
        "source",
        "file",
        "start",
        "step-start",
        "step-finish",
        "raw",
        "finish",
        "error",
        "abort",
        "object",
        "tool-output",
        "step-output",
        "response-metadata",
        "watch",
        "goal",
        "tripwire",
        *chunks.BACKGROUND_TASK_TYPES,
    }
    beyond = {
        "object-result",
        "tool-call-approval",
        "tool-call-suspended",
        "tool-output-denied",
        "redacted-reasoning",
        "reasoning-file",
        "custom",
        "is-task-complete",
        *chunks.WORKFLOW_TYPES,
        *chunks.NETWORK_TYPES,
    }
    assert len(chunks.BACKGROUND_TASK_TYPES) == 9
    assert seed | beyond <= chunks.KNOWN_TYPES


def test_extra_keys_are_kept_and_camel_case_round_trips() -> None:
    raw = {
        "type": "text-end",
        "runId": "r",
        "from": "AGENT",
        "payload": {"type": "text-end", "id": "t"},
        "x": 1,
    }
    chunk = parse_chunk(raw)
    assert chunk.run_id == "r"
    assert chunk.from_ == "AGENT"
    assert chunk.payload.model_extra == {"type": "text-end"}
    assert chunk.to_dict() == raw


def test_run_id_and_from_are_optional() -> None:
    chunk = parse_chunk({"type": "tripwire", "payload": {"reason": "no"}})
    assert chunk.run_id is None
    assert chunk.from_ is None
    assert chunk.payload.reason == "no"


@pytest.mark.parametrize(
    "value",
    [
        {"type": "data-progress", "data": {"pct": 50}, "transient": True},
        {"type": "agent-execution-event-text-delta", "payload": {"type": "text-delta"}},
    ],
)
def test_prefixed_families(value: dict[str, Any]) -> None:
    chunk = parse_chunk(value)
    assert not isinstance(chunk, (UnknownChunk, InvalidChunk))
    assert chunk.to_dict() == value


def test_unknown_type_is_kept_with_its_payload() -> None:
    chunk = parse_chunk({"type": "brand-new-thing", "payload": {"a": [1]}, "other": 2})
    assert isinstance(chunk, UnknownChunk)
    assert chunk.payload == {"a": [1]}
    assert chunk.model_extra == {"other": 2}


@pytest.mark.parametrize(
    ("item", "error"),
    [
        (b"{not json", "not JSON"),
        ("[1, 2]", "not a chunk: a JSON list"),
        ('"text"', "a JSON str"),
        ({"payload": {}}, "no string 'type'"),
        ({"type": 3}, "no string 'type'"),
        ({"type": "text-delta", "payload": {"id": "t"}}, "payload.text must be a str"),
        ({"type": "text-delta", "payload": "hi"}, "payload must be an object"),
        ({"type": "tool-call-delta", "payload": {"argsTextDelta": "{"}}, "payload.toolCallId"),
        (
            {"type": "tool-result", "payload": {"result": 1}},
            "tool-result: payload.toolCallId: Field required",
        ),
        ({"type": "start", "payload": []}, "start: payload"),
        (b"\xff\xfe{", "not JSON"),
        (42, "not a chunk: a int"),
    ],
)
def test_invalid_items_are_explained_never_raised(item: Any, error: str) -> None:
    chunk = parse_chunk(item)
    assert isinstance(chunk, InvalidChunk)
    assert error in chunk.error
    assert chunk.raw


def test_undecodable_bytes_are_escaped_not_lost() -> None:
    chunk = parse_chunk(b'{"type": "text-delta", "payload": {"text": "\xff"}}')
    assert isinstance(chunk, InvalidChunk)
    assert "\\xff" in chunk.raw


def test_check_agrees_with_parse_chunk_on_hot_types() -> None:
    good = {"type": "tool-output", "payload": {"toolCallId": "c", "output": {"x": 1}}}
    assert chunks.check(good) is None
    assert not isinstance(parse_chunk(good), InvalidChunk)
    bad = {"type": "tool-output", "payload": {"output": 1}}
    assert chunks.check(bad) is not None
    assert isinstance(parse_chunk(bad), InvalidChunk)
