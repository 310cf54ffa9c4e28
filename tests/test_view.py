"""StreamView with a recording comm: batching, snapshots, handshake, stop, final state, transcript."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.widget.streamview import StreamView

from .conftest import RecordingComm, fixture_path
from .test_run import replay


def browser_state(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """Apply protocol messages as the js/ store does (in order, snapshots reset)."""
    ops: list[list[Any]] = []
    last = 0
    for msg in messages:
        if msg["t"] == "snapshot":
            ops, last = list(msg["ops"]), msg["seq"]
        elif msg["t"] == "ops":
            assert msg["seq"] == last + 1, "a gap in the sequence"
            ops += msg["ops"]
            last = msg["seq"]
    return replay(ops)


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
    html = view._transcript()["text/html"]
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


def test_long_text_at_2000_chunks_per_second_is_batched(recording_comm: RecordingComm) -> None:
    async def scenario() -> StreamView:
        view = mn.view(fixture_path("long-text"), delay=1 / 2000)
        await view
        return view

    view = asyncio.run(scenario())
    ops = [m for m in recording_comm.messages if m["data"].get("method") == "custom"]
    duration = ops[-1]["time"] - ops[0]["time"]
    sent_bytes = sum(m["bytes"] for m in ops)
    text_bytes = len(view.result.text.encode())
    assert sent_bytes / text_bytes <= 1.5
    assert len(ops) / duration <= 40
    assert browser_state(recording_comm.custom()) == replay(view.run.snapshot())


def test_stop_from_the_browser_keeps_the_partial_text(recording_comm: RecordingComm) -> None:
    async def scenario() -> mn.RunResult:
        view = mn.view(fixture_path("long-text"), delay=0.001)
        await asyncio.sleep(0.05)
        view._on_browser_message(view, {"t": "stop"}, [])
        return await view

    result = asyncio.run(scenario())
    assert result.status == "aborted"
    assert 0 < len(result.text) < 200_000


def test_view_of_a_path_in_a_plain_script_waits(recording_comm: RecordingComm) -> None:
    view = mn.view(fixture_path("workflow-as-tool"))
    result = view.wait(timeout=10)
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
    result = view.wait(timeout=5)
    assert result.status == "error"
    assert result.error is not None
    assert "No such file" in result.error.message


def test_approve_on_a_recording_is_a_clear_error(recording_comm: RecordingComm) -> None:
    with pytest.raises(RuntimeError, match="not connected to a Mastra server"):
        mn.view().approve()


def test_interrupt_during_wait_stops_and_keeps_the_partial_result(recording_comm: RecordingComm) -> None:
    import _thread
    import threading

    view = mn.view(fixture_path("long-text"), delay=0.002)  # about 10 s in all
    threading.Timer(0.3, _thread.interrupt_main).start()
    result = view.wait(30)
    assert result.status == "aborted"
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
    assert widget["text/plain"] == "<StreamView run: its transcript follows>"  # no status to go stale
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


def test_a_fed_chunk_is_sent_at_once_then_a_burst_is_coalesced(recording_comm: RecordingComm) -> None:
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
    view.wait(10)
