"""Many runs at once with bounded concurrency (a :class:`Batch`), shown as a paged grid of tiles
(the one grid, widget/grid.py, drawn by js/src/views/grid.ts, as an experiment's is).

Built for evaluation scale (hundreds of prompts): a tile is data (its status, score badges, the
answer's first lines), sent for the page's tiles only; "open" shows a run's full view below the
grid. A run's view lives while it streams (with no browser model unless it is open); once it ended
the run keeps its RunResult, its recording and its reducer state, and its view is closed unless it
is open. So the kernel holds at most ``concurrency`` views plus the one open, and the page at most
``page_size`` tiles, whatever the batch's size.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import ipywidgets

from ..core.cost import format_usd
from ..core.recording import Recording
from ..core.result import RunResult
from ..core.run import Run
from ..core.score import scored_lines
from ..core.status_words import status_word
from ..render import views
from ..runs.batch import Batch, Event, Job, Probe, StartJob, Streaming
from ..runs.budget import Budget
from .grid import (
    DETAIL_HEIGHT,
    PAGE_TILES,
    TICK_S,
    GridView,
    Later,
    grid_html,
    page_data,
    run_data,
    tile_data,
)
from .streamview import KeptRun, StreamView, first_line, opened_when_shown

PAGE_SIZE = PAGE_TILES  # tiles on a page: the page's DOM and the data sent stay bounded
ELIDED = "\N{HORIZONTAL ELLIPSIS}"
MIN_ELIDED = 5  # characters: a shared part shorter than this is shown (an ellipsis for "in" saves nothing)

# What the gallery shows: (label, key). A filter is applied when chosen or when paging, so tiles do
# not move under the reader; tiles that come to match a status filter join at its end.
FILTERS = [
    ("all, in prompt order", "all"),
    ("errors first", "errors-first"),
    ("errors only", "error"),
    ("running", "running"),
    ("queued", "queued"),
    ("done", "done"),
]
_FILTER_KEYS = {key for _, key in FILTERS}


class Affixes:
    """The words every prompt of a batch starts and ends with, kept as prompts arrive.

    A tile's header shows its prompt without them ("What is the weather in Lisbon today?" among
    others alike: "…Lisbon…"), the part that tells it from the others. Prompts that share nothing, or
    one that is all shared words (the same prompt run again, or a prefix of the others), show from
    their start.
    """

    def __init__(self) -> None:
        self._head: list[str] | None = None  # the words every line starts with
        self._tail: list[str] = []  # the words every line ends with, last first
        self._shortest = 0  # words in the shortest line
        self.cut = (0, 0)  # words left out at the start and at the end of every line

    def add(self, line: str) -> bool:
        """Count ``line`` in; True when the cut changed (the tiles' headings are to be made again)."""
        words = line.split()
        if not words:
            return False
        if self._head is None:
            self._head, self._tail, self._shortest = words, words[::-1], len(words)
            return False
        self._head = self._head[: _shared(self._head, words)]
        self._tail = self._tail[: _shared(self._tail, words[::-1])]
        self._shortest = min(self._shortest, len(words))
        head = self._elided(self._head, self._shortest)
        tail = self._elided(self._tail, self._shortest - head)
        cut, self.cut = self.cut, (head, tail)
        return cut != self.cut

    @staticmethod
    def _elided(shared: list[str], room: int) -> int:
        """How many of the ``shared`` words to leave out: none when they are all of a prompt (it would
        show nothing of its own) or too short to be worth an ellipsis."""
        if len(shared) >= room or len(" ".join(shared)) < MIN_ELIDED:
            return 0
        return len(shared)

    def heading(self, line: str) -> str:
        """``line`` without the batch's shared words, an ellipsis where they were."""
        head, tail = self.cut
        if not head and not tail:
            return line
        words = line.split()
        middle = " ".join(words[head : len(words) - tail])
        return f"{ELIDED if head else ''}{middle}{ELIDED if tail else ''}"


def _shared(a: list[str], b: list[str]) -> int:
    """How many words ``a`` and ``b`` start with alike."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


class Tile:
    """One prompt of a gallery: its batch's job, and what the page shows of it.

    ``result`` is the RunResult so far; ``recording`` every chunk received (once ended);
    ``view`` the run's own view while it streams, or while it is open (None while queued and once
    ended). ``title`` is the prompt's first line; ``heading`` the part of it the tile's header shows;
    ``number`` its number as the grid shows it (from 1: ``tiles[number - 1]``).
    """

    def __init__(
        self, batch: Batch[StreamView], index: int, prompt: Any, *, title: str, subtitle: str
    ) -> None:
        self.index = index
        self.prompt = prompt
        self.title = title
        self.heading = title
        self.subtitle = subtitle
        self.prompted = False  # titled by its prompt (not by what runs it): headed by the batch
        self.view: StreamView | None = None
        self.kept: KeptRun | None = None
        self._batch = batch

    @property
    def job(self) -> Job[StreamView]:
        """The batch's job of this tile (its scheduling, status and result)."""
        return self._batch.jobs[self.index]

    @property
    def number(self) -> int:
        """The tile's number as the grid shows it: its index + 1."""
        return self.index + 1

    @property
    def byline(self) -> str:
        """The header's line beside the heading: the subtitle, then the whole prompt when the heading is a
        part of it (the line is cut first, and shows whole on hover)."""
        return self.subtitle if self.heading == self.title else f"{self.subtitle} · {self.title}"

    @property
    def status(self) -> str:
        """``queued``, ``running``, or the run's own status (``finished``, ``error``, ``suspended``...)."""
        return self.job.status

    @property
    def result(self) -> RunResult:
        """The run's RunResult so far (an empty, running one while queued); once ended, as its kept
        run stands now (a label given after its end included)."""
        return self.kept.run.result if self.kept is not None else self.job.result

    @property
    def recording(self) -> Recording | None:
        """Every chunk the run received, once it ended (``None`` before)."""
        return self.kept.recording if self.kept is not None else None

    def save(self, path: Any) -> Any:
        """Save the run's chunks as JSONL (see ``StreamView.save``)."""
        if self.view is not None and self.kept is None:
            return self.view.save(path)
        return (self.recording or Recording()).save(path, scored_lines(self.result))

    def __repr__(self) -> str:
        return f"<Tile #{self.index} {self.title!r}: {self.status}>"


