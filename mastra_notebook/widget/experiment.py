"""An experiment shown: a live grid (inputs are rows, variants columns), its summary, and the full
view of a run a tile opens. The experiment itself runs, scores, saves and reopens with no widget
(runs/experiment.py); the package wires this grid in to show it.

A grid cell is a compact tile (status, score badges, the answer's first lines) built here as view
data (render/views.py) and drawn as HTML by the one renderer (js/src/views/inline.ts), never a
live view: a click opens the run's full view below the grid.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from ..analysis import experiment as numbers
from ..analysis.summary import summary_rows
from ..core.cost import format_usd
from ..core.score import badge
from ..core.status_words import status_tone, status_word
from ..render import views
from ..render.words import markdown_words
from ..runs.batch import Event
from ..runs.experiment import PAGE_TILES, Cell, Experiment, load_experiment
from ..runs.loops import running_loop
from .streamview import StreamView, opened_when_shown

__all__ = ["Experiment", "Grid", "load_experiment"]

ANSWER_CHARS = 240  # of a run's answer in its tile
TICK_S = 0.4  # the page's streaming tiles are redrawn this often
SUMMARY_EVERY_S = 0.5  # the summary (every run's scores) is drawn again at most this often while runs end


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


def _css(style: str, styled: bool) -> str:
    """A piece's own ``style``, or none in the static transcript: JupyterLab sanitises every
    ``text/html`` output for its table of contents, checking each inline declaration against its
    CSS patterns (a first page of tiles fully styled took it 170-300 ms in one task). The static
    transcript is drawn with ``styled=False`` too: no palette declarations either."""
    return style if styled else ""


def _badge(text: str, tone: str, title: str = "", styled: bool = True) -> list[views.Inline]:
    if not styled:  # the static transcript: the badge's words in code type
        return [views.code(text, title=title), " "]
    background = _TONES.get(tone, _TONES["neutral"])
    return [views.span("", text, title=title, style=f"{_BADGE};background:{background}")]


def tile(cells: Sequence[Cell], *, styled: bool = True) -> views.Block:
    """One grid cell as data: each repeat's status, score badges and the first lines of its answer."""
    parts: list[views.Inline] = []
    for cell in cells:
        result, status = cell.result, cell.status
        badges = _badge(status_word(status), status_tone(status), styled=styled)
        for b in map(badge, result.scores):
            badges += _badge(b["text"], b["tone"], b["title"], styled)
        # its words in one flow, as the reader sees them (no markdown marks): a heading and blank lines
        # would take the tile's few lines; steps' texts apart (result.text joins them as Mastra does,
        # with nothing between). Only the answer's start is read: a tile shows a few lines of it.
        said = " ".join(step.text for step in result.steps) if result.steps else result.text
        error = result.error.message if result.error else ""
        text = markdown_words(said[: ANSWER_CHARS * 4]) if said else " ".join(error.split())
        answer = text[:ANSWER_CHARS] + ("…" if len(text) > ANSWER_CHARS else "")
        repeat: list[views.Inline] = (
            [views.span("", f"#{cell.repeat + 1}", style=_css("opacity:0.6;margin-right:4px", styled)), " "]
            if len(cells) > 1
            else []
        )
        run = [*repeat, *badges, views.block(answer, "mn-exp-answer", style=_css(_ANSWER, styled))]
        parts.append(views.block(run, "mn-exp-run", {"status": status}))
    return views.block(parts, "mn-exp-tile", style=_css(_TILE, styled))


def tile_html(cells: Sequence[Cell], *, styled: bool = True) -> str:
    """One grid cell drawn: each repeat's status, score badges and the first lines of its answer (as
    the static transcript's table cell content, without inline styles, when not ``styled``)."""
    (html,) = views.draw_each([tile(cells, styled=styled)], styled=styled)
    return html


def _figure(value: Any, digits: str = ".3g") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return format(value, digits)


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
            scored.append(f"{_figure(mean)}{interval}{passed}")
        cost = facts["cost_usd"]
        variant = views.span("", str(facts["variant"]), title=_described(experiment, facts["variant"]))
        rows.append(
            [
                variant,
                f"{facts['ended']}/{facts['n']}",
                str(facts["errors"]),
                *scored,
                f"{facts['tokens']:,}",
                "—" if math.isnan(cost) else format_usd(cost),
                f"{_figure(facts['latency_p50_s'])} / {_figure(facts['latency_p95_s'])}",
            ]
        )
    return views.table(head, rows, cls="mn-exp-summary", row_heads=True, numeric=True)


def summary_html(experiment: Experiment, *, styled: bool = True) -> str:
    """The summary drawn (left to the host's table style when not ``styled``)."""
    return views.draw(summary(experiment), styled=styled)


def _described(experiment: Experiment, variant: str) -> str:
    """A variant's options as a header's hover text."""
    return str(numbers.described(experiment.variants.get(variant)))


def _input(experiment: Experiment, index: int, styled: bool = True) -> views.Block:
    item = experiment.items[index]
    text = str(item.input)
    expected: list[views.Inline] = (
        [
            views.block(
                f"expected: {str(item.expected)[:120]}", style=_css("opacity:0.7;margin-top:2px", styled)
            )
        ]
        if item.expected is not None
        else []
    )
    style = _css("font-size:12px;line-height:1.4;padding:6px 4px;overflow-wrap:anywhere", styled)
    number = views.span("", f"#{index}", style=_css("opacity:0.6", styled))
    return views.block([number, " ", text[:200], *expected], "mn-exp-input", title=text, style=style)


