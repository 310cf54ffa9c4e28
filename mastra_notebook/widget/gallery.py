"""Many runs at once with bounded concurrency, shown as a gallery of live mini views."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from html import escape
from typing import Any

import ipywidgets

from ..core.result import RunResult
from .streamview import StreamView, first_line

TILE_HEIGHT = "360px"  # each tile scrolls inside itself and follows its stream (the view's own limit)
_TILE = ipywidgets.Layout(border="1px solid var(--jp-border-color2, #ccc)")


class Gallery:
    """Views that run at most ``concurrency`` at a time. Show it for the gallery; ``wait()`` for results."""

    def __init__(self, concurrency: int = 4) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency
        self.views: list[StreamView] = []
        self._semaphore: asyncio.Semaphore | None = None
        self._progress = ipywidgets.HTML()
        self._grid = ipywidgets.GridBox(
            layout=ipywidgets.Layout(
                grid_template_columns="repeat(auto-fill, minmax(360px, 1fr))", grid_gap="8px"
            )
        )
        self.widget = ipywidgets.VBox([self._progress, self._grid])

    def add(self, view: StreamView, work: Callable[[], Awaitable[None]]) -> None:
        """Queue ``view``; ``work()`` fills it once a slot is free. The tile's title is its prompt."""
        view.layout = _TILE
        view.max_height = TILE_HEIGHT
        prompt = first_line(getattr(view, "prompt", None))
        if prompt:
            view.subtitle, view.title = view.title, prompt
        view.queued = True
        view.observe(lambda _change: self._show_progress(), names="streaming")
        self.views.append(view)
        self._grid.children = (*self._grid.children, view)
        view.start(lambda: self._limited(view, work))
        self._show_progress()

    async def _limited(self, view: StreamView, work: Callable[[], Awaitable[None]]) -> None:
        if self._semaphore is None:  # made on the loop that runs the streams
            self._semaphore = asyncio.Semaphore(self.concurrency)
        try:
            async with self._semaphore:
                view.queued = False
                self._show_progress()
                await work()
        finally:
            view.queued = False  # stopped while queued

    def counts(self) -> dict[str, int]:
        """How many runs are queued, running, done (finished) and not finished (error, aborted...)."""
        counts = {"queued": 0, "running": 0, "done": 0, "error": 0}
        for view in self.views:
            if view.queued:
                counts["queued"] += 1
            elif view.streaming:
                counts["running"] += 1
            else:
                counts["done" if view.result.status == "finished" else "error"] += 1
        return counts

    def summary(self) -> str:
        """Like "3 done · 1 running · 2 queued · 1 error · 1,234 tokens" (a cost joins it when known)."""
        counts = self.counts()
        parts = [f"{counts[key]} {key}" for key in ("done", "running", "queued", "error") if counts[key]]
        tokens = sum(view.result.usage.total_tokens for view in self.views)
        limit = f" ({len(self.views)} runs, {self.concurrency} at a time)"
        return " · ".join([*parts, f"{tokens:,} tokens"]) + limit

    def _show_progress(self) -> None:
        self._progress.value = f'<div class="mn-gallery-summary"><b>{escape(self.summary())}</b></div>'

    @property
    def results(self) -> list[RunResult]:
        return [view.result for view in self.views]

    def wait(self, timeout: float | None = None) -> list[RunResult]:
        """Block until every run ended; the results in prompt order."""
        for view in self.views:
            view.wait(timeout)
        return self.results

    def __await__(self) -> Generator[Any, None, list[RunResult]]:
        for view in self.views:
            yield from view.__await__()
        return self.results

    def stop(self) -> None:
        for view in self.views:
            view.stop()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # ipywidgets 7 draws a widget through _ipython_display_ (8: _repr_mimebundle_)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython (marimo)
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        done = sum(not view.streaming for view in self.views)
        return f"<Gallery of {len(self.views)} runs, {done} done>"
