"""An experiment: every input run with every variant (and again, ``repeats`` times), scored, shown as
a live grid (inputs are rows, variants columns), summarised per variant, saved and reopened.

The runs go through a :class:`Batch` at the experiment's concurrency. A grid cell is a compact tile
drawn as HTML (status, score badges, the answer's first lines), never a live view: a click opens the
run's full view below the grid. A run that ended keeps its RunResult and recording (and its reducer
state), not a widget. The numbers are analysis/experiment.py's; what starts a run on a server is the
client's (``agent.experiment``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from ..analysis import experiment as numbers
from ..analysis.experiment import BASELINE, Comparisons, Item, Outcome
from ..core.cost import format_usd
from ..core.recording import Recording
from ..core.result import RunResult
from ..core.run import Run
from ..core.score import badge
from ..core.status_words import status_tone, status_word
from ..render.words import markdown_words
from .batch import Batch, Event, Job, RunHandle, Streaming
from .loops import running_loop
from .streamview import KeptRun, StreamView, opened_when_shown

__all__ = ["Experiment", "load_experiment"]

PAGE_TILES = 48  # cells on a page (inputs by variants): the page's DOM stays bounded
ANSWER_CHARS = 240  # of a run's answer in its tile
TICK_S = 0.4  # the page's streaming tiles are redrawn this often
SUMMARY_EVERY_S = 0.5  # the summary (every run's scores) is drawn again at most this often while runs end

# start(item, variant, repeat) makes a run's handle and the work that streams into it
StartRun = Callable[[Item, str, int], tuple[RunHandle, Streaming]]


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
        """The run's RunResult so far."""
        if self.saved is not None:
            return self.saved.result
        if self.kept is not None:  # ended: as its run stands now (a label given after its end included)
            return self.kept.run.result
        return self.job.result if self.job is not None else Run().result

    def outcome(self) -> Outcome:
        """This run as far as it got (analysis's record of it)."""
        return self.saved or Outcome(self.item, self.variant, self.repeat, self.status, self.result)

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
            self.kept = KeptRun(run, self.recording, [[] for _ in self.recording.items])
        return self.kept


