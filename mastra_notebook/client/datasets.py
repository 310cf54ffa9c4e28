"""Mastra's datasets and experiments, run on the server: ``client.datasets()``,
``client.create_dataset(name, items)``, ``client.dataset(name_or_id)``, ``dataset.experiment(...)``,
``dataset.compare(a, b)``.

An experiment runs every item of a dataset through an agent on the Mastra server, with the server's
own concurrency: the path for sets too big for one kernel. It comes back as the notebook's own
:class:`~mastra_notebook.runs.experiment.Experiment` (one result type, one row schema, whoever ran
it), a cell per item. Mastra answers ``pending`` at once; a :class:`MastraExperiment` polls its
record (``waiting.poll``) in a task on the event loop (the kernel's, or the package's own in a
script), so the cell returns, then fills the cells from the results. Result rows carry no scores:
they are read from ``GET /api/scores/run/<experimentId>`` (``scores.run_scores``; one row per item
and scorer, the item's id as ``entityId``). A wrong scorer id or agent id fails an experiment at
once with 0/0 counts and its reason only in the server's log, so both are checked before starting.
Every request goes through the client's Transport.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from ..analysis.outcomes import Comparisons, Item, items_of
from ..core.records import DatasetRecord, ExperimentRecord
from ..render.catalogue import dataset_html
from ..runs.budget import Budget
from ..runs.experiment import Experiment
from .bodies import checked
from .catalogue import Catalogue
from .experiments import CONCURRENCY, DRIVEN, EXPERIMENT_TIMEOUT, MastraExperiment
from .scores import KnownScorers
from .transport import Transport, blocking
from .waiting import paginate

# ---- items ----------------------------------------------------------------------------------------


DatasetItem = Item  # one item type: an experiment's input (a dataset's has its id and version)
DatasetExperiment = Experiment  # the old name: a dataset's experiment is an Experiment like any other


def _missing(value: Any) -> bool:
    """None, or a DataFrame's empty cell (NaN)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def item_bodies(items: Any) -> list[dict[str, Any]]:
    """``items`` as Mastra's item bodies (``{input, groundTruth?}``), read as an experiment reads its
    inputs: a DataFrame (an ``input`` column, and ``expected`` when present), a list of inputs, of
    ``{"input", "expected"}`` mappings (``groundTruth`` read too) or of objects with ``.input`` and
    ``.expected`` (another dataset's items)."""
    if items is None:
        return []
    if isinstance(items, Mapping):  # one item given alone: its keys would be read as inputs
        raise TypeError("items are a list (or a DataFrame) of inputs, not one: wrap it in a list")
    bodies = []
    for item in items_of(items):
        body = {"input": item.input}
        if not _missing(item.expected):
            body["groundTruth"] = item.expected
        bodies.append(body)
    return bodies


def as_item(row: Mapping[str, Any]) -> DatasetItem:
    """One of Mastra's item rows as a DatasetItem."""
    version = row.get("datasetVersion")
    return DatasetItem(
        row.get("input"),
        row.get("groundTruth"),
        str(row["id"]) if row.get("id") is not None else None,
        version if isinstance(version, int) else None,
    )


# ---- the server's experiments, from any kernel ----------------------------------------------------


def list_experiments(transport: Transport) -> Experiments:
    """Every experiment of the server, of every dataset (all pages)."""
    rows = blocking(paginate(transport, "/api/experiments", "experiments"))
    listed = {str(r["id"]): r for r in rows if isinstance(r, Mapping) and "id" in r}
    return Experiments(listed, transport.base_url)


def open_experiment(transport: Transport, known: KnownScorers, experiment_id: str) -> Experiment:
    """The server's experiment ``experiment_id`` (run or running), from a kernel that did not start
    it: its dataset's items, a cell per item filled as its results come (``Dataset.reopened``).
    LookupError when the server has no such experiment, or it runs no dataset."""
    listed = list_experiments(transport)
    record = listed.get(experiment_id)
    if record is None:
        raise LookupError(
            f"no experiment {experiment_id!r} on {transport.base_url} ({len(listed)} experiments "
            "there: client.experiments() lists them)"
        )
    if not record.dataset_id:
        raise LookupError(
            f"experiment {experiment_id!r} runs no dataset: the notebook shows a dataset's only"
        )
    return open_dataset(transport, known, record.dataset_id).reopened(experiment_id)


