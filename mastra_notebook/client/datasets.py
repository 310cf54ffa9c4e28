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

import asyncio
import concurrent.futures
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..analysis.experiment import BASELINE, Comparisons, Item, Outcome, items_of
from ..core.result import ErrorInfo, RunResult, Usage
from ..core.score import Score
from ..render import views
from ..render.views import DASH, Inline
from ..runs.experiment import Experiment
from ..runs.loops import Work, run_nested, schedule
from .bodies import checked
from .catalogue import Catalogue, excerpt
from .scores import KnownScorers, mastra_score, run_scores, scores_path
from .transport import Transport, blocking
from .waiting import Clock, Sleep, paginate, poll

if TYPE_CHECKING:
    from collections.abc import Generator

FIRST_PAUSE = 0.25  # seconds before the first re-read of an experiment; doubles up to MAX_PAUSE
MAX_PAUSE = 2.0
EXPERIMENT_TIMEOUT = 1800.0  # seconds an experiment is watched at most
SCORES_TIMEOUT = 30.0  # seconds to wait, after it completed, for every item's scores
SHOWN = 200  # rows drawn in a notebook table; to_dataframe() has them all
ENDED = ("completed", "failed")

_TEXT = 220  # characters of an input, output or expected answer in a cell


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


# ---- the tables' pieces (data drawn by the one renderer, as the catalogue's: render/views.py) ----


def _label(value: Any, limit: int = _TEXT) -> Inline:
    """An untrusted value on one line, cut and isolated; its whole text on hover."""
    text = value if isinstance(value, str) else _json(value)
    short = excerpt(text, limit)
    return views.label(short, text[:2000] if short != " ".join(text.split()) else None)


def _json(value: Any) -> str:
    import json

    return "" if value is None else json.dumps(value, ensure_ascii=False, default=str)


def _muted(body: Inline) -> Inline:
    return views.muted(body)


def _output_text(output: Any) -> Any:
    """What an item's run answered: its text (``output.text``), else the output as given."""
    return output.get("text") if isinstance(output, Mapping) and "text" in output else output


def _error_text(row: Mapping[str, Any]) -> str | None:
    """An item's error, from its row or its output (a message, or the error object's message)."""
    output = row.get("output")
    for found in (row.get("error"), output.get("error") if isinstance(output, Mapping) else None):
        said = (found.get("message") or _json(found)) if isinstance(found, Mapping) else found
        if said:
            return str(said)
    return None


def _table(rows: list[list[Inline]], heads: tuple[str, ...], noun: str, caption: Inline = "") -> Inline:
    """A table of ``rows``, at most SHOWN of them, under ``caption`` and their count."""
    shown = rows[:SHOWN]
    more = len(rows) - len(shown)
    count = f"{len(shown)} {noun if len(shown) != 1 else noun[:-1]}"
    return [
        views.block(caption, "mn-caption") if caption else "",
        views.block(count, "mn-caption"),
        views.table(list(heads), shown, cls="mn-catalogue", kind=noun),
        _muted(f"+{more} more: to_dataframe() has them all") if more > 0 else "",
    ]


def _frame(rows: list[dict[str, Any]]) -> Any:
    try:
        import pandas as pd
    except ImportError as error:
        raise ImportError("to_dataframe needs pandas: pip install 'mastra-notebook[pandas]'") from error
    return pd.DataFrame(rows)


# ---- the server's datasets ------------------------------------------------------------------------


class Datasets(Catalogue):
    """``client.datasets()``: the server's datasets by id (``GET /api/datasets``), shown as a table;
    ``to_dataframe()`` gives one row each."""

    noun = "datasets"
    heads = ("id", "name", "version", "created (UTC)", "updated (UTC)")

    def _row(self, dataset_id: str, entry: Mapping[str, Any]) -> list[Inline]:
        return [
            views.code(_label(dataset_id)),
            _label(entry.get("name", "")),
            str(entry.get("version", "")),
            _label(_when(entry.get("createdAt"))),
            _label(_when(entry.get("updatedAt"))),
        ]

    def _lines(self) -> list[str]:
        return [f"  {dataset_id}  {entry.get('name', '')}" for dataset_id, entry in self.items()]

    def to_dataframe(self) -> Any:
        """One row per dataset: id, name, version, description, created_at, updated_at."""
        return _frame(
            [
                {
                    "id": dataset_id,
                    "name": entry.get("name"),
                    "version": entry.get("version"),
                    "description": entry.get("description"),
                    "created_at": entry.get("createdAt"),
                    "updated_at": entry.get("updatedAt"),
                }
                for dataset_id, entry in self.items()
            ]
        )