class Experiment:
    """``agent.experiment(inputs, variants=None, scorers=(), repeats=1, concurrency=8, name=None)``.

    Shown, it is a live grid: inputs are rows, variants columns, a tile per run (status, score badges,
    the answer's first lines; "open" shows the run's full view), the summary above and a "differs"
    toggle; pages of at most about 50 tiles. From Python:

    - ``wait()`` / ``await exp``: until every run ended;
    - ``to_dataframe()``: a row per run (input, variant, repeat), a ``score_<name>`` column per score;
    - ``summary()``: a row per variant (n, errors, each scorer's mean with its 95% interval and pass
      rate, tokens, cost, latency p50/p95);
    - ``differs()``: the inputs where the variants disagree; ``compare(a, b)`` those runs step by step;
    - ``save(folder)``; ``mn.load_experiment(folder)`` reopens it without a server.
    """

    def __init__(
        self,
        items: Sequence[Item],
        variants: Mapping[str, Any] | None = None,
        *,
        start: StartRun | None = None,
        repeats: int = 1,
        concurrency: int = 8,
        name: str | None = None,
        agent: str | None = None,
        page_tiles: int = PAGE_TILES,
    ) -> None:
        if repeats < 1:
            raise ValueError("repeats must be at least 1")
        self.items = list(items)
        self.variants: dict[str, Any] = dict(variants) if variants else {BASELINE: {}}
        self.repeats = repeats
        self.name = name
        self.agent = agent
        self.batch: Batch[Any] = Batch(concurrency, on_change=self._on_job)
        self.cells: list[Cell] = []
        self._by_job: dict[int, Cell] = {}
        self._grid: Grid | None = None
        self._page_tiles = page_tiles
        if start is not None:
            for index, item in enumerate(self.items):  # row by row: the grid fills from the top
                for variant in self.variants:
                    for repeat in range(repeats):
                        self._submit(start, index, item, variant, repeat)

    def _submit(self, start: StartRun, index: int, item: Item, variant: str, repeat: int) -> None:
        cell = Cell(index, variant, repeat, len(self.cells))
        self.cells.append(cell)

        def started() -> tuple[RunHandle, Streaming]:
            with opened_when_shown():  # a run streaming off the grid has no browser model
                handle, work = start(item, variant, repeat)
            if isinstance(handle, StreamView):
                handle.subtitle = f"#{index} · {variant}" + (
                    f" · repeat {repeat + 1}" if self.repeats > 1 else ""
                )
            return handle, work

        cell.job = self.batch.submit(started, prompt=item.input)
        self._by_job[cell.job.index] = cell

    def _on_job(self, job: Job[Any], event: Event) -> None:
        """A run was queued, started, paused or ended (on the loop the runs live on)."""
        cell = self._by_job.get(job.index)
        if cell is None:  # queued from a script's thread a moment before it was listed
            return
        if event == "ended":
            handle = job.handle
            if isinstance(handle, StreamView):
                cell.kept = handle.kept()
                cell.recording = cell.kept.recording
                if self._grid is None or not self._grid.showing(handle):  # off the grid: let go
                    cell.kept.run.tree.sink = None  # the run keeps no reference to its view
                    handle.close()
            elif job.run is not None:  # never ran: the batch's own run says why
                cell.kept = KeptRun(job.run, Recording(), [])
        if self._grid is not None:
            self._grid.changed(cell, event)

    # ---- waiting --------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """No run is queued or streaming."""
        return self.batch.idle

    def wait(self, timeout: float | None = None) -> Experiment:
        """Block until every run ended (interrupting stops the queued runs); the experiment."""
        self.batch.wait(timeout)
        if self._grid is not None:
            self._grid.settled()
        return self

    def __await__(self) -> Generator[Any, None, Experiment]:
        yield from self.batch.__await__()
        if self._grid is not None:
            self._grid.settled()
        return self

    def stop(self) -> None:
        """Stop every run: the queued ones never start, the streaming ones stop."""
        self.batch.stop()

    # ---- the numbers ----------------------------------------------------------------------------

    def outcomes(self) -> list[Outcome]:
        """Every run as far as it got, in input, variant, repeat order."""
        return [cell.outcome() for cell in self.cells]

    def to_dataframe(self) -> Any:
        """One row per run (each input with each variant, each repeat): ``input_index``, ``input``,
        ``expected``, ``variant``, ``repeat``, then ``mn.to_dataframe``'s columns (status, text, tool calls,
        tokens, timing, cost, a ``score_<name>`` column per scorer). Rows so far while it runs."""
        pandas = _pandas()
        return pandas.DataFrame(numbers.rows(self.outcomes(), self.items))

    def summary(self) -> Any:
        """One row per variant, indexed by its name: ``n`` runs, ``ended``, ``errors`` (ended
        otherwise than finished); per scorer ``<name>_mean`` with ``<name>_ci_low`` and
        ``<name>_ci_high``, its 95% confidence interval, and ``<name>_pass_rate`` (the share of its
        scores that passed their threshold; NaN without one); ``tokens`` (all runs), ``cost_usd``
        (the priced runs), ``latency_p50_s`` and ``latency_p95_s`` (of the ended runs).

        The interval is Student's t: ``mean ± t(0.975, n - 1) · s / √n`` over the variant's scores
        (every input and repeat one sample; a failed score left out), ``s`` the sample standard
        deviation (n - 1 in its denominator), its quantile scipy's; NaN with a single score, and
        without scipy (``pip install 'mastra-notebook[stats]'``). Repeats of one input are not
        independent of each other, so with repeats the interval is narrower than a resampling of
        inputs would give. Percentiles interpolate linearly between ranks."""
        pandas = _pandas()
        return pandas.DataFrame(numbers.summary_rows(self.outcomes(), list(self.variants))).set_index(
            "variant"
        )

    def differs(self, *variants: str, scorers: Sequence[str] | None = None) -> list[int]:
        """The inputs (indices) where the variants (all, or those named) disagree on a scorer's mean
        over the repeats (every scorer, or those in ``scorers``) or on the trajectories their runs
        took (tool names and canonical arguments); ended runs only."""
        return numbers.differing(self.outcomes(), list(variants) or None, scorers)

    def compare(self, a: str, b: str) -> Comparisons:
        """For each input where variants ``a`` and ``b`` differ, their first repeats compared step by
        step (``mn.compare``): a dict by input index, shown one comparison after the other."""
        return numbers.comparisons(self.outcomes(), self.items, a, b)

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

    # ---- saved ----------------------------------------------------------------------------------

    def save(self, folder: str | Path) -> Path:
        """Save the experiment into ``folder``: each run's recording (JSONL) and result with its
        scores, the inputs and the variants (functions and tools by name). ``mn.load_experiment``
        reopens it without a server. Runs not ended yet are saved as far as they got."""
        recordings = [
            cell.kept.recording if cell.kept is not None else self._recording_so_far(cell)
            for cell in self.cells
        ]
        saved = numbers.Saved(self.name, self.agent, self.items, self.variants, self.repeats,
                              self.outcomes(), recordings)  # fmt: skip
        return numbers.save(folder, saved)

    @staticmethod
    def _recording_so_far(cell: Cell) -> Recording:
        handle = cell.job.handle if cell.job is not None else None
        recording = getattr(handle, "recording", None)
        return recording if isinstance(recording, Recording) else cell.recording

    # ---- shown ----------------------------------------------------------------------------------

    @property
    def grid(self) -> Grid:
        """The experiment's grid (made when first shown)."""
        if self._grid is None:
            self._grid = Grid(self, self._page_tiles)
        return self._grid

    def _ipython_display_(self) -> None:
        self.grid.display()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython (marimo)
        return self.grid.bundle(**kwargs)

    def _repr_html_(self) -> str:
        return static_html(self)

    def __repr__(self) -> str:
        counts = " · ".join(f"{n} {group}" for group, n in self.batch.counts().items() if n)
        what = f"{len(self.items)} inputs, {len(self.variants)} variants, {self.repeats} repeats"
        return f"<Experiment {self.name or ''}{' ' if self.name else ''}of {what}: {counts or 'saved'}>"


