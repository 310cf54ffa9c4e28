"""An experiment shown: its progress and summary, the grid of its runs (inputs are rows, variants
columns: the one grid, widget/grid.py, drawn by js/src/views/grid.ts) and the full view of a run a
tile opens. The experiment itself runs, scores, saves and reopens with no widget (runs/experiment.py);
the package wires this grid in to show it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any

import ipywidgets

from ..analysis import outcomes as numbers
from ..analysis.pairwise import Judged, Pairwise, Verdict
from ..analysis.repeats import described_step
from ..analysis.summary import summary_rows
from ..core.cost import format_usd
from ..core.status_words import status_word
from ..render import views
from ..runs.batch import Event
from ..runs.experiment import PAGE_TILES, Cell, Experiment, load_experiment
from ..runs.loops import running_loop
from .grid import TICK_S, GridView, Later, figure, grid_html, page_data, run_data, tile_data, when_idle
from .streamview import StreamView
from .transcripts import Transcripts, widget_view

__all__ = ["Experiment", "Grid", "load_experiment"]

SUMMARY_EVERY_S = 0.5  # the summary (every run's scores) is drawn again at most this often while runs end


# ---- drawn ------------------------------------------------------------------------------------------


def _figure(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return figure(value)


def summary(experiment: Experiment) -> views.Table:
    """The summary per variant as a table: n, errors, each scorer's mean [95% interval] and pass
    rate, tokens, cost, latency p50/p95."""
    table = summary_rows(experiment.outcomes(), list(experiment.variants), experiment.repeats)
    scorers = numbers.scorer_names(experiment.outcomes())
    head: list[views.Inline] = [
        "variant",
        "ended / runs",
        "errors",
        *(
            f"{name} (95% CI over inputs{'' if numbers.intervals_available() else ' needs scipy'})"
            for name in scorers
        ),
        "tokens",
        "cost",
        "p50 / p95 s",
    ]
    rows: list[list[views.Inline]] = []
    for facts in table:
        scored = []
        for name in scorers:
            mean, low, high = facts[f"{name}_mean"], facts[f"{name}_ci_low"], facts[f"{name}_ci_high"]
            interval = "" if math.isnan(low) else f" [{_figure(low)}, {_figure(high)}]"
            rate = facts[f"{name}_pass_rate"]
            passed = "" if math.isnan(rate) else f" · {rate:.0%} pass"
            failed = facts[f"{name}_failed"]
            raised = f" · failed on {failed} run{'s' * (failed != 1)}" if failed else ""
            scored.append(f"{_figure(mean)}{interval}{passed}{raised}")
        variant = views.span("", str(facts["variant"]), title=_described(experiment, facts["variant"]))
        rows.append(
            [
                variant,
                f"{facts['ended']}/{facts['n']}"
                + (f" · {facts['not_started']} never started" if facts["not_started"] else ""),
                str(facts["errors"]),
                *scored,
                f"{facts['tokens']:,}",
                _cost(facts),
                _latency(facts),
            ]
        )
    return views.table(head, rows, cls="mn-exp-summary", row_heads=True, numeric=True)


def _ran(facts: dict[str, Any]) -> int:
    """The variant's runs that started and ended: what its cost and latency can cover."""
    return int(facts["ended"] - facts["not_started"])


def _covers(runs: int, ended: int) -> str:
    """Which runs a figure covers: all the ended runs, or how many of them."""
    return f"{runs} run{'s' * (ended != 1)}" if runs == ended else f"{runs} of {ended} runs"


def _cost(facts: dict[str, Any]) -> str:
    """The variant's cost over the runs whose cost is known, saying which; "—" when none is known
    (an unknown cost is never $0.00)."""
    cost, runs = facts["cost_usd"], facts["cost_runs"]
    if runs == 0 or math.isnan(cost):
        return "—"
    return f"{format_usd(cost)} ({_covers(runs, _ran(facts))})"


