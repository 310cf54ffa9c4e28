"""A run's scores on a Mastra server: ``agent.stream(prompt, scorers=["completeness-scorer", fn])``.

Mastra's scorers are named by id in the request body (``scorers: {id: {scorer: id}}``, which
replaces the agent's own). A wrong id gives no score and no error on the server, so the ids are
checked first against ``GET /api/scores/scorers`` (read once per client): an unknown one ends the run
before anything is posted, with the ids there are. Mastra scores a run after its stream ends: its
scores are read from ``GET /api/scores/run/:runId``, polled with a growing pause until each scorer
has reported, for a bounded time (``run_scores``: the one reader of a run's scores, every
page). Python scorers run in the kernel, off the loop, on the final result. Every request goes
through the client's Transport.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from ..core.chunks import coerce
from ..core.recording import Recording
from ..core.run import Run
from ..core.score import Score, Scorer, as_scorer
from .transport import MastraError, Transport
from .waiting import Clock, Sleep, paginate, poll

SCORES_TIMEOUT = 30.0  # seconds to wait for Mastra's scores after the stream (an LLM judge is slow)
FIRST_PAUSE = 0.1  # code scorers report in about 0.1 s
MAX_PAUSE = 2.0


class KnownScorers:
    """The ids of the server's scorers (``GET /api/scores/scorers``), read once per client and again
    when an id is not among them (a scorer added since)."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.ids: frozenset[str] | None = None
        self.listed: Mapping[str, Any] = {}

    def remember(self, listed: Any) -> None:
        """What ``GET /api/scores/scorers`` answered: scorers by id."""
        self.listed = listed if isinstance(listed, Mapping) else {}
        self.ids = frozenset(str(key) for key in self.listed)

    async def attached(self, agent_id: str) -> list[str]:
        """The ids of the scorers the server attached to ``agent_id`` that score every run (sampling
        rate 1, or none given): those Mastra runs when a request names no scorers. A scorer that
        samples runs may not score this one, so it is not waited for. Raises MastraError when the
        server cannot list them."""
        if self.ids is None:
            self.remember(await self.transport.send("GET", "/api/scores/scorers"))
        found = []
        for scorer_id, listed in self.listed.items():
            entry = listed if isinstance(listed, Mapping) else {}
            sampling = entry.get("sampling")
            every = (
                not isinstance(sampling, Mapping)
                or sampling.get("type") == "none"
                or sampling.get("rate") == 1
            )
            if agent_id in (entry.get("agentIds") or ()) and every:
                found.append(str(scorer_id))
        return found

    async def unknown(self, ids: Iterable[str]) -> list[str]:
        """Those of ``ids`` the server has no scorer for (raises MastraError when it cannot say)."""
        wanted = list(ids)
        if self.ids is None or not set(wanted) <= self.ids:
            self.remember(await self.transport.send("GET", "/api/scores/scorers"))
        assert self.ids is not None
        return [scorer_id for scorer_id in wanted if scorer_id not in self.ids]

    def refuse_unknown(self, ids: Iterable[str]) -> None:
        """Before something is started on the server (a dataset's experiment): ValueError, naming the
        ids the server has, when one of ``ids`` is not among them (raises MastraError when the server
        cannot list them)."""
        wanted = list(ids)
        if self.ids is None or not set(wanted) <= self.ids:
            self.remember(self.transport.call("GET", "/api/scores/scorers"))
        unknown = [scorer_id for scorer_id in wanted if scorer_id not in (self.ids or ())]
        if unknown:
            raise ValueError(
                self.refusal(unknown, "Mastra would fail the experiment and say why only in its log")
            )

    def refusal(self, unknown: list[str], consequence: str) -> str:
        """What an unknown id is told: the ids this server has, and what Mastra would have done."""
        there = ", ".join(sorted(self.ids or ())) or "none"
        names = ", ".join(repr(scorer_id) for scorer_id in unknown)
        return (
            f"unknown Mastra scorer {names}: this server's scorers are {there} "
            f"(GET /api/scores/scorers; {consequence})"
        )