def load_experiment(folder: str | Path) -> Experiment:
    """Reopen an experiment saved with ``exp.save(folder)``, without a server: its inputs, variants
    (as described when saved), runs with their scores and recordings; shown as its grid."""
    saved = numbers.load(folder)
    experiment = Experiment(
        saved.items, saved.variants, repeats=saved.repeats, name=saved.name, agent=saved.agent
    )
    for outcome, recording in zip(saved.outcomes, saved.recordings, strict=True):
        number = len(experiment.cells)
        cell = Cell(outcome.item, outcome.variant, outcome.repeat, number, saved=outcome, recording=recording)
        experiment.cells.append(cell)
    return experiment


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as error:
        raise ImportError(
            "an experiment's tables need pandas: pip install 'mastra-notebook[pandas]'"
        ) from error
    return pandas


# ---- drawn ------------------------------------------------------------------------------------------

_TONES = {  # translucent over the inherited text colour: light and dark themes alike
    "ok": "rgba(46,160,67,0.22)",
    "error": "rgba(248,81,73,0.25)",
    "warn": "rgba(210,153,34,0.28)",
    "active": "rgba(56,139,253,0.22)",
    "neutral": "rgba(128,128,128,0.18)",
}
_BADGE = (
    "display:inline-block;padding:0 6px;margin:1px 4px 1px 0;border-radius:9px;font-size:11px;"
    "line-height:17px"
)
_TILE = (
    "box-sizing:border-box;flex:1 1 auto;padding:6px 8px;border:1px solid var(--jp-border-color2,#ccc);"
    "border-radius:6px;background:var(--jp-layout-color1,transparent);color:var(--jp-ui-font-color1,inherit);"
    "font-size:12px;line-height:1.4;overflow:hidden;overflow-wrap:anywhere;contain:content"
)
_ANSWER = (
    "display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;"
    "margin:2px 0 4px;opacity:0.9"
)
_OPEN = (
    "font:inherit;font-size:11px;padding:1px 8px;margin:3px 4px 0 0;cursor:pointer;border-radius:4px;"
    "border:1px solid var(--jp-border-color1,#bbb);background:var(--jp-layout-color2,#eee);"
    "color:var(--jp-ui-font-color1,inherit)"
)
_QUEUED = ";opacity:0.45;cursor:default"  # a queued run's "open": nothing to open yet
_TABLE = "border-collapse:collapse;font-size:12px;margin:4px 0"
_TD = (
    "padding:2px 8px;border-bottom:1px solid var(--jp-border-color2,#ddd);text-align:right;white-space:nowrap"
)


