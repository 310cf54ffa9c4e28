"""Mastra's own result and ours, reduced to the same plain dict.

The recordings in tests/fixtures/providers/ come in pairs (server/providers/record.mjs):
`<scenario>.jsonl` is the agent's fullStream, `<scenario>.mastra.json` is what Mastra itself made of
that same stream (`getFullOutput()` and the stream's getters, Mastra's key names). `mastra_side`
reads the second, `our_side` reads `mn.collect(<scenario>.jsonl)`; the two must be equal.

Both sides keep only what both can answer: text, reasoning, finish reason, run-total usage,
object, the tool calls in order (a reused id is still one call per `tool-call`), the error
message, and per step its text, finish reason and the ids of the calls made in it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mastra_notebook as mn
from mastra_notebook.core.values import USAGE_KEYS

PROVIDER_FIXTURES = Path(__file__).parent / "fixtures" / "providers"


def scenarios(directory: Path = PROVIDER_FIXTURES) -> list[str]:
    """Names of the recorded scenarios (each has a .jsonl and a .mastra.json)."""
    return sorted(p.name.removesuffix(".mastra.json") for p in directory.glob("*.mastra.json"))


def _payload(chunk: dict[str, Any]) -> dict[str, Any]:
    # Mastra's toolCalls/toolResults are chunks ({type, payload}); keep plain dicts working too.
    payload = chunk.get("payload")
    return payload if isinstance(payload, dict) else chunk


def _outcome(result_chunk: dict[str, Any] | None) -> dict[str, Any]:
    """`result` of a finished call, or `error` (its message) of a failed one; {} while unknown."""
    if result_chunk is None:
        return {}
    payload = _payload(result_chunk)
    if result_chunk.get("type") == "tool-error" or payload.get("isError") or "error" in payload:
        error = payload.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        return {"error": message}
    return {"result": payload.get("result")}


def _mastra_step_calls(step: dict[str, Any]) -> list[dict[str, Any]]:
    # Within one step ids are unique, so a step's results pair with its calls by id. Pairing
    # over the whole run by id would join `call_0` of step 2 with the result of step 1.
    results = {_payload(r)["toolCallId"]: r for r in step.get("toolResults") or []}
    calls = []
    for chunk in step.get("toolCalls") or []:
        p = _payload(chunk)
        calls.append(
            {
                "tool_call_id": p["toolCallId"],
                "tool_name": p["toolName"],
                "args": p.get("args"),
                **_outcome(results.get(p["toolCallId"])),
            }
        )
    return calls


def mastra_side(expected: dict[str, Any]) -> dict[str, Any]:
    """Mastra's own result (a `.mastra.json`) as the plain comparison dict.

    `fullOutput` is `getFullOutput()`; when the run failed, `getFullOutput()` throws, and the
    stream's own getters (`text`, `steps`, `totalUsage`, `error`, ...) are what Mastra offers.
    """
    full = expected.get("fullOutput")
    source = full if full is not None else expected
    steps = source.get("steps") or []
    usage = source.get("totalUsage") or {}
    error = expected.get("error") or source.get("error")
    return {
        # getFullOutput().text joins every step; the stream's `text` getter is the last step only
        "text": source.get("text") or "",
        "reasoning_text": source.get("reasoningText") or "",
        "finish_reason": source.get("finishReason") or expected.get("finishReason"),
        "usage": {ours: usage.get(theirs) or 0 for ours, theirs in USAGE_KEYS.items()},
        "object": source.get("object"),
        "tool_calls": [call for step in steps for call in _mastra_step_calls(step)],
        "error": error.get("message") if isinstance(error, dict) else error,
        "steps": [
            {
                "text": step.get("text") or "",
                "finish_reason": step.get("finishReason"),
                "tool_calls": [_payload(c)["toolCallId"] for c in step.get("toolCalls") or []],
            }
            for step in steps
        ],
    }


def _call_id(call: Any) -> str:
    # The contract allows a step's calls as ToolCall objects or as their ids.
    return call if isinstance(call, str) else call.tool_call_id


def our_side(result: mn.RunResult) -> dict[str, Any]:
    """Our RunResult as the plain comparison dict.

    Step fields are read with getattr so that a reducer without them yet fails the comparison
    with a readable difference instead of an AttributeError.
    """
    calls = []
    for call in result.tool_calls:
        entry = {"tool_call_id": call.tool_call_id, "tool_name": call.tool_name, "args": call.args}
        if call.error is not None:
            entry["error"] = call.error.message
        elif call.status not in ("running", "streaming-args", "pending"):
            entry["result"] = call.result
        calls.append(entry)
    return {
        "text": result.text,
        "reasoning_text": result.reasoning_text or "",
        "finish_reason": result.finish_reason,
        "usage": {key: getattr(result.usage, key) or 0 for key in USAGE_KEYS},
        "object": result.object,
        "tool_calls": calls,
        "error": result.error.message if result.error else None,
        "steps": [
            {
                "text": getattr(step, "text", None),
                "finish_reason": step.finish_reason,
                "tool_calls": [_call_id(c) for c in getattr(step, "tool_calls", None) or []],
            }
            for step in result.steps
        ],
    }