def split(scorers: Iterable[Any]) -> tuple[list[str], list[Scorer]]:
    """Mastra's scorer ids (strings, each once, in order) and Python scorers (functions or
    ``mn.scorer(...)``); TypeError for anything else."""
    ids: list[str] = []
    python: list[Scorer] = []
    for given in [scorers] if isinstance(scorers, str) else scorers:
        if isinstance(given, str):
            if given not in ids:
                ids.append(given)
        elif callable(given):
            python.append(as_scorer(given))
        else:
            raise TypeError(f"a scorer is a Mastra scorer id (str) or a Python function, not {given!r}")
    return ids, python


@dataclass
class Scoring:
    """The scorers of one run and how to read their scores (a RunSession's ``scoring``).

    ``input`` and ``expected`` are given to the Python scorers; ``sleep`` and ``clock`` time the
    polling (injected by tests)."""

    transport: Transport
    known: KnownScorers
    mastra: list[str]
    python: list[Scorer]
    input: Any = None
    expected: Any = None
    timeout: float = SCORES_TIMEOUT
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    attached_to: str | None = None  # no scorers given: read those Mastra attached to this agent
    checked: bool = field(default=False, init=False)
    scored: bool = field(default=False, init=False)

    @classmethod
    def make(
        cls,
        transport: Transport,
        known: KnownScorers,
        scorers: Iterable[Any],
        *,
        agent: str | None = None,
        **given: Any,
    ) -> Scoring | None:
        """The scoring of ``scorers`` (Mastra ids and Python functions). Without any, the scores of the
        scorers the server attached to ``agent`` (learnt after the run; nothing when it has none), or
        None when no agent is given."""
        ids, python = split(scorers)
        if ids or python:
            return cls(transport, known, ids, python, **given)
        return cls(transport, known, [], [], attached_to=agent, **given) if agent is not None else None

    def body(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``body`` naming Mastra's scorers as the server takes them (a map, never a list: a list is
        refused with 400); they replace the agent's own. Without Mastra ids, the body as given."""
        if not self.mastra:
            return dict(body)
        return {**body, "scorers": {scorer_id: {"scorer": scorer_id} for scorer_id in self.mastra}}

    async def check(self, run: Run) -> bool:
        """Before the first post: False (and the run ended in error, saying which ids the server has)
        when a Mastra scorer id is unknown. A server that cannot list its scorers is not refused."""
        if self.checked or not self.mastra:
            return True
        self.checked = True
        try:
            unknown = await self.known.unknown(self.mastra)
        except MastraError as error:
            run.note("warning", f"could not check the scorer ids with the server: {error.problem}")
            return True
        if not unknown:
            return True
        run.mark_error(self.known.refusal(unknown, "Mastra would score nothing and say nothing"))
        return False

    async def collect(self, run: Run, recording: Recording | None = None) -> None:
        """After the run's last stream: Mastra's scores (polled) and the Python scorers' (run now),
        added to the run in the order asked for. The view says "scoring…" meanwhile. A suspended run
        is scored once it is continued to its end. Mastra scores each request as a run of its own: a
        run with client-tool rounds has its scores read from its last round (the one that answered),
        found in its ``recording``."""
        if self.scored or run.status in ("running", "suspended"):
            return
        self.scored = True
        if self.attached_to is not None and run.status == "finished":
            try:  # not asked for: a server that cannot say has nothing to read
                self.mastra = await self.known.attached(self.attached_to)
            except MastraError:
                return
        if not self.mastra and not self.python:
            return
        run.scoring(True)
        try:
            result = run.result
            given = {"input": self.input, "expected": self.expected}
            last = last_run_id(recording) if recording is not None else None
            mastra, python = await asyncio.gather(
                self._mastra_scores(run, last),
                asyncio.gather(*(s.ascore(result, **given) for s in self.python)),
            )
            run.add_scores([*mastra, *python])
        finally:
            run.scoring(False)

    async def _mastra_scores(self, run: Run, run_id: str | None) -> list[Score]:
        """Mastra's scores of a finished run (of ``run_id``, its last request's, else its own), read
        until every scorer asked for has reported, or ``timeout`` (then a warning names those that
        did not)."""
        run_id = run_id or run.result.run_id
        if not self.mastra or run.status != "finished" or run_id is None:
            return []  # Mastra scores only a run that finished
        try:
            found = await run_scores(
                self.transport, run_id, self.mastra, lambda found: len(found) == len(self.mastra),
                timeout=self.timeout, clock=self.clock, sleep=self.sleep,
            )  # fmt: skip
        except MastraError as error:
            run.note("warning", f"could not read Mastra's scores of this run: {error.problem}")
            found = {}
        missing = [scorer_id for scorer_id in self.mastra if scorer_id not in found]
        if missing:
            path = scores_path(run_id)
            run.note(
                "warning",
                f"Mastra's scorer {', '.join(missing)} did not report within {self.timeout:g} s (GET {path})",
            )
        return [mastra_score(found[scorer_id]) for scorer_id in self.mastra if scorer_id in found]


