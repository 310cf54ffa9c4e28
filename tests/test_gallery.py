"""The gallery at evaluation scale, without a kernel: bounded widgets, paging, filters, jumps,
queued tiles, the summary, and a DataFrame that fills in as runs finish."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.widget.gallery import EndedView, Gallery

from .conftest import RecordingComm


def _chunks(index: int) -> list[dict[str, Any]]:
    text = {
        "type": "text-delta",
        "runId": f"r{index}",
        "from": "AGENT",
        "payload": {"id": "t", "text": f"answer {index}"},
    }
    usage = {"inputTokens": 2, "outputTokens": 3, "totalTokens": 5}
    finish = {
        "type": "finish",
        "runId": f"r{index}",
        "from": "AGENT",
        "payload": {"output": {"usage": usage}},
    }
    return [text, finish]


def _starter(index: int, *, fail: bool = False, gate: asyncio.Event | None = None, log: list[int] | None = None
             ) -> Callable[[], tuple[mn.StreamView, Callable[[], Awaitable[None]]]]:  # fmt: skip
    """A tile's start: a view, and work that feeds it two chunks (or raises), after ``gate`` opens."""

    def start() -> tuple[mn.StreamView, Callable[[], Awaitable[None]]]:
        view = mn.StreamView(title="agent test")

        async def work() -> None:
            if log is not None:
                log.append(index)
            if gate is not None:
                await gate.wait()
            await asyncio.sleep(0)
            if fail:
                raise ValueError(f"tool exploded on prompt {index}")
            for chunk in _chunks(index):
                view.feed(chunk)

        return view, work

    return start


def _batch(
    count: int, *, concurrency: int = 3, page_size: int = 4, failing: frozenset[int] = frozenset()
) -> Gallery:
    gallery = Gallery(concurrency, page_size=page_size)
    for i in range(count):
        gallery.submit(_starter(i, fail=i in failing), prompt=f"prompt number {i}", title="agent test")
    return gallery


def _live_views(gallery: Gallery) -> list[mn.StreamView]:
    return [tile.view for tile in gallery.tiles if tile.view is not None]


async def test_an_ended_run_keeps_its_result_and_recording_and_its_view_goes_off_page(
    recording_comm: RecordingComm,
) -> None:
    gallery = _batch(20)
    refs: list[weakref.ref[mn.StreamView]] = []
    for tile in gallery.tiles[4:]:  # off the first page: their views are made when they start
        original = tile._start
        assert original is not None

        def start(original: Any = original) -> Any:
            view, work = original()
            refs.append(weakref.ref(view))
            return view, work

        tile._start = start
    results = await gallery
    assert [r.status for r in results] == ["finished"] * 20
    assert [r.text for r in results] == [f"answer {i}" for i in range(20)]
    assert gallery.counts() == {"queued": 0, "running": 0, "done": 20, "error": 0}
    # only the page's tiles have a widget; the others keep their result and recording, no widget
    assert [tile.index for tile in gallery.page] == [0, 1, 2, 3]
    assert len(_live_views(gallery)) == 4
    for tile in gallery.tiles[4:]:
        assert tile.view is None
        assert tile.recording is not None
        assert len(tile.recording) == 2
        assert tile.result.usage.total_tokens == 5
    await asyncio.sleep(0.3)  # a closed view's last flush timer (at most 0.2 s) holds it until it fires
    gc.collect()
    assert len(refs) == 16
    assert all(ref() is None for ref in refs), "a closed tile's view is still referenced"
    closes = [m for m in recording_comm.messages if m["type"] == "comm_close"]
    assert len(closes) >= 16


async def test_paging_back_draws_an_ended_run_again_from_what_it_kept(recording_comm: RecordingComm) -> None:
    gallery = _batch(10, page_size=4)
    await gallery
    first = gallery.tiles[0].view
    assert first is not None
    gallery.next_page()
    assert [tile.index for tile in gallery.page] == [4, 5, 6, 7]
    assert gallery.tiles[0].view is None  # left the page: closed
    assert first.comm is None
    gallery.previous_page()
    again = gallery.tiles[0].view
    assert isinstance(again, EndedView)
    assert again is not first
    assert again.result.text == "answer 0"
    assert again.result.status == "finished"
    assert again.title == "prompt number 0"
    assert again.subtitle == "#0 · agent test"
    assert '"answer 0"' in again._final  # drawn at once from its first state, no round trip
    assert len(again.inspector_entries()) == 2  # the inspector still lists its chunks
    # the slots' views are dealt again from page to page: no new widget per page
    made = len([m for m in recording_comm.messages if m["type"] == "comm_open"])
    for _ in range(3):
        gallery.next_page()
        gallery.previous_page()
    assert len([m for m in recording_comm.messages if m["type"] == "comm_open"]) == made
    assert gallery.tiles[1].view is gallery._slots[1].children[0]
    assert gallery.tiles[1].view.result.text == "answer 1"
    # the last page holds what is left; next stays there
    gallery.next_page()
    gallery.next_page()
    assert [tile.index for tile in gallery.page] == [8, 9]
    gallery.next_page()
    assert [tile.index for tile in gallery.page] == [8, 9]
    assert "9\N{EN DASH}10 of 10" in gallery._pager.value
    shown = [slot for slot in gallery._slots if slot.layout.display != "none"]
    assert len(shown) == 2