def _latency(facts: dict[str, Any]) -> str:
    """p50 / p95 latency in seconds, over the ended runs with a latency, saying how many."""
    runs = facts["latency_runs"]
    if runs == 0:
        return "—"
    figures = f"{_figure(facts['latency_p50_s'])} / {_figure(facts['latency_p95_s'])}"
    return f"{figures} ({_covers(runs, _ran(facts))})"


def verdicts_table(experiment: Experiment) -> views.Table | None:
    """Each judged pair's figures (``exp.pairwise``): wins, losses and ties of the first variant,
    its win rate over the decided pairs with the 95% Wilson interval, the judge's position bias."""
    if not experiment.verdicts:
        return None
    head: list[views.Inline] = ["pairwise", "pairs", "wins / losses / ties", "win rate (95% CI)",
                                "position bias"]  # fmt: skip
    rows: list[list[views.Inline]] = []
    for judged in experiment.verdicts.values():
        low, high = judged.interval
        rate = "—" if math.isnan(judged.win_rate) else f"{judged.win_rate:.0%}"
        if not math.isnan(low):
            rate += f" [{low:.0%}, {high:.0%}]"
        bias = judged.position_bias
        rows.append([
            f"{judged.a} vs {judged.b}",
            str(len(judged.judged)),
            f"{judged.wins} / {judged.losses} / {judged.ties}",
            rate,
            "—" if math.isnan(bias) else f"{bias:.2f} chose the first shown",
        ])  # fmt: skip
    return views.table(head, rows, cls="mn-exp-summary mn-exp-pairwise", row_heads=True, numeric=True)


def _summaries(experiment: Experiment) -> list[views.Inline]:
    """The summary per variant, and under it each judged pair's figures."""
    judged = verdicts_table(experiment)
    return [summary(experiment), *([judged] if judged is not None else [])]


def summary_html(experiment: Experiment, *, styled: bool = True) -> str:
    """The summary drawn (left to the host's table style when not ``styled``)."""
    return "".join(views.draw_each(_summaries(experiment), styled=styled))


def _described(experiment: Experiment, variant: str) -> str:
    """A variant's options as a header's hover text."""
    return str(numbers.described(experiment.variants.get(variant)))


def _progress(experiment: Experiment) -> str:
    if experiment.remote is not None:  # run on a server, watched from here
        return experiment.remote.describe()
    if not experiment.batch.jobs:  # a reopened experiment
        return _reopened(experiment)
    counts = experiment.counts()  # a resumed experiment's kept runs included
    words = {"done": "done", "running": "running", "queued": "queued", "stopped": "aborted", "error": "error"}
    parts = [f"{counts[key]} {status_word(word)}" for key, word in words.items() if counts[key]]
    parts += experiment.batch.notes()  # "waiting for the server"; the budget
    return " · ".join(parts) + f" ({len(experiment.cells)} runs, {experiment.batch.concurrency} at a time)"


def _reopened(experiment: Experiment) -> str:
    """A reopened experiment's line; where runs are missing (a kernel that died mid-experiment), how
    many, and what runs them."""
    statuses = Counter(cell.status for cell in experiment.cells)
    line = f"saved experiment · {len(experiment.cells)} runs"
    never, incomplete = statuses["queued"], statuses["incomplete"]
    if not (never or incomplete):
        return line
    missing = [f"{incomplete} incomplete"] if incomplete else []
    missing += [f"{never} never written"] if never else []
    return f"{line} · {statuses['finished']} finished · {' · '.join(missing)}: resume(client) runs them"


def _named(experiment: Experiment) -> list[views.Inline]:
    """The experiment's name (strong) and its progress."""
    name: list[views.Inline] = [views.strong(experiment.name), " · "] if experiment.name else []
    return [*name, _progress(experiment)]


