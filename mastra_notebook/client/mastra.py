"""A client for a real Mastra server, shaped like client-js's ``MastraClient``: a thin facade that
lists what the server has (typed records, drawn elsewhere) and hands out one object per resource,
each in its own module: :class:`~.agents.Agent`, :class:`~.workflows.Workflow` (and its
:class:`~.workflows.WorkflowRun`), :class:`~.datasets.Dataset`; memory (``memory.py``), feedback
(``feedback.py``) and traces (``observability.py``) are reached through a run or an agent.

Every request goes through the client's one :class:`~.transport.Transport`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..runs.experiment import Experiment
from .agents import Agent
from .bodies import body_options, camel, messages
from .catalogue import Agents, Scorers, Workflows
from .datasets import (
    Dataset,
    Datasets,
    Experiments,
    create_dataset,
    list_datasets,
    list_experiments,
    open_dataset,
    open_experiment,
)
from .feedback import MastraFeedback
from .scores import KnownScorers
from .transport import DEFAULT_TIMEOUT, InjectedTransport, Retry, Timeout, Transport
from .workflows import Workflow, WorkflowRun

# Agent, Workflow and WorkflowRun live in their own modules; they are still importable from here
__all__ = ["Agent", "MastraClient", "Workflow", "WorkflowRun", "body_options", "camel", "messages"]
DEFAULT_BASE_URL = "http://localhost:4111"


class MastraClient:
    """``MastraClient(base_url=None, headers=None, token=None, timeout=..., retries=3, backoff_ms=300,
    max_backoff_ms=5000)``; base URL from ``$MASTRA_BASE_URL``.

    ``token`` is sent as ``Authorization: Bearer <token>``; credentials in the URL
    (``http://user:password@host``) as HTTP Basic auth, taken out of ``base_url``. Tokens and header
    values are sent, never shown. A request is retried (``retries`` times, backoff doubling from
    ``backoff_ms`` to ``max_backoff_ms``) on a failed connection or a 502/503/504, never once a stream
    has begun: a retry cannot start a second run.
    """

    def __init__(
        self,
        base_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | Timeout = DEFAULT_TIMEOUT,
        *,
        token: str | None = None,
        retries: int = 3,
        backoff_ms: float = 300,
        max_backoff_ms: float = 5000,
        wire: InjectedTransport | None = None,
    ) -> None:
        self.transport = Transport(
            base_url or os.environ.get("MASTRA_BASE_URL") or DEFAULT_BASE_URL,
            headers=headers,
            token=token,
            timeout=timeout,
            retry=Retry(retries, backoff_ms, max_backoff_ms),
            wire=wire,
        )
        self.base_url = self.transport.base_url
        self.known_scorers = KnownScorers(self.transport)  # the server's scorer ids, read once

    def __repr__(self) -> str:
        return f"MastraClient({self.base_url!r})"

    @property
    def auth(self) -> Any:
        """How requests are signed (a bearer token or HTTP Basic; its repr hides the secret), or None."""
        return self.transport.auth

    @property
    def headers(self) -> dict[str, str]:
        """The headers sent with every request."""
        return self.transport.headers

    def get(self, path: str) -> Any:
        """A synchronous GET of a JSON API path (``/api/agents``), retried as streams are; raises
        MastraError (``GET /api/x answered HTTP 404: ...``) when it fails."""
        return self.transport.call("GET", path)

    def agents(self) -> Agents:
        """The server's agents, by id; shown as a table (id, name, model, tools, instructions)."""
        return Agents(self.get("/api/agents"), self.base_url)

    def workflows(self) -> Workflows:
        """The server's workflows, by id; shown as a table (id, name, steps, input, description)."""
        return Workflows(self.get("/api/workflows"), self.base_url)

    def scorers(self) -> Scorers:
        """The server's scorers, by id (the ids ``agent.stream(..., scorers=[...])`` takes); shown as a
        table (id, name, the agents they are attached to, description)."""
        listed = self.get("/api/scores/scorers")
        self.known_scorers.remember(listed)
        return Scorers(listed, self.base_url)

    def datasets(self) -> Datasets:
        """The server's datasets, by id; shown as a table (``.to_dataframe()``)."""
        return list_datasets(self.transport)

    def create_dataset(self, name: str, items: Any = None, description: str | None = None) -> Dataset:
        """A new Mastra dataset with ``items``: a DataFrame (``input``, and ``expected``: Mastra's
        ground truth) or a list of inputs or of ``{"input", "expected"}``."""
        return create_dataset(self.transport, self.known_scorers, name, items, description)

    def dataset(self, name_or_id: str) -> Dataset:
        """The dataset with this id or name: ``items``, ``add(items)``, ``experiment(agent=...,
        scorers=[...])`` run on the server, ``compare(a, b)``."""
        return open_dataset(self.transport, self.known_scorers, name_or_id)

    def experiments(self) -> Experiments:
        """The server's experiments of every dataset, by id, each with its status and counts
        (``pending``, ``running``, ``completed``, ``failed``); shown as a table."""
        return list_experiments(self.transport)

    def experiment(self, experiment_id: str) -> Experiment:
        """Reattach to the server's experiment ``experiment_id``, started by any kernel (this one
        after a restart, or a colleague's): an :class:`~mastra_notebook.runs.experiment.Experiment`
        whose grid fills as its results come, with its scores, ``summary()`` and ``to_dataframe()``
        as the kernel that started it shows them. Mastra runs it on; ``stop()`` stops only the
        watching."""
        return open_experiment(self.transport, self.known_scorers, experiment_id)

    def feedback(self, trace_id: str, run_id: str | None = None) -> MastraFeedback:
        """Where a run's labels go on this server: Mastra's feedback route, with the run's trace id
        (a saved run's, labelled after it was reopened: ``mn.load_experiment(folder, client)``)."""
        return MastraFeedback(self.transport, trace_id, lambda: run_id)

    def agent(self, agent_id: str) -> Agent:
        """The agent ``agent_id`` of this server: ``stream(prompt)``, ``stream_many(prompts)``, ``chat()``."""
        return Agent(self, agent_id)

    def workflow(self, workflow_id: str) -> Workflow:
        """The workflow ``workflow_id`` of this server: ``stream(input)``, ``runs()``, ``run(run_id)``."""
        return Workflow(self, workflow_id)
