"""An agent's memory on the server: whether it keeps threads, its threads, a thread's messages, a
thread cloned, its working memory; and what one chat turn recalled. Each request is one through
the client's transport, and each raises :class:`~mastra_notebook.client.transport.MastraError`
when it fails: the one rule for every caller.

Whether an agent has memory: ``GET /api/agents/:id`` says ``supportsMemory: true`` for every agent,
so this asks ``GET /api/memory/status?agentId=...``, whose ``result`` is true only for an agent
configured with memory.

A turn's memory (:class:`TurnMemory`): the messages recalled come from the turn's first ``finish`` chunk,
whose ``payload.messages`` has ``all`` (what the model was given), ``user`` (this turn's input) and
``nonUser`` (its output): recalled = all - user - nonUser. Mastra gives those messages no ids, so
they are matched by value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

import orjson
from pydantic import BaseModel

from ..core.records import ThreadRecord
from ..core.turn_memory import RecalledMessage
from .transport import Transport

NO_MEMORY = (
    "agent {agent} has no memory: give it a Memory (new Agent({{memory: new Memory()}})) on the server "
    "to recall earlier turns and keep working memory"
)
NO_WORKING_MEMORY = (
    "agent {agent} keeps no working memory: turn it on in its Memory's options on the server "
    "(new Memory({{options: {{workingMemory: {{enabled: true}}}}}}))"
)


class WorkingMemory(BaseModel):
    """The working-memory route's answer: the text (None before the model wrote any) and whether
    the agent keeps working memory at all (Mastra gives a template only then)."""

    text: str | None
    enabled: bool


def working_memory(
    transport: Transport, agent_id: str, thread_id: str, resource: str | None
) -> WorkingMemory:
    """The thread's working memory (of ``resource``: the resource scope, Mastra's default, needs it)."""
    path = f"/api/memory/threads/{quote(thread_id, safe='')}/working-memory"
    found = transport.call("GET", path, params=_query(agent_id, resource))
    found = found if isinstance(found, dict) else {}
    text = found.get("workingMemory")
    enabled = found.get("workingMemoryTemplate") is not None or text is not None
    return WorkingMemory(text=text if isinstance(text, str) else None, enabled=enabled)


def saved(chunks: Iterable[Any]) -> list[RecalledMessage]:
    """The messages a turn added to its thread: the ``user`` then ``nonUser`` messages of its last
    ``finish`` chunk that lists them (the turn's input and everything the agent answered)."""
    given = None
    for chunk in chunks:
        given = _finish_messages(chunk) or given
    if given is None:
        return []
    listed = [m for part in ("user", "nonUser") for m in _listed(given.get(part)) if isinstance(m, dict)]
    return [RecalledMessage(role=str(m.get("role", "")), text=message_text(m)) for m in listed]


def recalled(chunks: Iterable[Any]) -> list[RecalledMessage]:
    """The messages recalled from memory into a turn, from its first ``finish`` chunk that lists
    them (none without). A turn's later requests (a client tool's round, an approval) recall the
    thread again, this turn's own first messages included: the first request's recall is the turn's.
    """
    given = next((found for chunk in chunks if (found := _finish_messages(chunk)) is not None), None)
    if given is None:
        return []
    own = Counter(_key(m) for part in ("user", "nonUser") for m in _listed(given.get(part)))
    out: list[RecalledMessage] = []
    for message in _listed(given.get("all")):
        key = _key(message)
        if own[key] > 0:  # this turn's own input or output, once per copy
            own[key] -= 1
        elif isinstance(message, dict):
            out.append(RecalledMessage(role=str(message.get("role", "")), text=message_text(message)))
    return out


def _finish_messages(chunk: Any) -> dict[str, Any] | None:
    if not isinstance(chunk, dict) or chunk.get("type") != "finish":
        return None
    payload = chunk.get("payload")
    messages = payload.get("messages") if isinstance(payload, dict) else None
    return messages if isinstance(messages, dict) else None


def message_text(message: dict[str, Any]) -> str:
    """A model message as one line of text per part: text as it is, tool calls and results named."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    lines: list[str] = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind in ("text", "reasoning"):
            lines.append(str(part.get("text", "")))
        elif kind == "tool-call":
            lines.append(f"called {part.get('toolName')}({_json(part.get('input', part.get('args')))})")
        elif kind == "tool-result":
            output = part.get("output", part.get("result"))
            if isinstance(output, dict) and "value" in output:  # the AI SDK's {type, value}
                output = output["value"]
            lines.append(f"{part.get('toolName')} returned {_json(output)}")
        else:
            lines.append(f"[{kind}]")
    return "\n".join(lines) if lines else "(no content)"


def _json(value: Any) -> str:
    return orjson.dumps(value, default=str).decode()


def _key(message: Any) -> bytes:
    return orjson.dumps(message, default=str, option=orjson.OPT_SORT_KEYS)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def has_memory(transport: Transport, agent_id: str) -> bool:
    """Whether the agent keeps threads (Mastra's memory status for it)."""
    status = transport.call("GET", "/api/memory/status", params={"agentId": agent_id})
    return isinstance(status, dict) and status.get("result") is True


def threads(transport: Transport, agent_id: str, resource: str | None = None) -> list[ThreadRecord]:
    """The agent's stored threads (of ``resource`` if given), in Mastra's order, as records."""
    found = transport.call("GET", "/api/memory/threads", params=_query(agent_id, resource))
    listed = found.get("threads") if isinstance(found, dict) else found
    return [
        ThreadRecord.of(str(thread["id"]), thread)
        for thread in (listed if isinstance(listed, list) else [])
        if isinstance(thread, dict) and thread.get("id") is not None
    ]


def messages(transport: Transport, agent_id: str, thread_id: str, resource: str | None = None) -> list[Any]:
    """A stored thread's messages, oldest first."""
    path = f"/api/memory/threads/{quote(thread_id, safe='')}/messages"
    found = transport.call("GET", path, params=_query(agent_id, resource))
    listed = found.get("messages") if isinstance(found, dict) else None
    return list(listed) if isinstance(listed, list) else []


def clone(transport: Transport, agent_id: str, thread_id: str, new_thread_id: str, resource: str) -> None:
    """Copy a thread on the server, under ``new_thread_id``."""
    path = f"/api/memory/threads/{quote(thread_id, safe='')}/clone"
    body = {"newThreadId": new_thread_id, "resourceId": resource}
    transport.call("POST", path, params={"agentId": agent_id}, json=body)


def _query(agent_id: str, resource: str | None) -> dict[str, str]:
    return {"agentId": agent_id, **({"resourceId": resource} if resource else {})}
