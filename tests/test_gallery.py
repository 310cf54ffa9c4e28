"""The gallery at evaluation scale, without a kernel: bounded widgets, paging, filters, jumps,
queued tiles, the summary, and a DataFrame that fills in as runs finish."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.widget.gallery import Affixes, Gallery

from .conftest import RecordingComm
from .fake_clock import on_fake_clock


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


def _batch(count: int, *, concurrency: int = 3, page_size: int = 4, failing: Collection[int] = ()) -> Gallery:
    gallery = Gallery(concurrency, page_size=page_size)
    for i in range(count):
        gallery.submit(_starter(i, fail=i in failing), prompt=f"prompt number {i}", title="agent test")
    return gallery


def _live_views(gallery: Gallery) -> list[mn.StreamView]:
    return [tile.view for tile in gallery.tiles if tile.view is not None]


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_an_ended_run_keeps_its_result_and_recording_and_its_view_goes_off_page(
    recording_comm: RecordingComm,
) -> None:
    refs: list[weakref.ref[mn.StreamView]] = []

    def watched(index: int) -> Any:
        original = _starter(index)

        def start() -> Any:
            view, work = original()
            if index >= 4:  # off the first page: their views are made when they start
                refs.append(weakref.ref(view))
            return view, work

        return start

    gallery = Gallery(3, page_size=4)
    for i in range(20):
        gallery.submit(watched(i), prompt=f"prompt number {i}", title="agent test")
    results = await gallery
    assert [r.status for r in results] == ["finished"] * 20
    assert [r.text for r in results] == [f"answer {i}" for i in range(20)]
    assert gallery.counts() == {"queued": 0, "running": 0, "done": 20, "stopped": 0, "error": 0}
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


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_paging_back_draws_an_ended_run_again_from_what_it_kept(recording_comm: RecordingComm) -> None:
    gallery = _batch(10, page_size=4)
    await gallery
    first = gallery.tiles[0].view
    assert first is not None
    gallery.next_page()
    assert [tile.index for tile in gallery.page] == [4, 5, 6, 7]
    assert gallery.tiles[0].view is None  # left the page
    await asyncio.sleep(0.1)  # closed soon after (test_a_page_lets_go_of_its_views_a_few_at_a_time)
    assert first.comm is None
    gallery.previous_page()
    again = gallery.tiles[0].view
    assert again is not None
    assert again is not first  # a page slot's own view, showing what the tile kept
    assert again.run is first.run  # the run its own view folded, drawn again
    assert again.result.text == "answer 0"
    assert again.result.status == "finished"
    assert again.title == "\N{HORIZONTAL ELLIPSIS}0"  # the part of its prompt that differs
    assert again.subtitle == "#0 · agent test · prompt number 0"  # the whole prompt, shown whole on hover
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
    assert gallery.counts() == {"queued": 0, "running": 0, "done": 9, "stopped": 0, "error": 3}
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


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
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
    assert gallery.counts() == {"queued": 7, "running": 2, "done": 0, "stopped": 0, "error": 0}
    assert [tile.status for tile in gallery.tiles[:4]] == ["running", "running", "queued", "queued"]
    assert len(_live_views(gallery)) == 2  # no widget for a queued run
    # the grid shows the slots of the started tiles; the queued ones after them are one list
    assert gallery._grid.children == (gallery._slots[0], gallery._slots[1])
    assert gallery._waiting.layout.display is None  # shown, under the grid
    waiting = gallery._waiting.value
    assert waiting.count('data-status="queued"') == 2  # the page's two queued tiles, a line each
    assert "prompt number 2" in waiting
    assert "prompt number 3" in waiting
    assert "prompt number 4" not in waiting  # the next page's
    assert "2 queued on this page" in waiting
    assert "button" not in waiting  # no Stop for a run that has not started
    assert gallery.summary().startswith("2 running · 7 queued · ")
    frame = mn.to_dataframe(gallery)  # the rows so far: one per prompt, as far as each got
    assert list(frame["status"]) == ["running", "running"] + ["queued"] * 7
    gate.set()
    await gallery
    assert started == list(range(9))
    assert gallery._slots[2].children == (gallery.tiles[2].view,)  # its line gave way to its view
    assert gallery._grid.children == tuple(gallery._slots)
    assert gallery._waiting.layout.display == "none"  # nothing queued: no list
    frame = mn.to_dataframe(gallery)
    assert list(frame["status"]) == ["finished"] * 9
    assert list(frame["text"]) == [f"answer {i}" for i in range(9)]
    assert list(frame["prompt"]) == [f"prompt number {i}" for i in range(9)]


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
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
    # a person stopped them: counted as stopped, not as errors
    assert gallery.counts() == {"queued": 0, "running": 0, "done": 0, "stopped": 5, "error": 0}
    assert gallery.summary().startswith("5 stopped · ")


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
    results = gallery.wait(60)
    assert [r.status for r in results] == ["finished", "error"] + ["finished"] * 5
    assert gallery.counts()["done"] == 6


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_a_queued_tile_before_a_started_one_keeps_its_slot(recording_comm: RecordingComm) -> None:
    """Errors first lists an ended tile before queued ones: the grid still shows tiles in list order,
    so a queued tile before the page's last started one says queued in its own slot."""
    gate = asyncio.Event()
    gallery = Gallery(1, page_size=4)
    for i in range(4):
        gallery.submit(_starter(i, gate=gate), prompt=f"prompt number {i}", title="agent test")
    await asyncio.sleep(0.01)
    gallery.jump(3)  # the last, queued, first on the page and highlighted
    assert [tile.index for tile in gallery.page] == [3]
    assert gallery._grid.children == ()
    assert 'class="mn-gallery-queued mn-gallery-target"' in gallery._waiting.value
    gallery.pages.order = [gallery.tiles[1], gallery.tiles[0]]  # a list where a queued tile comes first
    gallery._go(0)
    assert gallery._grid.children == (gallery._slots[0], gallery._slots[1])
    (placeholder,) = gallery._slots[0].children
    assert 'data-status="queued"' in placeholder.value
    assert "prompt number 1" in placeholder.value
    assert gallery._slots[1].children == (gallery.tiles[0].view,)
    gate.set()
    await gallery
    assert gallery._waiting.layout.display == "none"  # none queued: no list
    assert gallery._slots[0].children == (gallery.tiles[1].view,)


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_a_page_lets_go_of_its_views_a_few_at_a_time(recording_comm: RecordingComm) -> None:
    """Paging away from 10 ended runs closes their views 4 at a time, not in one burst of messages
    (the browser tears each widget down: 48 at once were one long task)."""
    gallery = _batch(20, page_size=10)
    await gallery
    views = [tile.view for tile in gallery.page]
    assert len(views) == 10
    assert all(view is not None for view in views)

    def closed() -> int:
        return sum(view is not None and view.comm is None for view in views)

    gallery.next_page()
    assert all(tile.view is None for tile in gallery.tiles[:10])  # let go of at once
    assert closed() == 0
    await asyncio.sleep(0)
    assert closed() == 4
    await asyncio.sleep(0.2)
    assert closed() == 10


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_a_run_streaming_off_the_page_has_no_browser_model_until_shown(
    recording_comm: RecordingComm,
) -> None:
    """The browser makes a model (the 270 kB module and its state) only for the tiles it shows: the
    runs that stream off the page open none, and one paged to while it streams opens then."""
    gate = asyncio.Event()
    gallery = Gallery(4, page_size=2)
    for i in range(4):
        gallery.submit(_starter(i, gate=gate), prompt=f"prompt number {i}", title="agent test")
    await asyncio.sleep(0.01)
    views = [tile.view for tile in gallery.tiles]
    assert all(view is not None and view.streaming for view in views)  # all four stream
    on_page, off_page = views[:2], views[2:]
    assert all(view is not None and view.comm is not None for view in on_page)
    assert all(view is not None and view.comm is None for view in off_page)

    def opened() -> set[str]:
        return {
            m["data"]["state"].get("view_key") for m in recording_comm.messages if m["type"] == "comm_open"
        }

    assert {view.view_key for view in on_page if view is not None} <= opened()
    assert not {view.view_key for view in off_page if view is not None} & opened()  # nothing sent

    gallery.next_page()  # to runs 2 and 3, still streaming: their views open, drawn from the run so far
    assert all(view is not None and view.comm is not None for view in off_page)
    assert {view.view_key for view in off_page if view is not None} <= opened()
    assert gallery._slots[0].children == (views[2],)
    gate.set()
    results = await gallery
    assert [r.text for r in results] == [f"answer {i}" for i in range(4)]


