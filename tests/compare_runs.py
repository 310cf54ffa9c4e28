"""Runs built from chunks for the step-by-step comparison's tests (tests/test_compare_steps.py and, in a
kernel, tests/e2e/test_compare_steps.py): steps of tool calls or answers, timed, with a request body."""

from __future__ import annotations

from typing import Any

from mastra_notebook.core.recording import TIME_KEY

Call = tuple[str, Any]  # (tool name, arguments)


def body(system: str, tools: list[str], temperature: float) -> dict[str, Any]:
    """A chat-completions request body, as step-start carries it when the server does not redact."""
    return {
        "model": "gpt-4o",
        "temperature": temperature,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": "weather?"}],
        "tools": [{"type": "function", "function": {"name": name, "parameters": {}}} for name in tools],
    }


def run(
    *steps: list[Call] | str,
    request: dict[str, Any] | None = None,
    output_tokens: int = 5,
    gap_ms: float = 10.0,
) -> list[dict[str, Any]]:
    """The chunks of a run: each step a list of tool calls, or the text it answers with."""
    chunks: list[dict[str, Any]] = [{"type": "start", "payload": {"id": "agent"}}]
    for number, step in enumerate(steps):
        start: dict[str, Any] = {"request": {"body": request}} if request else {}
        chunks.append({"type": "step-start", "payload": start})
        if isinstance(step, str):
            chunks += [
                {"type": "text-start", "payload": {"id": f"t{number}"}},
                {"type": "text-delta", "payload": {"id": f"t{number}", "text": step}},
                {"type": "text-end", "payload": {"id": f"t{number}"}},
            ]
        for index, (name, args) in enumerate(step if isinstance(step, list) else []):
            call = {"toolCallId": f"call_{number}_{index}", "toolName": name, "args": args}
            chunks.append({"type": "tool-call", "payload": call})
            chunks.append(
                {"type": "tool-result", "payload": {**call, "result": {"from": name, "args": args}}}
            )
        usage = {"inputTokens": 10, "outputTokens": output_tokens, "totalTokens": 10 + output_tokens}
        chunks.append(
            {
                "type": "step-finish",
                "payload": {
                    "stepResult": {"reason": "stop" if isinstance(step, str) else "tool-calls"},
                    "output": {"usage": usage},
                    "metadata": {"modelId": "gpt-4o"},
                },
            }
        )
    chunks.append({"type": "finish", "payload": {"stepResult": {"reason": "stop"}}})
    return [{**chunk, TIME_KEY: 100.0 + gap_ms * index} for index, chunk in enumerate(chunks)]


PARIS: Call = ("getWeather", {"city": "Paris"})
LYON: Call = ("getWeather", {"city": "Lyon"})