def _when(value: Any) -> str:
    """An ISO time as ``2026-12-01 10:52:40`` (UTC, as Mastra stores it)."""
    return value[:19].replace("T", " ") if isinstance(value, str) else ""


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
        record: Mapping[str, Any],
        items: list[DatasetItem] | None = None,
    ) -> None:
        self.items: list[DatasetItem] = list(items or [])
        self.transport = transport
        self.known_scorers = known
        self.record = dict(record)
        self.id = str(record["id"])
        self.name = str(record.get("name", self.id))
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
        """Read the items again (``items`` is what was read last); the dataset."""
        self.items = blocking(self.read_items())
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
    ) -> Experiment:
        """Start Mastra's experiment: every item through ``agent`` (an id or ``client.agent(id)``) on
        the server, scored by Mastra's ``scorers`` (ids: ``client.scorers()``), with
        ``request_context`` (what dynamic instructions and models read: how prompts or models are
        compared on the server). Returns at once; shown, it updates in place (progress, then each
        item's output and scores). An unknown scorer or agent is refused here, before anything runs:
        Mastra would fail the experiment and give its reason only in its log."""
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
        if name is not None:
            body["name"] = name
        if request_context:
            body["requestContext"] = dict(request_context)
        if max_concurrency is not None:
            body["maxConcurrency"] = max_concurrency
        started = self.transport.call("POST", f"{self.path}/experiments", json=body)
        return self.watched(str(started["experimentId"]), name, agent_id, ids, started, timeout=timeout)

    def watched(
        self,
        experiment_id: str,
        name: str | None,
        agent_id: str,
        scorers: list[str],
        started: Any = None,
        *,
        timeout: float = EXPERIMENT_TIMEOUT,
    ) -> Experiment:
        """Mastra's experiment ``experiment_id`` as an :class:`~mastra_notebook.runs.experiment.Experiment`
        (a cell per item, filled as Mastra's results come), watched from a task on the event loop."""
        experiment = Experiment(self.refresh().items, name=name, agent=agent_id)
        watch = MastraExperiment(self, experiment, experiment_id, agent_id, scorers, timeout=timeout)
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
        """An experiment of this dataset already run (or running) on the server, by its id."""
        record = self.transport.call("GET", f"{self.path}/experiments/{quote(experiment_id, safe='')}")
        record = record if isinstance(record, Mapping) else {}
        scorers = [str(s) for s in record.get("scorerIds") or ()]
        return self.watched(experiment_id, record.get("name"), str(record.get("targetId")), scorers, record)

    def _repr_html_(self) -> str:
        items = self.items  # as read: drawing makes no request
        rows = [
            [_label(i.input), _label(i.expected) if i.expected is not None else _muted(DASH)] for i in items
        ]
        caption: Inline = ["dataset ", views.label(self.name), " ", _muted(f"id {self.id}")]
        return views.draw(_table(rows, ("input", "expected"), "items", caption), "mn-dataset")


class Experiments(Catalogue):
    """``dataset.experiments()``: a dataset's experiments by id (``GET /api/datasets/:id/experiments``)."""

    noun = "experiments"
    heads = ("id", "name", "agent", "status", "items", "started (UTC)")

    def _row(self, experiment_id: str, entry: Mapping[str, Any]) -> list[Inline]:
        ok, failed = entry.get("succeededCount", 0), entry.get("failedCount", 0)
        counts = f"{ok} ok, {failed} failed of {entry.get('totalItems', '?')}"
        return [
            views.code(_label(experiment_id)),
            _label(entry.get("name") or ""),
            _label(entry.get("targetId") or ""),
            _label(entry.get("status") or "?"),
            counts,
            _label(_when(entry.get("startedAt"))),
        ]

    def _lines(self) -> list[str]:
        return [f"  {eid}  {e.get('name', '')}  {e.get('status', '?')}" for eid, e in self.items()]