def _title(experiment: Experiment, cell: Cell) -> str:
    """A run's place, as its detail's title says it: input and repeat numbered from 1, as on its tile."""
    repeat = f" · repeat {cell.repeat + 1}" if experiment.repeats > 1 else ""
    return f"input #{cell.item + 1} · {cell.variant}{repeat}"


def _openable(cell: Cell) -> bool:
    """A run "open" shows: a streaming one with its view, or one that ended."""
    handle = cell.job.handle if cell.job is not None else None
    return cell.status != "queued" and (handle is None or isinstance(handle, StreamView))


def _fork(
    experiment: Experiment, index: int, variant: str, cells: Sequence[Cell]
) -> tuple[str, dict[int, str]]:
    """Where input ``index``'s repeats with ``variant`` part, when some passed and some failed
    (``exp.forks``): the tile's sentence, and each repeat's step there by its cell's number; ("", {})
    when its repeats did not both pass and fail."""
    ended = sorted((cell for cell in cells if cell.outcome().ended), key=lambda cell: cell.repeat)
    verdicts = {s.passed for cell in ended for s in cell.result.scores if s.passed is not None}
    if len(ended) < 2 or verdicts != {True, False}:
        return "", {}
    fork = experiment.forks(index, variant)
    if fork.separating is None:
        judged = [p for p in fork.passed if p is not None]
        split = True in judged and False in judged
        return ("no step separates the passing and failing repeats" if split else ""), {}
    steps = {
        cell.number: f"step {fork.separating + 1}: {described_step(fork.step(run, fork.separating))}"
        for run, cell in enumerate(ended)
    }
    return f"step {fork.separating + 1} separates the passing and failing repeats", steps


def _tile(experiment: Experiment, index: int, variant: str) -> dict[str, Any]:
    """Input ``index`` with ``variant``: a run per repeat, and where its repeats part (forks)."""
    cells = experiment.cells_of(index, variant)
    many = experiment.repeats > 1
    fork, steps = _fork(experiment, index, variant, cells) if many else ("", {})
    runs = [
        run_data(cell.number, cell.status, cell.result, repeat=cell.repeat + 1 if many else 0,
                 openable=_openable(cell), step=steps.get(cell.number, ""))
        for cell in cells
    ]  # fmt: skip
    return tile_data(runs, fork=fork)


def _choice(judged: Pairwise, verdict: Verdict, shown_first: str) -> tuple[str, str]:
    """One asking of the judge: which variant it was shown first and which it chose, and its reason."""
    other = judged.b if shown_first == judged.a else judged.a
    chose = {"first": shown_first, "second": other, "tie": "tie"}[verdict.choice]
    return f"{shown_first} shown first: {chose}", verdict.reason or ""


def _verdict(judged: Pairwise, pair: Judged, many: bool) -> dict[str, Any]:
    """A pair's verdict as the grid's verdict column shows it: the better variant (or tie), and both
    askings' choices and reasons."""
    split = pair.verdict == "tie" and not pair.a_first.choice == pair.b_first.choice == "tie"
    word = {"a": judged.a, "b": judged.b, "tie": "tie"}[pair.verdict]
    return {
        "repeat": pair.repeat + 1 if many else 0,
        "side": pair.verdict,
        "word": word,
        "tone": "neutral" if pair.verdict == "tie" else "ok",
        "note": "the two orders disagree" if split else "",
        "reasons": [
            list(_choice(judged, pair.a_first, judged.a)),
            list(_choice(judged, pair.b_first, judged.b)),
        ],
    }


def _verdicts(experiment: Experiment, rows: Sequence[int]) -> dict[int, list[list[dict[str, Any]]]]:
    """The verdicts of the inputs ``rows``, by input: a list per judged pair of variants (a verdict
    per repeat)."""
    many = experiment.repeats > 1
    found: dict[int, list[list[dict[str, Any]]]] = {index: [] for index in rows}
    for judged in experiment.verdicts.values():
        for shown in found.values():
            shown.append([])
        for pair in judged.judged:
            if pair.item in found:
                found[pair.item][-1].append(_verdict(judged, pair, many))
    return found


