"""What every resource of a server has (client-js's ``BaseResource``): its id, its API path, and the
server that reaches it, named by its shape so a resource's module never imports the client's."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from .scores import KnownScorers
from .transport import Transport


class Server(Protocol):
    """What a resource needs of its client (a :class:`~.mastra.MastraClient`)."""

    base_url: str
    transport: Transport
    known_scorers: KnownScorers

    def agent(self, agent_id: str) -> Any:
        """Another agent of the same server (an experiment's variant, a pairwise judge)."""


class Resource:
    """An agent or a workflow of a server: its id, its API path, and the client that reaches it."""

    route: ClassVar[str]  # its collection under /api/

    def __init__(self, client: Server, name: str) -> None:
        self.client = client
        self.transport = client.transport
        self.id = name
        self.path = f"/api/{self.route}/{name}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r} at {self.client.base_url}>"
