"""An agent's memory on the server: whether it keeps threads, its threads, a thread's messages, a
thread cloned. Each is one request through the client's transport, and each raises
:class:`~mastra_notebook.client.transport.MastraError` when it fails: the one rule for every caller.

Whether an agent has memory: ``GET /api/agents/:id`` says ``supportsMemory: true`` for every agent,
so this asks ``GET /api/memory/status?agentId=...``, whose ``result`` is true only for an agent
configured with memory.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .transport import Transport


def has_memory(transport: Transport, agent_id: str) -> bool:
    """Whether the agent keeps threads (Mastra's memory status for it)."""
    status = transport.call("GET", "/api/memory/status", params={"agentId": agent_id})
    return isinstance(status, dict) and status.get("result") is True


def threads(transport: Transport, agent_id: str, resource: str | None = None) -> list[dict[str, Any]]:
    """The agent's stored threads (of ``resource`` if given), as Mastra lists them."""
    found = transport.call("GET", "/api/memory/threads", params=_query(agent_id, resource))
    listed = found.get("threads") if isinstance(found, dict) else found
    return list(listed) if isinstance(listed, list) else []


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
