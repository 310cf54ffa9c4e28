"""The one grid of runs: a batch's (``Gallery``) and an experiment's (``Grid``).

The kernel sends a page's data (:func:`run_data`, tiles, rows, the pager's words), never HTML; the
browser draws it (``js/src/views/grid.ts``) and sends a control's click back (``open``, ``turn``,
``filter``, ``jump``). A saved notebook's HTML is the same TypeScript drawing, run in the kernel
(:func:`grid_html`). "open" shows a run's full view below the grid: its live view while it streams,
drawn from what it kept once it ended (:class:`GridView`).

Only a page's data is ever sent (48 tiles), and the kernel holds a live view only for the runs that
stream and the one open.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import anywidget
import ipywidgets
import traitlets

from ..analysis.outcomes import failure
from ..core.result import RunResult
from ..core.score import badge
from ..core.status_words import status_tone, status_word
from ..render import views
from ..render.engine import engine
from ..render.words import markdown_words
from ..runs.loops import running_loop
from .streamview import KeptRun, StreamView, opened_when_shown

__all__ = ["PAGE_TILES", "GridView", "GridWidget", "Later", "figure", "grid_html", "run_data"]

PAGE_TILES = 48  # tiles on a page: the page's DOM and the data sent stay bounded
ANSWER_CHARS = 240  # of a run's answer in its tile
TICK_S = 0.4  # a page's streaming tiles are drawn again this often
DETAIL_HEIGHT = "480px"


def figure(value: float) -> str:
    """A score as every part of the grid shows it (tile, summary, saved HTML): three significant digits."""
    return f"{value:.3g}"


def _answer(result: RunResult) -> str:
    """The answer's first words in one flow, as the reader sees them (no markdown marks; steps'
    texts apart), or the error's message (a stopped run's: why it was stopped)."""
    said = " ".join(step.text for step in result.steps) if result.steps else result.text
    stopped = [part.text or "" for part in result.parts if part.kind == "banner" and part.type == "abort"]
    error = result.error.message if result.error else " ".join(stopped)
    text = markdown_words(said[: ANSWER_CHARS * 4]) if said else " ".join(error.split())
    return text[:ANSWER_CHARS] + ("…" if len(text) > ANSWER_CHARS else "")


def _label(result: RunResult) -> tuple[str, str]:
    """A person's label of the run, as a tile shows it: thumbs and score, and the whole comment."""
    feedback = result.feedback
    if feedback is None:
        return "", ""
    thumbs = {"up": "👍", "down": "👎"}.get(feedback.thumbs or "", "")
    score = "" if feedback.score is None else f"score {figure(feedback.score)}"
    return " ".join(part for part in (thumbs, score) if part), feedback.comment or ""


def run_data(
    number: int, status: str, result: RunResult, *, repeat: int = 0, openable: bool = True, step: str = ""
) -> dict[str, Any]:
    """One run as a tile shows it: its status word and tone, who failed it when it failed
    (``failure``: ``transport``, ``agent`` or ``stopped``; "" otherwise), score badges, the answer's
    first lines, a person's label; ``number`` is what its "open" sends back, ``repeat`` its repeat
    from 1 (0: the tile's only run); ``step``: what it did at the step where its tile's repeats part
    (forks)."""
    label, comment = _label(result)
    return {
        "open": number,
        "repeat": repeat,
        "status": status,
        "word": status_word(status),
        "tone": status_tone(status),
        "failure": failure(status, result) or "",
        "badges": [{k: b[k] for k in ("text", "tone", "title")} for b in map(badge, result.scores)],
        "answer": _answer(result) if status != "queued" else "",
        "label": label,
        "comment": comment,
        "openable": openable and status != "queued",
        "step": step,
    }


def tile_data(
    runs: list[dict[str, Any]],
    *,
    title: str = "",
    subtitle: str = "",
    hover: str = "",
    target: bool = False,
    fork: str = "",
) -> dict[str, Any]:
    """A tile: a batch's title (its prompt) and subtitle, its runs (:func:`run_data`), and ``fork``:
    where its passing and failing repeats part, said ("" when they did not both pass and fail)."""
    return {"title": title, "subtitle": subtitle, "hover": hover, "target": target, "runs": runs,
            "fork": fork}  # fmt: skip


def page_data(
    kind: str,
    *,
    where: str,
    previous: bool,
    next: bool,
    tiles: list[dict[str, Any]] | None = None,
    rows: list[dict[str, Any]] | None = None,
    columns: list[dict[str, str]] | None = None,
    pairs: list[dict[str, str]] | None = None,
    filters: list[tuple[str, str]] | None = None,
    filter: str = "",
    jump: str = "",
    note: str = "",
    empty: str = "",
) -> dict[str, Any]:
    """A page as the grid draws it (``js/src/views/grid.ts`` ``GridPage``); ``pairs``: an experiment's
    judged pairs of variants, a verdict column each (its rows' ``verdicts``)."""
    return {
        "kind": kind,
        "columns": columns or [],
        "pairs": pairs or [],
        "tiles": tiles or [],
        "rows": rows or [],
        "where": where,
        "note": note,
        "previous": previous,
        "next": next,
        "filters": [list(pair) for pair in filters or []],
        "filter": filter,
        "jump": jump,
        "empty": empty,
    }


