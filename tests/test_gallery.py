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
from mastra_notebook.widget.grid import TICK_S

from .conftest import RecordingComm
from .fake_clock import on_fake_clock
from .helpers import Displayed


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
async def test_an_ended_run_keeps_its_result_and_recording_and_its_view_is_let_go(
    recording_comm: RecordingComm,
) -> None:
    refs: list[weakref.ref[mn.StreamView]] = []

    def watched(index: int) -> Any:
        original = _starter(index)

        def start() -> Any:
            view, work = original()
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
    # no run is open: no tile keeps a view; each keeps its result and recording
    assert [tile.index for tile in gallery.page] == [0, 1, 2, 3]
    assert _live_views(gallery) == []
    for tile in gallery.tiles:
        assert tile.recording is not None
        assert len(tile.recording) == 2
        assert tile.result.usage.total_tokens == 5
    await asyncio.sleep(0.3)  # a closed view's last flush timer (at most 0.2 s) holds it until it fires
    gc.collect()
    assert len(refs) == 20
    assert all(ref() is None for ref in refs), "a closed run's view is still referenced"
    # the browser got the page's tiles only, as data
    page = gallery.view.grid.page
    assert [tile["subtitle"] for tile in page["tiles"]] == ["#1 · agent test", "#2 · agent test",
                                                            "#3 · agent test", "#4 · agent test"]  # fmt: skip
    assert page["tiles"][0]["runs"][0]["answer"] == "answer 0"


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_paging_and_opening_an_ended_run_drawn_from_what_it_kept(recording_comm: RecordingComm) -> None:
    gallery = _batch(10, page_size=4)
    await gallery
    page = gallery.view.grid.page
    assert (page["where"], page["previous"], page["next"]) == ("1\N{EN DASH}4 of 10", False, True)
    view = gallery.open(gallery.tiles[0])
    assert view is not None
    assert view.result.text == "answer 0"
    assert view.result.status == "finished"
    assert len(view.inspector_entries()) == 2  # the inspector still lists its chunks
    assert gallery.view.detail.layout.display is None
    assert gallery.view.detail.children[1] is view
    # another run opens in the same view: no new widget per open
    made = len([m for m in recording_comm.messages if m["type"] == "comm_open"])
    gallery.view._on_message(None, {"open": 1}, None)  # the tile's "open", as the browser sends it
    assert gallery.view.shown is view
    assert view.result.text == "answer 1"
    assert len([m for m in recording_comm.messages if m["type"] == "comm_open"]) == made
    gallery.view.close_detail()
    assert gallery.view.detail.layout.display == "none"
    # the pager: the last page holds what is left; next stays there
    gallery.next_page()
    assert [tile.index for tile in gallery.page] == [4, 5, 6, 7]
    gallery.view._on_message(None, {"turn": "next"}, None)
    assert [tile.index for tile in gallery.page] == [8, 9]
    gallery.next_page()
    assert [tile.index for tile in gallery.page] == [8, 9]
    page = gallery.view.grid.page
    assert (page["where"], page["previous"], page["next"]) == ("9\N{EN DASH}10 of 10", True, False)
    assert len(page["tiles"]) == 2
    gallery.view._on_message(None, {"turn": "previous"}, None)
    assert [tile.index for tile in gallery.page] == [4, 5, 6, 7]
    # a saved notebook's HTML: the same grid, drawn in the kernel, with no control
    html = gallery.saved_html()
    for said in ("10 done", "answer 4", "#5 · agent test"):
        assert said in html
    for control in ("<button", "<select", "<input"):
        assert control not in html


async def test_shown_as_the_widget_then_its_saved_grid_which_follows_the_runs(
    recording_comm: RecordingComm, monkeypatch: pytest.MonkeyPatch
) -> None:
    displayed = Displayed(monkeypatch)
    gallery = _batch(3)
    gallery._ipython_display_()
    assert "3 running" in displayed.saved_face(gallery.view.grid.view_key)
    await gallery
    assert "3 done" in displayed.updated_face(gallery.view.grid.view_key)  # every run ended: updated