async def test_a_view_shown_by_hand_opens_its_model(recording_comm: RecordingComm) -> None:
    from mastra_notebook.widget.streamview import opened_when_shown

    with opened_when_shown():
        view = mn.StreamView(title="made off the page")
    assert view.comm is None
    bundle = view._repr_mimebundle_()
    assert view.comm is not None
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == view.model_id
    view.close()
    view.show_in_browser()  # closed for good
    assert view.comm is None


LISBON = "What is the weather in Lisbon today?"


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_tiles_show_the_part_of_their_prompts_that_differs(recording_comm: RecordingComm) -> None:
    """The batch's shared words left out, an ellipsis where they were; the whole prompt on hover."""
    gate = asyncio.Event()
    gallery = Gallery(1, page_size=4)
    cities = ["Lisbon", "Paris", "New York", "Rio de Janeiro", "Oslo"]
    for i, city in enumerate(cities):
        prompt = f"What is the weather in {city} today?"
        gallery.submit(_starter(i, gate=gate), prompt=prompt, title="agent weather")
    await asyncio.sleep(0.01)
    labels = [f"\N{HORIZONTAL ELLIPSIS}{city}\N{HORIZONTAL ELLIPSIS}" for city in cities]
    assert [tile.label for tile in gallery.tiles] == labels
    assert [tile.title for tile in gallery.tiles] == [f"What is the weather in {c} today?" for c in cities]
    first = gallery.tiles[0].view
    assert first is not None
    assert first.title == labels[0]  # made when it was alone, labelled again when the second came
    assert first.subtitle == f"#0 · agent weather · {LISBON}"  # cut first; whole on hover
    # the queued tiles of the page: their labels, the whole prompt as their tooltip
    waiting = gallery._waiting.value
    assert f'<span style="font-weight:600"><bdi dir="auto">{labels[1]}</bdi></span>' in waiting
    assert 'title="What is the weather in Paris today?"' in waiting
    gate.set()
    await gallery
    gallery.next_page()
    view = gallery.tiles[4].view
    assert view is not None
    assert not view.streaming
    assert view.title == labels[4]
    assert view.subtitle == "#4 · agent weather · What is the weather in Oslo today?"


