"""What a Mastra server lists, as the client returns it: typed records (``core/records.py``) by id.

``client.agents()``, ``client.workflows()``, ``client.scorers()`` and ``workflow.runs()`` are mappings
by id of records, which are read by attribute (``agents["weather"].model``) or by the server's own
keys (``agents["weather"]["tools"]``). The client draws nothing: a notebook shows them as a table, a
terminal as a few lines, both drawn by ``render/catalogue.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from ..core.records import (
    AgentDetails,
    AgentRecord,
    Record,
    ScorerRecord,
    WorkflowRecord,
    WorkflowRunRecord,
)
from ..render.catalogue import agent_card_html, agent_card_text, catalogue_html, catalogue_text

R = TypeVar("R", bound=Record)


class Catalogue(dict[str, R], Generic[R]):
    """Records by id, as the server listed them; ``source`` says where from."""

    noun = "entries"
    record: type[R]

    def __init__(self, entries: Mapping[str, Any], source: str = "") -> None:
        super().__init__(
            {
                str(key): entry if isinstance(entry, self.record) else self.record.of(str(key), entry)
                for key, entry in entries.items()
            }
        )
        self.source = source

    def _repr_html_(self) -> str:
        return catalogue_html(self.record, self.values(), self.noun, self.source)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """A few short lines in a terminal (each record in full is one ``[id]`` away)."""
        printer.text(catalogue_text(self.record, list(self.values()), self.noun, self.source))


class Agents(Catalogue[AgentRecord]):
    """``client.agents()``: the server's agents by id (``GET /api/agents``)."""

    noun = "agents"
    record = AgentRecord


class Workflows(Catalogue[WorkflowRecord]):
    """``client.workflows()``: the server's workflows by id (``GET /api/workflows``)."""

    noun = "workflows"
    record = WorkflowRecord


class Scorers(Catalogue[ScorerRecord]):
    """``client.scorers()``: the server's scorers by id (``GET /api/scores/scorers``), the ids that
    ``agent.stream(..., scorers=[...])`` takes."""

    noun = "scorers"
    record = ScorerRecord


class WorkflowRuns(Catalogue[WorkflowRunRecord]):
    """``client.workflow(id).runs()``: a workflow's runs by run id, newest first
    (``GET /api/workflows/:id/runs``); ``total`` is the server's count."""

    noun = "runs"
    record = WorkflowRunRecord

    def __init__(self, entries: Mapping[str, Any], source: str = "", total: int | None = None) -> None:
        super().__init__(entries, source)
        self.total = len(self) if total is None else total


class AgentInfo(AgentDetails):
    """``client.agent(id).info()``: one agent in full (``GET /api/agents/:id``), shown as a card:
    model, memory, every tool with its description and input schema, sub-agents, workflows,
    processors, default options and the whole instructions. With a ``request_context``, the
    instructions and model are those the server resolves for it (``.instructions``, ``.model``)."""

    def _repr_html_(self) -> str:
        return agent_card_html(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(agent_card_text(self))
