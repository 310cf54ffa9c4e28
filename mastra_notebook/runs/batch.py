"""Many runs at bounded concurrency: scheduling, each run's status and result, and ``wait``.

No widget library here (an import-linter contract keeps it so): a :class:`Batch` runs anything that
streams in the background once started (a :class:`RunHandle`: a RunStream, or a StreamView showing
one) on the event loop the batch was filled on, or on the private loop's thread in a plain script. A
Gallery shows one page by page; a script can use one as it is.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections import deque
from collections.abc import Awaitable, Callable, Generator, Iterator
from typing import Any, Generic, Literal, Protocol, TypeVar

from ..analysis.outcomes import failure
from ..core.result import RunResult
from ..core.run import Run, never_ran
from .budget import Budget
from .loops import private_loop, run_nested, running_loop

Streaming = Callable[[], Awaitable[None]]  # the work that streams into a run's handle
Probe = Callable[[], Awaitable[Any]]  # returns once the server answers again
# what happened to a job (see Batch's on_change); "waiting": the queue paused or went on after it
Event = Literal["queued", "started", "paused", "ended", "waiting"]
WAITING = "waiting for the server"  # what the batch's notes say while its queue is paused
GROUPS = ("queued", "running", "done", "stopped", "error")  # counts()'s keys, in the summary's order


def group_of(status: str) -> str:
    """The counts' group of a run that ended with ``status``: done (finished), stopped (by a person:
    aborted) or error (any other end)."""
    return {"finished": "done", "aborted": "stopped"}.get(status, "error")


class RunHandle(Protocol):
    """What a batch runs: a run that streams in the background once started (a RunStream, or a
    StreamView showing one).

    Its ``streaming`` is watched (``on_streaming``): it turns off when a stream ends, and on again
    when a run that waited for a person goes on.
    """

    @property
    def streaming(self) -> bool:
        """The run streams now."""

    @property
    def result(self) -> RunResult:
        """The run's RunResult so far."""

    def start(self, work: Streaming) -> None:
        """Run ``work()`` in the background, streaming into this handle."""

    def stop(self) -> None:
        """Stop streaming now, settling the run as aborted."""

    def on_streaming(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(streaming)`` whenever the run starts or stops streaming."""


H = TypeVar("H", bound=RunHandle)
StartJob = Callable[[], tuple[H, Streaming]]  # makes a run's handle and the work that streams into it


class Job(Generic[H]):
    """One run of a batch: queued, then running in its handle, then ended.

    An ended job keeps its RunResult and lets go of its handle (a batch of hundreds holds no
    widget it does not show). A run that waits for a person (``suspended``) has not ended: it keeps
    its handle, to go on there (approve, resume).
    """

    def __init__(self, index: int, prompt: Any, start: StartJob[H]) -> None:
        self.index = index
        self.prompt = prompt
        self.handle: H | None = None  # while it runs (or waits for a person)
        self.run: Run | None = None  # the Run the batch made for a job that never ran (stopped, failed)
        self.ended = False  # for good: a run waiting for a person has not (it may go on in its view)
        self._start: StartJob[H] | None = start  # None once started or stopped
        self._result: RunResult | None = None  # kept as it ended
        self._queued_result: RunResult | None = None

    @property
    def queued(self) -> bool:
        """Waiting for its turn: not started."""
        return self.handle is None and not self.ended

    @property
    def running(self) -> bool:
        """Its run streams now."""
        return self.handle is not None and not self.ended and bool(self.handle.streaming)

    @property
    def status(self) -> str:
        """``queued``, ``running``, or the run's own status (``finished``, ``error``, ``suspended``...)."""
        if self.queued:
            return "queued"
        return "running" if self.running else self.result.status

    @property
    def group(self) -> str:
        """The counts' group: queued, running, done (finished), stopped (by a person: aborted) or
        error (any other end)."""
        if self.queued or self.running:
            return self.status
        if not self.ended and self.result.status == "running":  # given its handle, not yet streaming
            return "running"
        return group_of(self.result.status)

    @property
    def result(self) -> RunResult:
        """The run's RunResult so far (an empty, running one while queued)."""
        if self._result is not None:
            return self._result
        if self.handle is not None:
            return self.handle.result
        if self._queued_result is None:
            self._queued_result = Run().result
        return self._queued_result

    def _end(self, result: RunResult) -> None:
        self.ended, self._result, self._start = True, result, None

    def __repr__(self) -> str:
        return f"<Job #{self.index}: {self.status}>"


class Batch(Generic[H]):
    """Runs started at most ``concurrency`` at a time, in the order they were submitted.

    ``submit(start)`` queues one (``start()`` makes its handle and work when its turn comes);
    ``wait()`` or ``await batch`` for the results in submission order; ``results`` and ``counts()``
    as far as the runs got; ``stop()`` stops them all. ``on_change(job, event)`` is called on the
    batch's loop when a job is queued, starts, waits for a person (``paused``) or ends, and
    (``waiting``, with the job the transport failed) when the queue pauses or goes on.

    ``budget``: limits on what the runs spend in all (:class:`~.budget.Budget`); once one is crossed
    the queued runs never start (aborted, the budget's words their reason), the running ones finish.
    ``probe``: waits until the server answers again; given, a run the transport failed (refused,
    reset, timed out, HTTP 5xx after the transport's own retries) pauses the queue (``waiting``) until
    it returns, instead of failing every queued run in turn.
    """

    def __init__(
        self,
        concurrency: int = 4,
        *,
        on_change: Callable[[Job[H], Event], None] | None = None,
        budget: Budget | None = None,
        probe: Probe | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency
        self.jobs: list[Job[H]] = []
        self.budget = budget
        self.waiting = False  # the queue is paused: a run failed by the transport, the server is probed
        self._probe = probe
        self._probing: asyncio.Task[None] | None = None
        self._on_change = on_change
        self._queue: deque[Job[H]] = deque()
        self._running = 0  # jobs holding a slot of the concurrency limit
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle = asyncio.Event()  # set when no job is queued or streaming
        self._idle.set()

    # ---- scheduling -------------------------------------------------------------------------------

    def submit(self, start: StartJob[H], *, prompt: Any = None) -> Job[H]:
        """Queue one run: ``start()`` makes its handle and the work that streams into it, once a slot
        is free (nothing is made before)."""
        job: Job[H] = Job(len(self.jobs), prompt, start)
        self.jobs.append(job)
        self._queue.append(job)
        self._idle.clear()
        loop = self._loop = self._loop or running_loop() or private_loop()
        if running_loop() is loop:
            self._arrived(job)
        else:  # a plain script: the runs (and the batch's state) live on the private loop's thread
            loop.call_soon_threadsafe(self._arrived, job)
        return job

    @property
    def idle(self) -> bool:
        """No run is queued or streaming."""
        return self._idle.is_set()

    def _arrived(self, job: Job[H]) -> None:
        self._notify(job, "queued")
        self._dispatch()

    def _notify(self, job: Job[H], event: Event) -> None:
        if self._on_change is not None:
            self._on_change(job, event)

    def _dispatch(self) -> None:
        """Start queued jobs while slots are free, the server answers and the budget holds (on the
        loop the runs live on)."""
        crossed = self.budget.crossed() if self.budget is not None and self._queue else ""
        if crossed:
            self._stop_queued(crossed)
        while not self.waiting and self._running < self.concurrency and self._queue:
            self._begin(self._queue.popleft())
        self._settle()

    def _begin(self, job: Job[H]) -> None:
        start, job._start = job._start, None
        if start is None:  # stopped while queued
            return
        try:
            handle, work = start()
        except Exception as error:  # a bad prompt or option: that job says why, the others go on
            self._never_ran(job, error=f"could not start this run: {type(error).__name__}: {error}")
            return
        job.handle = handle
        self._running += 1
        if self.budget is not None:
            self.budget.starting()
        holding = [True]  # the concurrency slot, given back when the first stream ends

        def on_streaming(streaming: bool) -> None:
            if streaming:  # a run waiting for a person goes on (approve, resume)
                self._idle.clear()
                return
            if holding[0]:
                holding[0] = False
                self._running -= 1
            self._stream_ended(job)

        handle.on_streaming(on_streaming)
        self._notify(job, "started")
        handle.start(work)

    def _stream_ended(self, job: Job[H]) -> None:
        handle = job.handle
        if handle is None or job.ended:
            return
        suspended = handle.result.status == "suspended"  # a waiting run may go on: not ended
        if not suspended:
            job._end(handle.result)
            if self.budget is not None:
                self.budget.spent(handle.result)
        self._notify(job, "paused" if suspended else "ended")
        if not suspended:
            job.handle = None  # let go: what showed it may close it
            if failure(job.result.status, job.result) == "transport":
                self._pause(job)
        self._dispatch()

    def _pause(self, job: Job[H]) -> None:
        """The transport failed ``job``'s run: with a probe, and runs queued, the queue waits until
        the server answers again."""
        if self._probe is None or self.waiting or not self._queue:
            return
        self.waiting = True
        self._notify(job, "waiting")
        self._probing = asyncio.get_running_loop().create_task(self._go_on(job, self._probe))

    async def _go_on(self, job: Job[H], probe: Probe) -> None:
        await probe()  # cancelled by stop()
        self.waiting, self._probing = False, None
        self._notify(job, "waiting")
        self._dispatch()

    def _never_ran(self, job: Job[H], *, error: str = "", aborted: str = "") -> None:
        run = job.run = never_ran(error or aborted, error=bool(error))
        job._end(run.result)
        self._notify(job, "ended")

    def _settle(self) -> None:
        if not self._queue and not any(job.running for job in self.jobs):
            self._idle.set()

    def _stop_queued(self, reason: str) -> None:
        """The queued runs never start: each aborted with ``reason``."""
        while self._queue:
            job = self._queue.popleft()
            job._start = None
            self._never_ran(job, aborted=reason)

    def stop(self) -> None:
        """Stop every run: the queued ones never start (aborted), the streaming ones stop."""
        probing, self._probing = self._probing, None
        if probing is not None:
            self.waiting = False
            if self._loop is None or running_loop() is self._loop:
                probing.cancel()
            else:  # a plain script: the probe runs on the private loop's thread
                self._loop.call_soon_threadsafe(probing.cancel)
        self._stop_queued("stopped before its turn")
        for job in self.jobs:
            if job.handle is not None:
                job.handle.stop()
        self._settle()

    def notes(self) -> list[str]:
        """What a summary line says beside the counts: "waiting for the server" while the queue is
        paused, and the budget (which limit stopped the runs and at what figure, or what is spent)."""
        said = self.budget.said() if self.budget is not None else ""
        return [*([WAITING] if self.waiting else []), *([said] if said else [])]

    # ---- results --------------------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        """How many runs are queued, running, done (finished), stopped (aborted) and ended otherwise
        (error, blocked, suspended, incomplete)."""
        counts = dict.fromkeys(GROUPS, 0)
        for job in self.jobs:
            counts[job.group] += 1
        return counts

    @property
    def results(self) -> list[RunResult]:
        """Every run's RunResult so far, in submission order."""
        return [job.result for job in self.jobs]

    def wait(self, timeout: float | None = None, *, stop: bool = True) -> list[RunResult]:
        """Block until no run is queued or streaming; the results in submission order. Works in a
        plain script and in a cell; interrupting stops the batch (queued runs never start) and
        returns what there is, or, when not ``stop``, raises KeyboardInterrupt and the runs go on."""
        idle, loop = self._idle, self._loop
        try:
            if loop is not None and not idle.is_set():
                if running_loop() is loop:
                    run_nested(asyncio.ensure_future(idle.wait()), timeout)
                else:
                    asyncio.run_coroutine_threadsafe(idle.wait(), loop).result(timeout)
        except (TimeoutError, asyncio.TimeoutError, concurrent.futures.TimeoutError):
            raise TimeoutError(f"the batch did not end within {timeout} s") from None
        except KeyboardInterrupt:
            if not stop:
                raise
            self.stop()
        return self.results

    def __await__(self) -> Generator[Any, None, list[RunResult]]:
        if not self._idle.is_set():
            yield from self._idle.wait().__await__()
        return self.results

    def __len__(self) -> int:
        return len(self.jobs)

    def __getitem__(self, index: int) -> Job[H]:
        return self.jobs[index]

    def __iter__(self) -> Iterator[Job[H]]:
        return iter(self.jobs)

    def __repr__(self) -> str:
        counts = " · ".join([*(f"{n} {group}" for group, n in self.counts().items() if n), *self.notes()])
        return f"<Batch of {len(self.jobs)} runs, {self.concurrency} at a time: {counts or 'empty'}>"
