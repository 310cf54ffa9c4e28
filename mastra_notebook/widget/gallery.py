"""Many runs at once with bounded concurrency, shown as a gallery of live mini views."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from typing import Any

import ipywidgets

from ..core.result import RunResult
from .streamview import StreamView

_TILE = ipywidgets.Layout(
    max_height="320px", overflow="auto", border="1px solid var(--jp-border-color2, #ccc)"
)


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
        """Queue ``view``; ``work()`` fills it once a slot is free."""
        view.layout = _TILE
        view.observe(lambda _change: self._show_progress(), names="streaming")
        self.views.append(view)
        self._grid.children = (*self._grid.children, view)
        view.start(lambda: self._limited(work))
        self._show_progress()

    async def _limited(self, work: Callable[[], Awaitable[None]]) -> None:
        if self._semaphore is None:  # made on the loop that runs the streams
            self._semaphore = asyncio.Semaphore(self.concurrency)
        async with self._semaphore:
            await work()

    def _show_progress(self) -> None:
        done = sum(view._ended.is_set() for view in self.views)
        statuses = [view.result.status for view in self.views if view._ended.is_set()]
        failed = sum(status != "finished" for status in statuses)
        note = f", {failed} not finished" if failed else ""
        self._progress.value = (
            f"<b>{done} / {len(self.views)}</b> runs done{note} (at most {self.concurrency} at a time)"
        )

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

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        done = sum(view._ended.is_set() for view in self.views)
        return f"<Gallery of {len(self.views)} runs, {done} done>"
