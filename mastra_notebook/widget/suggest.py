"""The Python call that answers a wait, in the notebook's words: ``view.approve("call_1")``,
``view.resume({"approved": True}, step="request")``. Core reports the wait as facts
(core/waiting.py); this words it for the reader of a view, a transcript or a RunResult."""

from __future__ import annotations

import json
from typing import Any

from ..core.waiting import Wait


def _literal(value: Any) -> str:
    return json.dumps(str(value or ""), ensure_ascii=False)  # a JSON string is a Python literal too


def _python(value: Any) -> str:
    """A JSON value as a Python literal (``true`` is ``True``)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(str(key))}: {_python(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_python, value)) + "]"
    return _literal(value) if isinstance(value, str) else repr(value)


_EXAMPLES = {
    "boolean": "True",
    "string": '"..."',
    "integer": "0",
    "number": "0",
    "array": "[]",
    "null": "None",
}


def example(schema: Any, depth: int = 0) -> str:
    """A Python literal of a value a JSON schema accepts, its fields and types shown:
    ``{"approved": True, "note": "..."}``; ``...`` where the schema does not say."""
    if not isinstance(schema, dict):
        return "..."
    for key in ("const", "default"):
        if key in schema:
            return _python(schema[key])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return _python(schema["enum"][0])
    for key in ("anyOf", "oneOf"):
        options = [o for o in schema.get(key) or [] if isinstance(o, dict) and o.get("type") != "null"]
        if options:
            return example(options[0], depth)
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind
    properties = schema.get("properties")
    if isinstance(properties, dict) and properties:
        if depth >= 2:
            return "{...}"
        return (
            "{"
            + ", ".join(f"{_literal(str(k))}: {example(v, depth + 1)}" for k, v in properties.items())
            + "}"
        )
    return "{}" if kind == "object" else _EXAMPLES.get(str(kind), "...")


def suggest_call(wait: Wait) -> str:
    """The call that answers ``wait`` on a StreamView named ``view``: approve or decline a tool call,
    or resume a tool call or step with an example of the data its resume schema asks for (else
    ``resume_data``)."""
    if wait.kind == "approval":
        call_id = _literal(wait.tool_call_id)
        return f'view.approve({call_id})  or  view.decline({call_id}, reason="...")'
    if wait.kind == "step":
        where = f"step={_literal(wait.step_name)}"
    else:
        where = f"tool_call_id={_literal(wait.tool_call_id)}"
    schema = wait.resume_schema
    properties = schema.get("properties") if schema is not None else None
    data = example(schema) if isinstance(properties, dict) and properties else "resume_data"
    return f"view.resume({data}, {where})"
