"""StreamView with a recording comm: batching, snapshots, handshake, stop, final state, transcript."""

from __future__ import annotations

import asyncio
import itertools
import json
from types import SimpleNamespace
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.widget.streamview import StreamView
from mastra_notebook.widget.wire import MIN_GAP

from .conftest import RecordingComm, fixture_path
from .fake_clock import run_on_fake_clock
from .helpers import browser_state, replay


def test_ops_rebuild_the_run_and_match_a_snapshot(recording_comm: RecordingComm) -> None:
    view = mn.view()
    for item in mn.read_chunks(fixture_path("agent-as-tool")):
        view.feed(item)
    view.end()
    sent = recording_comm.custom()
    assert browser_state(sent) == replay(view.run.snapshot())
    assert view.result.status == "finished"
    assert view.streaming is False


def test_hello_gets_a_snapshot_mid_stream(recording_comm: RecordingComm) -> None:
    view = mn.view()
    chunks = list(mn.read_chunks(fixture_path("tool-call")))
    for item in chunks[:12]:
        view.feed(item)
    view._on_browser_message(view, {"t": "hello"}, [])
    snapshot = recording_comm.custom()[-1]
    assert snapshot["t"] == "snapshot"
    # a late view applies the snapshot, then only what follows it
    for item in chunks[12:]:
        view.feed(item)
    view.end()
    later = [m for m in recording_comm.custom() if m["t"] == "ops" and m["seq"] > snapshot["seq"]]
    assert browser_state([snapshot, *later]) == replay(view.run.snapshot())


def test_resync_after_a_gap_gets_a_snapshot(recording_comm: RecordingComm) -> None:
    view = mn.view()
    view.feed({"type": "text-delta", "payload": {"id": "t", "text": "hi"}})
    view._on_browser_message(view, {"t": "resync", "seq": 0}, [])
    assert recording_comm.custom()[-1]["t"] == "snapshot"


def test_final_state_is_saved_in_a_trait_and_the_transcript(recording_comm: RecordingComm) -> None:
    view = mn.view()
    for item in mn.read_chunks(fixture_path("plain-text")):
        view.feed(item)
    assert view._final == ""
    view.end()
    final = json.loads(view._final)
    assert final["t"] == "snapshot"
    assert replay(final["ops"]) == replay(view.run.snapshot())
    html = view._transcript()
    assert "Three tips for clean Python" in html
    assert "<script" not in html


def test_finish_payloads_never_travel_whole(recording_comm: RecordingComm) -> None:
    view = mn.view()
    for item in mn.read_chunks(fixture_path("long-text")):
        view.feed(item)
    view.end()
    biggest = max(len(json.dumps(m)) for m in recording_comm.custom() if m["t"] == "ops")
    assert biggest < 250_000  # the finish chunk alone is ~1 MB
    assert all('"messages"' not in json.dumps(m["ops"]) for m in recording_comm.custom() if m["t"] == "ops")