class Pages:
    """Which tiles the page shows (no widget): the filter's list of the tiles and the page's place in
    it. The list is taken again when a filter is chosen or the reader pages, so tiles do not move
    under the reader; a tile that comes to match joins its end."""

    def __init__(self, tiles: list[Tile], size: int) -> None:
        self.tiles = tiles
        self.size = size
        self.filter = "all"
        self.order: list[Tile] = []  # the tiles the filter lists, in its order
        self.offset = 0  # the position in that list of the page's first tile
        self.shown: list[Tile] = []  # the page's tiles
        self.target: Tile | None = None  # the tile jumped to (highlighted)

    def listing(self) -> list[Tile]:
        """The tiles the filter matches now, in its order."""
        if self.filter == "all":
            return list(self.tiles)
        if self.filter == "errors-first":
            return sorted(self.tiles, key=lambda tile: tile.job.group != "error")  # stable: in prompt order
        return [tile for tile in self.tiles if tile.job.group == self.filter]

    def choose(self, what: str) -> None:
        """Filter by ``what`` (a FILTERS key), the list taken again."""
        self.filter = what
        self.order = self.listing()

    def join(self, tile: Tile) -> None:
        """A tile changed (or is new): one the filter now matches joins the list's end, and the page
        if it has room for it; nothing already listed moves."""
        matches = self.filter in ("all", "errors-first") or tile.job.group == self.filter
        if matches and tile not in self.order:
            self.order.append(tile)
            if len(self.shown) < self.size and self.offset + len(self.shown) == len(self.order) - 1:
                self.shown.append(tile)

    def turn(self, offset: int, target: Tile | None = None) -> list[Tile]:
        """Show the listed tiles from ``offset`` on; the tiles that left the page."""
        self.offset = max(0, min(offset, max(len(self.order) - 1, 0)))
        page = self.order[self.offset : self.offset + self.size]
        leaving = [tile for tile in self.shown if tile not in page]
        self.shown = page
        self.target = target if target in page else None
        return leaving

    def next_offset(self) -> int:
        """Where the next page starts (the list taken again: what a filter matches now); the last
        page stays."""
        self.order = self.listing()
        ahead = self.offset + self.size
        return ahead if ahead < len(self.order) else self.offset

    def previous_offset(self) -> int:
        """Where the previous page starts (the list taken again)."""
        self.order = self.listing()
        return max(self.offset - self.size, 0)

    def find(self, target: int | str) -> Tile:
        """Tile ``target``: its index in ``tiles`` (from 0), its number as the grid shows it (``"#12"``
        or ``"12"``, from 1), or the first whose prompt contains that text (case aside)."""
        if isinstance(target, str) and target.strip().lstrip("#").isdigit():
            number = int(target.strip().lstrip("#"))
            if not 1 <= number <= len(self.tiles):
                raise IndexError(f"no tile #{number}: the tiles are #1 to #{len(self.tiles)}")
            return self.tiles[number - 1]
        if isinstance(target, int):
            if not 0 <= target < len(self.tiles):
                raise IndexError(f"no tile {target}: tiles[] holds 0 to {len(self.tiles) - 1}")
            return self.tiles[target]
        needle = target.strip().casefold()
        for tile in self.tiles:
            if needle in tile.title.casefold() or needle in str(tile.prompt).casefold():
                return tile
        raise LookupError(f"no prompt contains {target!r}")

    def where(self) -> str:
        """Where the page is in the list, as the pager says it ("1 to 48 of 500 (errors only)", with
        an en dash for "to"), or "no tiles (queued)"."""
        label = {key: label for label, key in FILTERS}[self.filter]
        if not self.order:
            return f"no tiles ({label})"
        first, last = self.offset + 1, self.offset + len(self.shown)
        filtered = "" if self.filter == "all" else f" ({label})"
        return f"{first}\N{EN DASH}{last} of {len(self.order)}{filtered}"