def _row(experiment: Experiment, index: int, verdicts: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Input ``index``'s row: the input (numbered from 1), a tile per variant (a run per repeat), and
    its ``verdicts``, a cell per judged pair."""
    item = experiment.items[index]
    text = str(item.input)
    tiles = [_tile(experiment, index, variant) for variant in experiment.variants]
    expected = "" if item.expected is None else str(item.expected)[:120]
    return {"number": index + 1, "input": text[:200], "hover": text, "expected": expected, "tiles": tiles,
            "verdicts": verdicts}  # fmt: skip


def filters(experiment: Experiment) -> list[tuple[str, str]]:
    """The filter's choices: all inputs, those where the variants differ, and per scorer those where
    it failed a run (``failed:<scorer>``)."""
    failed = [(f"failed on {name}", f"failed:{name}") for name in numbers.scorer_names(experiment.outcomes())]
    return [("all inputs", "all"), ("differs only", "differs"), *failed]


def listed(experiment: Experiment, key: str) -> list[int]:
    """The inputs a filter's choice lists (all for a key it does not know)."""
    if key == "differs":
        return experiment.differs()
    if key.startswith("failed:"):
        return numbers.failing(experiment.outcomes(), key.removeprefix("failed:"))
    return list(range(len(experiment.items)))


def _where(key: str) -> tuple[str, str]:
    """What the pager says of a filtered list: after its count, and when it is empty."""
    if key == "differs":
        return " (differing)", "no inputs differ (yet)"
    if key.startswith("failed:"):
        name = key.removeprefix("failed:")
        return f" (failed on {name})", f"no input failed on {name} (yet)"
    return "", "no inputs"


def page(
    experiment: Experiment, rows: Sequence[int], *, offset: int, listed: int, filter: str = "all"
) -> dict[str, Any]:
    """The page of ``rows`` (the listed inputs from ``offset`` on, of ``listed``, as ``filter``
    chose them) as the grid draws it."""
    after, empty = _where(filter)
    verdicts = _verdicts(experiment, rows)
    where = f"inputs {offset + 1}\N{EN DASH}{offset + len(rows)} of {listed}{after}" if rows else empty
    columns = [{"name": v, "title": _described(experiment, v)} for v in experiment.variants]
    pairs = [
        {"a": a, "b": b, "title": f"pairwise: {a} against {b}, each pair judged in both orders "
                                  "(a judge that changes its mind with the order: tie)"}
        for a, b in experiment.verdicts
    ]  # fmt: skip
    return page_data(
        "experiment",
        where=where,
        previous=offset > 0,
        next=offset + len(rows) < listed,
        rows=[_row(experiment, index, verdicts[index]) for index in rows],
        columns=columns,
        pairs=pairs,
        filters=filters(experiment),
        filter=filter,
        jump="jump to input #",
        empty=where,
    )


def static_html(
    experiment: Experiment, rows: Sequence[int] | None = None, view_keys: Sequence[str] = ()
) -> str:
    """The progress, summary and grid as plain HTML (a saved notebook's transcript of the widget):
    the rows given, or the first page's; ``view_keys``: the grid widgets it stands for (``grid_html``)."""
    per_page = max(1, PAGE_TILES // max(1, len(experiment.variants)))
    rows = list(rows) if rows is not None else list(range(min(per_page, len(experiment.items))))
    offset = rows[0] if rows else 0
    more = len(experiment.items) - len(rows)
    tail: list[views.Inline] = [views.block(f"… and {more} more inputs")] if more > 0 else []
    head: list[views.Inline] = [views.block(_named(experiment)), *_summaries(experiment)]
    page_rows = page(experiment, rows, offset=offset, listed=len(experiment.items))
    return grid_html(page_rows, head=head, tail=tail, view_keys=view_keys)


class Grid:
    """The experiment's widget: progress and summary, then the grid (a page of at most ``page_tiles``
    tiles: the pager, a "differs only" filter, the rows of inputs by variants) and the full view of
    the run a tile's "open" shows."""

    def __init__(self, experiment: Experiment, page_tiles: int = PAGE_TILES) -> None:
        self.experiment = experiment
        self.rows_per_page = max(1, page_tiles // max(1, len(experiment.variants)))
        self.filter = "all"  # a key of filters(): all inputs, "differs", "failed:<scorer>"
        self.order: list[int] = list(range(len(experiment.items)))
        self.offset = 0
        self._opened: Cell | None = None  # the run shown in full below the grid
        # drawn at most so often, once for whatever changed meanwhile
        self._page_later = Later(TICK_S, self._tick)
        self._summary_later = Later(SUMMARY_EVERY_S, self._draw_summary)
        # not a message per run's start and end (6,000 for 3,000 runs): the page's garbage meanwhile
        self._progress_later = Later(TICK_S, self._draw_progress)
        self._progress = ipywidgets.HTML()
        self._summary = ipywidgets.HTML()
        self._summary.add_class("mn-exp-summary")
        self.view = GridView(self)
        self.widget = ipywidgets.VBox([self._progress, self._summary, self.view.grid, self.view.detail])
        self.widget.add_class("mn-experiment")
        # the saved face: the grid as HTML, an output of its own below the widget (hidden where it draws)
        self._transcripts = Transcripts(self.saved_html, self._resend, lambda: self.experiment.done)
        self.turn(0)
        self._draw_summary()

    # ---- the page -------------------------------------------------------------------------------

    def listing(self) -> list[int]:
        """The inputs the page lists: all, those where the variants differ, or those where a scorer
        failed a run (as the filter chose)."""
        return listed(self.experiment, self.filter)

    @property
    def only_differing(self) -> bool:
        """Only the inputs where the variants differ are listed."""
        return self.filter == "differs"

    def show_differing(self, only: bool = True) -> None:
        """List only the inputs where the variants disagree (so far), or all again; from the first page."""
        self.show_only("differs" if only else "all")

    def show_only(self, key: str) -> None:
        """List the inputs the filter's choice ``key`` keeps (``all``, ``differs``,
        ``failed:<scorer>``); from the first page."""
        self.filter = key if key in {k for _, k in filters(self.experiment)} else "all"
        self.turn(0)

    def turn(self, offset: int) -> None:
        """Show the listed inputs from ``offset`` on (the list taken again)."""
        self.order = self.listing()
        last = max(0, (len(self.order) - 1) // self.rows_per_page * self.rows_per_page)
        self.offset = max(0, min(offset, last))
        self._draw_page()

    def next_page(self) -> None:
        """The next page of inputs (the last page stays)."""
        self.turn(self.offset + self.rows_per_page)

    def previous_page(self) -> None:
        """The previous page of inputs."""
        self.turn(self.offset - self.rows_per_page)

    def jump(self, number: int | str) -> None:
        """Show the page with input ``number`` (numbered from 1, as the grid shows it: ``3`` or ``"#3"``),
        all inputs listed if the filter hides it."""
        text = str(number).strip().lstrip("#")
        if not text.isdigit() or not 1 <= int(text) <= len(self.experiment.items):
            raise IndexError(f"no input #{text}: the inputs are #1 to #{len(self.experiment.items)}")
        index = int(text) - 1
        if index not in self.listing():
            self.filter = "all"  # a key of filters(): all inputs, "differs", "failed:<scorer>"
        self.order = self.listing()
        position = self.order.index(index)
        self.turn(position // self.rows_per_page * self.rows_per_page)

    @property
    def page(self) -> list[int]:
        """The inputs on the page now."""
        return self.order[self.offset : self.offset + self.rows_per_page]

    def page_data(self) -> dict[str, Any]:
        """The page as the grid draws it."""
        return page(self.experiment, self.page, offset=self.offset, listed=len(self.order),
                    filter=self.filter)  # fmt: skip

    def _draw_page(self, note: str = "") -> None:
        self.view.show({**self.page_data(), "note": note})

    # ---- the controls (GridView's messages) -----------------------------------------------------

    def open_number(self, number: int) -> None:
        """A tile's "open" clicked: the run numbered ``number`` shown below the grid."""
        if number < len(self.experiment.cells):
            self.open(self.experiment.cells[number])

    def turn_to(self, direction: str) -> None:
        """The pager clicked: ``"next"`` or ``"previous"`` page."""
        (self.next_page if direction == "next" else self.previous_page)()

    def choose(self, key: str) -> None:
        """The filter chosen (its key)."""
        self.show_only(key)

    def jump_to(self, text: str) -> None:
        """The jump box's text entered: the page showing it, or why not beside the pager."""
        try:
            self.jump(text)
        except IndexError as error:  # said beside the pager, nothing else changes
            self._draw_page(note=str(error))

    def shown_changed(self) -> None:
        """A run opened below the grid changed outside its stream (a person labelled it): the page
        drawn again soon (its tile shows the label), the run written into the folder."""
        if self._opened is not None:
            self.experiment.labelled(self._opened)
        else:
            self._page_later.soon()

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
        when_idle(self.experiment.batch, self.settled)

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
        (self._progress.value,) = views.draw_each(
            [views.block(_named(self.experiment), "mn-exp-progress", style="font-size:12px")]
        )

    def settled(self) -> None:
        """Every run ended: the summary, the page (scores came late) and the notebook's transcript."""
        self._draw_summary()
        if self.filter != "all":
            self.turn(self.offset)
        else:
            self._draw_page()
        self._transcripts.settled()

    def judged(self) -> None:
        """A pair of variants was judged: its verdict column, its figures in the summary, and the
        notebook's transcript."""
        self.settled()

    # ---- the detail view ------------------------------------------------------------------------

    def open(self, cell: Cell) -> StreamView | None:
        """Show ``cell``'s run in full below the grid: its live view while it streams, else drawn
        from what it kept (a run made with no view opens once it ended)."""
        if not _openable(cell):
            return None
        handle = cell.job.handle if cell.job is not None else None
        live = (
            handle
            if isinstance(handle, StreamView) and (cell.kept is None or self.view.showing(handle))
            else None
        )
        title = str(self.experiment.items[cell.item].input)[:200]
        kept = partial(self.experiment.kept_of, cell)
        view = self.view.open(live, kept, title=title, subtitle=_title(self.experiment, cell))
        self._opened = cell if view is not None else self._opened
        return view

    def close_detail(self) -> None:
        """Hide the detail view."""
        self._opened = None
        self.view.close_detail()

    def showing(self, view: StreamView) -> bool:
        """``view`` is the one in the detail area (not to be closed when its run ends)."""
        return self.view.showing(view)

    # ---- displayed ------------------------------------------------------------------------------

    def _resend(self) -> None:
        """The progress, summary and page sent again (from the cell running now:
        ``Transcripts.publish``)."""
        self._draw_summary()
        self._draw_page()
        for widget, name in ((self._progress, "value"), (self._summary, "value"), (self.view.grid, "page")):
            widget.send_state([name])

    def saved_html(self) -> str:
        """The progress, summary and page as HTML: what a saved notebook shows where no widget can be
        drawn, hidden where the grid draws."""
        return static_html(self.experiment, self.page, [self.view.grid.view_key])

    def bundle(self, **kwargs: Any) -> dict[str, Any]:
        """The widget's MIME bundle with its saved HTML beside it (hosts that show one output: marimo)."""
        return {
            **widget_view(self.widget),
            "text/plain": repr(self.experiment),
            "text/html": self.saved_html(),
        }

    def display(self) -> None:
        """Display the grid, then its saved HTML as an output of its own, updated once every run ended."""
        self._transcripts.show(widget_view(self.widget))