def _css(style: str, styled: bool) -> str:
    """A ``style`` attribute, or none in the static transcript: JupyterLab sanitises every
    ``text/html`` output for its table of contents, checking each inline declaration against its
    CSS patterns (a first page of tiles fully styled took it 170-300 ms in one task)."""
    return f' style="{style}"' if styled else ""


def _badge(text: str, tone: str, title: str = "", styled: bool = True) -> str:
    if not styled:  # the static transcript: the badge's words in code type
        return f'<code title="{escape(title)}">{escape(text)}</code> '
    background = _TONES.get(tone, _TONES["neutral"])
    return f'<span style="{_BADGE};background:{background}" title="{escape(title)}">{escape(text)}</span>'


def tile_html(cells: Sequence[Cell], *, styled: bool = True) -> str:
    """One grid cell: each repeat's status, score badges and the first lines of its answer (as the
    static transcript's table cell content, without inline styles, when not ``styled``)."""
    parts = []
    for cell in cells:
        result, status = cell.result, cell.status
        badges = [_badge(status_word(status), status_tone(status), styled=styled)]
        badges += [_badge(b["text"], b["tone"], b["title"], styled) for b in map(badge, result.scores)]
        # its words in one flow, as the reader sees them (no markdown marks): a heading and blank lines
        # would take the tile's few lines; steps' texts apart (result.text joins them as Mastra does,
        # with nothing between). Only the answer's start is read: a tile shows a few lines of it.
        said = " ".join(step.text for step in result.steps) if result.steps else result.text
        error = result.error.message if result.error else ""
        text = markdown_words(said[: ANSWER_CHARS * 4]) if said else " ".join(error.split())
        answer = escape(text[:ANSWER_CHARS] + ("…" if len(text) > ANSWER_CHARS else ""))
        repeat = (
            f"<span{_css('opacity:0.6;margin-right:4px', styled)}>#{cell.repeat + 1}</span> "
            if len(cells) > 1
            else ""
        )
        parts.append(
            f'<div class="mn-exp-run" data-status="{escape(status)}">{repeat}{"".join(badges)}'
            f'<div class="mn-exp-answer"{_css(_ANSWER, styled)}>{answer}</div></div>'
        )
    return f'<div class="mn-exp-tile"{_css(_TILE, styled)}>{"".join(parts)}</div>'


def _figure(value: Any, digits: str = ".3g") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return format(value, digits)


