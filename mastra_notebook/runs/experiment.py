"""An experiment: every input run with every variant (and again, ``repeats`` times), scored,
summarised per variant, saved and reopened. No widget: a plain script runs one as it is; the widget
layer shows it as a live grid (inputs are rows, variants columns), wired in by the package
(:func:`shown_with`; widget/experiment_view.py draws it).

The runs go through a :class:`Batch` at the experiment's concurrency. A run that ended keeps its
RunResult and recording (and its reducer state), not its stream or view. The numbers are
analysis/outcomes.py's; what starts a run on a server is the client's (``agent.experiment``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..analysis import outcomes as numbers
from ..analysis.agreement import Agreement, Level, Rater, keyed, scorer_labels
from ..analysis.agreement import agreement as rater_agreement
from ..analysis.intervals import INTERVAL_RULE, paired
from ..analysis.outcomes import BASELINE, Comparisons, Item, Outcome
from ..analysis.pairwise import Pairwise, as_judge, judged_pairs
from ..analysis.repeats import Fork, fork, input_rows
from ..analysis.review import Book, Rubric, dataset_rows, ordered, places
from ..analysis.summary import rescored_outcomes, summary_rows
from ..core.feedback import Feedback
from ..core.recording import Recording
from ..core.result import RunResult
from ..core.run import Run
from .batch import Batch, Event, Job, Probe, RunHandle, Streaming, group_of
from .budget import Budget
from .review import Review
from .stream import KeptRun, LabelSender, opened_when_shown

__all__ = ["Experiment", "load_experiment", "shown_with"]

PAGE_TILES = 48  # cells on a page (inputs by variants): the page's DOM stays bounded


class ExperimentRun(RunHandle, Protocol):
    """What an experiment runs: a batch's run handle that keeps its run once ended (``kept``) and
    lets go of what shows it (``close``): a RunStream, or a StreamView showing one."""

    def kept(self) -> KeptRun:
        """The run, its recording and the inspector's links, kept once the handle is let go."""

    def close(self) -> None:
        """Let go of what shows the run (a view's browser model)."""


@runtime_checkable
class Titled(Protocol):
    """A run's handle with a subtitle to show (a StreamView): the experiment writes its place there."""

    subtitle: str


class Shown(Protocol):
    """An experiment's grid (widget/experiment_view.py's ``Grid``), told what changed."""

    def changed(self, cell: Cell, event: Event) -> None:
        """A run was queued, started, paused or ended."""

    def settled(self) -> None:
        """Every run ended."""

    def judged(self) -> None:
        """A pair of variants was judged (``Experiment.verdicts``): its column and figures shown."""

    def showing(self, handle: Any) -> bool:
        """``handle`` is shown in the grid's detail area (not to be closed when its run ends)."""

    def display(self) -> None:
        """Display the grid (IPython)."""

    def bundle(self, **kwargs: Any) -> dict[str, Any]:
        """The grid's MIME bundle (hosts other than IPython)."""


_SHOWN: list[tuple[Callable[[Experiment, int], Shown], Callable[[Experiment], str]]] = []


def shown_with(grid: Callable[[Experiment, int], Shown], html: Callable[[Experiment], str]) -> None:
    """How an experiment is shown: its live grid (made when first shown) and its static HTML (the
    package wires the widget layer's in, loaded only when shown: mastra_notebook/__init__.py)."""
    _SHOWN[:] = [(grid, html)]


def _shown() -> tuple[Callable[[Experiment, int], Shown], Callable[[Experiment], str]]:
    if not _SHOWN:
        raise RuntimeError("no widget layer is wired in to show an experiment (import mastra_notebook)")
    return _SHOWN[0]


class Remote(Protocol):
    """An experiment run elsewhere (Mastra's, on its server) and watched from here: it fills the
    experiment's cells (``Experiment.settle``) as its results come."""

    @property
    def done(self) -> bool:
        """Whether it ended (and its results and scores were read)."""

    def wait(self, timeout: float | None = None) -> Any:
        """Block until done."""

    def __await__(self) -> Generator[Any, None, Any]:
        """Until done."""

    def stop(self) -> None:
        """Stop watching (what runs elsewhere goes on)."""

    def describe(self) -> str:
        """How it stands, in words (the grid's progress line)."""


# start(item, variant, repeat) makes a run's handle and the work that streams into it
StartCell = Callable[[Item, str, int], tuple[ExperimentRun, Streaming]]


@dataclass(eq=False)
class Cell:
    """One run of the experiment: which input, variant and repeat; its batch job while it has one;
    what it kept once ended (its Run and recording)."""

    item: int
    variant: str
    repeat: int
    number: int  # its place in the experiment's cells
    job: Job[Any] | None = None
    kept: KeptRun | None = None
    saved: Outcome | None = None  # a reopened experiment's run: its result as saved
    recording: Recording = field(default_factory=Recording)

    @property
    def status(self) -> str:
        """``queued``, ``running``, or the run's own status."""
        if self.saved is not None:
            return self.saved.status
        return self.job.status if self.job is not None else "queued"

    @property
    def result(self) -> RunResult:
        """The run's RunResult so far (a reopened run's label as its opened view last gave it)."""
        if self.saved is not None:
            if self.kept is not None and self.kept.run.result.feedback != self.saved.result.feedback:
                return self.saved.result.model_copy(update={"feedback": self.kept.run.result.feedback})
            return self.saved.result
        if self.kept is not None:  # ended: as its run stands now (a label given after its end included)
            return self.kept.run.result
        return self.job.result if self.job is not None else Run().result

    def outcome(self) -> Outcome:
        """This run as far as it got (analysis's record of it)."""
        if self.saved is not None:
            return self.saved if self.kept is None else replace(self.saved, result=self.result)
        return Outcome(self.item, self.variant, self.repeat, self.status, self.result)

    def keep(self) -> KeptRun:
        """What a view shows of this ended run (a reopened one's Run is read from its recording once)."""
        if self.kept is None:
            run = Run()
            run.start(recorded=True)
            for item in self.recording.items:
                run.feed(item)
            run.end()
            if run.result.scores != self.result.scores:  # a recording saved without its scores' line
                run.scores(self.result.scores)
            label = self.result.feedback
            if label is not None and run.result.feedback != label:  # nor its label's
                run.label(label)
            self.kept = KeptRun(run, self.recording, [[] for _ in self.recording.items])
        return self.kept


