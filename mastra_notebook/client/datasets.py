"""Mastra's datasets and experiments, run on the server: ``client.datasets()``,
``client.create_dataset(name, items)``, ``client.dataset(name_or_id)``, ``dataset.experiment(...)``,
``dataset.compare(a, b)``.

An experiment runs every item of a dataset through an agent on the Mastra server, with the server's
own concurrency: the path for sets too big for one kernel. Mastra answers ``pending`` at once; the
notebook polls its record (``waiting.poll``) in a task on the event loop (the kernel's, or the
package's own in a script), so the cell returns and the display updates in place: progress first,
then each item's output with its scores. Result rows carry no scores: they are read from
``GET /api/scores/run/<experimentId>`` (``scores.run_scores``; one row per item and scorer, the
item's id as ``entityId``). A wrong scorer id or agent id fails an experiment at
once with 0/0 counts and its reason only in the server's log, so both are checked before starting.
Every request goes through the client's Transport.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..analysis.experiment import items_of
from ..core.score import Score
from ..render import views
from ..render.views import DASH, Inline
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


@dataclass(frozen=True)
class DatasetItem:
    """One item of a Mastra dataset: ``input`` and ``expected`` (Mastra's ``groundTruth``), the
    shape ``agent.experiment(dataset.items)`` takes too."""

    input: Any
    expected: Any = None
    id: str | None = None
    version: int | None = None


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


def _value(score: float | None) -> str:
    return DASH if score is None else f"{score:.3g}"


def _score_cell(score: Score | None) -> Inline:
    """A score's value, its reason on hover."""
    if score is None:
        return _muted(DASH)
    return views.span("mn-score", _value(score.score), title=score.reason or None)


def _mean(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


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
    ) -> DatasetExperiment:
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
        experiment = DatasetExperiment(
            self, str(started["experimentId"]), name, agent_id, ids, timeout=timeout
        )
        experiment.take(started)
        experiment.start()
        return experiment

    def experiments(self) -> Experiments:
        """The dataset's experiments by id, newest first, shown as a table."""
        rows = blocking(paginate(self.transport, f"{self.path}/experiments", "experiments"))
        return Experiments({str(r["id"]): r for r in rows if isinstance(r, Mapping) and "id" in r}, self.name)

    def compare(self, a: DatasetExperiment | str, b: DatasetExperiment | str) -> Comparison:
        """Mastra's comparison of two experiments of this dataset (``POST .../compare``): per item,
        both outputs and both experiments' scores, shown as a table; ``to_dataframe()``."""
        ids = [x.id if isinstance(x, DatasetExperiment) else str(x) for x in (a, b)]
        for x in (a, b):
            if isinstance(x, DatasetExperiment):
                x.wait()  # compared once both ended: a running one has no outputs yet
        names = {str(r["id"]): r.get("name") for r in self.experiments().values() if isinstance(r, Mapping)}
        body = {"experimentIdA": ids[0], "experimentIdB": ids[1]}
        compared = self.transport.call("POST", f"{self.path}/compare", json=body)
        order = {item.id: n for n, item in enumerate(self.refresh().items)}
        if isinstance(compared, Mapping) and isinstance(compared.get("items"), list):
            compared = {
                **compared,
                "items": sorted(compared["items"], key=lambda i: order.get(i.get("itemId"), len(order))),
            }
        labels = (names.get(ids[0]) or "A", names.get(ids[1]) or "B")
        if labels[0] == labels[1]:
            labels = (f"{labels[0]} (A)", f"{labels[1]} (B)")
        return Comparison(compared if isinstance(compared, Mapping) else {}, (ids[0], ids[1]), labels)

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


class DatasetExperiment:
    """Mastra's experiment of a dataset on an agent (``dataset.experiment(...)``), watched by a task on
    the event loop until it ends. ``status``, ``progress``; ``wait()`` or ``await exp``; then ``results``
    (the server's rows), ``scores`` (by item id), ``to_dataframe()``, and ``error`` when it failed.
    Shown in a notebook, it updates in place."""

    def __init__(
        self,
        dataset: Dataset,
        experiment_id: str,
        name: str | None,
        agent_id: str,
        scorers: list[str],
        *,
        timeout: float = EXPERIMENT_TIMEOUT,
        scores_timeout: float = SCORES_TIMEOUT,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.dataset = dataset
        self.id = experiment_id
        self.name = name or f"experiment {experiment_id[:8]}"
        self.agent = agent_id
        self.scorers = scorers
        self.record: dict[str, Any] = {}
        self.results: list[dict[str, Any]] = []
        self.scores: dict[str, list[Score]] = {}  # by item id
        self.error: str | None = None
        self.timeout, self.scores_timeout, self.clock, self.sleep = timeout, scores_timeout, clock, sleep
        self._task: Work | None = None
        self._ended = False
        self._handles: list[Any] = []
        self._shown = ""
        self._lock = threading.Lock()
        self.path = f"{dataset.path}/experiments/{quote(experiment_id, safe='')}"

    def __repr__(self) -> str:
        return f"<DatasetExperiment {self.name!r} ({self.id}) {self.status}>"

    @property
    def status(self) -> str:
        """Mastra's status: ``pending``, ``running``, ``completed`` or ``failed`` (``error`` says when
        the notebook stopped watching before it ended)."""
        return str(self.record.get("status") or "pending")

    @property
    def ended(self) -> bool:
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

    # ---- watching ----

    def take(self, record: Any) -> None:
        """The server's record of the experiment (as its start or ``GET .../:eid`` answered)."""
        if isinstance(record, Mapping):
            self.record.update(record)

    def start(self) -> None:
        """Watch from a task on the event loop (the cell returns; the display updates)."""
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
            self.refresh()

    async def poll(self) -> None:
        """Read the record until it ended (``waiting.poll``, ``timeout`` at most), then the results
        and every item's scores (each scorer of each succeeded item, ``scores_timeout`` at most)."""
        transport = self.dataset.transport

        async def read() -> str:
            self.take(await transport.send("GET", self.path))
            self.refresh()
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
        self.results = [dict(r) for r in rows if isinstance(r, Mapping)]
        order = {item.id: n for n, item in enumerate(await self.dataset.read_items())}  # its order
        self.results.sort(key=lambda row: order.get(str(row.get("itemId")), len(order)))
        if self.status == "failed":
            self.error = self.failure()
        await self.read_scores()

    async def read_scores(self) -> None:
        """Mastra's scores of the experiment, by item id (``scores.run_scores``), read until each
        scorer has scored each succeeded item or ``scores_timeout``."""
        succeeded, _, _ = self.progress
        wanted = succeeded * len(self.scorers)
        if not wanted:
            return
        found = await run_scores(
            self.dataset.transport, self.id, self.scorers, lambda found: len(found) >= wanted,
            timeout=self.scores_timeout, key=lambda row: (str(row.get("entityId")), str(row["scorerId"])),
            clock=self.clock, sleep=self.sleep,
        )  # fmt: skip
        by_item: dict[str, dict[str, Mapping[str, Any]]] = {}
        for (item, scorer), row in found.items():
            by_item.setdefault(item, {})[scorer] = row
        self.scores = {
            item: [mastra_score(rows[s]) for s in self.scorers if s in rows] for item, rows in by_item.items()
        }
        if len(found) < wanted:
            where = scores_path(self.id)
            note = f"{len(found)} of {wanted} scores came within {self.scores_timeout:g} s (GET {where})"
            self.error = f"{self.error}; {note}" if self.error else note

    def failure(self) -> str:
        """Why it failed, as far as Mastra's API says: its counts and its items' errors; the rest is
        only in the server's log."""
        succeeded, failed, total = self.progress
        errors = [e for e in (_error_text(r) for r in self.results) if e]
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

    def wait(self, timeout: float | None = None) -> DatasetExperiment:
        """Block until it ended and its results and scores are read (TimeoutError after ``timeout``
        seconds); returns itself."""
        task = self._task
        try:
            if isinstance(task, concurrent.futures.Future):  # a script: the package's loop runs it
                task.result(timeout)
            elif task is not None and not task.done():  # a cell: nested in the kernel's loop
                run_nested(task, timeout)
        except TimeoutError:
            raise TimeoutError(
                f"experiment {self.name!r} did not end within {timeout} s ({self.status})"
            ) from None
        return self

    def __await__(self) -> Generator[Any, None, DatasetExperiment]:
        task = self._task
        if isinstance(task, concurrent.futures.Future):
            yield from asyncio.wrap_future(task).__await__()
        elif task is not None:
            yield from asyncio.shield(task).__await__()
        return self

    # ---- reading ----

    def rows(self) -> list[dict[str, Any]]:
        """One flat dict per item: item_id, input, expected, output, error, tokens, trace_id and a
        ``score_<scorer>`` column per scorer (what ``to_dataframe`` holds)."""
        out = []
        for r in self.results:
            item = str(r.get("itemId"))
            output = r.get("output")
            usage = output.get("usage") if isinstance(output, Mapping) else None
            usage = usage if isinstance(usage, Mapping) else {}
            facts: dict[str, Any] = {
                "item_id": item,
                "input": r.get("input"),
                "expected": r.get("groundTruth"),
                "output": _output_text(output),
                "error": _error_text(r),
                "input_tokens": usage.get("inputTokens"),
                "output_tokens": usage.get("outputTokens"),
                "trace_id": r.get("traceId"),
            }
            found = {s.scorer: s for s in self.scores.get(item, ())}
            for scorer in self.scorers:
                facts[f"score_{scorer}"] = found[scorer].score if scorer in found else None
            out.append(facts)
        return out

    def to_dataframe(self) -> Any:
        """One row per item (see :meth:`rows`), as far as the experiment got."""
        return _frame(self.rows())

    def _state(self) -> list[Inline]:
        """The head: name and status, agent, dataset and scorers, progress, means, why it failed."""
        succeeded, failed, total = self.progress
        done = succeeded + failed
        status = self.status if self.ended or self.status in ENDED else f"{self.status}…"
        reading: list[Inline] = (
            [] if self.ended or self.status not in ENDED else [" ", _muted("reading results and scores…")]
        )
        scorers: Inline = views.joined([views.code(s) for s in self.scorers], ", ") or _muted("no scorers")
        about: list[Inline] = [
            "agent ",
            views.code(self.agent),
            " · dataset ",
            views.label(self.dataset.name),
        ]
        about += [" · scorers ", scorers, " · id ", views.code(self.id)]
        head: list[Inline] = [
            views.block(
                ["experiment ", views.label(self.name), " ", views.badge(status, self.status), *reading],
                "mn-caption",
            ),
            views.block(_muted(about)),
            views.block(
                [
                    views.progress(done, total),
                    f" {done} of {total} items" + (f" ({failed} failed)" if failed else ""),
                ]
            ),
        ]
        if self.scores:
            rows = self.rows()
            means: list[Inline] = [
                [views.code(s), " ", views.strong(_value(_mean(row[f"score_{s}"] for row in rows)))]
                for s in self.scorers
            ]
            head.append(views.block(["mean: ", *views.joined(means, " · ")], "mn-means"))
        if self.error:
            head.append(views.block(_label(self.error, 600), "mn-experiment-error"))
        return head

    def _results(self) -> Inline:
        if not self.results:
            return ""
        facts = self.rows()
        errors = any(row["error"] for row in facts)  # an error column only when an item failed
        heads = ("input", "expected", "output", *self.scorers, *(("error",) if errors else ()))
        rows = []
        for r, row in zip(self.results, facts, strict=True):
            found = {s.scorer: s for s in self.scores.get(str(r.get("itemId")), ())}
            cells = [
                _label(row["input"]),
                _label(row["expected"]) if row["expected"] is not None else _muted(DASH),
                _label(row["output"]) if row["output"] is not None else _muted(DASH),
                *(_score_cell(found.get(s)) for s in self.scorers),
            ]
            if errors:
                cells.append(_label(row["error"], 160) if row["error"] else _muted(DASH))
            rows.append(cells)
        return _table(rows, heads, "results")

    def html(self) -> str:
        """What the notebook shows: progress, then the results with their scores (and why it failed)."""
        return views.draw([*self._state(), self._results()], "mn-dataset-experiment")

    def _repr_html_(self) -> str:
        return self.html()

    def _ipython_display_(self) -> None:
        """Shown once, updated in place from the watching thread until it ends (a saved notebook keeps
        the last table)."""
        from IPython.display import HTML, display

        with self._lock:
            self._shown = self.html()
            handle = display(HTML(self._shown), display_id=True)  # type: ignore[no-untyped-call]
            self._handles.append(handle)

    def refresh(self) -> None:
        """Redraw every display of it, when what it shows changed."""
        with self._lock:
            if not self._handles:
                return
            shown = self.html()
            if shown == self._shown:
                return
            self._shown = shown
            from IPython.display import HTML

            for handle in self._handles:
                handle.update(HTML(shown))  # type: ignore[no-untyped-call]


# ---- two experiments compared ------------------------------------------------------------------------


class Comparison:
    """Mastra's comparison of two experiments (``dataset.compare(a, b)``): per item, both outputs and
    both sides' scores, with B minus A; ``items`` is the server's answer, ``to_dataframe()`` one row each."""

    def __init__(self, compared: Mapping[str, Any], ids: tuple[str, str], labels: tuple[str, str]) -> None:
        items = compared.get("items")
        self.items: list[Mapping[str, Any]] = [i for i in items or () if isinstance(i, Mapping)]
        self.ids, self.labels = ids, labels
        scorers: dict[str, None] = {}
        for item in self.items:
            for side in self._sides(item):
                scorers.update(dict.fromkeys(map(str, side.get("scores") or {})))
        self.scorers = list(scorers)

    def __repr__(self) -> str:
        return f"<Comparison {self.labels[0]!r} vs {self.labels[1]!r}: {len(self.items)} items>"

    def _sides(self, item: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        results = item.get("results")
        results = results if isinstance(results, Mapping) else {}
        a, b = (results.get(i) for i in self.ids)
        return (a if isinstance(a, Mapping) else {}), (b if isinstance(b, Mapping) else {})

    @staticmethod
    def _score(side: Mapping[str, Any], scorer: str) -> float | None:
        value = (side.get("scores") or {}).get(scorer)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def rows(self) -> list[dict[str, Any]]:
        """One flat dict per item: item_id, input, expected, output_a, output_b, and per scorer
        ``score_<id>_a``, ``score_<id>_b``, ``delta_<id>`` (B minus A)."""
        out = []
        for item in self.items:
            a, b = self._sides(item)
            facts: dict[str, Any] = {
                "item_id": item.get("itemId"),
                "input": item.get("input"),
                "expected": item.get("groundTruth"),
                "output_a": _output_text(a.get("output")),
                "output_b": _output_text(b.get("output")),
            }
            for s in self.scorers:
                sa, sb = self._score(a, s), self._score(b, s)
                facts[f"score_{s}_a"], facts[f"score_{s}_b"] = sa, sb
                facts[f"delta_{s}"] = None if sa is None or sb is None else sb - sa
            out.append(facts)
        return out

    def to_dataframe(self) -> Any:
        """One row per item (see :meth:`rows`)."""
        return _frame(self.rows())

    def _repr_html_(self) -> str:
        heads = ("input", "expected", f"A: {self.labels[0]}", f"B: {self.labels[1]}", *self.scorers)
        rows = []
        for facts in self.rows():
            cells = [
                _label(facts["input"], 120),
                _label(facts["expected"], 120) if facts["expected"] is not None else _muted(DASH),
                _label(facts["output_a"], 160),
                _label(facts["output_b"], 160),
            ]
            for s in self.scorers:
                sa, sb, delta = facts[f"score_{s}_a"], facts[f"score_{s}_b"], facts[f"delta_{s}"]
                pair = views.span("mn-score-pair", f"{_value(sa)} → {_value(sb)}")
                moved: list[Inline] = (
                    [] if not delta else [" ", views.strong(f"{'▲' if delta > 0 else '▼'} {delta:+.3g}")]
                )
                cells.append(views.span("mn-nowrap", [pair, *moved]))
            rows.append(cells)
        caption: Inline = [views.label(self.labels[0]), " (A) vs ", views.label(self.labels[1]), " (B)"]
        return views.draw(_table(rows, heads, "items", caption), "mn-dataset-comparison")
