"""Mastra's experiments (``/api/datasets/:id/experiments``), run on the server and watched from the
notebook: a :class:`MastraExperiment` polls one (``waiting.poll``, in a task on the event loop) and
fills an :class:`~mastra_notebook.runs.experiment.Experiment`'s cells with run results, one per item,
as ``agent.experiment``'s are: the output's text, usage, status, error, trace id and Mastra's scores
(``scores.run_scores``). It draws nothing: the experiment's grid shows it.

With a budget, the notebook drives the experiment instead (Mastra's caller-driven loop: the experiment
created with ``start: false``, each item run on the server by ``POST .../items/:itemId/run``, which
answers with its result row and scores, then ``POST .../finalize``), so that it can stop asking once
the budget is crossed: Mastra counts the items never run as skipped.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from collections.abc import Generator, Mapping
from typing import Any
from urllib.parse import quote

from ..analysis.outcomes import BASELINE, Outcome
from ..core.captions import excerpt
from ..core.cost import Cost, combine, step_price
from ..core.records import ExperimentRecord
from ..core.result import ErrorInfo, RunResult, Usage
from ..core.run import never_ran
from ..core.score import Score
from ..runs.budget import Budget
from ..runs.experiment import Experiment
from ..runs.loops import Work, run_nested, schedule
from .scores import mastra_score, run_scores, scores_path
from .transport import MastraError, Transport
from .waiting import Clock, Sleep, paginate, poll

FIRST_PAUSE = 0.25  # seconds before the first re-read of an experiment; doubles up to MAX_PAUSE
MAX_PAUSE = 2.0
EXPERIMENT_TIMEOUT = 1800.0  # seconds an experiment is watched at most
SCORES_TIMEOUT = 30.0  # seconds to wait, after it completed, for every item's scores
ENDED = ("completed", "failed")
CONCURRENCY = 5  # items a driven experiment runs at once unless told: Mastra's own default
DRIVEN = "drivenByNotebook"  # its metadata's key: the notebook that started it runs its items


def _json(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, default=str)


def output_text(output: Any) -> Any:
    """What an item's run answered: its text (``output.text``), else the output as given."""
    return output.get("text") if isinstance(output, Mapping) and "text" in output else output


def error_text(row: Mapping[str, Any]) -> str | None:
    """An item's error, from its row or its output (a message, or the error object's message)."""
    output = row.get("output")
    for found in (row.get("error"), output.get("error") if isinstance(output, Mapping) else None):
        said = (found.get("message") or _json(found)) if isinstance(found, Mapping) else found
        if said:
            return str(said)
    return None


# ---- one experiment, watched ------------------------------------------------------------------------