def summary_html(experiment: Experiment, *, styled: bool = True) -> str:
    """The summary per variant as a table: n, errors, each scorer's mean [95% interval] and pass
    rate, tokens, cost, latency p50/p95 (left to the host's table style when not ``styled``)."""
    table = numbers.summary_rows(experiment.outcomes(), list(experiment.variants))
    scorers = numbers.scorer_names(experiment.outcomes())
    head = [
        "variant",
        "ended / runs",
        "errors",
        *(f"{name} (95% CI{'' if numbers.intervals_available() else ' needs scipy'})" for name in scorers),
        "tokens",
        "cost",
        "p50 / p95 s",
    ]
    lines = []
    for facts in table:
        scored = []
        for name in scorers:
            mean, low, high = facts[f"{name}_mean"], facts[f"{name}_ci_low"], facts[f"{name}_ci_high"]
            interval = "" if math.isnan(low) else f" [{_figure(low)}, {_figure(high)}]"
            rate = facts[f"{name}_pass_rate"]
            passed = "" if math.isnan(rate) else f" · {rate:.0%} pass"
            scored.append(f"{_figure(mean)}{interval}{passed}")
        cost = facts["cost_usd"]
        cells = [
            f"{facts['ended']}/{facts['n']}",
            str(facts["errors"]),
            *scored,
            f"{facts['tokens']:,}",
            "—" if math.isnan(cost) else format_usd(cost),
            f"{_figure(facts['latency_p50_s'])} / {_figure(facts['latency_p95_s'])}",
        ]
        title = _described(experiment, facts["variant"])
        lines.append(
            f'<tr><th{_css(f"{_TD};text-align:left", styled)} title="{title}">{escape(facts["variant"])}</th>'
            + "".join(f"<td{_css(_TD, styled)}>{escape(c)}</td>" for c in cells)
            + "</tr>"
        )
    aligned = [_css(f"{_TD};text-align:{'left' if i == 0 else 'right'}", styled) for i in range(len(head))]
    header = "".join(f"<th{align}>{escape(h)}</th>" for align, h in zip(aligned, head, strict=True))
    return f'<table class="mn-exp-summary"{_css(_TABLE, styled)}><tr>{header}</tr>{"".join(lines)}</table>'


def _described(experiment: Experiment, variant: str) -> str:
    """A variant's options as a header's hover text."""
    return escape(str(numbers.described(experiment.variants.get(variant))))


def _input_html(experiment: Experiment, index: int, styled: bool = True) -> str:
    item = experiment.items[index]
    text = str(item.input)
    expected = (
        f"<div{_css('opacity:0.7;margin-top:2px', styled)}>expected: {escape(str(item.expected)[:120])}</div>"
        if item.expected is not None
        else ""
    )
    style = _css("font-size:12px;line-height:1.4;padding:6px 4px;overflow-wrap:anywhere", styled)
    return (
        f'<div class="mn-exp-input"{style} title="{escape(text)}">'
        f"<span{_css('opacity:0.6', styled)}>#{index}</span> {escape(text[:200])}{expected}</div>"
    )


_STATIC_TD = "text-align:left;vertical-align:top"  # the host's table style right-aligns cells


def _static_rows(experiment: Experiment, rows: Sequence[int]) -> str:
    """The grid's rows as a plain table (the static transcript): what it shows is its text, with a
    declaration per cell at most, cheap for the host's sanitiser."""
    variants = list(experiment.variants)
    head = f'<th style="{_STATIC_TD}">input</th>' + "".join(
        f'<th style="{_STATIC_TD}" title="{_described(experiment, v)}">{escape(v)}</th>' for v in variants
    )
    body = "".join(
        f'<tr><td style="{_STATIC_TD}">{_input_html(experiment, index, styled=False)}</td>'
        + "".join(
            f'<td style="{_STATIC_TD}">{tile_html(experiment.cells_of(index, v), styled=False)}</td>'
            for v in variants
        )
        + "</tr>"
        for index in rows
    )
    return f'<table class="mn-exp-rows"><tr>{head}</tr>{body}</table>'


def _progress(experiment: Experiment) -> str:
    counts = experiment.batch.counts()
    if not experiment.batch.jobs:  # a reopened experiment
        return f"saved experiment · {len(experiment.cells)} runs"
    words = {"done": "done", "running": "running", "queued": "queued", "stopped": "aborted", "error": "error"}
    parts = [f"{counts[key]} {status_word(word)}" for key, word in words.items() if counts[key]]
    return " · ".join(parts) + f" ({len(experiment.cells)} runs, {experiment.batch.concurrency} at a time)"