async def test_errors_first_status_filters_and_the_summary(recording_comm: RecordingComm) -> None:
    gallery = _batch(12, failing={3, 7, 10})
    results = await gallery
    assert [i for i, r in enumerate(results) if r.status == "error"] == [3, 7, 10]
    assert gallery.counts() == {"queued": 0, "running": 0, "done": 9, "stopped": 0, "error": 3}
    assert gallery.summary() == "9 done · 3 error · 45 tokens (12 runs, 3 at a time)"
    assert "9 done · 3 error · 45 tokens" in gallery._progress.value
    gallery.show("errors-first")
    assert [tile.index for tile in gallery.page] == [3, 7, 10, 0]
    assert gallery.view.grid.page["filter"] == "errors-first"
    gallery.show("error")
    assert [tile.index for tile in gallery.page] == [3, 7, 10]
    assert "tool exploded on prompt 7" in gallery.page[1].result.error.message  # type: ignore[union-attr]
    page = gallery.view.grid.page
    assert page["where"] == "1\N{EN DASH}3 of 3 (errors only)"
    run = page["tiles"][1]["runs"][0]
    assert (run["word"], run["tone"]) == ("error", "error")
    assert "tool exploded on prompt 7" in run["answer"]  # an error's tile shows its message
    gallery.view._on_message(None, {"filter": "done"}, None)  # the filter, as the browser sends it
    assert [tile.index for tile in gallery.page] == [0, 1, 2, 4]
    gallery.view._on_message(None, {"filter": "no such filter"}, None)  # ignored
    assert gallery.view.grid.page["filter"] == "done"
    gallery.show("queued")
    assert gallery.page == []
    assert gallery.view.grid.page["empty"] == "no tiles (queued)"
    with pytest.raises(ValueError, match="show\\(\\) takes one of"):
        gallery.show("failed")


async def test_jump_by_index_or_prompt_text(recording_comm: RecordingComm) -> None:
    gallery = _batch(30, failing={2})
    await gallery
    gallery.show("error")
    tile = gallery.jump(13)  # its index in tiles; hidden by the filter: shown with all
    assert tile.index == 13
    assert gallery.view.grid.page["filter"] == "all"
    assert [t.index for t in gallery.page] == [13, 14, 15, 16]
    assert [t["target"] for t in gallery.view.grid.page["tiles"]] == [True, False, False, False]
    assert gallery.jump("PROMPT NUMBER 27").index == 27
    assert gallery.page[0].index == 27
    assert sum(t["target"] for t in gallery.view.grid.page["tiles"]) == 1
    assert gallery.jump("#5").index == 4  # the number the grid shows: from 1
    assert gallery.jump("5").index == 4
    gallery.view._on_message(None, {"jump": "no such prompt"}, None)  # the jump box, as Enter sends it
    assert "no prompt contains" in gallery.view.grid.page["note"]
    assert gallery.page[0].index == 4  # nothing else changed
    gallery.view._on_message(None, {"jump": "#99"}, None)
    assert gallery.view.grid.page["note"] == "no tile #99: the tiles are #1 to #30"
    gallery.next_page()
    assert gallery.view.grid.page["note"] == ""  # said until the page changes
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
    await asyncio.sleep(TICK_S)  # the page is drawn at most so often (the fake clock's time)
    runs = [tile["runs"][0] for tile in gallery.view.grid.page["tiles"]]
    assert [(r["status"], r["openable"]) for r in runs] == [("running", True), ("running", True),
                                                            ("queued", False), ("queued", False)]  # fmt: skip
    assert gallery.open(2) is None  # nothing to open before its turn
    assert gallery.summary().startswith("2 running · 7 queued · ")
    frame = mn.to_dataframe(gallery)  # the rows so far: one per prompt, as far as each got
    assert list(frame["status"]) == ["running", "running"] + ["queued"] * 7
    gate.set()
    await gallery
    assert started == list(range(9))
    assert [tile["runs"][0]["word"] for tile in gallery.view.grid.page["tiles"]] == ["finished"] * 4
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
async def test_a_streaming_run_has_no_browser_model_until_opened(recording_comm: RecordingComm) -> None:
    """The browser makes a model (the widget's module and its state) only for the run that is open:
    the runs that stream open none; the tiles follow their streams as data (the answer so far)."""
    gate = asyncio.Event()
    gallery = Gallery(4, page_size=2)
    for i in range(4):
        gallery.submit(_starter(i, gate=gate), prompt=f"prompt number {i}", title="agent test")
    await asyncio.sleep(0.01)
    views = [tile.view for tile in gallery.tiles]
    assert all(view is not None and view.streaming for view in views)  # all four stream
    assert all(view is not None and view.comm is None for view in views)

    def opened() -> set[str]:
        return {
            m["data"]["state"].get("view_key") for m in recording_comm.messages if m["type"] == "comm_open"
        }

    assert not {view.view_key for view in views if view is not None} & opened()  # nothing sent
    shown = gallery.open(2)  # a run on the next page, still streaming: its live view opens
    assert shown is views[2]
    assert shown is not None
    assert shown.comm is not None
    assert shown.view_key in opened()
    gate.set()
    results = await gallery
    assert [r.text for r in results] == [f"answer {i}" for i in range(4)]
    assert gallery.tiles[2].view is shown  # open: kept while shown
    assert shown.comm is not None
    assert all(view is not None and view.comm is None for view in views if view is not shown)
    assert gallery.view.grid.page["tiles"][0]["runs"][0]["answer"] == "answer 0"
    gallery.view.close_detail()  # its run ended: its own view is let go as it leaves
    assert shown.comm is None


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
    assert [tile.heading for tile in gallery.tiles] == labels
    assert [tile.title for tile in gallery.tiles] == [f"What is the weather in {c} today?" for c in cities]
    first = gallery.tiles[0].view
    assert first is not None
    assert first.title == labels[0]  # made when it was alone, labelled again when the second came
    assert first.subtitle == f"#1 · agent weather · {LISBON}"  # cut first; whole on hover
    # the page's tiles, queued ones too: their labels, the whole prompt as their tooltip
    await asyncio.sleep(TICK_S)  # the page is drawn at most so often (the fake clock's time)
    tiles = gallery.view.grid.page["tiles"]
    assert [t["title"] for t in tiles] == labels[:4]
    assert tiles[1]["hover"] == "What is the weather in Paris today?"
    gate.set()
    await gallery
    gallery.next_page()
    view = gallery.open(gallery.tiles[4])
    assert view is not None
    assert not view.streaming
    assert view.title == "What is the weather in Oslo today?"
    assert view.subtitle == "#5 · agent weather"