async def test_errors_first_status_filters_and_the_summary(recording_comm: RecordingComm) -> None:
    gallery = _batch(12, failing={3, 7, 10})
    results = await gallery
    assert [i for i, r in enumerate(results) if r.status == "error"] == [3, 7, 10]
    assert gallery.counts() == {"queued": 0, "running": 0, "done": 9, "error": 3}
    assert gallery.summary() == "9 done · 3 error · 45 tokens (12 runs, 3 at a time)"
    assert "9 done · 3 error · 45 tokens" in gallery._progress.value
    gallery.show("errors-first")
    assert [tile.index for tile in gallery.page] == [3, 7, 10, 0]
    assert gallery._choose.value == "errors-first"
    gallery.show("error")
    assert [tile.index for tile in gallery.page] == [3, 7, 10]
    assert "tool exploded on prompt 7" in gallery.page[1].result.error.message  # type: ignore[union-attr]
    assert "1\N{EN DASH}3 of 3 (errors only)" in gallery._pager.value
    gallery._choose.value = "done"  # the dropdown, as a click sets it
    assert [tile.index for tile in gallery.page] == [0, 1, 2, 4]
    gallery.show("queued")
    assert gallery.page == []
    assert "no tiles (queued)" in gallery._pager.value
    with pytest.raises(ValueError, match="show\\(\\) takes one of"):
        gallery.show("failed")


async def test_jump_by_index_or_prompt_text(recording_comm: RecordingComm) -> None:
    gallery = _batch(30, failing={2})
    await gallery
    gallery.show("error")
    tile = gallery.jump(13)  # hidden by the filter: shown with all
    assert tile.index == 13
    assert gallery._choose.value == "all"
    assert [t.index for t in gallery.page] == [13, 14, 15, 16]
    assert "mn-gallery-target" in gallery._slots[0]._dom_classes
    assert gallery.jump("PROMPT NUMBER 27").index == 27
    assert gallery.page[0].index == 27
    assert sum("mn-gallery-target" in slot._dom_classes for slot in gallery._slots) == 1
    assert gallery.jump("#5").index == 5
    gallery._find.value = "no such prompt"  # the jump box, as Enter sets it
    assert "no prompt contains" in gallery._pager.value
    assert gallery.page[0].index == 5  # nothing else changed
    assert gallery._find.value == ""
    gallery._find.value = "#99"
    assert "no tile #99" in gallery._pager.value
    with pytest.raises(LookupError):
        gallery.jump("no such prompt")


async def test_queued_tiles_say_queued_and_have_no_view_until_their_turn(
    recording_comm: RecordingComm,
) -> None:
    gate = asyncio.Event()
    started: list[int] = []
    gallery = Gallery(2, page_size=4)
    for i in range(9):
        gallery.submit(_starter(i, gate=gate, log=started), prompt=f"prompt number {i}", title="agent test")
    await asyncio.sleep(0.01)
    assert started == [0, 1]
    assert gallery.counts() == {"queued": 7, "running": 2, "done": 0, "error": 0}
    assert [tile.status for tile in gallery.tiles[:4]] == ["running", "running", "queued", "queued"]
    assert len(_live_views(gallery)) == 2  # no widget for a queued run
    placeholder = gallery._slots[2].children[0]
    assert 'data-status="queued"' in placeholder.value
    assert "prompt number 2" in placeholder.value
    assert "button" not in placeholder.value  # no Stop for a run that has not started
    assert gallery.summary().startswith("2 running · 7 queued · ")
    frame = mn.to_dataframe(gallery)  # the rows so far: one per prompt, as far as each got
    assert list(frame["status"]) == ["running", "running"] + ["queued"] * 7
    gate.set()
    await gallery
    assert started == list(range(9))
    assert gallery._slots[2].children == (gallery.tiles[2].view,)  # the placeholder gave way to its view
    frame = mn.to_dataframe(gallery)
    assert list(frame["status"]) == ["finished"] * 9
    assert list(frame["text"]) == [f"answer {i}" for i in range(9)]
    assert list(frame["prompt"]) == [f"prompt number {i}" for i in range(9)]


async def test_concurrency_is_bounded_and_tiles_start_in_prompt_order(recording_comm: RecordingComm) -> None:
    gate = asyncio.Event()
    started: list[int] = []
    gallery = Gallery(3, page_size=48)
    for i in range(10):
        gallery.submit(_starter(i, gate=gate, log=started), prompt=f"p{i}")
    most = 0
    gate.set()
    while not gallery._idle.is_set():
        most = max(most, gallery.counts()["running"])
        await asyncio.sleep(0)
    assert 1 <= most <= 3
    assert started == list(range(10))


async def test_stop_aborts_queued_runs_without_starting_them(recording_comm: RecordingComm) -> None:
    gate = asyncio.Event()
    started: list[int] = []
    gallery = Gallery(1, page_size=4)
    for i in range(5):
        gallery.submit(_starter(i, gate=gate, log=started), prompt=f"p{i}")
    await asyncio.sleep(0.01)
    gallery.stop()
    results = await gallery
    assert started == [0]
    assert [r.status for r in results] == ["aborted"] * 5
    banner = results[3].parts[-1]
    assert banner.text == "stopped before its turn"


async def test_a_tile_that_cannot_start_says_why_and_the_others_run(recording_comm: RecordingComm) -> None:
    def broken() -> Any:
        raise TypeError("tools must be functions")

    gallery = Gallery(2, page_size=4)
    gallery.submit(broken, prompt="bad")
    gallery.submit(_starter(1), prompt="good")
    results = await gallery
    assert [r.status for r in results] == ["error", "finished"]
    assert results[0].error is not None
    assert "could not start this run: TypeError: tools must be functions" in results[0].error.message


def test_a_plain_script_waits_for_the_batch(recording_comm: RecordingComm) -> None:
    """No running loop: the runs and the gallery's state live on the private loop's thread."""
    gallery = _batch(7, failing={1})
    results = gallery.wait(10)
    assert [r.status for r in results] == ["finished", "error"] + ["finished"] * 5
    assert gallery.counts()["done"] == 6