def page_parts(experiment: Experiment, rows: Sequence[int]) -> list[str]:
    """The live page's rows: the grid's style, then each of its children as HTML, one element each
    (the variants' heads, then per input its column and a cell per variant: the tile and an "open"
    button per run that has started). The page replaces only the children whose HTML changed."""
    variants = list(experiment.variants)
    columns = f"minmax(140px,1fr) repeat({len(variants)},minmax(200px,2fr))"
    head = ['<div class="mn-exp-head" style="font-weight:600;font-size:12px">input</div>'] + [
        f'<div class="mn-exp-head" style="font-weight:600;font-size:12px"'
        f' title="{_described(experiment, v)}">{escape(v)}</div>'
        for v in variants
    ]
    body = []
    for index in rows:
        body.append(_input_html(experiment, index))
        for variant in variants:
            cells = experiment.cells_of(index, variant)
            opens = "".join(
                f'<button class="mn-exp-open" style="{_OPEN}{_QUEUED if cell.status == "queued" else ""}"'
                f' data-open="{cell.number}"{" disabled" if cell.status == "queued" else ""}>'
                f"{'open' if len(cells) == 1 else f'open #{cell.repeat + 1}'}</button>"
                for cell in cells
            )
            body.append(
                f'<div class="mn-exp-cell" style="display:flex;flex-direction:column">'
                f"{tile_html(cells)}<div>{opens}</div></div>"
            )
    return [f"display:grid;grid-template-columns:{columns};gap:6px;margin-top:6px", *head, *body]


