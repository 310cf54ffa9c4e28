"""What the model was given in a step (request.ts), folded under its step line: the system prompt,
the messages (history folded, this step's new ones open), the tools offered and the settings.

It draws a request as ``core/request_bounded.py`` bounds it (long texts already cut and marked);
every value is escaped text, never markup: a request holds what users and tools wrote.
"""

from __future__ import annotations

from typing import Any

from ...core.labels import js_items
from . import text as fmt
from .common import NodeFields, num, obj, string
from .html import BORDER, LABEL, MUTED, PRE, details, esc, tag
from .json_view import json_pre

ROLE = "font-size:80%;font-weight:600;text-transform:uppercase;letter-spacing:0.04em;opacity:0.8"
SECTION = "margin:6px 0 2px"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def request_label(node: NodeFields) -> str:
    """The toggle's words: ``Request · system · 3 messages (1 history) · 1 tool``."""
    summary = string(node.get("request_summary"))
    return f"Request · {summary}" if summary else "Request · not carried"


def _part(part: dict[str, Any]) -> str:
    kind = string(part.get("type")) or "other"
    if kind in ("text", "reasoning"):
        text = string(part.get("text")) or ""
        shown = tag("div", esc(text), style=PRE)
        return shown if kind == "text" else tag("div", tag("div", "reasoning", style=LABEL), shown)
    if kind in ("tool-call", "tool-result"):
        name = string(part.get("name")) or string(part.get("id")) or ""
        word = "tool call" if kind == "tool-call" else "tool result"
        value = part.get("args" if kind == "tool-call" else "result")
        head = tag("div", esc(word) + " " + tag("bdi", esc(name), dir="auto"), style=LABEL)
        return tag("div", head, json_pre(value))
    if kind in ("image", "file"):
        bits = [
            kind,
            string(part.get("filename")),
            string(part.get("media_type")),
            string(part.get("size_label")),
            string(part.get("url")),
        ]
        return tag("div", esc(" · ".join(bit for bit in bits if bit)), style=MUTED)
    return json_pre(part.get("value", part))


def _message(message: dict[str, Any]) -> str:
    parts = message.get("parts")
    parts = parts if isinstance(parts, list) else []
    more = num(message.get("more_parts"))
    tail = tag("div", esc(f"… {_count(int(more), 'more part')}"), style=MUTED) if more else ""
    role = tag("div", tag("bdi", esc(string(message.get("role")) or "?"), dir="auto"), style=ROLE)
    body = "".join(_part(part) for part in parts if isinstance(part, dict))
    return tag("div", role, body, tail, style=f"border-left:2px solid {BORDER};padding-left:6px;margin:4px 0")


def _messages(request: dict[str, Any]) -> str:
    messages = [m for m in request.get("messages") or [] if isinstance(m, dict)]
    history = [m for m in messages if not m.get("new")]
    new = [m for m in messages if m.get("new")]
    count = num(request.get("message_count")) or len(messages)
    if not count:
        return ""
    out = tag("div", esc(f"Messages ({int(count)})"), style=LABEL + ";" + SECTION)
    if history:
        summary = tag("span", esc(f"History · {_count(len(history), 'message')}"), style=MUTED)
        out += details(summary, *(_message(m) for m in history))
    return out + "".join(_message(m) for m in new)


def _tools(request: dict[str, Any]) -> str:
    tools = [t for t in request.get("tools") or [] if isinstance(t, dict)]
    if not tools:
        return ""
    rows = []
    for tool in tools:
        name = tag("bdi", esc(string(tool.get("name")) or "?"), dir="auto", style="font-family:monospace")
        description = string(tool.get("description"))
        kind = string(tool.get("provider_type"))
        head = " — ".join([name, *(esc(bit) for bit in (kind, description) if bit)])
        schema = tool.get("input_schema")
        body = json_pre(schema) if schema is not None else ""
        rows.append(details(head, body) if body else tag("div", head))
    count = num(request.get("tool_count")) or len(tools)
    return tag("div", esc(f"Tools ({int(count)})"), style=LABEL + ";" + SECTION) + "".join(rows)


def _settings(request: dict[str, Any]) -> str:
    settings = obj(request.get("settings")) or {}
    rows = [
        tag(
            "div",
            tag("span", esc(f"{key}: "), style=MUTED),
            tag("span", esc(fmt.compact_json(value)), style="font-family:monospace;white-space:pre-wrap"),
        )
        for key, value in js_items(settings)
    ]
    return tag("div", esc("Settings"), style=LABEL + ";" + SECTION) + "".join(rows) if rows else ""


def _cut_note(request: dict[str, Any], where: str | None) -> str:
    omitted = obj(request.get("omitted")) or {}
    bits = [
        f"{_count(int(n), 'message' if key == 'messages' else 'tool')} left out"
        for key, n in js_items(omitted)
        if num(n)
    ]
    if not request.get("cut"):
        return ""
    said = "Cut to fit: " + (", ".join(bits) + "; " if bits else "") + "long values shortened."
    whole = f" The whole request is in {where}." if where else ""
    return tag("div", esc(said + whole), style=MUTED + ";font-size:85%;margin-top:4px")


def request_body(shown: dict[str, Any]) -> str:
    """A step's request (``{request, reason, where}`` as ``StepRequest.shown`` gives it) drawn."""
    request = obj(shown.get("request"))
    where = string(shown.get("where"))
    if request is None:
        reason = string(shown.get("reason")) or "This step's request is not known."
        return tag("div", esc(reason), style=MUTED)
    system = string(request.get("system"))
    source = string(request.get("source"))
    parts = [
        tag("div", esc("From Mastra's trace (the stream's copy was redacted)."), style=MUTED)
        if source == "trace"
        else "",
        tag("div", esc("System prompt"), style=LABEL + ";" + SECTION) + tag("div", esc(system), style=PRE)
        if system is not None
        else "",
        _messages(request),
        _tools(request),
        _settings(request),
        tag("div", esc("Body as sent"), style=LABEL + ";" + SECTION) + json_pre(request["raw"])
        if "raw" in request
        else "",
        _cut_note(request, where),
    ]
    return "".join(parts)


def render_request(node: NodeFields, shown: dict[str, Any] | None) -> str:
    """The step's "Request" fold (closed), or "" when the transcript carries none for it."""
    if shown is None:
        return ""
    summary = tag("span", esc(request_label(node)), style="font-size:85%", data_mn_control="")
    body = tag("div", request_body(shown), style="margin:4px 0 8px;padding-left:8px")
    return details(summary, body, data_mn_request="")