# ---- the server's datasets ------------------------------------------------------------------------


def _frame(rows: list[dict[str, Any]]) -> Any:
    try:
        import pandas as pd
    except ImportError as error:
        raise ImportError("to_dataframe needs pandas: pip install 'mastra-notebook[pandas]'") from error
    return pd.DataFrame(rows)


class Datasets(Catalogue[DatasetRecord]):
    """``client.datasets()``: the server's datasets by id (``GET /api/datasets``), shown as a table;
    ``to_dataframe()`` gives one row each."""

    noun = "datasets"
    record = DatasetRecord

    def to_dataframe(self) -> Any:
        """One row per dataset: id, name, version, description, created_at, updated_at."""
        return _frame(
            [
                {
                    "id": dataset_id,
                    "name": entry.name,
                    "version": entry.version,
                    "description": entry.description,
                    "created_at": entry.created_at,
                    "updated_at": entry.updated_at,
                }
                for dataset_id, entry in self.items()
            ]
        )


def list_datasets(transport: Transport) -> Datasets:
    """Every dataset of the server (all pages)."""
    rows = blocking(paginate(transport, "/api/datasets", "datasets"))
    return Datasets(
        {str(r["id"]): r for r in rows if isinstance(r, Mapping) and "id" in r}, transport.base_url
    )


def create_dataset(
    transport: Transport, known: KnownScorers, name: str, items: Any = None, description: str | None = None
) -> Dataset:
    """A new dataset named ``name`` with ``items`` (see :func:`item_bodies`), checked before any post."""
    bodies = item_bodies(items)
    body = {"name": name, **({"description": description} if description else {})}
    record = transport.call("POST", "/api/datasets", json=body)
    dataset = Dataset(transport, known, record, [])
    if bodies:
        dataset.add(bodies)
    return dataset


def open_dataset(transport: Transport, known: KnownScorers, name_or_id: str) -> Dataset:
    """The dataset whose id (else whose name) is ``name_or_id``; LookupError naming the datasets there
    are when none is, or when two share that name."""
    listed = list_datasets(transport)
    if name_or_id in listed:
        return Dataset(transport, known, listed[name_or_id]).refresh()
    named = [entry for entry in listed.values() if entry.get("name") == name_or_id]
    if len(named) == 1:
        return Dataset(transport, known, named[0]).refresh()
    if named:
        ids = ", ".join(str(entry["id"]) for entry in named)
        raise LookupError(f"{len(named)} datasets are named {name_or_id!r} (ids {ids}): open one by its id")
    there = ", ".join(f"{e.get('name')!r}" for e in listed.values()) or "none"
    raise LookupError(f"no dataset {name_or_id!r} on {transport.base_url} (its datasets: {there})")