class Experiment:
    """``agent.experiment(inputs, variants=None, scorers=(), repeats=1, concurrency=8, name=None)``.

    Shown, it is a live grid: inputs are rows, variants columns, a tile per run (status, score badges,
    the answer's first lines; "open" shows the run's full view), the summary above and a "differs"
    toggle; pages of at most about 50 tiles. From Python:

    - ``wait()`` / ``await exp``: until every run ended;
    - ``to_dataframe()``: a row per run (input, variant, repeat), a ``score_<name>`` column per score;
    - ``summary()``: a row per variant (n, errors, each scorer's mean with its 95% interval over
      inputs and pass rate, tokens, cost, latency p50/p95);
    - ``differs()``: the inputs where the variants disagree; ``compare(a, b)`` those runs step by step;
    - ``compare_variants(a, b)``: paired input by input (mean difference, McNemar);
      ``pairwise(a, b, judge=...)``: blinded verdicts and the judge's position bias;
      ``agreement(scorer, labels)``: kappa or alpha against a person's labels;
    - ``by_input()``, ``forks(input)``: what the repeats did and where they part;
      ``rescore(scorers)``: scored again in the kernel, no server;
    - ``review(rubric={...})``: a person labels the runs (or pairs) one at a time, by
      keyboard; ``review_labels()`` for ``agreement``; ``to_dataset(name)``: the reviewed inputs
      as a Mastra dataset, the label as ground truth;
    - ``save(folder)``; ``mn.load_experiment(folder)`` reopens it without a server. Made with
      ``folder=``, each run is written there as it ends (a crash loses no ended run);
      ``resume(client)`` runs only the missing and failed runs of a loaded (or stopped) one;
    - a run's ``failure`` (``to_dataframe()``'s column): ``transport`` (refused, reset, timed out,
      HTTP 5xx, cut off), ``agent`` or ``stopped``; ``retry()`` runs the transport's again;
      given a ``probe`` (``agent.experiment`` gives one), a run the transport failed pauses the
      queue until the server answers again ("waiting for the server": the grid, ``repr`` and
      ``summary()`` say so) instead of failing every queued run in turn;
    - ``budget`` (``agent.experiment(..., max_cost_usd=, max_tokens=, max_seconds=)``): once its
      runs spent that much in all, the queued runs never start (``stopped``, the budget their
      reason) and the running ones finish; the grid, ``repr`` and ``summary()`` say which limit
      stopped it and at what figure;
    - interrupting ``wait()`` stops the waiting, not the runs; ``stop()`` stops them.
    """

    def __init__(
        self,
        items: Sequence[Item],
        variants: Mapping[str, Any] | None = None,
        *,
        start: StartCell | None = None,
        repeats: int = 1,
        concurrency: int = 8,
        name: str | None = None,
        agent: str | None = None,
        page_tiles: int = PAGE_TILES,
        scorers: Sequence[Any] = (),
        folder: str | Path | None = None,
        budget: Budget | None = None,
        probe: Probe | None = None,
    ) -> None:
        if repeats < 1:
            raise ValueError("repeats must be at least 1")
        self.items = list(items)
        self.variants: dict[str, Any] = dict(variants) if variants else {BASELINE: {}}
        self.repeats = repeats
        self.name = name
        self.agent = agent
        self.scorers = list(scorers)  # what its runs are scored by (saved as described)
        self.concurrency = concurrency
        self.batch: Batch[Any] = Batch(concurrency, on_change=self._on_job, budget=budget, probe=probe)
        self._start = start  # how a cell runs (None: a loaded or remote experiment; resume() is given one)
        self.cells: list[Cell] = []
        self.remote: Remote | None = None  # Mastra's experiment, run on its server, watched
        self._by_job: dict[int, Cell] = {}
        self._grid: Shown | None = None
        self._page_tiles = page_tiles
        self.agents: Callable[[str], Any] | None = None  # an agent by id (the client's), for judges
        self.client: Any = None  # the MastraClient it ran on (or was loaded with): feedback, datasets
        self.book = Book()  # a person's labels (exp.review), written into its folder once it has one
        # each pair's last pairwise(): the grid's verdict column, and the review's order
        self.verdicts: dict[tuple[str, str], Pairwise] = {}
        self.folder: Path | None = None  # where each run is written as it ends (``folder=``, or save())
        if folder is not None:
            self.keep_in(folder)
        if start is not None:
            for index in range(len(self.items)):  # row by row: the grid fills from the top
                for variant in self.variants:
                    for repeat in range(repeats):
                        self._submit(start, self.add_cell(index, variant, repeat))

    def keep_in(self, folder: str | Path) -> Path:
        """From now on, each run is written into ``folder`` as it ends (its recording, scores and
        row; labels as they are made), atomically; ``folder`` gets the experiment's description now."""
        self.folder = Path(folder)
        numbers.save_header(self.folder, self._saved([], []))
        self.book.folder = self.folder
        self.book.write()
        return self.folder

    def _submit(self, start: StartCell, cell: Cell) -> None:
        """Queue ``cell``'s run (again, for a cell that ran before: what it kept is let go)."""
        index, variant, repeat = cell.item, cell.variant, cell.repeat
        item = self.items[index]
        cell.saved, cell.kept, cell.recording = None, None, Recording()

        def started() -> tuple[ExperimentRun, Streaming]:
            with opened_when_shown():  # a run streaming off the grid has no browser model
                handle, work = start(item, variant, repeat)
            if isinstance(handle, Titled):  # a view: its place in the grid
                handle.subtitle = f"#{index} · {variant}" + (
                    f" · repeat {repeat + 1}" if self.repeats > 1 else ""
                )
            return handle, work

        # listed before it is queued: from a script's thread, the loop may start (and end) it at once
        self._by_job[len(self.batch.jobs)] = cell  # the job's index: its place in the batch's jobs
        cell.job = self.batch.submit(started, prompt=item.input)
        if self._grid is not None:
            self._grid.changed(cell, "started")  # a run queued again: its tile drawn queued

    def add_cell(self, item: int, variant: str, repeat: int = 0, saved: Outcome | None = None) -> Cell:
        """A run not run by this experiment's batch: a saved one (``saved``), or one run elsewhere
        that ``settle`` fills once it ended."""
        cell = Cell(item, variant, repeat, len(self.cells), saved=saved)
        self.cells.append(cell)
        return cell

    def settle(self, cell: Cell, outcome: Outcome) -> None:
        """A run made elsewhere ended: its result (its grid tile is redrawn)."""
        cell.saved = outcome
        if self._grid is not None:
            self._grid.changed(cell, "ended")

    def remote_changed(self) -> None:
        """The remote experiment's standing changed (its counts, or it ended): the grid's progress,
        summary and page drawn again."""
        if self._grid is not None:
            self._grid.settled()

    def _on_job(self, job: Job[Any], event: Event) -> None:
        """A run was queued, started, paused or ended (on the loop the runs live on)."""
        cell = self._by_job.get(job.index)
        if cell is None:
            return
        cell.job = job  # from a script's thread, the loop may get here before submit() returned
        if event == "started" and self.folder is not None:  # incomplete until it ends: a crash shows it
            self._write(cell, None)
        if event == "ended":
            handle = job.handle
            if handle is not None:
                cell.kept = handle.kept()
                cell.recording = cell.kept.recording
                if self._grid is None or not self._grid.showing(handle):  # off the grid: let go
                    cell.kept.run.tree.sink = None  # the run keeps no reference to its stream or view
                    handle.close()
            elif job.run is not None:  # never ran: the batch's own run says why
                cell.kept = KeptRun(job.run, Recording(), [])
            if self.folder is not None and job.handle is not None:  # a run that never started: missing
                self._write(cell, cell.recording)
        if self._grid is not None:
            self._grid.changed(cell, event)

    def _write(self, cell: Cell, recording: Recording | None) -> None:
        """``cell``'s run into the folder: ended (with its ``recording``), or started (None)."""
        assert self.folder is not None
        cells = len(self.items) * len(self.variants) * self.repeats
        number = numbers.cell_number(list(self.variants), self.repeats, cell.outcome())
        numbers.save_run(self.folder, number, cells, cell.outcome(), recording)

    # ---- waiting --------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """No run is queued or streaming (and a remote experiment was read to its end)."""
        return self.batch.idle and (self.remote is None or self.remote.done)

    def wait(self, timeout: float | None = None) -> Experiment:
        """Block until every run ended; the experiment. Interrupting stops the waiting, not the runs
        (they go on, and the grid fills in): ``stop()`` stops them."""
        try:
            self.batch.wait(timeout, stop=False)
            if self.remote is not None:
                self.remote.wait(timeout)
        except KeyboardInterrupt:
            left = sum(cell.status in ("queued", "running") for cell in self.cells)
            print(f"Stopped waiting; {left} runs go on (exp.stop() stops them).")
            return self
        if self._grid is not None:
            self._grid.settled()
        return self

    def __await__(self) -> Generator[Any, None, Experiment]:
        yield from self.batch.__await__()
        if self.remote is not None:
            yield from self.remote.__await__()
        if self._grid is not None:
            self._grid.settled()
        return self

    def stop(self) -> None:
        """Stop every run: the queued ones never start, the streaming ones stop (a remote experiment
        is no longer watched; it goes on on its server); says how many of each. ``resume()`` runs
        them later."""
        queued = sum(cell.status == "queued" and cell.job is not None for cell in self.cells)
        running = sum(cell.status == "running" for cell in self.cells)
        self.batch.stop()
        if self.remote is not None:
            self.remote.stop()
        print(f"Stopped {running} running and {queued} queued runs (exp.resume() runs them again).")

    # ---- run again --------------------------------------------------------------------------------

    def retry(self, client: Any = None) -> Experiment:
        """Run again the runs the transport failed (refused, reset, timed out, HTTP 5xx, cut off:
        ``failure == "transport"``), not those the agent or its model failed; the others stay as they
        are. ``client``: for a loaded experiment, as for ``resume``. The experiment."""
        return self._again(numbers.RETRIED, client, None, None, None)

    def resume(
        self,
        client: Any = None,
        *,
        scorers: Sequence[Any] | None = None,
        variants: Mapping[str, Any] | None = None,
        concurrency: int | None = None,
        view: bool = True,
    ) -> Experiment:
        """Run the runs that are missing (never written: the kernel died first; or half-written,
        ``incomplete``) or failed (by the transport, the agent, or stopped), and only those; the grid
        fills in around the kept ones, and each is written into the experiment's folder as it ends.
        Runs a budget stopped run again under the same limits, counted afresh.
        ``client``: a MastraClient, for an experiment loaded from a folder (its agent, variants and
        scorers are read from there; ``scorers=`` and ``variants=`` give again those saved only by
        name, Python functions). The experiment."""
        return self._again(numbers.RERUN, client, scorers, variants, concurrency, view=view, missing=True)

    def _again(
        self,
        failures: Sequence[str],
        client: Any,
        scorers: Sequence[Any] | None,
        variants: Mapping[str, Any] | None,
        concurrency: int | None,
        *,
        view: bool = True,
        missing: bool = False,
    ) -> Experiment:
        if not self.batch.idle:
            raise RuntimeError("the experiment is still running: wait() or stop() it first")
        chosen = [
            cell
            for cell in self.cells
            if (missing and cell.job is None and cell.saved is None) or cell.outcome().failure in failures
        ]
        start = self._start
        if client is not None or start is None:
            start = self._start_on(client, scorers, variants, view)
        if not chosen:
            return self
        if concurrency is not None:
            self.concurrency = self.batch.concurrency = concurrency
        budget = self.batch.budget
        if budget is not None and budget.crossed():  # run again on purpose: the same limits, afresh
            self.batch.budget = budget.again()
        for cell in chosen:
            self._submit(start, cell)
        return self

    def _start_on(
        self, client: Any, scorers: Sequence[Any] | None, variants: Mapping[str, Any] | None, view: bool
    ) -> StartCell:
        """How this experiment's cells run on ``client``: its agent with its variants and scorers
        (checked as ``agent.experiment`` checks them, before the first run)."""
        if client is None:
            raise ValueError("this experiment was loaded: resume(client) with a mn.MastraClient to run it")
        if self.agent is None:
            raise ValueError("this experiment names no agent: it cannot be run again here")
        given_variants = dict(variants) if variants is not None else self.variants
        given_scorers = list(scorers) if scorers is not None else self.scorers
        unsaved = [*numbers.unsaved(given_variants), *numbers.unsaved(given_scorers)]
        if unsaved:
            raise ValueError(
                f"saved by name only ({', '.join(unsaved)}): give them again, "
                "resume(client, scorers=[...], variants={...})"
            )
        if set(given_variants) != set(self.variants):
            raise ValueError(f"variants= names the experiment's variants: {', '.join(self.variants)}")
        _, start = client.agent(self.agent).experiment_start(given_variants, given_scorers, view=view)
        self._start, self.scorers = start, given_scorers
        self.agents, self.client = client.agent, client
        return start  # type: ignore[no-any-return]

    # ---- the numbers ----------------------------------------------------------------------------

    def outcomes(self) -> list[Outcome]:
        """Every run as far as it got, in input, variant, repeat order."""
        return [cell.outcome() for cell in self.cells]

    def counts(self) -> dict[str, int]:
        """How many of the grid's runs are queued, running, done, stopped and ended otherwise, as
        ``batch.counts()`` counts its own: a resumed experiment's kept runs (loaded, not run again)
        counted too, by how they ended."""
        counts = self.batch.counts()
        for cell in self.cells:
            if cell.job is None and cell.saved is not None:
                counts[group_of(cell.saved.status)] += 1
        return counts

    def to_dataframe(self) -> Any:
        """One row per run (each input with each variant, each repeat): ``input_index``, ``input``,
        ``expected``, ``variant``, ``repeat``, then ``mn.to_dataframe``'s columns (status, text, tool calls,
        tokens, timing, cost, a ``score_<name>`` column per scorer). Rows so far while it runs."""
        pandas = _pandas()
        return pandas.DataFrame(numbers.rows(self.outcomes(), self.items))

    def summary(self) -> Any:
        """One row per variant, indexed by its name: ``n`` runs, ``ended``, ``errors`` (runs that
        started and ended otherwise than finished), ``not_started`` (stopped before their turn: a
        budget, ``stop()``; no error, and no figure covers them); per scorer ``<name>_mean`` with
        ``<name>_ci_low`` and ``<name>_ci_high``, its 95% confidence interval over ``<name>_inputs`` inputs,
        ``<name>_failed`` (the runs the scorer raised on: no score), ``<name>_pass_rate`` (the share
        of its scores that passed their threshold; NaN without one), with repeats ``<name>_pass@k``
        (some of k repeats pass) and ``<name>_pass^k`` (all k pass), k the repeats, and
        ``<name>_disagree`` (the share of inputs whose repeats did not all pass or all fail), and
        ``<name>_cost_per_pass_usd`` (None when a run's cost is unknown); ``tokens`` (all runs),
        ``cost_usd`` (NaN, shown "—", when no run is priced; never 0) over ``cost_runs`` priced runs,
        ``latency_p50_s`` and ``latency_p95_s`` over ``latency_runs`` ended runs with a latency.

        Intervals are over inputs, not runs (``attrs["intervals"]`` says so): each input's mean over
        its repeats, then ``mean ± t(0.975, n - 1) · s / √n`` over the n inputs, ``s`` their sample
        standard deviation, the quantile scipy's; NaN with a single input, and without scipy
        (``pip install 'mastra-notebook[stats]'``). The mean is the mean of the inputs' means.
        Percentiles interpolate linearly between ranks.

        While the queue waits for the server, or once a budget stopped it, the table says so above
        its columns (``attrs["notes"]``: "stopped by max_cost_usd=0.05 at $0.0612")."""
        pandas = _pandas()
        table = summary_rows(self.outcomes(), list(self.variants), self.repeats)
        frame = pandas.DataFrame(table).set_index("variant")
        frame.attrs["intervals"] = INTERVAL_RULE
        notes = self.batch.notes()  # "waiting for the server", the budget: shown above the table
        frame.attrs["notes"] = notes
        if notes:
            frame.columns.name = " · ".join(notes)
        return frame

    def differs(self, *variants: str, scorers: Sequence[str] | None = None) -> list[int]:
        """The inputs (indices) where the variants (all, or those named) disagree on a scorer's mean
        over the repeats (every scorer, or those in ``scorers``) or on the trajectories their runs
        took (tool names and canonical arguments); ended runs only."""
        return numbers.differing(self.outcomes(), list(variants) or None, scorers)

    def compare(self, a: str, b: str) -> Comparisons:
        """For each input where variants ``a`` and ``b`` differ (scores or tool calls, or only the
        answers' words when the scores tie), all their repeats compared step by step
        (``mn.compare``): a dict by input index, shown one comparison after the other."""
        return numbers.comparisons(self.outcomes(), self.items, a, b)

    # ---- judged: analysis/pairwise.py, agreement.py, repeats.py, intervals.py --------------------

    def pairwise(self, a: str, b: str, *, judge: Any, seed: int = 0) -> Pairwise:
        """Variants ``a`` and ``b`` judged pair by pair (each input and repeat both ended), blinded:
        each pair is put to ``judge`` in both orders (which first: a coin seeded by ``seed``), and a
        judge that changes its mind with the order gives a tie. ``judge``: a Python function
        ``(input, first, second, *, expected=None) -> "first" | "second" | "tie"`` (or a
        ``{"choice": ..., "reason": ...}`` dict, or analysis.pairwise's ``Verdict``), given the
        answers' texts; an agent (``client.agent(id)``) or, for an experiment run on a server, an
        agent's id, asked with both answers, its verdict read from its structured output.
        A :class:`~mastra_notebook.analysis.pairwise.Pairwise`: per pair
        the verdict and both reasons (``to_dataframe()``), wins, losses, ties, the win rate with its
        95% interval, and the judge's position bias (how often it chose the answer shown first).
        Kept in ``verdicts``: the grid shows a verdict column for the pair and its figures in the
        summary."""
        chosen = as_judge(judge, self.agents)
        judged = judged_pairs(self.outcomes(), self.items, a, b, judge=chosen, seed=seed)
        self.verdicts.pop((b, a), None)  # one column per pair of variants: the last judging of it
        self.verdicts[a, b] = judged
        if self.folder is not None:
            numbers.save_header(self.folder, self._saved([], []))
        if self._grid is not None:
            self._grid.judged()
        return judged

    def agreement(self, scorer: Any, labels: Any, *, level: Level = "nominal") -> Agreement:
        """How far two raters of the same runs agree: Cohen's kappa, or Krippendorff's alpha for a
        ``level`` of ``ordinal``/``interval``; the confusion matrix; the runs where they disagree
        (``review()`` opens the queue at them). Each rater is one of:

        - a scorer's name: its pass/fail, or its score without a threshold;
        - a review (``exp.review(...)``): its reviewer's labels (thumbs up read as a pass), so two
          reviewers are ``agreement(ana_review, ben_review)``;
        - a pairwise judge (``exp.pairwise(...)``): its verdicts, ``a``, ``b`` or ``tie``, against a
          pairwise review's choices;
        - labels: a mapping or Series from ``(input_index, variant, repeat)`` (a pair's
          ``(input_index, repeat)``) to a label, as ``review_labels()`` gives them."""
        first, second = self._rater(scorer, "first"), self._rater(labels, "labels")
        if second.name == first.name:  # two unnamed reviews: the table's heads still tell them apart
            second = replace(second, name=f"{second.name} (second)")
        pair = first.pair or second.pair
        if pair is not None:  # a pair's a and b read as the variants' names: "plain", not "a"
            first, second = first.naming(pair), second.naming(pair)
        agreed = rater_agreement(first.labels, second.labels, names=(first.name, second.name), level=level)
        if pair is not None or not agreed.of_pairs:  # pairs with no pair named: nothing to review
            # its disagreeing runs (or pairs), one click away, as the reviewer rating them saw them
            reviewer = next((r.reviewer for r in (scorer, labels) if isinstance(r, Review)), None)
            agreed.reviewing = partial(self.review, pairwise=pair, only=agreed, reviewer=reviewer)
        return agreed

    def _rater(self, rater: Any, name: str) -> Rater:
        """What ``agreement`` compares of ``rater`` (see there), named as its table heads it."""
        if isinstance(rater, str):
            if rater not in numbers.scorer_names(self.outcomes()):
                known = ", ".join(numbers.scorer_names(self.outcomes())) or "none"
                raise KeyError(f"no scorer {rater!r} scored these runs (scorers: {known})")
            return Rater(rater, scorer_labels(self.outcomes(), rater))
        if isinstance(rater, Pairwise):
            return Rater(f"judge ({rater.a} vs {rater.b})", rater.verdicts(), (rater.a, rater.b))
        if isinstance(rater, Review):
            shown = rater.queue[0].variants if rater.pairwise else None
            pair = (shown[0], shown[1]) if shown else None
            return Rater(rater.reviewer or "review", rater.given(), pair)
        return Rater(name, keyed(rater))

    def forks(self, item: Any, variant: str | None = None, scorer: str | None = None) -> Fork:
        """Where input ``item``'s repeats (with ``variant``, the first by default) part: aligned step
        by step and drawn as ``mn.compare`` draws them; when some passed ``scorer`` (the first with
        pass/fail verdicts by default) and some failed, the first aligned step where every failing
        repeat differs from every passing one (its tool, arguments or text), or "no step separates
        them". ``item``: the input's index, or the input itself."""
        item = self.index_of(item)
        outcomes = [cell.outcome() for name in self.variants for cell in self.cells_of(item, name)]
        if scorer is None:  # the input's runs only: the grid asks this of each tile it draws
            judged = [s.scorer for o in outcomes for s in o.result.scores if s.passed is not None]
            scorer = judged[0] if judged else None
        return fork(outcomes, item, variant or next(iter(self.variants)), scorer)

    def _check_variants(self, *names: str) -> None:
        """A KeyError naming the variants there are, for a name that is none of them."""
        for name in names:
            if name not in self.variants:
                raise KeyError(f"no variant {name!r} (variants: {', '.join(self.variants)})")

    def index_of(self, input: Any) -> int:
        """The index of an input given as its index or as itself (its prompt); a KeyError names
        what there is."""
        if isinstance(input, int) and not isinstance(input, bool):
            if not 0 <= input < len(self.items):
                raise KeyError(
                    f"no input #{input}: this experiment has {len(self.items)} (0 to {len(self.items) - 1})"
                )
            return input
        found = [index for index, item in enumerate(self.items) if item.input == input]
        if not found:
            raise KeyError(
                f"no input {str(input)[:80]!r} in this experiment: give its index, 0 to {len(self.items) - 1}"
            )
        return found[0]

    def compare_variants(self, a: str, b: str) -> Any:
        """Variants ``a`` and ``b`` paired input by input, a row per scorer: the inputs both scored,
        the mean difference (a less b, each input its repeats' mean) with its 95% interval over
        inputs, wins, losses and ties by input, and for pass/fail scorers McNemar's exact test
        (``only_a``, ``only_b``: inputs passed by one variant only; ``mcnemar_p``)."""
        self._check_variants(a, b)
        outcomes = self.outcomes()
        table = [paired(outcomes, a, b, name).as_row() for name in numbers.scorer_names(outcomes)]
        return _pandas().DataFrame(table).set_index("scorer") if table else _pandas().DataFrame()

    def by_input(self) -> Any:
        """A row per input and variant: its ended runs, the distinct tool-call sequences its repeats
        took, and per scorer its mean over the repeats and how many repeats passed."""
        outcomes = self.outcomes()
        table = input_rows(outcomes, self.items, list(self.variants))
        return _pandas().DataFrame(table).set_index(["input_index", "variant"])

    def rescore(self, scorers: Sequence[Any]) -> Experiment:
        """A copy of this finished or loaded experiment, its ended runs scored again by ``scorers``
        (Python scorers, run here: no server); each new score replaces the run's score of its name."""
        outcomes = rescored_outcomes(self.outcomes(), self.items, scorers)
        copy = Experiment(self.items, self.variants, repeats=self.repeats, name=self.name, agent=self.agent)
        for cell, outcome in zip(self.cells, outcomes, strict=True):
            copy.cells.append(Cell(outcome.item, outcome.variant, outcome.repeat, len(copy.cells),
                                   saved=outcome, recording=cell.recording))  # fmt: skip
        copy.agents, copy.client, copy.book = self.agents, self.client, self.book  # the same runs' labels
        copy.verdicts = dict(self.verdicts)  # the same answers: a pairwise judge's verdicts stand
        return copy

    def runs(self, item: int, variant: str) -> list[RunResult]:
        """The results of input ``item`` with ``variant``, one per repeat."""
        return [cell.result for cell in self.cells_of(item, variant)]

    def cells_of(self, item: int, variant: str) -> list[Cell]:
        """The runs of input ``item`` with ``variant``, one per repeat (found where they were
        submitted: input by input, variant by variant)."""
        per_item = len(self.variants) * self.repeats
        start = item * per_item + list(self.variants).index(variant) * self.repeats
        cells = self.cells[start : start + self.repeats]
        if cells and all(c.item == item and c.variant == variant for c in cells):
            return cells
        return [c for c in self.cells if c.item == item and c.variant == variant]

    # ---- reviewed: analysis/review.py, runs/review.py -------------------------------------------

    def review(
        self,
        rubric: Rubric | Mapping[str, Any] | None = None,
        pairwise: Pairwise | tuple[str, str] | None = None,
        order: str = "disagreements first",
        reviewer: str | None = None,
        *,
        only: Agreement | Iterable[Hashable] | None = None,
        at: Hashable | None = None,
    ) -> Review:
        """A review queue of the ended runs, one at a time (``pairwise``: two variants' runs side by
        side, a/b/tie; a ``Pairwise`` from ``exp.pairwise`` names them), by ``rubric``
        (``{"thumbs": True, "scale": (1, 5), "categories": [...], "comment": True}``, or the same
        as ``mn.results.Rubric(...)``; thumbs and a
        comment by default, a pair's choice and a comment), in ``order``: ``"disagreements
        first"`` (the inputs whose repeats disagree, or where a pairwise judge and a scorer do,
        come first) or ``"input"``. It resumes
        at the first item with no label. Each label is written into the experiment's folder as it
        is made (once saved or loaded: ``save(folder)``) and sent to Mastra's feedback with the
        run's trace id where the run has one; ``review_labels()`` reads them for ``agreement``.
        ``only``: just these runs (their keys, ``(input_index, variant, repeat)``; an agreement's:
        the runs where it disagrees, as ``agreement.review()`` does); ``at``: shown at that run (a
        key) rather than where the queue resumes. Without a ``rubric``, the last review's.
        ``reviewer``: who labels; each reviewer has labels of their own (a second reviewer's queue
        starts at its first item: ``agreement(review, other)`` compares them). Named nobody, a
        review goes on as the one reviewer who labelled before, if there is one."""
        if isinstance(pairwise, Pairwise):
            pair: tuple[str, str] | None = (pairwise.a, pairwise.b)
        elif pairwise is not None:
            pair = (pairwise[0], pairwise[1])
            self._check_variants(*pair)
        else:
            pair = None
        outcomes = self.outcomes()
        judged = [*self.verdicts.values(), *([pairwise] if isinstance(pairwise, Pairwise) else [])]
        queue = ordered(places(outcomes, list(self.variants), pair), outcomes, judged, order)
        if only is not None:
            wanted = set(only.keys if isinstance(only, Agreement) else only)
            queue = [place for place in queue if place.key in wanted]
        if isinstance(rubric, Mapping):
            rubric = Rubric.model_validate(rubric)
        if rubric is None:  # the last review's (of single runs); a pair's: a/b/tie and a comment
            rubric = (
                self.book.rubric
                if pair is None and self.book.rubric is not None
                else Rubric(thumbs=pair is None)
            )
        if pair is None:
            self.book.rubric = rubric  # an agreement's review, or one resumed after a restart, asks it again
        if reviewer is None:  # one person reviewing: a review named nobody goes on as them
            known = self.book.reviewers(pairwise=pair is not None)
            reviewer = known[0] if len(known) == 1 else None
        review = Review(self, self.items, queue, self.book, rubric=rubric, reviewer=reviewer)
        if at is not None:
            keys = [place.key for place in queue]
            if at not in keys:
                raise KeyError(f"{at!r} is not in this review's queue ({len(keys)} items)")
            review.go(keys.index(at))
        return review

    def review_labels(
        self, field: str | None = None, *, pairwise: bool = False, reviewer: str | None = None
    ) -> dict[Any, Any]:
        """``reviewer``'s labels (the one reviewer's, when only one labelled) as ``agreement`` reads
        them: by ``(input_index, variant, repeat)`` (a pair's by ``(input_index, repeat)``, as
        ``pairwise(...).verdicts()``), ``field``'s value (thumbs as True for up), by default the
        first a label has of choice, thumbs, score, category."""
        whose = self.book.reviewer_of(reviewer, pairwise=pairwise)
        return self.book.given(field, pairwise=pairwise, reviewer=whose)

    def to_dataset(
        self, name: str, where: Any = None, *, field: str | None = None, client: Any = None
    ) -> Any:
        """A new Mastra dataset named ``name`` of the reviewed inputs, each with its label (its latest;
        ``field``'s value, or the first of choice, thumbs, score, category) as its ground truth;
        ``where``: a function of the review's ``Label`` that keeps it. Made through ``client`` (the
        experiment's own by default)."""
        made_by = client or self.client
        if made_by is None:
            raise ValueError(
                "to_dataset makes a dataset on a Mastra server: pass client=mn.MastraClient(...)"
            )
        rows = dataset_rows(self.book, self.items, where, field)
        if not rows:
            raise ValueError("no reviewed item has a label to keep as ground truth (exp.review() first)")
        return made_by.create_dataset(name, rows)

    def result_of(self, item: int, variant: str, repeat: int) -> RunResult:
        """The result of input ``item``'s ``repeat`` with ``variant``."""
        return self._cell(item, variant, repeat).result

    def sender_of(self, item: int, variant: str, repeat: int) -> LabelSender | None:
        """Where the run's labels go: its stream's (a run this client streamed), else Mastra's feedback
        with its trace id through the experiment's client; None without either."""
        cell = self._cell(item, variant, repeat)
        if cell.kept is not None and cell.kept.labels is not None:
            return cell.kept.labels
        trace_id = cell.result.trace_id
        feedback = getattr(self.client, "feedback", None)
        return feedback(trace_id, cell.result.run_id) if trace_id and callable(feedback) else None

    def keep_feedback(self, item: int, variant: str, repeat: int, feedback: Feedback) -> None:
        """A person's label of the run, on its result and in its recording (its tile shows it)."""
        cell = self._cell(item, variant, repeat)
        cell.keep().keep_label(feedback)  # on the run its views show (a reopened one's too)
        self.labelled(cell)

    def labelled(self, cell: Cell) -> None:
        """``cell``'s run was labelled (by ``keep_feedback``, or in its opened view): written into
        the folder, and its tile drawn again."""
        if self.folder is not None and cell.outcome().ended:
            self._write(cell, cell.recording)
        if self._grid is not None:
            self._grid.changed(cell, "ended")

    def kept_of(self, cell: Cell) -> KeptRun:
        """What a view shows of ``cell``'s ended run; a label given there goes where ``sender_of``
        says (a reopened run's: Mastra's feedback through the experiment's client)."""
        kept = cell.keep()
        if kept.labels is None:
            sender = self.sender_of(cell.item, cell.variant, cell.repeat)
            if sender is not None:
                cell.kept = kept = replace(kept, labels=sender)
        return kept

    def _cell(self, item: int, variant: str, repeat: int) -> Cell:
        found = [cell for cell in self.cells_of(item, variant) if cell.repeat == repeat]
        if not found:
            raise KeyError(f"no run of input {item} with {variant!r}, repeat {repeat}")
        return found[0]

    # ---- exported -------------------------------------------------------------------------------

    def otel_runs(self) -> list[Any]:
        """Each run as ``mastra_notebook.otel`` exports it: its input (index and id), variant and
        repeat as attributes, its pairwise verdicts (``pairwise()``) as evaluation events."""
        from ..core import otlp
        from ..otel import OtelRun

        verdicts: dict[tuple[int, str, int], list[otlp.EventOut]] = {}
        ends = {(c.item, c.variant, c.repeat): otlp.ns(c.result.finished_at, 0) for c in self.cells}
        for (a, b), judged in self.verdicts.items():
            for pair in judged.judged:
                reasons = " / ".join(v.reason for v in (pair.a_first, pair.b_first) if v.reason) or None
                for mine, other, won in ((a, b, "a"), (b, a, "b")):
                    said = "tie" if pair.verdict == "tie" else ("win" if pair.verdict == won else "loss")
                    key = (pair.item, mine, pair.repeat)
                    verdicts.setdefault(key, []).append(
                        otlp.evaluation(
                            f"pairwise {a} vs {b}",
                            ends.get(key, 0),
                            label=said,
                            explanation=reasons,
                            evaluation_kind="pairwise",
                            pairwise_other=other,
                        )
                    )
        runs = []
        for cell in self.cells:
            item = self.items[cell.item]
            attributes: dict[str, Any] = {
                otlp.INPUT_INDEX: cell.item,
                otlp.VARIANT: cell.variant,
                otlp.REPEAT: cell.repeat,
            }
            if item.id is not None:
                attributes[otlp.INPUT_ID] = item.id
            if self.name:
                attributes[otlp.EXPERIMENT] = self.name
            trace = cell.kept.run.trace if cell.kept is not None else None
            parent = trace.roots[0].id if trace is not None and trace.roots else None
            events = verdicts.get((cell.item, cell.variant, cell.repeat), [])
            runs.append(OtelRun(cell.result, attributes, events, parent))
        return runs

    def export_otel(self, endpoint: str | Path, **options: Any) -> Any:
        """Send every run as OpenTelemetry GenAI spans to ``endpoint`` (an OTLP/HTTP traces URL, or a
        file path for OTLP/JSON): ``mn.export_otel``'s options; the client's secrets hidden."""
        from ..otel import export_otel

        redact = getattr(getattr(self.client, "transport", None), "redact", None)
        return export_otel(self.otel_runs(), endpoint, redact=redact, **options)

    # ---- saved ----------------------------------------------------------------------------------

    def save(self, folder: str | Path) -> Path:
        """Save the experiment into ``folder``: each run's recording (JSONL) and result with its
        scores, the inputs and the variants (functions and tools by name). ``mn.load_experiment``
        reopens it without a server. Runs not ended yet are saved as far as they got."""
        recordings = [
            cell.kept.recording if cell.kept is not None else self._recording_so_far(cell)
            for cell in self.cells
        ]
        written = numbers.save(folder, self._saved(self.outcomes(), recordings))
        self.book.write(written)  # and each label after, as it is made
        self.folder = written  # and each run that ends after, and each pair judged
        return written

    def _saved(self, outcomes: list[Outcome], recordings: list[Recording]) -> numbers.Saved:
        verdicts = [pairwise.saved() for pairwise in self.verdicts.values()]
        return numbers.Saved(self.name, self.agent, self.items, self.variants, self.repeats, outcomes,
                             recordings, self.scorers, verdicts)  # fmt: skip

    @staticmethod
    def _recording_so_far(cell: Cell) -> Recording:
        handle = cell.job.handle if cell.job is not None else None
        recording = getattr(handle, "recording", None)
        return recording if isinstance(recording, Recording) else cell.recording

    # ---- shown ----------------------------------------------------------------------------------

    @property
    def grid(self) -> Any:
        """The experiment's grid (made when first shown: widget/experiment_view.py's ``Grid``)."""
        if self._grid is None:
            self._grid = _shown()[0](self, self._page_tiles)
        return self._grid

    def _ipython_display_(self) -> None:
        self.grid.display()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython (marimo)
        return self.grid.bundle(**kwargs)

    def _repr_html_(self) -> str:
        return _shown()[1](self)

    def __repr__(self) -> str:
        counts = " · ".join(
            [*(f"{n} {group}" for group, n in self.counts().items() if n), *self.batch.notes()]
        )
        what = f"{len(self.items)} inputs, {len(self.variants)} variants, {self.repeats} repeats"
        return f"<Experiment {self.name or ''}{' ' if self.name else ''}of {what}: {counts or 'saved'}>"