# ---- one experiment, watched ------------------------------------------------------------------------


class MastraExperiment:
    """Mastra's experiment of a dataset on an agent, run on the server and watched by a task on the
    event loop: it fills an :class:`Experiment`'s cells (a run result per item: its output text,
    scores, status, error and trace id) once the server's results and scores are read. ``status``,
    ``progress`` and ``error`` say how it stands (``exp.remote``)."""

    def __init__(
        self,
        dataset: Dataset,
        experiment: Experiment,
        experiment_id: str,
        agent_id: str,
        scorers: list[str],
        *,
        timeout: float = EXPERIMENT_TIMEOUT,
        scores_timeout: float = SCORES_TIMEOUT,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.dataset, self.experiment = dataset, experiment
        self.id = experiment_id
        self.agent = agent_id
        self.scorers = scorers
        self.record: dict[str, Any] = {}
        self.error: str | None = None
        self.timeout, self.scores_timeout, self.clock, self.sleep = timeout, scores_timeout, clock, sleep
        self._task: Work | None = None
        self._ended = False
        self.path = f"{dataset.path}/experiments/{quote(experiment_id, safe='')}"
        experiment.remote = self
        if experiment.name is None:
            experiment.name = f"experiment {experiment_id[:8]}"
        self.cells = [experiment.add_cell(n, BASELINE) for n in range(len(experiment.items))]

    def __repr__(self) -> str:
        return f"<MastraExperiment {self.experiment.name!r} ({self.id}) {self.status}>"

    @property
    def status(self) -> str:
        """Mastra's status: ``pending``, ``running``, ``completed`` or ``failed`` (``error`` says when
        the notebook stopped watching before it ended)."""
        return str(self.record.get("status") or "pending")

    @property
    def done(self) -> bool:
        """Whether the notebook is done with it: ended on the server and its results and scores read."""
        return self._ended

    @property
    def progress(self) -> tuple[int, int, int]:
        """``(succeeded, failed, total)`` items as the server counts them."""
        r = self.record
        return (
            int(r.get("succeededCount") or 0),
            int(r.get("failedCount") or 0),
            int(r.get("totalItems") or 0),
        )

    def take(self, record: Any) -> None:
        """The server's record of the experiment (as its start or ``GET .../:eid`` answered)."""
        if isinstance(record, Mapping):
            self.record.update(record)

    def start(self) -> None:
        """Watch from a task on the event loop (the cell returns; the grid updates)."""
        self._task = schedule(self._watch())

    async def _watch(self) -> None:
        try:
            await self.poll()
        except asyncio.CancelledError:  # stop()
            self.error = "the notebook stopped watching; the server goes on"
        except Exception as error:  # a broken connection, an answer not understood: said, not raised
            self.error = f"the notebook stopped watching: {error}"
        finally:
            self._ended = True

    async def poll(self) -> None:
        """Read the record until it ended (``waiting.poll``, ``timeout`` at most), then the results
        and every item's scores (each scorer of each succeeded item, ``scores_timeout`` at most),
        and fill the experiment's cells."""
        transport = self.dataset.transport

        async def read() -> str:
            self.take(await transport.send("GET", self.path))
            return self.status

        polled = await poll(
            read, lambda status: status in ENDED, timeout=self.timeout, first=FIRST_PAUSE,
            longest=MAX_PAUSE, clock=self.clock, sleep=self.sleep,
        )  # fmt: skip
        if not polled.done:
            self.error = (
                f"still {self.status} after {self.timeout:g} s: the notebook stopped watching; "
                f"the server goes on (GET {self.path})"
            )
            return
        rows = await paginate(transport, f"{self.path}/results", "results")
        results = [dict(r) for r in rows if isinstance(r, Mapping)]
        if self.status == "failed":
            self.error = self.failure(results)
        scores = await self.read_scores()
        places = {item.id: n for n, item in enumerate(self.experiment.items)}
        for row in results:
            place = places.get(str(row.get("itemId")))
            if place is not None:
                result = run_result(row, self.agent, scores.get(str(row.get("itemId")), []))
                self.experiment.settle(self.cells[place], Outcome(place, BASELINE, 0, result.status, result))

    async def read_scores(self) -> dict[str, list[Score]]:
        """Mastra's scores of the experiment, by item id (``scores.run_scores``), read until each
        scorer has scored each succeeded item or ``scores_timeout``."""
        succeeded, _, _ = self.progress
        wanted = succeeded * len(self.scorers)
        if not wanted:
            return {}
        found = await run_scores(
            self.dataset.transport, self.id, self.scorers, lambda found: len(found) >= wanted,
            timeout=self.scores_timeout, key=lambda row: (str(row.get("entityId")), str(row["scorerId"])),
            clock=self.clock, sleep=self.sleep,
        )  # fmt: skip
        by_item: dict[str, dict[str, Mapping[str, Any]]] = {}
        for (item, scorer), row in found.items():
            by_item.setdefault(item, {})[scorer] = row
        if len(found) < wanted:
            where = scores_path(self.id)
            note = f"{len(found)} of {wanted} scores came within {self.scores_timeout:g} s (GET {where})"
            self.error = f"{self.error}; {note}" if self.error else note
        return {
            item: [mastra_score(rows[s]) for s in self.scorers if s in rows] for item, rows in by_item.items()
        }

    def failure(self, results: list[dict[str, Any]]) -> str:
        """Why it failed, as far as Mastra's API says: its counts and its items' errors; the rest is
        only in the server's log."""
        succeeded, failed, total = self.progress
        errors = [e for e in (_error_text(r) for r in results) if e]
        if errors:
            first = excerpt(errors[0], 300)
            return f"{failed} of {total} items failed ({succeeded} succeeded); the first said: {first}"
        began = (
            "never began" if not self.record.get("startedAt") else f"{succeeded} of {total} items succeeded"
        )
        return (
            f"Mastra failed the experiment ({began}, {failed} failed) and gives no reason over HTTP: "
            f"the server's log has it, on a line 'Experiment {self.id} failed: ...'"
        )

    def stop(self) -> None:
        """Stop watching (the experiment goes on on the server)."""
        if self._task is not None:
            self._task.cancel()

    def wait(self, timeout: float | None = None) -> MastraExperiment:
        """Block until it ended and its results and scores are read (TimeoutError after ``timeout``
        seconds); returns itself."""
        task = self._task
        try:
            if isinstance(task, concurrent.futures.Future):  # a script: the package's loop runs it
                task.result(timeout)
            elif task is not None and not task.done():  # a cell: nested in the kernel's loop
                run_nested(task, timeout)
        except TimeoutError:
            name = self.experiment.name
            raise TimeoutError(
                f"experiment {name!r} did not end within {timeout} s ({self.status})"
            ) from None
        return self

    def __await__(self) -> Generator[Any, None, MastraExperiment]:
        task = self._task
        if isinstance(task, concurrent.futures.Future):
            yield from asyncio.wrap_future(task).__await__()
        elif task is not None:
            yield from asyncio.shield(task).__await__()
        return self


def run_result(row: Mapping[str, Any], agent_id: str, scores: list[Score]) -> RunResult:
    """One of Mastra's experiment results as a run result: its output text, usage, status, error,
    trace id and scores (what a notebook-run experiment's cell holds)."""
    output = row.get("output")
    usage = output.get("usage") if isinstance(output, Mapping) else None
    usage = usage if isinstance(usage, Mapping) else {}
    error = _error_text(row)
    text = _output_text(output)
    tokens = {
        k: int(usage.get(m) or 0)
        for k, m in (("input_tokens", "inputTokens"), ("output_tokens", "outputTokens"))
    }
    trace = row.get("traceId")
    return RunResult(
        agent_id=agent_id,
        status="error" if error else "finished",
        text=text if isinstance(text, str) else ("" if text is None else _json(text)),
        usage=Usage(**tokens, total_tokens=sum(tokens.values())),
        error=ErrorInfo(message=error) if error else None,
        trace_id=trace if isinstance(trace, str) else None,
        scores=scores,
    )