def scores_path(run_id: str) -> str:
    """Where Mastra lists the scores of a run (or of an experiment: its items are its entities)."""
    return f"/api/scores/run/{quote(run_id, safe='')}"


async def run_scores(
    transport: Transport,
    run_id: str,
    ids: list[str] | None,
    enough: Callable[[dict[Any, Mapping[str, Any]]], bool],
    *,
    timeout: float,
    key: Callable[[Mapping[str, Any]], Any] = lambda row: row["scorerId"],
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> dict[Any, Mapping[str, Any]]:
    """The one reader of a run's scores: every page of ``GET /api/scores/run/:runId``, read again
    (``waiting.poll``) until ``enough`` of what was found or ``timeout``; the latest row of each of
    ``ids``' scorers (None: of every scorer there) by ``key`` (the scorer's id; an experiment's
    ``(item, scorer)``)."""
    path = scores_path(run_id)

    async def read() -> dict[Any, Mapping[str, Any]]:
        return latest_rows(await paginate(transport, path, "scores"), ids, key)

    return (
        await poll(
            read, enough, timeout=timeout, first=FIRST_PAUSE, longest=MAX_PAUSE, clock=clock, sleep=sleep
        )
    ).value


def last_run_id(recording: Recording) -> str | None:
    """The run id of the last chunk that names one: the last request's run."""
    for item in reversed(recording.items):
        chunk = coerce(item)
        run_id = chunk.get("runId") if isinstance(chunk, dict) else None
        if isinstance(run_id, str):
            return run_id
    return None


def latest_rows(
    rows: list[Any], ids: list[str] | None, key: Callable[[Mapping[str, Any]], Any]
) -> dict[Any, Mapping[str, Any]]:
    """The latest of Mastra's score ``rows`` of each of ``ids``' scorers (None: every scorer's), by
    ``key``."""
    found: dict[Any, Mapping[str, Any]] = {}
    for row in rows:
        if isinstance(row, Mapping) and "scorerId" in row and (ids is None or row["scorerId"] in ids):
            kept = found.get(key(row))
            if kept is None or str(row.get("createdAt", "")) >= str(kept.get("createdAt", "")):
                found[key(row)] = row
    return found


def mastra_score(row: Mapping[str, Any]) -> Score:
    """One of Mastra's score rows as a Score."""
    value = row.get("score")
    reason = row.get("reason")
    return Score(
        scorer=str(row["scorerId"]),
        score=float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None,
        reason=reason if isinstance(reason, str) else None,
        source="mastra",
    )
