"""What a request to Mastra carries: a prompt as ``messages``, snake_case options as its camelCase
body fields (as ``@mastra/client-js`` sends them)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any


def camel(name: str) -> str:
    """``max_steps`` -> ``maxSteps``; a name already in camelCase is left alone."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _schema(value: Any) -> Any:
    """A pydantic model class becomes its JSON schema; anything else is passed as given."""
    if isinstance(value, type) and hasattr(value, "model_json_schema"):
        return value.model_json_schema()
    return value


# Options whose own keys are Mastra's too (``model_settings={"max_output_tokens": 200}``); the keys
# of ``request_context`` are the user's, passed as given.
_CAMEL_KEYS = ("model_settings", "tracing_options")
_TRACE_ID = re.compile(r"[0-9a-f]{32}")


def body_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """snake_case keyword options as Mastra's camelCase body fields (unknown ones passed through):
    ``request_context`` -> ``requestContext``, ``model_settings`` -> ``modelSettings`` (its keys
    too: ``max_output_tokens`` -> ``maxOutputTokens``)..."""
    body = {camel(name): value for name, value in options.items()}
    for name in _CAMEL_KEYS:
        given = options.get(name)
        if isinstance(given, Mapping):
            body[camel(name)] = {camel(str(key)): value for key, value in given.items()}
    output = options.get("structured_output")
    if isinstance(output, Mapping):
        body["structuredOutput"] = {camel(k): (_schema(v) if k == "schema" else v) for k, v in output.items()}
    elif output is not None:  # a bare model class or JSON schema
        body["structuredOutput"] = {"schema": _schema(output)}
    return body


def chosen_trace_id(body: Mapping[str, Any]) -> str | None:
    """The trace id the caller chose (``tracing_options={"trace_id": ...}``), when Mastra takes it
    (32 lowercase hex digits: the server silently replaces any other)."""
    options = body.get("tracingOptions")
    chosen = options.get("traceId") if isinstance(options, Mapping) else None
    return chosen if isinstance(chosen, str) and _TRACE_ID.fullmatch(chosen) else None


def messages(prompt: Any) -> Any:
    """A prompt as Mastra's ``messages``; what is neither text nor messages goes as given, for the
    server to judge (its 400 names the field)."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    if isinstance(prompt, Mapping):
        return [dict(prompt)]
    return list(prompt) if isinstance(prompt, (list, tuple)) else prompt