def static_html(experiment: Experiment, rows: Sequence[int] | None = None) -> str:
    """The grid and summary as plain HTML (a saved notebook's transcript of the widget): the rows
    given, or the first page's."""
    per_page = max(1, PAGE_TILES // max(1, len(experiment.variants)))
    rows = list(rows) if rows is not None else list(range(min(per_page, len(experiment.items))))
    more = len(experiment.items) - len(rows)
    tail = f"<div>… and {more} more inputs</div>" if more > 0 else ""
    title = f"<b>{escape(experiment.name)}</b> · " if experiment.name else ""
    return (
        f'<div class="mn-exp-static"><div>{title}{escape(_progress(experiment))}</div>'
        f"{summary_html(experiment, styled=False)}{_static_rows(experiment, rows)}{tail}</div>"
    )


class Later:
    """``draw()`` once, ``delay`` seconds after the first ``soon()`` since it last ran (on the running
    loop; at once outside one)."""

    def __init__(self, delay: float, draw: Callable[[], None]) -> None:
        self.delay, self.draw, self.due = delay, draw, False

    def soon(self) -> None:
        """Draw in ``delay`` seconds, unless already due."""
        loop = running_loop()
        if loop is None:
            self.draw()
        elif not self.due:
            self.due = True
            loop.call_later(self.delay, self._now)

    def _now(self) -> None:
        self.due = False
        self.draw()


class Page(anywidget.AnyWidget):
    """The grid's page as one widget: its rows' children as HTML (``parts``, made in the kernel, every
    string escaped; only those that changed drawn again), and a click on a run's "open" sent back
    (``{"open": cell index}``). One widget,
    not a few per tile: a page of 48 tiles as ipywidgets was ~250 widgets and a first draw of over a
    second."""

    # js/src/experiment-page.ts: draws the kernel's HTML, sends a run's "open" (no markup is made there)
    _esm = traitlets.Unicode((Path(__file__).parent.parent / "static" / "experiment.js").read_text()).tag(
        sync=True
    )
    parts = traitlets.List(traitlets.Unicode()).tag(sync=True)  # page_parts(): the style, the rows' children


class Grid:
    """The experiment's widget: progress and summary, controls (differs toggle, pager), the page of
    rows (one :class:`Page`), and the detail view a tile's "open" shows (a page of at most
    ``page_tiles`` tiles)."""

    def __init__(self, experiment: Experiment, page_tiles: int = PAGE_TILES) -> None:
        self.experiment = experiment
        self.rows_per_page = max(1, page_tiles // max(1, len(experiment.variants)))
        self.only_differing = False
        self.order: list[int] = list(range(len(experiment.items)))
        self.offset = 0
        self._display: Any = None
        # drawn at most so often, once for whatever changed meanwhile
        self._page_later = Later(TICK_S, self._tick)
        self._summary_later = Later(SUMMARY_EVERY_S, self._draw_summary)
        # not a message per run's start and end (6,000 for 3,000 runs): the page's garbage meanwhile
        self._progress_later = Later(TICK_S, self._draw_progress)
        self._progress = ipywidgets.HTML()
        self._summary = ipywidgets.HTML()
        self._differs = ipywidgets.ToggleButton(
            value=False, description="differs only", tooltip="only the inputs where the variants disagree"
        )
        self._previous = ipywidgets.Button(description="◀ previous")
        self._next = ipywidgets.Button(description="next ▶")
        self._pager = ipywidgets.HTML()
        self._differs.observe(self._on_differs, names="value")
        self._previous.on_click(lambda _b: self.turn(self.offset - self.rows_per_page))
        self._next.on_click(lambda _b: self.turn(self.offset + self.rows_per_page))
        named = {"differs": self._differs, "previous": self._previous, "next": self._next,
                 "pager": self._pager, "summary": self._summary}  # fmt: skip
        for name, control in named.items():
            control.add_class(f"mn-exp-{name}")
        controls = ipywidgets.HBox([self._differs, self._previous, self._pager, self._next])
        self._page = Page()
        self._page.add_class("mn-exp-grid")
        self._page.on_msg(self._on_page_message)
        self._detail_label = ipywidgets.HTML()
        self._close = ipywidgets.Button(description="close")
        self._close.on_click(lambda _b: self.close_detail())
        self._detail = ipywidgets.VBox(layout=ipywidgets.Layout(display="none"))
        self._detail.add_class("mn-exp-detail")
        self._detail_view: StreamView | None = None  # shows ended runs, one after another
        self._shown: StreamView | None = None  # the view in the detail area now
        self.widget = ipywidgets.VBox([self._progress, self._summary, controls, self._page, self._detail])
        self.widget.add_class("mn-experiment")
        self.turn(0)
        self._draw_summary()

    # ---- the page -------------------------------------------------------------------------------

    def listing(self) -> list[int]:
        """The inputs the page lists: all, or those where the variants differ."""
        if self.only_differing:
            return self.experiment.differs()
        return list(range(len(self.experiment.items)))

    def _on_differs(self, change: dict[str, Any]) -> None:
        self.show_differing(bool(change["new"]))

    def show_differing(self, only: bool = True) -> None:
        """List only the inputs where the variants disagree (so far), or all again; from the first page."""
        self.only_differing = only
        if self._differs.value != only:
            self._differs.value = only
        self.turn(0)

    def turn(self, offset: int) -> None:
        """Show the listed inputs from ``offset`` on (the list taken again)."""
        self.order = self.listing()
        last = max(0, (len(self.order) - 1) // self.rows_per_page * self.rows_per_page)
        self.offset = max(0, min(offset, last))
        self._draw_page()
        self._draw_pager()

    @property
    def page(self) -> list[int]:
        """The inputs on the page now."""
        return self.order[self.offset : self.offset + self.rows_per_page]

    def _draw_page(self) -> None:
        parts = page_parts(self.experiment, self.page)
        if self._page.parts != parts:
            self._page.parts = parts

    def _draw_pager(self) -> None:
        total, page = len(self.order), self.page
        if not page:
            where = "no inputs differ (yet)" if self.only_differing else "no inputs"
        else:
            where = f"inputs {self.offset + 1}\N{EN DASH}{self.offset + len(page)} of {total}"
            where += " (differing)" if self.only_differing else ""
        self._pager.value = (
            f'<span class="mn-exp-where" style="font-size:12px;padding:0 8px">{escape(where)}</span>'
        )

    # ---- runs change ----------------------------------------------------------------------------

    def changed(self, cell: Cell, event: Event) -> None:
        """A run was queued, started, paused or ended: the page (if the run is on it) soon, the
        progress and, at most every half second, the summary."""
        if event == "queued":
            return
        if cell.item in self.page:
            self._page_later.soon()
        self._progress_later.soon()
        if event == "ended":
            self._summary_later.soon()
        if self.experiment.batch.idle:
            self.settled()

    def _tick(self) -> None:
        """The page drawn again (its streaming tiles' answers as they grow, its runs that started or
        ended), and again in TICK_S while a run on it streams."""
        self._draw_page()
        running = any(cell.status == "running" for index in self.page for cell in self._row(index))
        if running and running_loop() is not None:
            self._page_later.soon()

    def _row(self, index: int) -> list[Cell]:
        return [
            cell for variant in self.experiment.variants for cell in self.experiment.cells_of(index, variant)
        ]

    def _draw_summary(self) -> None:
        self._summary.value = summary_html(self.experiment)
        self._draw_progress()

    def _draw_progress(self) -> None:
        self._progress.value = self._progress_html()

    def _progress_html(self) -> str:
        name = f"<b>{escape(self.experiment.name)}</b> · " if self.experiment.name else ""
        progress = escape(_progress(self.experiment))
        return f'<div class="mn-exp-progress" style="font-size:12px">{name}{progress}</div>'

    def settled(self) -> None:
        """Every run ended: the summary, the page (scores came late) and the notebook's transcript."""
        self._draw_summary()
        if self.only_differing:
            self.turn(self.offset)
        else:
            self._draw_page()
        if self._display is not None:
            self._display.update(self.bundle(), raw=True)

    # ---- the detail view ------------------------------------------------------------------------

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        opened = content.get("open") if isinstance(content, dict) else None
        if isinstance(opened, str) and opened.isdigit() and int(opened) < len(self.experiment.cells):
            self.open(self.experiment.cells[int(opened)])

    def open(self, cell: Cell) -> StreamView | None:
        """Show ``cell``'s run in full below the grid: its live view while it streams, else drawn
        from what it kept."""
        handle = cell.job.handle if cell.job is not None else None
        title = f"#{cell.item} · {cell.variant}" + (
            f" · repeat {cell.repeat + 1}" if self.experiment.repeats > 1 else ""
        )
        if isinstance(handle, StreamView):
            view = handle
            view.show_in_browser()
        elif cell.status == "queued":
            return None
        else:
            if self._detail_view is None:
                with opened_when_shown():
                    self._detail_view = StreamView(max_height="480px")
                self._detail_view.show_in_browser()
            view = self._detail_view
            view.show_kept(
                cell.keep(), title=str(self.experiment.items[cell.item].input)[:200], subtitle=title
            )
        self._shown = view
        self._detail_label.value = f'<b style="font-size:12px">{escape(title)}</b>'
        self._detail.children = (ipywidgets.HBox([self._detail_label, self._close]), view)
        self._detail.layout.display = None
        return view

    def close_detail(self) -> None:
        """Hide the detail view."""
        self._shown = None
        self._detail.children = ()
        self._detail.layout.display = "none"

    def showing(self, view: StreamView) -> bool:
        """``view`` is the one in the detail area (not to be closed when its run ends)."""
        return view is self._shown

    # ---- displayed ------------------------------------------------------------------------------

    def bundle(self, **kwargs: Any) -> dict[str, Any]:
        """The widget's MIME bundle with the grid and summary as HTML beside it: what a saved
        notebook shows where no widget can be drawn."""
        # made here, not by ipywidgets (7.7 has no _repr_mimebundle_): the widget's reference
        return {
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2, "version_minor": 0, "model_id": self.widget.model_id,
            },
            "text/plain": repr(self.experiment),
            "text/html": static_html(self.experiment, self.page),
        }  # fmt: skip

    def display(self) -> None:
        """Display the grid, with a handle to update its HTML transcript once every run ended."""
        from IPython.display import display

        self._display = display(self.bundle(), raw=True, display_id=True)  # type: ignore[no-untyped-call]
