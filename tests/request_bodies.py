"""Model requests for tests (issue 19): an Anthropic body, a one-step run that was given it, and a
step given ~200 kB (history, a long system prompt, a large tool result, many tools)."""

from __future__ import annotations

import json
from typing import Any

import orjson


def anthropic_body(text: str, *, history: int = 0, tools: int = 0) -> dict[str, Any]:
    past = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}"} for i in range(history)]
    return {
        "model": "claude-sonnet-4-5",
        "system": "You are terse.",
        "temperature": 0.3,
        "max_tokens": 1024,
        "messages": [*past, {"role": "user", "content": text}],
        "tools": [
            {"name": f"tool{i}", "description": "d", "input_schema": {"type": "object"}} for i in range(tools)
        ],
    }


def one_step(body: Any) -> list[dict[str, Any]]:
    """A run of one step whose step-start carries ``body``."""
    return [
        {"type": "start", "runId": "r", "payload": {"id": "agent"}},
        {"type": "step-start", "runId": "r", "payload": {"request": {"body": body}, "warnings": []}},
        {"type": "text-start", "runId": "r", "payload": {"id": "t"}},
        {"type": "text-delta", "runId": "r", "payload": {"id": "t", "text": "ok"}},
        {"type": "text-end", "runId": "r", "payload": {"id": "t"}},
        {
            "type": "step-finish",
            "runId": "r",
            "payload": {
                "stepResult": {"reason": "stop"},
                "metadata": {"modelMetadata": {"modelProvider": "anthropic.messages"}},
                "output": {"usage": {"inputTokens": 10, "outputTokens": 1}},
            },
        },
        {"type": "finish", "runId": "r", "payload": {"stepResult": {"reason": "stop"}, "output": {}}},
    ]


def big_request_chunks() -> list[dict[str, Any]]:
    """A step given ~200 kB: a long system prompt, 40 turns of history, a large tool result, 30 tools."""
    body = anthropic_body("and now?", history=40, tools=30)
    body["system"] = "Be exact. " * 5_000  # 50 kB
    body["messages"][3]["content"] = "x" * 60_000
    for tool in body["tools"]:
        tool["input_schema"] = {
            "type": "object",
            "properties": {f"p{i}": {"type": "string"} for i in range(60)},
        }
    body["messages"].append(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "tool0", "input": {}}]}
    )
    body["messages"].append(
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "c1", "content": json.dumps(["y" * 500] * 100)}
            ],
        }
    )
    assert len(orjson.dumps(body)) > 200_000
    return one_step(body)