def grid_html(page: Mapping[str, Any], *, head: views.Inline = "", tail: views.Inline = "") -> str:
    """The page drawn as the saved notebook shows it: the live grid's own drawing, no controls, with
    what the widget shows above it (``head``) and under it (``tail``) as view data."""
    return engine().draw("grid", page=dict(page), head=head, tail=tail) or ""


class GridWidget(anywidget.AnyWidget):
    """The grid in the browser: the page's data (``page``), drawn by ``js/src/views/grid.ts``; one
    widget for the whole page (a page of 48 tiles as ipywidgets was ~250 widgets)."""

    _esm = traitlets.Unicode((Path(__file__).parent.parent / "static" / "grid.js").read_text()).tag(sync=True)
    page = traitlets.Dict().tag(sync=True)


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


class Controls(Protocol):
    """What a grid's owner does when the reader works its controls."""

    def open_number(self, number: int) -> None:
        """A tile's "open" clicked: the run numbered ``number`` shown below the grid."""

    def turn_to(self, direction: str) -> None:
        """The pager clicked: ``"next"`` or ``"previous"`` page."""

    def choose(self, key: str) -> None:
        """The filter chosen (its key)."""

    def jump_to(self, text: str) -> None:
        """The jump box's text entered: the page showing it, or why not beside the pager."""

    def shown_changed(self) -> None:
        """A run opened below the grid changed outside its stream (a person labelled it): its tile
        is drawn again."""


class GridView:
    """The grid widget and the detail area under it: a page shown (only when its data changed), the
    controls' messages handed to ``controls``, and a run opened in full below the grid."""

    def __init__(self, controls: Controls) -> None:
        self.grid = GridWidget()
        self.grid.add_class("mn-grid-widget")
        self.grid.on_msg(self._on_message)
        self._controls = controls
        self._title = ipywidgets.HTML()
        self._close = ipywidgets.Button(
            description="close", tooltip="hide the run's view", layout=ipywidgets.Layout(width="auto")
        )
        self._close.on_click(lambda _b: self.close_detail())
        self._head = ipywidgets.HBox([self._title, self._close])
        self.detail = ipywidgets.VBox(layout=ipywidgets.Layout(display="none"))
        self.detail.add_class("mn-grid-detail")
        self._kept_view: StreamView | None = None  # shows ended runs, one after another
        self._watched: weakref.WeakSet[StreamView] = weakref.WeakSet()  # views told to say a change
        self.shown: StreamView | None = None  # the view in the detail area now

    def show(self, page: dict[str, Any]) -> None:
        """Send ``page`` to the browser, unless it is what it shows already."""
        if self.grid.page != page:
            self.grid.page = page

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        opened, turn, chosen, jump = (content.get(k) for k in ("open", "turn", "filter", "jump"))
        if isinstance(opened, int) and not isinstance(opened, bool) and opened >= 0:
            self._controls.open_number(opened)
        elif turn in ("previous", "next"):
            self._controls.turn_to(str(turn))
        elif isinstance(chosen, str):
            self._controls.choose(chosen)
        elif isinstance(jump, str) and jump.strip():
            self._controls.jump_to(jump.strip())

    def open(
        self, live: StreamView | None, kept: Callable[[], KeptRun] | None, *, title: str, subtitle: str
    ) -> StreamView | None:
        """Show a run in full below the grid: ``live``, its view while it streams, else what it
        ``kept`` once ended, in the detail area's own view (None: nothing to show yet)."""
        if live is not None:
            view = live
        elif kept is not None:
            if self._kept_view is None:
                with opened_when_shown():
                    self._kept_view = StreamView(max_height=DETAIL_HEIGHT)
            view = self._kept_view
            view.show_in_browser()
            view.show_kept(kept(), title=title, subtitle=subtitle)
        else:
            return None
        self._let_go(keep=view)
        view.show_in_browser()
        if view not in self._watched:  # a label given in the view shows on its tile too
            self._watched.add(view)
            view.on_changed(self._controls.shown_changed)
        self.shown = view
        (self._title.value,) = views.draw_each([views.strong(views.span("mn-grid-detail-title", subtitle))])
        self.detail.children = (self._head, view)
        self.detail.layout.display = None
        return view

    def _let_go(self, keep: StreamView | None = None) -> None:
        """The run's own view shown until now, once its run ended, is closed as it leaves the detail
        area (the kernel keeps a live view only for what streams and what is open)."""
        shown = self.shown
        if shown is not None and shown is not keep and shown is not self._kept_view and not shown.streaming:
            shown.close()

    def close_detail(self) -> None:
        """Hide the detail view."""
        self._let_go()
        self.shown = None
        self.detail.children = ()
        self.detail.layout.display = "none"

    def showing(self, view: StreamView | None) -> bool:
        """``view`` is the one in the detail area (not to be closed when its run ends)."""
        return view is not None and view is self.shown
