"""Record, save, replay, seek; the inspector's chunk list."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core.recording import TIME_KEY, Recording, describe

from .conftest import RecordingComm, comparable, fixture_path
from .fake_clock import run_on_fake_clock
from .helpers import browser_state
from .helpers import replay as replay_ops

TIMES = {"started_at", "first_token_at", "finished_at", "ended_at", "called_at", "streaming_ms"}


def run_of_first(items: list[Any], count: int) -> mn.Run:
    run = mn.Run()
    run.start(recorded=True)  # a recording read: timed by its own times (none here), as a replay is
    for item in items[:count]:
        run.feed(item)
    if count == len(items):
        run.end()
    return run


def test_save_keeps_arrival_times_and_stays_mastra_jsonl(
    tmp_path: Path, recording_comm: RecordingComm
) -> None:
    view = mn.view()
    for item in mn.read_chunks(fixture_path("tool-call")):
        view.feed(item)
    view.feed(b"garbage line")
    view.end()
    path = view.save(tmp_path / "run.jsonl")
    lines = path.read_bytes().splitlines()
    assert len(lines) == 31
    assert lines[-1] == b"garbage line"
    # any reader sees the same run; the extra key is ignored
    again = mn.collect(path)
    assert again.text == view.result.text
    assert [i.raw for i in again.invalid] == ["garbage line"]
    loaded = Recording.load(path)
    assert loaded.timed
    assert loaded.times == sorted(loaded.times)
    assert TIME_KEY not in loaded.chunk(0)


def test_a_views_recording_is_public_and_is_what_save_writes(
    tmp_path: Path, recording_comm: RecordingComm
) -> None:
    items = list(mn.read_chunks(fixture_path("tool-call")))
    view = mn.view()
    for item in items:
        view.feed(item)
    view.end()
    recording = view.recording
    assert isinstance(recording, mn.Recording)
    assert recording.items == items
    assert len(recording.times) == len(items)
    assert recording.times == sorted(recording.times)
    assert view.save(tmp_path / "run.jsonl").read_bytes() == b"".join(
        line + b"\n" for line in recording.lines()
    )
    assert "arrival time" in (mn.StreamView.recording.__doc__ or "")  # help(view) tells what it is
    assert "recording" in dir(view)


def test_plain_mastra_jsonl_is_a_recording_without_times() -> None:
    recording = Recording.load(fixture_path("plain-text"))
    assert len(recording) == 56
    assert not recording.timed
    assert all(math.isnan(t) for t in recording.times)


def test_seek_shows_exactly_the_state_after_chunk_n(recording_comm: RecordingComm) -> None:
    items = list(mn.read_chunks(fixture_path("agent-as-tool")))
    view = mn.replay(fixture_path("agent-as-tool"), autoplay=False)
    for position in (40, 10, 65, 0, 33):
        view.seek(position)
        expected = replay_ops(run_of_first(items, position).snapshot())
        assert comparable(browser_state(recording_comm.custom()), TIMES) == comparable(expected, TIMES), (
            position
        )
        assert view.replay["position"] == position
        same = comparable(run_of_first(items, position).result.model_dump(mode="json"))
        assert comparable(view.result.model_dump(mode="json")) == same


def test_step_and_the_scrubber_messages(recording_comm: RecordingComm) -> None:
    view = mn.replay(fixture_path("tool-call"), autoplay=False)
    view.step()
    view.step(4)
    assert view.position == 5
    view._on_browser_message(view, {"t": "seek", "position": 2}, [])
    assert view.position == 2
    view.step(-5)
    assert view.position == 0
    view.seek(10_000)
    assert view.position == view.total == 30
    assert view.result.status == "finished"


def test_play_follows_the_recorded_pace(tmp_path: Path, recording_comm: RecordingComm) -> None:
    recording = Recording()
    for index, item in enumerate(mn.read_chunks(fixture_path("tool-call"))):
        recording.add(item, at_ms=index * 10.0)
    path = recording.save(tmp_path / "paced.jsonl")

    async def scenario(speed: float) -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        view = mn.replay(path, speed=speed)
        await view
        assert view.position == view.total
        assert view.result.status == "finished"
        assert view.replay["playing"] is False
        return loop.time() - started

    # on a fake clock: the loop's time is the replay's pace alone, however loaded the machine
    slow, fast = run_on_fake_clock(scenario(1.0)), run_on_fake_clock(scenario(4.0))
    assert slow >= 0.29  # 29 gaps of 10 ms
    assert fast == pytest.approx(slow / 4)


def test_pause_and_resume(recording_comm: RecordingComm) -> None:
    async def scenario() -> tuple[int, int, int]:
        view = mn.replay(fixture_path("plain-text"), speed=1.0)  # untimed: 40 ms a chunk
        await asyncio.sleep(0.2)
        view._on_browser_message(view, {"t": "pause"}, [])
        paused_at = view.position
        await asyncio.sleep(0.2)
        still = view.position
        view._on_browser_message(view, {"t": "play"}, [])
        await asyncio.sleep(0.2)
        view.pause()
        return paused_at, still, view.position

    paused_at, still, later = run_on_fake_clock(scenario())  # 0.2 s of the loop's time: 5 chunks
    assert 0 < paused_at == still < later


def test_inspector_lists_chunks_with_their_nesting_and_nodes(recording_comm: RecordingComm) -> None:
    view = mn.view()
    for item in mn.read_chunks(fixture_path("agent-as-tool")):
        view.feed(item)
    view.end()
    view._on_browser_message(view, {"t": "inspect", "open": True}, [])
    listing = recording_comm.custom()[-1]
    assert listing["t"] == "chunks"
    entries = listing["entries"]
    assert len(entries) == 65
    # getForecast's progress values are what a tool wrote, not chunks: listed as the researcher's
    # tool-output chunks, the way the reducer routes them
    nested = [e for e in entries if e["path"] == ["agent-researcher"] and e["type"] == "tool-output"]
    assert len(nested) == 3
    assert not any(e["type"] == "forecast-progress" for e in entries)
    text_entry = next(e for e in entries if e["type"] == "text-delta" and e["path"] == ["agent-researcher"])
    nodes = browser_state(recording_comm.custom())
    assert all(nodes[node_id]["kind"] in ("text", "run") for node_id in text_entry["nodes"])
    view._on_browser_message(view, {"t": "chunk-json", "i": 3}, [])
    assert recording_comm.custom()[-1] == {"t": "chunk-json", "i": 3, "json": view.recording.chunk(3)}


def test_inspector_sends_new_chunks_while_open(recording_comm: RecordingComm) -> None:
    view = mn.view()
    view._on_browser_message(view, {"t": "inspect", "open": True}, [])
    items = list(mn.read_chunks(fixture_path("tool-call")))
    for item in items:
        view.feed(item)
    view.end()
    listed = [e["i"] for m in recording_comm.custom() if m["t"] == "chunks" for e in m["entries"]]
    assert listed == list(range(len(items)))


def test_describe_invalid_and_background_paths() -> None:
    assert describe(mn.InvalidChunk(raw="<b>x</b>", error="not JSON"))["type"] == "invalid"
    inner = {
        "type": "tool-output",
        "from": "USER",
        "payload": {"toolCallId": "c", "toolName": "t", "output": {"type": "p"}},
    }
    chunk = {
        "type": "background-task-output",
        "payload": {"taskId": "k", "toolName": "research", "payload": inner},
    }
    assert describe(chunk) == {
        "type": "tool-output",
        "from": "USER",
        "path": ["task research"],
        "outer": {"type": "background-task-output", "from": None},  # the JSON the row opens
    }
    custom = {
        "type": "tool-output",
        "from": "AGENT",
        "payload": {"toolCallId": "c", "output": {"type": "progress"}},
    }
    assert describe(custom) == {"type": "tool-output", "from": "AGENT", "path": []}


def test_replay_inspector_lists_the_recorded_times_and_none_made_up(
    tmp_path: Path, recording_comm: RecordingComm
) -> None:
    untimed = mn.replay(fixture_path("agent-as-tool"), autoplay=False)
    untimed.seek(untimed.total)
    times = [entry["ms"] for entry in untimed.inspector_entries()]
    # an untimed recording has no times: none made from the replay's pace (the run has none either)
    assert times == [None] * untimed.total
    assert untimed.result.timing.untimed is not None
    live = mn.view()
    for item in mn.read_chunks(fixture_path("tool-call")):
        live.feed(item)
    live.end()
    recorded = Recording.load(live.save(tmp_path / "timed.jsonl")).times
    timed = mn.replay(tmp_path / "timed.jsonl", autoplay=False)
    timed.seek(12)
    timed._on_browser_message(timed, {"t": "inspect", "open": True}, [])
    listing = recording_comm.custom()[-1]
    assert [e["ms"] for e in listing["entries"]] == [round(t, 1) for t in recorded[:12]]


def test_a_replay_sends_a_held_back_change_without_waiting_for_the_next_chunk(
    tmp_path: Path, recording_comm: RecordingComm
) -> None:
    """The flush policy holds a change that follows a message closely (at most MIN_GAP); the replay's
    loop must send it then, not when the next chunk comes a second later."""
    recording = Recording()
    chunks: list[tuple[float, dict[str, Any]]] = [
        (0.0, {"type": "start", "runId": "r", "payload": {}}),
        (0.0, {"type": "text-start", "runId": "r", "payload": {"id": "t"}}),
        (1.0, {"type": "text-delta", "runId": "r", "payload": {"id": "t", "text": "Hel"}}),
        (6.0, {"type": "text-delta", "runId": "r", "payload": {"id": "t", "text": "lo"}}),
        (1000.0, {"type": "text-delta", "runId": "r", "payload": {"id": "t", "text": " world"}}),
    ]
    for at_ms, chunk in chunks:
        recording.add(chunk, at_ms=at_ms)
    path = recording.save(tmp_path / "held.jsonl")

    def sent_text() -> str:
        ops = [op for m in recording_comm.custom() if m.get("t") == "ops" for op in m["ops"]]
        return "".join(op[3] for op in ops if op[0] == "append")

    async def scenario() -> str:
        view = mn.replay(path, speed=1.0)
        await asyncio.sleep(0.5)  # on the fake clock: half-way through the one-second gap
        shown = sent_text()
        view.pause()
        return shown

    assert run_on_fake_clock(scenario()) == "Hello"


def test_a_chat_replays_next_turn_is_waited_for_from_the_scripts_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain script: the chat replay's next turn starts on the background loop (as the last one
    ends), and waiting for it from the script's thread waits there, never running that loop too
    (which waited out the whole timeout, with two threads in one loop)."""
    from mastra_notebook.core.chat_file import SavedChat, SavedTurn, write_chat
    from mastra_notebook.runs import stream

    def nested_from_elsewhere(task: Any, timeout: float | None) -> None:
        raise AssertionError("the background loop was run from the script's thread")

    monkeypatch.setattr(stream, "run_nested", nested_from_elsewhere)
    lines = fixture_path("plain-text.jsonl").read_text().splitlines()
    turns = [SavedTurn(prompt=f"question {n}", lines=lines) for n in (1, 2)]
    played = mn.replay(write_chat(tmp_path / "chat.jsonl", SavedChat(turns=turns)), speed=1000)
    assert played.views[0].wait(60).status == "finished"
    assert len(played.views) == 2  # added as the first ended, on the background loop
    assert played.views[1].wait(60).status == "finished"
    assert played.views[1].position == played.views[1].total
