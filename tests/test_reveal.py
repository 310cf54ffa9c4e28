"""Predict, then reveal (issue 32, item 4): a replay with ``pause_at`` stops just before each such
moment (which chunk indexes begin one), holds there until revealed; the bar's speed control; a
teacher's note on a step, kept in the recording and shown in a replay and on the export page; present
mode (issue 32, item 5)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core import notes
from mastra_notebook.core.moments import moments
from mastra_notebook.widget.export import replay_of
from mastra_notebook.widget.replay import ReplayView
from tests.conftest import RecordingComm, fixture_path
from tests.fake_clock import run_on_fake_clock
from tests.helpers import replay as replay_ops

THREE_TOOLS = fixture_path("providers/router-openai-tools")  # three tool calls in two steps


def chunks(path: Path) -> list[Any]:
    return list(mn.read_chunks(path))


def tool_ids(view: ReplayView) -> list[str]:
    return [op[2]["id"] for op in view.run.snapshot() if op[0] == "add" and op[2]["kind"] == "tool"]


def test_moments_are_the_chunks_that_begin_them() -> None:
    assert moments(chunks(fixture_path("tool-call"))) == {"step": [1, 19], "tool-call": [9], "sub-agent": []}
    # a sub-agent's run begins inside its tool call; its own steps are not the run's steps
    assert moments(chunks(fixture_path("agent-as-tool"))) == {
        "step": [1, 47],
        "tool-call": [8, 19],
        "sub-agent": [17],
    }
    assert moments(chunks(THREE_TOOLS))["tool-call"] == [5, 17, 20]


@pytest.mark.parametrize(
    ("pause_at", "points"),
    [("tool-call", [5, 17, 20]), ("step", [1, 13, 31])],
)
def test_playback_stops_before_each_moment_until_revealed(
    pause_at: str, points: list[int], recording_comm: RecordingComm
) -> None:
    async def scenario() -> list[tuple[int, int, str]]:
        view = mn.replay(THREE_TOOLS, speed=100, pause_at=pause_at)  # type: ignore[arg-type]
        stops: list[tuple[int, int, str]] = []
        for _ in range(len(points) + 1):
            await view
            if view.position == view.total:
                break
            held = view.replay["held"]
            stops.append((view.position, len(tool_ids(view)), held))
            assert view.held
            assert not view.replay["playing"]
            await asyncio.sleep(1)  # held: nothing moves by itself
            assert view.position == stops[-1][0]
            view._on_browser_message(view, {"t": "reveal"}, [])
        return stops

    stops = run_on_fake_clock(scenario())
    assert [position for position, _, _ in stops] == points
    assert {held for _, _, held in stops} == {pause_at}
    if pause_at == "tool-call":  # before each tool call: none of it is shown yet
        assert [shown for _, shown, _ in stops] == [0, 1, 2]


def test_a_held_replay_s_seek_and_pause_let_it_go(recording_comm: RecordingComm) -> None:
    async def scenario() -> None:
        view = mn.replay(THREE_TOOLS, speed=100, pause_at="tool-call")
        await view
        assert view.position == 5
        assert view.held
        view.seek(3)
        assert not view.held
        assert view.replay["held"] == ""
        view.play()  # from 3: held again before the first tool call, not yet revealed
        await view
        assert view.position == 5
        assert view.held

    run_on_fake_clock(scenario())


def test_pause_at_is_checked() -> None:
    with pytest.raises(ValueError, match="pause_at is one of"):
        mn.replay(THREE_TOOLS, autoplay=False, pause_at="tool")  # type: ignore[arg-type]


def test_the_bar_s_speed_control(recording_comm: RecordingComm) -> None:
    view = mn.replay(THREE_TOOLS, autoplay=False)
    view._on_browser_message(view, {"t": "speed", "speed": 4}, [])
    assert view.speed == 4
    assert view.replay["speed"] == 4
    assert view.replay["marks"]["tool-call"] == [5, 17, 20]
    view._on_browser_message(view, {"t": "speed", "speed": -1}, [])  # refused, and the view says so
    assert view.speed == 4


def step_notes(ops: list[list[Any]]) -> dict[int, Any]:
    tree = replay_ops(ops)
    return {node["index"]: node.get("note") for node in tree.values() if node["kind"] == "step"}


HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


def test_a_note_round_trips_through_a_recording(tmp_path: Path, recording_comm: RecordingComm) -> None:
    view = mn.view(fixture_path("tool-call"))
    view.wait()
    view.note(2, "  Here the model reads the tool's result.  ")
    view.note(1, HOSTILE)
    with pytest.raises(ValueError, match="step number from 1"):
        view.note(0, "no step 0")
    assert view.run.notes == {1: HOSTILE, 2: "Here the model reads the tool's result."}
    path = view.save(tmp_path / "lesson.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["payload"] for line in lines if line["type"] == notes.NOTE_TYPE] == [
        {"step": 2, "text": "Here the model reads the tool's result."},
        {"step": 1, "text": HOSTILE},
    ]
    again = mn.replay(path, autoplay=False)
    again.seek(2)  # step 1 just began: its note shows from the start, long before the note's line
    assert step_notes(again.run.snapshot()) == {1: HOSTILE}
    again.seek(again.total)
    assert step_notes(again.run.snapshot()) == {1: HOSTILE, 2: "Here the model reads the tool's result."}
    again.seek(20)  # back: a fresh run, the notes read again
    assert step_notes(again.run.snapshot())[2] == "Here the model reads the tool's result."
    again.note(2, "")  # cleared, in the recording too
    assert step_notes(again.run.snapshot())[2] is None
    assert mn.replay(again.save(tmp_path / "cleared.jsonl"), autoplay=False).run.notes == {1: HOSTILE}


def test_a_note_on_the_export_page_is_data_not_markup(recording_comm: RecordingComm) -> None:
    view = mn.view(fixture_path("tool-call"))
    view.wait()
    view.note(1, HOSTILE)
    page = view.to_html()
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "\\u003cimg src=x onerror" in page  # in the page's data, as JSON text the renderer sets as text
    assert "&lt;img src=x onerror" in page  # and in its transcript (shown until the page mounts), as text


def test_present_mode_is_a_trait_set_from_python(recording_comm: RecordingComm) -> None:
    view = mn.replay(THREE_TOOLS, autoplay=False, present=True)
    assert view._present is True
    view.present(False)
    assert view._present is False
    plain = mn.view(fixture_path("tool-call"))
    assert plain._present is False
    plain.present()
    assert plain._present is True


def test_the_export_page_replays_each_position_as_a_run_fed_that_many_chunks(
    tmp_path: Path, recording_comm: RecordingComm
) -> None:
    view = mn.view(fixture_path("agent-as-tool"))
    view.wait()
    view.note(1, "The supervisor hands the question to its researcher.")
    recording = view.recording
    played = replay_of(recording)
    assert len(played["chunks"]) == len(recording)
    assert played["marks"]["sub-agent"] == [17]
    for position in (0, 8, 18, 40, len(recording)):
        fed = mn.Run()
        fed.start(recorded=True)
        fed.keep_note(1, "The supervisor hands the question to its researcher.")
        for item in recording.items[:position]:
            fed.feed(item)
        ops = [op for group in [played["start"], *played["chunks"][:position]] for op in group]
        assert replay_ops(ops) == replay_ops(json.loads(json.dumps(fed.snapshot()))), position
    page = view.to_html()
    assert '"replay":{"start":' in page  # the page's data: its bar plays it (js/src/widget.ts mountReplay)