_STATIC_TD = "text-align:left;vertical-align:top"  # the host's table style right-aligns cells


def _static_rows(experiment: Experiment, rows: Sequence[int]) -> views.Table:
    """The grid's rows as a plain table (the static transcript): what it shows is its text, with a
    declaration per cell at most, cheap for the host's sanitiser."""
    variants = list(experiment.variants)
    head: list[views.Inline] = [
        "input",
        *(views.span("", v, title=_described(experiment, v)) for v in variants),
    ]
    body: list[list[views.Inline]] = [
        [
            _input(experiment, index, styled=False),
            *(tile(experiment.cells_of(index, v), styled=False) for v in variants),
        ]
        for index in rows
    ]
    return views.table(head, body, cls="mn-exp-rows", cell_style=_STATIC_TD)


def _progress(experiment: Experiment) -> str:
    counts = experiment.batch.counts()
    if not experiment.batch.jobs:  # a reopened experiment
        return f"saved experiment · {len(experiment.cells)} runs"
    words = {"done": "done", "running": "running", "queued": "queued", "stopped": "aborted", "error": "error"}
    parts = [f"{counts[key]} {status_word(word)}" for key, word in words.items() if counts[key]]
    return " · ".join(parts) + f" ({len(experiment.cells)} runs, {experiment.batch.concurrency} at a time)"


def _named(experiment: Experiment) -> list[views.Inline]:
    """The experiment's name (strong) and its progress."""
    name: list[views.Inline] = [views.strong(experiment.name), " · "] if experiment.name else []
    return [*name, _progress(experiment)]


def page_parts(experiment: Experiment, rows: Sequence[int]) -> list[str]:
    """The live page's rows: the grid's style, then each of its children as HTML, one element each
    (the variants' heads, then per input its column and a cell per variant: the tile and an "open"
    button per run that has started). The page replaces only the children whose HTML changed."""
    variants = list(experiment.variants)
    columns = f"minmax(140px,1fr) repeat({len(variants)},minmax(200px,2fr))"
    heading = "font-weight:600;font-size:12px"
    parts: list[views.Inline] = [
        views.block("input", "mn-exp-head", style=heading),
        *(views.block(v, "mn-exp-head", title=_described(experiment, v), style=heading) for v in variants),
    ]
    for index in rows:
        parts.append(_input(experiment, index))
        for variant in variants:
            cells = experiment.cells_of(index, variant)
            opens: list[views.Inline] = [
                views.button(
                    "mn-exp-open",
                    "open" if len(cells) == 1 else f"open #{cell.repeat + 1}",
                    {"open": str(cell.number)},
                    disabled=cell.status == "queued",
                    style=f"{_OPEN}{_QUEUED if cell.status == 'queued' else ''}",
                )
                for cell in cells
            ]
            parts.append(
                views.block(
                    [tile(cells), views.block(opens)],
                    "mn-exp-cell",
                    style="display:flex;flex-direction:column",
                )
            )
    drawn = views.draw_each(parts, controls=True)
    return [f"display:grid;grid-template-columns:{columns};gap:6px;margin-top:6px", *drawn]


def static_html(experiment: Experiment, rows: Sequence[int] | None = None) -> str:
    """The grid and summary as plain HTML (a saved notebook's transcript of the widget): the rows
    given, or the first page's."""
    per_page = max(1, PAGE_TILES // max(1, len(experiment.variants)))
    rows = list(rows) if rows is not None else list(range(min(per_page, len(experiment.items))))
    more = len(experiment.items) - len(rows)
    tail: list[views.Inline] = [views.block(f"… and {more} more inputs")] if more > 0 else []
    body = [views.block(_named(experiment)), summary(experiment), _static_rows(experiment, rows), *tail]
    return views.draw(body, "mn-exp-static", styled=False)


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
    """The grid's page as one widget: its rows' children as HTML (``parts``, drawn in the kernel by
    the one renderer from view data, every string as text; only those that changed drawn again), and
    a click on a run's "open" sent back (``{"open": cell index}``). One widget, not a few per tile: a
    page of 48 tiles as ipywidgets was ~250 widgets and a first draw of over a second."""

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
        (self._pager.value,) = views.draw_each(
            [views.span("mn-exp-where", where, style="font-size:12px;padding:0 8px")]
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
        (html,) = views.draw_each(
            [views.block(_named(self.experiment), "mn-exp-progress", style="font-size:12px")]
        )
        return html

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
        from what it kept (a run made with no view opens once it ended)."""
        handle = cell.job.handle if cell.job is not None else None
        title = f"#{cell.item} · {cell.variant}" + (
            f" · repeat {cell.repeat + 1}" if self.experiment.repeats > 1 else ""
        )
        if isinstance(handle, StreamView):
            view = handle
            view.show_in_browser()
        elif cell.status == "queued" or handle is not None:  # queued, or streaming with no view (view=False)
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
        (self._detail_label.value,) = views.draw_each(
            [views.strong(views.span("", title, style="font-size:12px"))]
        )
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
