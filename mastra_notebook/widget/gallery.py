"""Many runs at once with bounded concurrency (a :class:`Batch`), shown as a paged gallery of live
mini views.

Built for evaluation scale (hundreds of prompts): a tile has a live widget only while it is on the
page or its run streams (or waits for a person). A run that ended keeps its RunResult, its
recording and its reducer state (no widget); its view is closed once it is off the page, and drawn
again from what it kept when the reader pages back. So the kernel holds at most ``page_size`` plus
``concurrency`` widgets, and the page at most ``page_size`` tiles, whatever the batch's size.
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
from ..runs.batch import Batch, Event, Job, Start, Streaming
from ..runs.loops import running_loop
from .bundle import Carrier, carry_lightly
from .streamview import KeptRun, StreamView, first_line, opened_when_shown

TILE_HEIGHT = "360px"  # each tile scrolls inside itself and follows its stream (the view's own limit)
CLOSE_AT_ONCE, CLOSE_GAP_S = 4, 0.03  # views a page let go of: closed this many at a time, this far apart
PAGE_SIZE = 48  # tiles on a page: the page's DOM stays bounded (about 50 live views at most)
_TILE = ipywidgets.Layout(border="1px solid var(--jp-border-color2, #ccc)")
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
        """Count ``line`` in; True when the cut changed (the tiles' labels are to be made again)."""
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

    def label(self, line: str) -> str:
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
    ``view`` the tile's widget while it has one (None while queued off-page or ended off-page).
    ``title`` is the prompt's first line; ``label`` the part of it the tile's header shows.
    """

    def __init__(
        self, batch: Batch[StreamView], index: int, prompt: Any, *, title: str, subtitle: str
    ) -> None:
        self.index = index
        self.prompt = prompt
        self.title = title
        self.label = title
        self.subtitle = subtitle
        self.prompted = False  # titled by its prompt (not by what runs it): labelled by the batch
        self.view: StreamView | None = None
        self.kept: KeptRun | None = None
        self._batch = batch

    @property
    def job(self) -> Job[StreamView]:
        """The batch's job of this tile (its scheduling, status and result)."""
        return self._batch.jobs[self.index]

    @property
    def byline(self) -> str:
        """The header's line beside the label: the subtitle, then the whole prompt when the label is a
        part of it (the line is cut first, and shows whole on hover)."""
        return self.subtitle if self.label == self.title else f"{self.subtitle} · {self.title}"

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
        if self.view is not None:
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
        """Tile ``target``: its index, ``"#12"``, or the first whose prompt contains that text (case
        aside)."""
        if isinstance(target, str) and target.strip().lstrip("#").isdigit():
            target = int(target.strip().lstrip("#"))
        if isinstance(target, int):
            if not 0 <= target < len(self.tiles):
                raise IndexError(f"no tile #{target}: the tiles are #0 to #{len(self.tiles) - 1}")
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

    Show it for the gallery (summary, filter, pager, jump box); ``wait()`` or ``await`` for the
    results in prompt order; ``tiles[i]`` for one run; ``jump(i or "prompt text")``,
    ``show("errors-first")``, ``next_page()``/``previous_page()`` from Python as from the controls.
    ``batch`` schedules the runs (a :class:`Batch`, no widget) and ``pages`` says which tiles the page
    shows (:class:`Pages`); the gallery draws them.
    """

    def __init__(self, concurrency: int = 4, *, page_size: int | None = None) -> None:
        page_size = PAGE_SIZE if page_size is None else page_size
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        self.batch: Batch[StreamView] = Batch(concurrency, on_change=self._on_job)
        self.page_size = page_size
        self.tiles: list[Tile] = []
        self._affixes = Affixes()
        self._labelled = (0, 0)  # the affixes' cut the tiles' labels were made with
        self.pages = Pages(self.tiles, page_size)
        self._quiet = False  # the filter control is being set from Python: no second listing
        self._progress = ipywidgets.HTML()
        self._pager = ipywidgets.HTML()
        # The controls' labels are HTML, not a `description`: JupyterLab typesets a description as
        # math, and the first typeset of a page loads MathJax (35 ms of the gallery's first draw)
        self._choose = ipywidgets.Dropdown(options=FILTERS, value="all")
        self._previous = ipywidgets.Button(description="◀ previous", tooltip="the previous page")
        self._next = ipywidgets.Button(description="next ▶", tooltip="the next page")
        self._find = ipywidgets.Text(placeholder="jump to #index or prompt text", continuous_update=False)
        self._choose.observe(self._on_choose, names="value")
        self._previous.on_click(lambda _button: self.previous_page())
        self._next.on_click(lambda _button: self.next_page())
        self._find.observe(self._on_find, names="value")
        named = {"filter": self._choose, "previous": self._previous, "next": self._next,
                 "jump": self._find, "pager": self._pager}  # fmt: skip
        for name, control in named.items():
            control.add_class(f"mn-gallery-{name}")
        show, jump = (
            ipywidgets.HTML(html)
            for html in views.draw_each([views.span("mn-gallery-label", w) for w in ("show", "jump")])
        )
        controls = ipywidgets.HBox(
            [show, self._choose, self._previous, self._pager, self._next, jump, self._find]
        )
        controls.add_class("mn-gallery-controls")
        self._slots = [ipywidgets.Box() for _ in range(page_size)]
        self._slot_views: list[StreamView | None] = [None] * page_size  # made when first needed
        self._slot_waiting: list[ipywidgets.HTML | None] = [None] * page_size
        for slot in self._slots:
            slot.add_class("mn-gallery-slot")
            slot.layout.display = "none"  # until a tile fills it
        # The queued tiles after the page's last started one: one list under the grid, not a widget
        # each (under it, not in it: a tile that starts then only adds a slot to the grid's end)
        self._waiting = ipywidgets.HTML(layout=ipywidgets.Layout(margin="8px 0 0", display="none"))
        self._waiting.add_class("mn-gallery-waiting")
        self._grid = ipywidgets.GridBox(
            (),
            layout=ipywidgets.Layout(
                grid_template_columns="repeat(auto-fill, minmax(360px, 1fr))", grid_gap="8px"
            ),
        )
        self._grid.add_class("mn-gallery-grid")
        # The tiles' views load the bundle this hidden model holds (bundle.py): a page reload fetches
        # every model's state, and 48 tiles that each held it were 14 MB
        self._carrier = Carrier(layout=ipywidgets.Layout(display="none"))
        self._carrier.add_class("mn-gallery-carrier")
        self.widget = ipywidgets.VBox([self._progress, controls, self._grid, self._waiting, self._carrier])
        self.widget.add_class("mn-gallery")
        self._show_progress()

    @property
    def concurrency(self) -> int:
        """How many runs stream at most at a time."""
        return self.batch.concurrency

    # ---- adding runs --------------------------------------------------------------------------

    def submit(self, start: Start[StreamView], *, prompt: Any = None, title: str = "") -> Tile:
        """Queue one run: ``start()`` makes its view and the work that streams into it, once a slot
        is free (no widget exists before). The tile is titled by the prompt's first line, ``title``
        (what runs it: "agent weather") under it."""
        tile = self._tile(prompt, title)

        def started() -> tuple[StreamView, Streaming]:
            with opened_when_shown():  # a run streaming off the page has no browser model
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
        tile = Tile(self.batch, index, prompt, title=line or title or f"run {index}",
                    subtitle=f"#{index} · {title}" if title else f"#{index}")  # fmt: skip
        if line:
            self._affixes.add(line)
            tile.label, tile.prompted = self._affixes.label(line), True
        self.tiles.append(tile)
        return tile

    def _on_job(self, job: Job[StreamView], event: Event) -> None:
        """The batch's job of a tile was queued, started, paused (waits for a person) or ended (on
        the loop the runs live on): the page follows."""
        tile = self.tiles[job.index]
        if event == "queued":
            if self._affixes.cut != self._labelled:
                self._relabel()
            self._listed(tile)
            return
        if event == "started":
            tile.view = job.handle
            self._place(tile)
            self._show_progress()
            return
        if event == "ended":
            if job.handle is not None:
                tile.kept = job.handle.kept()
                if tile not in self.pages.shown:
                    self._close(self._let_go(tile))
            else:  # stopped before its turn, or could not start: the batch's own run says why
                tile.kept = KeptRun(job.run or Run(), Recording(), [])
        self._listed(tile)
        self._show_progress()

    def _relabel(self) -> None:
        """The batch's shared words changed (a prompt came that shares fewer): every tile's label is
        made again, in its view and on the page (on the loop the gallery's state lives on)."""
        self._labelled = self._affixes.cut
        for tile in self.tiles:
            if tile.prompted:
                tile.label = self._affixes.label(tile.title)
                if tile.view is not None:
                    tile.view.title, tile.view.subtitle = tile.label, tile.byline
        self._layout_grid()  # the queued tiles' placeholders and lines

    def _dress(self, tile: Tile, view: StreamView) -> None:
        carry_lightly(view)  # before its model opens: the carrier's bundle, not a copy of its own
        made, view.layout = view.layout, _TILE
        if made is not _TILE:  # the layout the view was made with: a widget of its own, not to leak
            made.close()
        view.max_height = TILE_HEIGHT
        view.title, view.subtitle = tile.label, tile.byline

    def _dealt(self, view: StreamView | None) -> bool:
        """``view`` is a page slot's own, dealt to one ended run after another."""
        return any(view is dealt for dealt in self._slot_views if dealt is not None)

    def _let_go(self, tile: Tile) -> StreamView | None:
        """An ended run leaves the page: its tile lets go of its view. Its own view is returned, to
        be closed (its run keeps no reference to it, so it can be freed); a slot's view is not."""
        view = tile.view
        if view is None or tile.kept is None:
            return None
        tile.view = None
        if self._dealt(view):
            return None
        tile.kept.run.tree.sink = None
        return view

    @staticmethod
    def _close(*views: StreamView | None) -> None:
        for view in views:
            if view is not None:
                view.close()

    def _close_gradually(self, views: list[StreamView]) -> None:
        """Close the views a page let go of a few at a time: 48 closed at once became one task of
        JupyterLab's of over 100 ms (each close tears a widget down in the browser)."""
        loop = running_loop()
        if loop is None:
            self._close(*views)
            return

        def close_some() -> None:
            self._close(*views[:CLOSE_AT_ONCE])
            del views[:CLOSE_AT_ONCE]
            if views:
                loop.call_later(CLOSE_GAP_S, close_some)

        if views:
            loop.call_soon(close_some)

    # ---- what the gallery shows ----------------------------------------------------------------

    def show(self, what: str = "all") -> None:
        """List the tiles again: ``all`` (prompt order), ``errors-first``, or one status group
        (``error``, ``running``, ``queued``, ``done``); from the first page."""
        if what not in _FILTER_KEYS:
            raise ValueError(f"show() takes one of {', '.join(sorted(_FILTER_KEYS))}, not {what!r}")
        self._set_filter(what)
        self._go(0)

    def _set_filter(self, what: str) -> None:
        self._quiet = True
        try:
            self._choose.value = what
        finally:
            self._quiet = False
        self.pages.choose(what)

    def _on_choose(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.show(change["new"])

    def next_page(self) -> None:
        """The next page (the list taken again: what a filter matches now)."""
        self._go(self.pages.next_offset())

    def previous_page(self) -> None:
        """The previous page (the list taken again: what a filter matches now)."""
        self._go(self.pages.previous_offset())

    def jump(self, target: int | str) -> Tile:
        """Show tile ``target`` (its index, ``"#12"``, or the first prompt containing that text, case
        aside) first on the page, highlighted. A tile the filter hides shows with the filter at all."""
        tile = self.pages.find(target)
        self.pages.order = self.pages.listing()
        if tile not in self.pages.order:
            self._set_filter("all")
        self._go(self.pages.order.index(tile), target=tile)
        return tile

    @property
    def page(self) -> list[Tile]:
        """The tiles on the page now."""
        return list(self.pages.shown)

    def _on_find(self, change: dict[str, Any]) -> None:
        text = str(change["new"]).strip()
        if not text:
            return
        try:
            self.jump(text)
        except (LookupError, ValueError) as error:  # said beside the pager, nothing else changes
            self._pager.value = self._pager_html(note=str(error))
        self._find.value = ""

    def _listed(self, tile: Tile) -> None:
        """A tile changed (or is new): it joins the filter's list if it now matches (Pages.join)."""
        self.pages.join(tile)
        self._place(tile)
        self._pager.value = self._pager_html()

    def _go(self, offset: int, target: Tile | None = None) -> None:
        """Show the listed tiles from ``offset`` on; close the views of ended runs that leave."""
        for tile in self.pages.shown:  # the slots' views are dealt again (a tile's own view stays its own)
            if self._dealt(tile.view):
                tile.view = None
        leaving = self.pages.turn(offset, target)
        page = self.pages.shown
        for tile in page:
            self._fill(tile)
        for slot in self._slots[len(page) :]:
            slot.children = ()
            slot.layout.display = "none"
        self._close_gradually([view for view in map(self._let_go, leaving) if view is not None])
        target_at = None if self.pages.target is None else page.index(self.pages.target)
        for index, slot in enumerate(self._slots):  # only the tile jumped to is highlighted
            (slot.add_class if index == target_at else slot.remove_class)("mn-gallery-target")
        self._layout_grid()
        self._pager.value = self._pager_html()

    def _place(self, tile: Tile) -> None:
        """Put the tile's widget in its slot, if it is on the page (a queued tile after the page's
        last started one is a line of the waiting list instead)."""
        if tile in self.pages.shown:
            self._fill(tile)
            self._layout_grid()

    def _fill(self, tile: Tile) -> None:
        """The slot of ``tile``, on the page, holds its widget (the grid laid out after, once)."""
        index = self.pages.shown.index(tile)
        if tile.job.queued and index >= self._started_slots():
            return
        slot = self._slots[index]
        if tile.view is None and tile.kept is not None:  # paged to: drawn from what it kept
            view = self._slot_views[index] or self._slot_view()
            self._slot_views[index] = view
            view.show_kept(tile.kept, title=tile.label, subtitle=tile.byline)
            tile.view = view
        widget: ipywidgets.Widget = tile.view if tile.view is not None else self._queued_widget(index, tile)
        if isinstance(widget, StreamView):
            widget.show_in_browser()
        if slot.children != (widget,):
            slot.children = (widget,)
        slot.layout.display = None

    @staticmethod
    def _slot_view() -> StreamView:
        """A slot's view of runs that ended, each drawn at once from what its tile kept (showing
        another run is one state update, not a new widget, which would cost the browser a model and
        a fresh copy of the widget's module). Its model opens when placed, with the carrier's bundle."""
        with opened_when_shown():
            view = StreamView(max_height=TILE_HEIGHT, layout=_TILE)
        carry_lightly(view)
        return view

    def _started_slots(self) -> int:
        """The page's slots up to its last tile that is not queued: the ones the grid shows."""
        for index in range(len(self.pages.shown) - 1, -1, -1):
            if not self.pages.shown[index].job.queued:
                return index + 1
        return 0

    def _layout_grid(self) -> None:
        """The grid shows the slots up to the page's last started tile; the queued tiles after it are
        one list under it. A slot and a placeholder for each of 40 queued tiles took JupyterLab 100
        to 200 ms of one task to draw a new page."""
        shown = self._started_slots()
        for index in range(shown):  # a queued tile before a started one (a filter, a jump) keeps a slot
            tile = self.pages.shown[index]
            if tile.job.queued:
                placeholder = self._queued_widget(index, tile)
                if self._slots[index].children != (placeholder,):
                    self._slots[index].children = (placeholder,)
                self._slots[index].layout.display = None
        waiting = self.pages.shown[shown:]
        value = self._waiting_html(waiting)
        if self._waiting.value != value:
            self._waiting.value = value
        self._waiting.layout.display = None if waiting else "none"
        children = tuple(self._slots[:shown])
        if self._grid.children != children:
            self._grid.children = children

    def _queued_widget(self, index: int, tile: Tile) -> ipywidgets.HTML:
        """A queued tile: its prompt and "queued" (no view, no Stop, until its turn), in the slot's
        own placeholder."""
        waiting = self._slot_waiting[index] or ipywidgets.HTML(layout=ipywidgets.Layout(margin="0"))
        self._slot_waiting[index] = waiting
        queued = views.block(
            [
                views.block(views.label(tile.label), style="font-weight:600"),
                views.block(tile.subtitle, style="opacity:0.75"),
                views.block(status_word("queued"), "mn-gallery-queued-status", style="margin-top:6px"),
            ],
            "mn-gallery-queued",
            {"status": "queued"},
            title=tile.title,
            style=_QUEUED_STYLE,
        )
        (waiting.value,) = views.draw_each([queued])
        return waiting

    def _waiting_html(self, waiting: list[Tile]) -> str:
        """The page's queued tiles after its last started one: a line each (no view, no Stop)."""
        if not waiting:
            return ""
        lines: list[views.Inline] = [
            views.block(
                [
                    views.span("", views.label(tile.label), style="font-weight:600"),
                    " ",
                    views.span("", tile.subtitle, style="opacity:0.75"),
                ],
                "mn-gallery-queued mn-gallery-target" if tile is self.pages.target else "mn-gallery-queued",
                {"status": "queued"},
                title=tile.title,
                style=_WAITING_LINE_STYLE,
            )
            for tile in waiting
        ]
        head = f"{len(waiting)} queued on this page: each starts in a tile of its own when its turn comes"
        listed = views.block(
            [
                views.block(head, "mn-gallery-queued-status", style="margin-bottom:4px"),
                views.block(lines, style=_WAITING_LINES_STYLE),
            ],
            "mn-gallery-waiting-list",
            style=_WAITING_STYLE,
        )
        (html,) = views.draw_each([listed])
        return html

    def _pager_html(self, note: str = "") -> str:
        where: list[views.Inline] = [views.span("mn-gallery-where", self.pages.where())]
        extra: list[views.Inline] = [" · ", views.span("mn-gallery-note", note)] if note else []
        return "".join(views.draw_each([*where, *extra]))

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
        return " · ".join([*parts, *self.totals()]) + limit

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
        """The tiles on the page send their final state from the waiting cell (headless saving)."""
        for tile in self.pages.shown:
            if tile.view is not None and not tile.job.running:
                tile.view.wait(0)

    def stop(self) -> None:
        """Stop every run: the queued ones never start (aborted), the streaming ones stop."""
        self.batch.stop()
        self._show_progress()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]  # ipywidgets 7 draws a widget through _ipython_display_ (8: _repr_mimebundle_)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython (marimo)
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<Gallery of {len(self.tiles)} runs: {self.summary()}>"


_QUEUED_STYLE = (
    "box-sizing:border-box;min-height:72px;padding:8px 10px;border:1px dashed "
    "var(--jp-border-color2,#ccc);border-radius:6px;color:var(--jp-ui-font-color1,inherit);"
    "background:var(--jp-layout-color1,transparent);overflow:hidden;overflow-wrap:anywhere"
)
_WAITING_STYLE = (
    "box-sizing:border-box;padding:8px 10px;border:1px dashed var(--jp-border-color2,#ccc);"
    "border-radius:6px;color:var(--jp-ui-font-color1,inherit);background:var(--jp-layout-color1,transparent)"
)
_WAITING_LINES_STYLE = "display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:0 16px"
_WAITING_LINE_STYLE = "white-space:nowrap;overflow:hidden;text-overflow:ellipsis;line-height:1.6"