class Gallery:
    """Runs that stream at most ``concurrency`` at a time, shown ``page_size`` tiles a page.

    Show it for the grid (summary, filter, pager above and below the tiles, jump box; a tile's
    "open" shows its run in full below); ``wait()`` or ``await`` for the results in prompt order;
    ``tiles[i]`` for one run; ``jump(i, "#12" or "prompt text")``, ``show("errors-first")``,
    ``next_page()``/``previous_page()``, ``open(tile)`` from Python as from the controls. ``batch``
    schedules the runs (a :class:`Batch`, no widget) and ``pages`` says which tiles the page shows
    (:class:`Pages`); the grid (widget/grid.py) draws them.
    """

    def __init__(
        self,
        concurrency: int = 4,
        *,
        page_size: int | None = None,
        budget: Budget | None = None,
        probe: Probe | None = None,
    ) -> None:
        page_size = PAGE_SIZE if page_size is None else page_size
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        self.batch: Batch[StreamView] = Batch(concurrency, on_change=self._on_job, budget=budget, probe=probe)
        self.page_size = page_size
        self.tiles: list[Tile] = []
        self._affixes = Affixes()
        self._headed = (0, 0)  # the affixes' cut the tiles' headings were made with
        self.pages = Pages(self.tiles, page_size)
        self._note = ""  # said beside the pager (a jump that found nothing) until the page changes
        self._display: Any = None
        # drawn at most so often, once for whatever changed meanwhile (not a message per run's event)
        self._page_later = Later(TICK_S, self._tick)
        self._progress_later = Later(TICK_S, self._show_progress)
        self._progress = ipywidgets.HTML()
        self.view = GridView(self)
        self.widget = ipywidgets.VBox([self._progress, self.view.grid, self.view.detail])
        self.widget.add_class("mn-gallery")
        self._show_progress()
        self._draw()

    @property
    def concurrency(self) -> int:
        """How many runs stream at most at a time."""
        return self.batch.concurrency

    # ---- adding runs --------------------------------------------------------------------------

    def submit(self, start: StartJob[StreamView], *, prompt: Any = None, title: str = "") -> Tile:
        """Queue one run: ``start()`` makes its view and the work that streams into it, once a slot
        is free (no widget exists before). The tile is titled by the prompt's first line, ``title``
        (what runs it: "agent weather") under it."""
        tile = self._tile(prompt, title)

        def started() -> tuple[StreamView, Streaming]:
            with opened_when_shown():  # a run streaming unopened has no browser model
                view, work = start()
            self._dress(tile, view)
            return view, work

        self.batch.submit(started, prompt=prompt)
        return tile

    def add(self, view: StreamView, work: Streaming) -> Tile:
        """Queue ``view``, made already; ``work()`` fills it once a slot is free."""
        tile = self._tile(getattr(view, "prompt", None), view.title)
        self._dress(tile, view)
        view.queued = True

        def started() -> tuple[StreamView, Streaming]:
            view.queued = False
            return view, work

        self.batch.submit(started, prompt=tile.prompt)
        return tile

    def _tile(self, prompt: Any, title: str) -> Tile:
        index = len(self.tiles)
        line = first_line(prompt)
        tile = Tile(self.batch, index, prompt, title=line or title or f"run {index + 1}",
                    subtitle=f"#{index + 1} · {title}" if title else f"#{index + 1}")  # fmt: skip
        if line:
            self._affixes.add(line)
            tile.heading, tile.prompted = self._affixes.heading(line), True
        self.tiles.append(tile)
        return tile

    def _on_job(self, job: Job[StreamView], event: Event) -> None:
        """The batch's job of a tile was queued, started, paused (waits for a person) or ended (on
        the loop the runs live on): the page follows."""
        tile = self.tiles[job.index]
        if event == "queued":
            if self._affixes.cut != self._headed:
                self._head_again()
        elif event == "started":
            tile.view = job.handle
        elif event == "ended":
            handle = job.handle
            if handle is not None:
                tile.kept = handle.kept()
                if not self.view.showing(handle):  # not open: let go of it
                    tile.kept.run.tree.sink = None  # the run keeps no reference to its stream or view
                    handle.close()
                    tile.view = None
            else:  # stopped before its turn, or could not start: the batch's own run says why
                tile.kept = KeptRun(job.run or Run(), Recording(), [])
        self.pages.join(tile)
        if tile in self.pages.shown or event == "queued":
            self._page_later.soon()
        self._progress_later.soon()
        if self.batch.idle and self._display is not None:
            self._display.update(self.bundle(), raw=True)

    def _head_again(self) -> None:
        """The batch's shared words changed (a prompt came that shares fewer): every tile's heading is
        made again (on the loop the gallery's state lives on)."""
        self._headed = self._affixes.cut
        for tile in self.tiles:
            if tile.prompted:
                tile.heading = self._affixes.heading(tile.title)
                if tile.view is not None:
                    tile.view.title, tile.view.subtitle = tile.heading, tile.byline

    def _dress(self, tile: Tile, view: StreamView) -> None:
        view.max_height = DETAIL_HEIGHT
        view.title, view.subtitle = tile.heading, tile.byline

    # ---- what the gallery shows ----------------------------------------------------------------

    def show(self, what: str = "all") -> None:
        """List the tiles again: ``all`` (prompt order), ``errors-first``, or one status group
        (``error``, ``running``, ``queued``, ``done``); from the first page."""
        if what not in _FILTER_KEYS:
            raise ValueError(f"show() takes one of {', '.join(sorted(_FILTER_KEYS))}, not {what!r}")
        self.pages.choose(what)
        self._go(0)

    def next_page(self) -> None:
        """The next page (the list taken again: what a filter matches now)."""
        self._go(self.pages.next_offset())

    def previous_page(self) -> None:
        """The previous page (the list taken again: what a filter matches now)."""
        self._go(self.pages.previous_offset())

    def jump(self, target: int | str) -> Tile:
        """Show tile ``target`` (its index in ``tiles``, its number as shown, ``"#12"``, or the first
        prompt containing that text, case aside) first on the page, highlighted. A tile the filter
        hides shows with the filter at all."""
        tile = self.pages.find(target)
        self.pages.order = self.pages.listing()
        if tile not in self.pages.order:
            self.pages.choose("all")
        self._go(self.pages.order.index(tile), target=tile)
        return tile

    def open(self, tile: Tile | int) -> StreamView | None:
        """Show ``tile``'s run in full below the grid (a tile or its index): its live view while it
        streams, drawn from what it kept once it ended; None while it is queued."""
        tile = self.tiles[tile] if isinstance(tile, int) else tile
        live = tile.view if tile.kept is None or self.view.showing(tile.view) else None
        kept = tile.kept
        return self.view.open(live, (lambda: kept) if kept is not None else None,
                              title=tile.title, subtitle=tile.subtitle)  # fmt: skip

    @property
    def page(self) -> list[Tile]:
        """The tiles on the page now."""
        return list(self.pages.shown)

    def _go(self, offset: int, target: Tile | None = None) -> None:
        """Show the listed tiles from ``offset`` on."""
        self.pages.turn(offset, target)
        self._note = ""
        self._draw()

    def page_data(self) -> dict[str, Any]:
        """The page as the grid draws it: the page's tiles only."""
        target = self.pages.target
        tiles = [
            tile_data(
                [
                    run_data(
                        tile.index,
                        tile.status,
                        tile.result,
                        openable=tile.view is not None or tile.kept is not None,
                    )
                ],
                title=tile.heading,
                subtitle=tile.subtitle,
                hover=tile.title,
                target=tile is target,
            )
            for tile in self.pages.shown
        ]
        order = self.pages.order
        return page_data(
            "batch",
            where=self.pages.where(),
            previous=self.pages.offset > 0,
            next=self.pages.offset + self.page_size < len(order),
            tiles=tiles,
            filters=FILTERS,
            filter=self.pages.filter,
            jump="jump to #number or prompt text",
            note=self._note,
            empty=self.pages.where(),
        )

    def _draw(self) -> None:
        self.view.show(self.page_data())

    def _tick(self) -> None:
        """The page drawn again (its streaming tiles' answers as they grow, its runs that started or
        ended), and again in TICK_S while a run on it streams."""
        self._draw()
        if any(tile.job.running for tile in self.pages.shown):
            self._page_later.soon()

    # ---- the controls (GridView's messages) ---------------------------------------------------

    def open_number(self, number: int) -> None:
        """A tile's "open" clicked: the run numbered ``number`` shown below the grid."""
        if number < len(self.tiles):
            self.open(self.tiles[number])

    def turn_to(self, direction: str) -> None:
        """The pager clicked: ``"next"`` or ``"previous"`` page."""
        (self.next_page if direction == "next" else self.previous_page)()

    def choose(self, key: str) -> None:
        """The filter chosen (its key)."""
        if key in _FILTER_KEYS:
            self.show(key)

    def jump_to(self, text: str) -> None:
        """The jump box's text entered: the page showing it, or why not beside the pager."""
        try:
            self.jump(text)
        except (LookupError, ValueError) as error:  # said beside the pager, nothing else changes
            self._note = str(error)
            self._draw()

    def shown_changed(self) -> None:
        """A run opened below the grid changed outside its stream (a person labelled it): the page
        drawn again soon (its tile shows the label)."""
        self._page_later.soon()

    # ---- the summary line ----------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        """How many runs are queued, running, done (finished), stopped (aborted) and ended otherwise
        (error, blocked, suspended, incomplete)."""
        return self.batch.counts()

    def totals(self) -> list[str]:
        """What the runs used so far, as the summary shows it: tokens, and the cost of those runs
        genai-prices knows the models of (how many it does not, when some)."""
        # the batch's jobs, not the tiles: a script's thread adds a tile a moment before its job
        ran = [job.result for job in self.batch.jobs if not job.queued]
        totals = [f"{sum(result.usage.total_tokens for result in ran):,} tokens"]
        costs = [result.cost for result in ran if result.cost.steps_usd or result.cost.nested_usd is not None]
        priced = [cost.total_usd for cost in costs if cost.total_usd is not None]  # no model called: no cost
        if priced:
            unpriced = len(costs) - len(priced)
            note = f" ({unpriced} run{'' if unpriced == 1 else 's'} not priced)" if unpriced else ""
            totals.append(format_usd(sum(priced)) + note)
        return totals

    def summary(self) -> str:
        """Like "3 done · 1 running · 2 queued · 1 error · 1,234 tokens (7 runs, 4 at a time)"."""
        counts = self.counts()
        # in the one table's words (status_words.json): a stopped run is the table's "aborted"
        words = {
            "done": "done",
            "running": "running",
            "queued": "queued",
            "stopped": "aborted",
            "error": "error",
        }
        parts = [f"{counts[key]} {status_word(words[key])}" for key in words if counts[key]]
        limit = f" ({len(self.tiles)} runs, {self.concurrency} at a time)"
        return " · ".join([*parts, *self.totals(), *self.batch.notes()]) + limit

    def _show_progress(self) -> None:
        (self._progress.value,) = views.draw_each(
            [views.block(views.strong(self.summary()), "mn-gallery-summary")]
        )

    # ---- results --------------------------------------------------------------------------------

    @property
    def results(self) -> list[RunResult]:
        """Every run's RunResult so far, in prompt order."""
        return [tile.result for tile in self.tiles]

    def __len__(self) -> int:
        return len(self.tiles)

    def __getitem__(self, index: int) -> Tile:
        return self.tiles[index]

    def wait(self, timeout: float | None = None) -> list[RunResult]:
        """Block until no run is queued or streaming; the results in prompt order. Interrupting the
        kernel stops the batch (queued runs never start) and returns what there is."""
        self.batch.wait(timeout)
        self._publish_shown()
        return self.results

    def __await__(self) -> Generator[Any, None, list[RunResult]]:
        yield from self.batch.__await__()
        self._publish_shown()
        return self.results

    def _publish_shown(self) -> None:
        """The page, the open run and the cell's HTML send their final state from the waiting cell
        (headless saving)."""
        self._draw()
        self._show_progress()
        if self._display is not None:
            self._display.update(self.bundle(), raw=True)
        shown = self.view.shown
        if shown is not None and not shown.streaming:
            shown.wait(0)

    def stop(self) -> None:
        """Stop every run: the queued ones never start (aborted), the streaming ones stop."""
        self.batch.stop()
        self._show_progress()

    def bundle(self) -> dict[str, Any]:
        """The widget's MIME bundle with its summary and page as HTML beside it: what a saved
        notebook shows where no widget can be drawn (the grid's own drawing, run in the kernel)."""
        # made here, not by ipywidgets (7.7 has no _repr_mimebundle_): the widget's reference
        return {
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2, "version_minor": 0, "model_id": self.widget.model_id,
            },
            "text/plain": repr(self),
            "text/html": grid_html(self.page_data(), head=views.block(views.strong(self.summary()))),
        }  # fmt: skip

    def _ipython_display_(self) -> None:
        from IPython.display import display

        # with a handle to update its HTML once every run ended
        self._display = display(self.bundle(), raw=True, display_id=True)  # type: ignore[no-untyped-call]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython (marimo)
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<Gallery of {len(self.tiles)} runs: {self.summary()}>"