async def test_a_prompt_that_shares_less_labels_the_tiles_again(recording_comm: RecordingComm) -> None:
    gallery = Gallery(4, page_size=4)
    gallery.submit(_starter(0), prompt=LISBON)
    gallery.submit(_starter(1), prompt="What is the weather in Paris today?")
    views = [tile.view for tile in gallery.tiles]
    assert [view.title for view in views if view is not None] == ["…Lisbon…", "…Paris…"]
    gallery.submit(_starter(2), prompt="What is the capital of France?")  # shares "What is the"
    assert [tile.label for tile in gallery.tiles] == ["…weather in Lisbon today?", "…weather in Paris today?",
                                                      "…capital of France?"]  # fmt: skip
    assert [view.title for view in views if view is not None] == [t.label for t in gallery.tiles[:2]]
    gallery.submit(_starter(3), prompt=[{"role": "user", "content": "Tell me a joke"}])  # shares nothing
    assert [tile.label for tile in gallery.tiles] == [tile.title for tile in gallery.tiles]
    assert [view.subtitle for view in views if view is not None] == ["#0", "#1"]  # nothing left out
    assert gallery.tiles[3].title == "Tell me a joke"
    await gallery


@pytest.mark.parametrize(
    ("prompts", "labels"),
    [
        (["What is the weather in Paris?", "And in Lisbon?"], None),  # nothing shared: from the start
        (["Summarise: the cat sat", "Summarise: the"], None),  # one prompt is all shared words
        (["Same prompt again", "Same prompt again"], None),  # the same prompt run twice
        (["Go to the shop", "Go to the park"], ["…shop", "…park"]),
        (["a Paris", "a Lisbon"], None),  # "a": too short to be worth an ellipsis
        (["Translate: good morning", "Translate: thank you"], ["…good morning", "…thank you"]),
    ],
)
def test_the_label_rule(prompts: list[str], labels: list[str] | None) -> None:
    affixes = Affixes()
    for prompt in prompts:
        affixes.add(prompt)
    assert [affixes.label(prompt) for prompt in prompts] == (labels or prompts)