class Dataset:
    """A dataset on the Mastra server (``client.dataset(name_or_id)``): ``items``, ``add(items)``,
    ``refresh()``, ``experiment(agent=..., scorers=[...])``, ``experiments()``, ``compare(a, b)``.

    ``items`` are as read when it was opened (and as ``add`` made them); ``refresh()`` reads them
    again. Showing a dataset draws what was read: no request."""

    def __init__(
        self,
        transport: Transport,
        known: KnownScorers,
        record: Mapping[str, Any] | DatasetRecord,
        items: list[DatasetItem] | None = None,
    ) -> None:
        self.items: list[DatasetItem] = list(items or [])
        self.transport = transport
        self.known_scorers = known
        self.record = (
            record if isinstance(record, DatasetRecord) else DatasetRecord.of(str(record["id"]), record)
        )
        self.id = self.record.id
        self.name = self.record.name or self.id
        self.path = f"/api/datasets/{quote(self.id, safe='')}"

    def __repr__(self) -> str:
        return f"<Dataset {self.name!r} ({self.id}) at {self.transport.base_url}>"

    async def read_items(self) -> list[DatasetItem]:
        """The dataset's items as the server has them now, in the order they were added; each has
        ``input`` and ``expected`` (what ``agent.experiment(dataset.items)`` reads)."""
        rows = await paginate(self.transport, f"{self.path}/items", "items")
        rows.reverse()  # newest first there; then oldest first, those of one time in reverse too
        rows.sort(key=lambda row: str(row.get("createdAt", "")) if isinstance(row, Mapping) else "")
        return [as_item(row) for row in rows if isinstance(row, Mapping)]

    def refresh(self) -> Dataset:
        """Read the items again (``items`` is what was read last); the dataset. Items already known
        keep their order: the server lists items of one creation time in any order, and an experiment
        started later must number them as ``items`` did."""
        known = {item.id: n for n, item in enumerate(self.items)}
        read = blocking(self.read_items())
        self.items = sorted(read, key=lambda item: known.get(item.id, len(known)))
        return self

    def add(self, items: Any) -> list[DatasetItem]:
        """Add ``items`` (a DataFrame with ``input`` and ``expected`` columns, or a list of inputs,
        of ``{"input", "expected"}`` or of objects with ``.input`` and ``.expected``); the items made."""
        bodies = item_bodies(items)
        if not bodies:
            return []
        added = self.transport.call("POST", f"{self.path}/items/batch", json={"items": bodies})
        rows = added.get("items") if isinstance(added, Mapping) else None
        made = [as_item(row) for row in rows or () if isinstance(row, Mapping)]
        self.items.extend(made)
        return made

    def to_dataframe(self) -> Any:
        """One row per item: id, input, expected, version."""
        return _frame(
            [{"id": i.id, "input": i.input, "expected": i.expected, "version": i.version} for i in self.items]
        )

    @checked()
    def experiment(
        self,
        agent: Any,
        *,
        scorers: Iterable[str] = (),
        request_context: Mapping[str, Any] | None = None,
        name: str | None = None,
        max_concurrency: int | None = None,
        timeout: float = EXPERIMENT_TIMEOUT,
        max_cost_usd: float | None = None,
        max_tokens: int | None = None,
        max_seconds: float | None = None,
    ) -> Experiment:
        """Start Mastra's experiment: every item through ``agent`` (an id or ``client.agent(id)``) on
        the server, scored by Mastra's ``scorers`` (ids: ``client.scorers()``), with
        ``request_context`` (what dynamic instructions and models read: how prompts or models are
        compared on the server). Returns at once; shown, it updates in place (progress, then each
        item's output and scores). An unknown scorer or agent is refused here, before anything runs:
        Mastra would fail the experiment and give its reason only in its log.

        A budget, as for ``agent.experiment``: ``max_cost_usd`` (from the runs' ``result.cost``),
        ``max_tokens``, ``max_seconds``. With one, the notebook asks Mastra to run each item
        (``max_concurrency`` at a time, 5 unless given) instead of Mastra running them all; once a limit
        is crossed the queued items never run (Mastra counts them as skipped) and the running ones
        finish; the grid and ``summary()`` say which limit stopped it, and at what figure. Items run
        so only while the notebook's kernel runs."""
        budget = Budget.of(max_cost_usd, max_tokens, max_seconds)  # checked before anything runs
        agent_id = str(getattr(agent, "id", agent))
        if isinstance(scorers, str):
            scorers = [scorers]
        ids = list(dict.fromkeys(scorers))
        if not all(isinstance(s, str) for s in ids):
            raise TypeError("a dataset's experiment is scored on the server: scorers are Mastra scorer ids")
        self.known_scorers.refuse_unknown(ids)
        agents = self.transport.call("GET", "/api/agents")
        if isinstance(agents, Mapping) and agent_id not in agents:
            there = ", ".join(sorted(map(str, agents))) or "none"
            raise ValueError(f"no agent {agent_id!r} on this server (its agents: {there}; GET /api/agents)")
        body: dict[str, Any] = {"targetType": "agent", "targetId": agent_id, "scorerIds": ids}
        body["metadata"] = {
            "scorerIds": ids
        }  # Mastra's record keeps no scorer ids: a reattach reads them here
        if name is not None:
            body["name"] = name
        if request_context:
            body["requestContext"] = dict(request_context)
        if max_concurrency is not None:
            body["maxConcurrency"] = max_concurrency
        if budget is not None:
            body["start"] = False  # created, not run: the notebook runs each item (see experiments.py)
            body["metadata"][DRIVEN] = True  # a reattaching kernel knows no server runs the rest
        started = self.transport.call("POST", f"{self.path}/experiments", json=body)
        return self.watched(
            str(started["experimentId"]), name, agent_id, ids, started, timeout=timeout, budget=budget,
            concurrency=max_concurrency or CONCURRENCY, request_context=request_context,
        )  # fmt: skip

    def watched(
        self,
        experiment_id: str,
        name: str | None,
        agent_id: str,
        scorers: list[str] | None,
        started: Any = None,
        *,
        timeout: float = EXPERIMENT_TIMEOUT,
        budget: Budget | None = None,
        concurrency: int = CONCURRENCY,
        request_context: Mapping[str, Any] | None = None,
        driven_elsewhere: bool = False,
    ) -> Experiment:
        """Mastra's experiment ``experiment_id`` as an :class:`~mastra_notebook.runs.experiment.Experiment`
        (a cell per item, filled as Mastra's results come), watched from a task on the event loop."""
        experiment = Experiment(self.refresh().items, name=name, agent=agent_id)
        watch = MastraExperiment(
            self.transport,
            self.path,
            experiment,
            experiment_id,
            agent_id=agent_id,
            scorers=scorers,
            timeout=timeout,
            budget=budget,
            concurrency=concurrency,
            request_context=request_context,
            driven_elsewhere=driven_elsewhere,
        )
        watch.take(started)
        watch.start()
        return experiment

    def experiments(self) -> Experiments:
        """The dataset's experiments by id, newest first, shown as a table."""
        rows = blocking(paginate(self.transport, f"{self.path}/experiments", "experiments"))
        return Experiments({str(r["id"]): r for r in rows if isinstance(r, Mapping) and "id" in r}, self.name)

    def compare(self, a: Experiment | str, b: Experiment | str) -> Comparisons:
        """Two experiments of this dataset (or their ids), compared as ``exp.compare(a, b)`` does:
        for each item where they differ, their runs side by side (``mn.compare``)."""
        sides = [x if isinstance(x, Experiment) else self.reopened(str(x)) for x in (a, b)]
        for side in sides:
            side.wait()  # compared once both ended: a running one has no outputs yet
        labels = [side.name or f"experiment {n}" for n, side in enumerate(sides, 1)]
        if labels[0] == labels[1]:
            labels = [f"{labels[0]} (A)", f"{labels[1]} (B)"]
        both = Experiment(self.items, dict.fromkeys(labels))
        by_id = {item.id: n for n, item in enumerate(self.items)}
        for label, side in zip(labels, sides, strict=True):
            for cell in side.cells:
                place = by_id.get(side.items[cell.item].id, cell.item)
                both.add_cell(place, label, cell.repeat, replace(cell.outcome(), item=place, variant=label))
        return both.compare(labels[0], labels[1])

    def reopened(self, experiment_id: str) -> Experiment:
        """An experiment of this dataset already run (or running) on the server, by its id, as the
        kernel that started it shows it (its name, agent and scorers as the server recorded them).
        Its inputs are the dataset's items as read now: items added in one request share a creation
        time, and a kernel that did not add them orders those by id."""
        record = self.transport.call("GET", f"{self.path}/experiments/{quote(experiment_id, safe='')}")
        record = record if isinstance(record, Mapping) else {}
        metadata = record.get("metadata")
        said = record.get("scorerIds") or (
            metadata.get("scorerIds") if isinstance(metadata, Mapping) else None
        )
        scorers = [str(s) for s in said] if isinstance(said, list) else None  # None: whichever scored it
        driven = isinstance(metadata, Mapping) and metadata.get(DRIVEN) is True
        return self.watched(
            experiment_id,
            record.get("name"),
            str(record.get("targetId")),
            scorers,
            record,
            driven_elsewhere=driven,
        )

    def _repr_html_(self) -> str:
        return dataset_html(self.name, self.id, [(i.input, i.expected) for i in self.items])  # as read


class Experiments(Catalogue[ExperimentRecord]):
    """``client.experiments()``: the server's experiments by id (``GET /api/experiments``), or
    ``dataset.experiments()``: one dataset's (``GET /api/datasets/:id/experiments``); each with its
    status and counts, shown as a table. ``client.experiment(id)`` reattaches to one."""

    noun = "experiments"
    record = ExperimentRecord