async def test_a_prompt_that_shares_less_labels_the_tiles_again(recording_comm: RecordingComm) -> None:
    gallery = Gallery(4, page_size=4)
    gallery.submit(_starter(0), prompt=LISBON)
    gallery.submit(_starter(1), prompt="What is the weather in Paris today?")
    views = [tile.view for tile in gallery.tiles]
    assert [view.title for view in views if view is not None] == ["…Lisbon…", "…Paris…"]
    gallery.submit(_starter(2), prompt="What is the capital of France?")  # shares "What is the"
    assert [tile.heading for tile in gallery.tiles] == ["…weather in Lisbon today?", "…weather in Paris today?",
                                                      "…capital of France?"]  # fmt: skip
    assert [view.title for view in views if view is not None] == [t.heading for t in gallery.tiles[:2]]
    gallery.submit(_starter(3), prompt=[{"role": "user", "content": "Tell me a joke"}])  # shares nothing
    assert [tile.heading for tile in gallery.tiles] == [tile.title for tile in gallery.tiles]
    assert [view.subtitle for view in views if view is not None] == ["#1", "#2"]  # nothing left out
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
    assert [affixes.heading(prompt) for prompt in prompts] == (labels or prompts)


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_a_tile_shows_a_person_s_label_and_the_whole_comment(recording_comm: RecordingComm) -> None:
    gallery = _batch(2, page_size=4)
    await gallery
    comment = " ".join(["Too long: it lists every museum when asked for one, and cites none of them."] * 5)
    kept = gallery.tiles[1].kept
    assert kept is not None
    kept.label(thumbs="down", score=2.345678, comment=comment)
    gallery.next_page()  # the page drawn again (the last page stays): its tiles' data taken again
    run = gallery.view.grid.page["tiles"][1]["runs"][0]
    assert run["label"] == "👎 score 2.35"  # three significant digits, as a score's badge and the summary
    assert run["comment"] == comment  # whole: the tile wraps it, never clips it


@on_fake_clock  # its waits are for the loop's timers and turns, not for time to pass
async def test_a_label_given_in_the_opened_view_shows_on_its_tile(recording_comm: RecordingComm) -> None:
    gallery = _batch(2, page_size=4)
    await gallery
    view = gallery.open(gallery.tiles[1])
    assert view is not None
    await asyncio.sleep(TICK_S)  # what opening it drew, drawn
    assert gallery.view.grid.page["tiles"][1]["runs"][0]["label"] == ""
    view.label(thumbs="up", comment="right answer")  # in the detail view, as its footer gives it
    await asyncio.sleep(TICK_S)  # the page is drawn again at most so often
    run = gallery.view.grid.page["tiles"][1]["runs"][0]  # no page turned: the label's change drew it
    assert (run["label"], run["comment"]) == ("👍", "right answer")