def load_experiment(folder: str | Path, client: Any = None) -> Experiment:
    """Reopen an experiment saved with ``exp.save(folder)``, without a server: its inputs, variants
    (as described when saved), runs with their scores and recordings, a review's labels (its queue
    resumes at the first item with none); shown as its grid. ``client``: a MastraClient, to send
    the review's labels to Mastra's feedback with the runs' trace ids (and ``to_dataset``)."""
    saved = numbers.load(folder)
    experiment = Experiment(saved.items, saved.variants, repeats=saved.repeats, name=saved.name,
                            agent=saved.agent, scorers=saved.scorers)  # fmt: skip
    kept = {
        (o.item, o.variant, o.repeat): (o, r) for o, r in zip(saved.outcomes, saved.recordings, strict=True)
    }
    for index in range(len(saved.items)):  # the whole grid: a run never written is missing (resume runs it)
        for variant in saved.variants:
            for repeat in range(saved.repeats):
                outcome, recording = kept.get((index, variant, repeat), (None, Recording()))
                experiment.add_cell(index, variant, repeat, outcome).recording = recording
    for pair in saved.verdicts:
        judged = Pairwise.of_saved(pair, experiment.items)
        experiment.verdicts[judged.a, judged.b] = judged
    experiment.book = Book.read(folder)
    experiment.folder = Path(folder)  # resumed runs and new labels are written there
    experiment.client = client
    if client is not None:
        experiment.agents = client.agent
    return experiment


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as error:
        raise ImportError(
            "an experiment's tables need pandas: pip install 'mastra-notebook[pandas]'"
        ) from error
    return pandas