def test_long_text_at_2000_chunks_per_second_is_batched(
    recording_comm: RecordingComm, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent_at: list[float] = []  # the loop's time of each message
    send = StreamView.send

    def timed_send(self: StreamView, content: Any, buffers: Any = None) -> None:
        sent_at.append(asyncio.get_running_loop().time())
        send(self, content, buffers)

    async def scenario() -> StreamView:
        view = mn.view(fixture_path("long-text"), delay=1 / 2000)
        await view
        return view

    monkeypatch.setattr(StreamView, "send", timed_send)
    # a chunk every 0.5 ms of the loop's time, however loaded the machine
    view = run_on_fake_clock(scenario())
    ops = [m for m in recording_comm.messages if m["data"].get("method") == "custom"]
    assert len(ops) == len(sent_at)
    duration = sent_at[-1] - sent_at[0]
    assert duration >= 5000 / 2000  # the whole stream, at its pace
    sent_bytes = sum(m["bytes"] for m in ops)
    text_bytes = len(view.result.text.encode())
    assert sent_bytes / text_bytes <= 1.5
    # at most 40 messages a second: MIN_GAP apart, but for the final state, which leaves at once
    gaps = [later - earlier for earlier, later in itertools.pairwise(sent_at)]
    assert min(gaps[:-1]) >= MIN_GAP - 1e-9
    assert browser_state(recording_comm.custom()) == replay(view.run.snapshot())


def test_stop_from_the_browser_keeps_the_partial_text(recording_comm: RecordingComm) -> None:
    async def scenario() -> mn.RunResult:
        view = mn.view(fixture_path("long-text"), delay=0.001)
        await asyncio.sleep(0.05)  # on the fake clock: 50 chunks, however loaded the machine
        view._on_browser_message(view, {"t": "stop"}, [])
        assert view.result.status == "aborted"  # at once, as the kernel handles the click
        assert view.streaming is False
        received = len(view.recording)
        assert abs(received - 50) <= 1  # a chunk a millisecond
        result = await view
        await asyncio.sleep(1)  # the cancelled consumer feeds nothing more
        assert len(view.recording) == received
        assert result.text == mn.collect(b"\n".join(view.recording.lines())).text
        return result

    result = run_on_fake_clock(scenario())
    assert result.status == "aborted"
    assert 0 < len(result.text) < 200_000


def test_stop_in_a_plain_script_settles_the_view_before_it_returns(recording_comm: RecordingComm) -> None:
    """The stream runs on a background thread's loop; stop() stops it there and returns a settled view."""
    view = mn.view(fixture_path("long-text"), delay=0.001)
    view.stop()
    assert view.result.status == "aborted"
    assert view.streaming is False
    assert final_root(view)["status"] == "aborted"
    assert view.wait(0) is not None
    assert view.result.status == "aborted"


def test_stop_of_a_view_fed_by_hand_or_ended_already(recording_comm: RecordingComm) -> None:
    fed = mn.view()
    fed.feed({"type": "text-delta", "payload": {"id": "t", "text": "hi"}})
    fed.stop()
    assert (fed.result.status, fed.streaming, final_root(fed)["status"]) == ("aborted", False, "aborted")
    done = mn.view(fixture_path("plain-text"))
    assert done.wait(60).status == "finished"
    done.stop()  # the run had ended: nothing changes
    assert (done.result.status, final_root(done)["status"]) == ("finished", "finished")


def final_root(view: StreamView) -> dict[str, Any]:
    """The run's root node in the final state the view sent (``_final``)."""
    final = json.loads(view._final)
    (root,) = [op[2] for op in final["ops"] if op[0] == "add" and op[1] is None]
    return dict(root)


# Run with no kernel: wait() and await return from another thread than the one that settles the view
PLAIN_SCRIPT = """
import asyncio, json, sys
import mastra_notebook as mn

class Handle:  # a shown view's transcript output
    html = ""

    def update(self, bundle, raw=False):
        self.html = bundle["text/html"]

async def awaited(view):
    return await view

seen = []
for i in range(int(sys.argv[2])):
    view, handle = mn.view(), Handle()
    view._transcripts.add(handle)
    view.stream.consume(sys.argv[1])
    result = view.wait(30) if i % 2 else asyncio.run(awaited(view))
    final = json.loads(view._final) if view._final else {"ops": []}
    roots = [op[2]["status"] for op in final["ops"] if op[0] == "add" and op[1] is None]
    seen.append([result.status, view.result.status, roots, view.streaming, "finished" in handle.html])
print(json.dumps(seen))
"""


def test_wait_and_await_return_a_settled_view_in_a_plain_script() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", PLAIN_SCRIPT, str(fixture_path("tool-call")), "30"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    assert seen == [["finished", "finished", ["finished"], False, True]] * 30


def test_view_of_a_path_in_a_plain_script_waits(recording_comm: RecordingComm) -> None:
    view = mn.view(fixture_path("workflow-as-tool"))
    result = view.wait(timeout=60)
    assert result.status == "finished"
    assert result.tool_calls[0].children is not None


def test_view_of_an_async_iterable(recording_comm: RecordingComm) -> None:
    body = (fixture_path("http/tool-call.body")).read_bytes()

    async def pieces() -> Any:
        for i in range(0, len(body), 100):
            yield body[i : i + 100]
            await asyncio.sleep(0)

    async def scenario() -> mn.RunResult:
        return await mn.view(pieces())

    result = asyncio.run(scenario())
    assert result.tool_calls[0].result["city"] == "Paris"


def test_a_failing_source_ends_in_error_not_an_exception(recording_comm: RecordingComm) -> None:
    view = mn.view("/no/such/file.jsonl")
    result = view.wait(timeout=60)
    assert result.status == "error"
    assert result.error is not None
    assert "No such file" in result.error.message


def test_approve_on_a_recording_is_a_clear_error(recording_comm: RecordingComm) -> None:
    with pytest.raises(RuntimeError, match="not connected to a Mastra server"):
        mn.view().approve()


def test_interrupt_during_wait_stops_and_keeps_the_partial_result(
    recording_comm: RecordingComm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kernel interrupt (Ctrl-C) while wait() blocks: the stream stops, wait() returns what came."""
    import _thread
    import threading

    lines = fixture_path("long-text").read_bytes().splitlines(keepends=True)
    waiting = threading.Event()

    async def source() -> Any:
        for line in lines[:100]:
            yield line
        while not waiting.is_set():  # the interrupt lands while wait() blocks
            await asyncio.sleep(0.01)
        _thread.interrupt_main()
        await asyncio.Event().wait()  # then nothing more comes: only stop() ends the stream

    view = mn.view(source())
    wait_ended = view.stream._wait_ended

    def blocking(timeout: float | None) -> None:
        waiting.set()
        wait_ended(timeout)

    monkeypatch.setattr(view.stream, "_wait_ended", blocking)
    result = view.wait(30)
    assert result.status == "aborted"
    assert result.text == mn.collect(b"".join(lines[:100])).text
    assert 0 < len(result.text) < 200_000
    assert view.streaming is False


def test_shown_view_updates_only_its_transcript(
    recording_comm: RecordingComm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The widget output is never replaced (that would draw the live view again); its transcript is."""
    shown: list[tuple[dict[str, Any], bool]] = []

    class Handle:
        def update(self, bundle: dict[str, Any], raw: bool = False) -> None:
            shown.append((bundle, True))

    metadatas: list[Any] = []

    def fake_display(
        bundle: dict[str, Any], raw: bool = False, display_id: bool = False, metadata: Any = None
    ) -> Handle | None:
        shown.append((bundle, False))
        metadatas.append(metadata)
        return Handle() if display_id else None

    monkeypatch.setattr("IPython.display.display", fake_display)
    view = mn.view()
    view._ipython_display_()
    (widget, _), (transcript, _) = shown
    assert "application/vnd.jupyter.widget-view+json" in widget
    assert "text/html" not in widget
    assert widget["text/plain"] == ""  # nbconvert and an untrusted notebook show no stray line above it
    assert metadatas[0] is not None  # anywidget's metadata travels with the widget (Colab needs it)
    assert "Three tips" not in transcript["text/html"]
    for item in mn.read_chunks(fixture_path("plain-text")):
        view.feed(item)
    view.end()
    updated, was_update = shown[-1]
    assert was_update
    assert set(updated) == {"text/html"}
    assert "Three tips for clean Python" in updated["text/html"]


# ---- the view's own traits (when batches leave: tests/test_flush_policy.py) ---------------------


def test_a_fed_chunk_is_sent_at_once_then_a_burst_is_coalesced(
    recording_comm: RecordingComm, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the flush policy's clock held still: a loaded machine's 50 feeds outlasted its interval once
    monkeypatch.setattr("mastra_notebook.widget.sync.time", SimpleNamespace(monotonic=lambda: 1_000.0))
    view = mn.view()
    delta = {"type": "text-delta", "payload": {"id": "t", "text": "hi "}}
    view.feed(delta)
    assert [m["t"] for m in recording_comm.custom()] == ["ops"]  # no timer, no wait
    for _ in range(50):
        view.feed(delta)
    assert len(recording_comm.custom()) == 1  # a burst waits for the next batch
    view.end()
    assert browser_state(recording_comm.custom()) == replay(view.run.snapshot())


def test_max_height_is_a_css_length(recording_comm: RecordingComm) -> None:
    assert mn.view().max_height == "70vh"
    assert mn.view(max_height=480).max_height == "480px"
    assert mn.view(max_height="30em").max_height == "30em"
    assert mn.view(max_height=None).max_height == ""
    assert StreamView(max_height=12.5).max_height == "12.5px"
    with pytest.raises(ValueError, match="positive"):
        mn.view(max_height=0)
    with pytest.raises(TypeError, match="CSS length"):
        mn.view(max_height=True)
    view = mn.view()
    assert view.queued is False
    assert {"max_height", "queued", "subtitle"} <= set(view.keys)  # synced to the browser


def test_the_header_line_of_a_prompt() -> None:
    from mastra_notebook.widget.streamview import first_line

    assert first_line("\n  What is the weather?\nIn Paris.") == "What is the weather?"
    messages = [
        {"role": "user", "content": "first question"},
        {"role": "assistant", "content": "an answer"},
        {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "and now?\nmore"}]},
    ]
    assert first_line(messages) == "and now?"
    assert first_line({"role": "user"}) == ""
    assert first_line(None) == ""
    assert first_line("x" * 500) == "x" * 199 + "…"


def test_a_client_view_shows_its_prompt_and_takes_max_height() -> None:
    client = mn.MastraClient("http://127.0.0.1:9")  # nothing listens: the view ends in error
    view = client.agent("weather").stream("Weather in Paris?\nThanks", max_height=None)
    assert view.subtitle == "Weather in Paris?"
    assert view.max_height == ""
    view.wait(60)