class MastraExperiment:
    """Mastra's experiment of a dataset on an agent, run on the server and watched by a task on the
    event loop: it fills an :class:`Experiment`'s cells (a run result per item: its output text,
    scores, status, error and trace id) as the server's results and scores are read. ``status``,
    ``progress`` and ``error`` say how it stands (``exp.remote``). ``scorers``: the ids it was
    started with, their scores in that order; None when not known (one started elsewhere): every
    scorer's that scored it, by id. ``budget``: the notebook drives it (see the module), ``concurrency``
    items at a time, and the items still queued once the budget is crossed never run."""

    def __init__(
        self,
        transport: Transport,
        dataset_path: str,
        experiment: Experiment,
        experiment_id: str,
        *,
        agent_id: str,
        scorers: list[str] | None,
        timeout: float = EXPERIMENT_TIMEOUT,
        scores_timeout: float = SCORES_TIMEOUT,
        budget: Budget | None = None,
        concurrency: int = CONCURRENCY,
        request_context: Mapping[str, Any] | None = None,
        driven_elsewhere: bool = False,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.transport, self.experiment = transport, experiment
        self.budget, self.concurrency = budget, concurrency
        self.request_context = dict(request_context) if request_context else None
        self.driven_elsewhere = (
            driven_elsewhere  # reattached to one a notebook drives: no server runs the rest
        )
        experiment.batch.budget = budget  # the summary and the grid say it, as for agent.experiment
        self.id = experiment_id
        self.agent = agent_id
        self.scorers = scorers
        self.record = ExperimentRecord(id=experiment_id)  # as the server last described it
        self.error: str | None = None
        self.timeout, self.scores_timeout, self.clock, self.sleep = timeout, scores_timeout, clock, sleep
        self._task: Work | None = None
        self._ended = False
        self._counted = 0  # items ended as the server counted them when their results were last read
        self.path = f"{dataset_path}/experiments/{quote(experiment_id, safe='')}"
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
        return self.record.status or "pending"

    @property
    def done(self) -> bool:
        """Whether the notebook is done with it: ended on the server and its results and scores read."""
        return self._ended

    @property
    def progress(self) -> tuple[int, int, int]:
        """``(succeeded, failed, total)`` items as the server counts them."""
        r = self.record
        return int(r.succeeded_count or 0), int(r.failed_count or 0), int(r.total_items or 0)

    def describe(self) -> str:
        """How it stands, in words (the grid's progress line)."""
        succeeded, failed, total = self.progress
        said = f"{self.status} on the server · {succeeded + failed} of {total or '?'} items ended"
        said += f" ({failed} failed)" if failed else ""
        return f"{said} · {self.error}" if self.error else said

    def take(self, record: Any) -> None:
        """The server's record of the experiment (as its start or ``GET .../:eid`` answered)."""
        if isinstance(record, Mapping):
            self.record = ExperimentRecord.model_validate({**self.record.to_dict(), **record, "id": self.id})

    def start(self) -> None:
        """Watch from a task on the event loop (the cell returns; the grid updates)."""
        self._task = schedule(self._watch())

    async def _watch(self) -> None:
        try:
            await (self.poll() if self.budget is None else self.drive())
        except asyncio.CancelledError:  # stop()
            driven = self.budget is not None
            self.error = (
                "stopped: its other items never run"
                if driven
                else "the notebook stopped watching; the server goes on"
            )
        except Exception as error:  # a broken connection, an answer not understood: said, not raised
            self.error = f"the notebook stopped watching: {error}"
        finally:
            self._ended = True
            self.experiment.remote_changed()

    async def poll(self) -> None:
        """Read the record until it ended (``waiting.poll``, ``timeout`` at most), filling the cells
        of the items that ended meanwhile as the server's counts grow (with the scores there are),
        then the results and every item's scores (each scorer of each succeeded item,
        ``scores_timeout`` at most), and fill the experiment's cells."""
        transport = self.transport

        async def read() -> str:
            self.take(await transport.send("GET", self.path))
            if self.status not in ENDED:
                await self.fill_so_far()
            return self.status

        polled = await poll(
            read, lambda status: status in ENDED or self.driven_elsewhere, timeout=self.timeout,
            first=FIRST_PAUSE, longest=MAX_PAUSE, clock=self.clock, sleep=self.sleep,
        )  # fmt: skip
        if self.status not in ENDED and self.driven_elsewhere:
            self.fill(await self.results(), await self.read_scores(0, 0.0))
            self.error = (
                "the kernel that started it runs its items one by one (it had a budget), and Mastra runs "
                "none of them: the results so far are shown; client.experiment(id) again reads more"
            )
            return
        if not polled.done:
            self.error = (
                f"still {self.status} after {self.timeout:g} s: the notebook stopped watching; "
                f"the server goes on (GET {self.path})"
            )
            return
        results = await self.results()
        if self.status == "failed":
            self.error = self.failure(results)
        succeeded, _, _ = self.progress
        wanted = succeeded * len(self.scorers) if self.scorers is not None else 0  # unknown: one read
        self.fill(results, await self.read_scores(wanted, self.scores_timeout))

    async def drive(self) -> None:
        """Run each item on the server, ``concurrency`` at a time, in the items' order, each filling
        its cell as it ends and counted by the budget; once the budget is crossed the queued items
        never run (their cells say which limit stopped them) and the running ones finish. Then
        Mastra is told it ended (its record: the items run, the rest skipped)."""
        assert self.budget is not None
        budget, slots = self.budget, asyncio.Semaphore(self.concurrency)
        body = {"requestContext": self.request_context} if self.request_context else {}
        model = await self.model()

        async def run(place: int) -> None:
            async with slots:
                crossed = budget.crossed()
                if crossed:
                    self.never_ran(place, crossed)
                    return
                budget.starting()
                item = quote(str(self.experiment.items[place].id), safe="")
                try:
                    answer = await self.transport.send("POST", f"{self.path}/items/{item}/run", json=body)
                except MastraError as error:  # this item failed to run: the others go on
                    self.never_ran(place, f"Mastra could not run this item: {error}", error=True)
                    return
                row = answer.get("result") if isinstance(answer, Mapping) else None
                given = answer.get("scores") if isinstance(answer, Mapping) else None
                scores = [mastra_score(s) for s in given or [] if isinstance(s, Mapping) and "scorerId" in s]
                result = run_result(row if isinstance(row, Mapping) else {}, self.agent, scores, model)
                budget.spent(result)
                self.settle(place, result)
                self.experiment.remote_changed()

        try:
            await asyncio.gather(*(run(place) for place in range(len(self.cells))))
        finally:  # stopped (exp.stop()) or not: the rest never run, and what ran is Mastra's record
            for place, cell in enumerate(self.cells):
                if cell.saved is None:
                    self.never_ran(place, "stopped before its turn")
            self.take(await self.transport.send("POST", f"{self.path}/finalize"))

    async def model(self) -> tuple[Any, Any]:
        """The agent's model and provider for this experiment's request context (Mastra's result rows
        name none): what prices each item's usage, for ``max_cost_usd``."""
        query = {"requestContext": json.dumps(self.request_context)} if self.request_context else None
        details = await self.transport.send("GET", f"/api/agents/{quote(self.agent, safe='')}", params=query)
        if not isinstance(details, Mapping):
            return None, None
        return details.get("modelId"), details.get("provider")

    def never_ran(self, place: int, reason: str, *, error: bool = False) -> None:
        """Item ``place``'s cell: it never ran (aborted, or an error when ``error``; ``reason`` says why)."""
        self.settle(place, never_ran(reason, error=error).result)
        self.experiment.remote_changed()

    def settle(self, place: int, result: RunResult) -> None:
        """Item ``place``'s run ended with ``result``: its cell (its tile is drawn again)."""
        self.experiment.settle(self.cells[place], Outcome(place, BASELINE, 0, result.status, result))

    async def fill_so_far(self) -> None:
        """While it runs: when the server counts more ended items than at the last read, the results
        there are, each with the scores there are (one read each, no wait), in their cells."""
        succeeded, failed, _ = self.progress
        if succeeded + failed <= self._counted:
            return
        self._counted = succeeded + failed
        results = await self.results()
        self.fill(results, await self.read_scores(0, 0.0))
        self.experiment.remote_changed()

    async def results(self) -> list[dict[str, Any]]:
        """The server's result rows so far (one per item that ended)."""
        rows = await paginate(self.transport, f"{self.path}/results", "results")
        return [dict(r) for r in rows if isinstance(r, Mapping)]

    def fill(self, results: list[dict[str, Any]], scores: dict[str, list[Score]]) -> None:
        """Each result row, with its item's ``scores``, in its item's cell (one not changed is left be)."""
        places = {item.id: n for n, item in enumerate(self.experiment.items)}
        for row in results:
            place = places.get(str(row.get("itemId")))
            if place is not None:
                result = run_result(row, self.agent, scores.get(str(row.get("itemId")), []))
                saved = self.cells[place].saved
                if saved is None or saved.result != result:
                    self.settle(place, result)

    async def read_scores(self, wanted: int, timeout: float) -> dict[str, list[Score]]:
        """Mastra's scores of the experiment, by item id (``scores.run_scores``), read until there
        are ``wanted`` (one read when 0) or ``timeout``; fewer than ``wanted`` are said in ``error``."""
        if self.scorers == []:
            return {}
        found = await run_scores(
            self.transport, self.id, self.scorers, lambda found: len(found) >= wanted,
            timeout=timeout, key=lambda row: (str(row.get("entityId")), str(row["scorerId"])),
            clock=self.clock, sleep=self.sleep,
        )  # fmt: skip
        by_item: dict[str, dict[str, Mapping[str, Any]]] = {}
        for (item, scorer), row in found.items():
            by_item.setdefault(item, {})[scorer] = row
        if len(found) < wanted:
            where = scores_path(self.id)
            note = f"{len(found)} of {wanted} scores came within {timeout:g} s (GET {where})"
            self.error = f"{self.error}; {note}" if self.error else note
        return {
            item: [mastra_score(rows[s]) for s in (self.scorers or sorted(rows)) if s in rows]
            for item, rows in by_item.items()
        }

    def failure(self, results: list[dict[str, Any]]) -> str:
        """Why it failed, as far as Mastra's API says: its counts and its items' errors; the rest is
        only in the server's log."""
        succeeded, failed, total = self.progress
        errors = [e for e in (error_text(r) for r in results) if e]
        if errors:
            first = excerpt(errors[0], 300)
            return f"{failed} of {total} items failed ({succeeded} succeeded); the first said: {first}"
        began = "never began" if not self.record.started_at else f"{succeeded} of {total} items succeeded"
        return (
            f"Mastra failed the experiment ({began}, {failed} failed) and gives no reason over HTTP: "
            f"the server's log has it, on a line 'Experiment {self.id} failed: ...'"
        )

    def stop(self) -> None:
        """Stop watching (the experiment goes on on the server); a driven one (with a budget) runs
        no more of its items, and Mastra is told it ended with those that ran."""
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


def run_result(
    row: Mapping[str, Any], agent_id: str, scores: list[Score], model: tuple[Any, Any] | None = None
) -> RunResult:
    """One of Mastra's experiment results as a run result: its output text, usage, status, error,
    trace id and scores (what a notebook-run experiment's cell holds); priced as one step of
    ``model`` (its id and provider) when given, else its cost is unknown."""
    output = row.get("output")
    usage = output.get("usage") if isinstance(output, Mapping) else None
    usage = usage if isinstance(usage, Mapping) else {}
    error = error_text(row)
    text = output_text(output)
    tokens = {
        k: int(usage.get(m) or 0)
        for k, m in (("input_tokens", "inputTokens"), ("output_tokens", "outputTokens"))
    }
    trace = row.get("traceId")
    counted = Usage(**tokens, total_tokens=sum(tokens.values()))
    return RunResult(
        agent_id=agent_id,
        status="error" if error else "finished",
        text=text if isinstance(text, str) else ("" if text is None else _json(text)),
        usage=counted,
        usage_with_nested=counted,  # Mastra's row tells of no run nested in it
        cost=combine([step_price(1, *model, tokens)], []) if model is not None else Cost(),
        error=ErrorInfo(message=error) if error else None,
        trace_id=trace if isinstance(trace, str) else None,
        scores=scores,
    )
