"""Timing a user can trust: time to first token, tokens/s over each step's streaming span only, tool
time without human waits, the total; the same from a live feed, a read recording and a replay at any
speed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.core.recording import TIME_KEY
from mastra_notebook.core.timing import union_ms

from .conftest import RecordingComm, fixture_path
from .fake_clock import FrozenTime

TOOL_RUNS_MS = 1000.0  # the tool executes for one second between its call (line 16) and its result


def _timed_tool_call(tmp_path: Path, gap: float = 10.0) -> Path:
    """tool-call.jsonl as a recording: line i arrives at gap*i ms, and the tool runs a second."""
    lines = fixture_path("tool-call").read_bytes().splitlines()
    out = []
    for index, line in enumerate(lines):
        at = gap * index + (TOOL_RUNS_MS if index >= 17 else 0.0)
        out.append(orjson.dumps({**orjson.loads(line), TIME_KEY: at}))
    path = tmp_path / "timed.jsonl"
    path.write_bytes(b"\n".join(out) + b"\n")
    return path


def _rounded(value: object) -> object:
    """Figures to 10 µs: times are datetimes (µs), and runs placed at other epochs round differently."""
    if isinstance(value, float):
        return round(value, 5)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


def _figures(result: mn.RunResult) -> object:
    return _rounded(result.timing.model_dump(exclude={"started_at", "first_token_at", "finished_at"}))


# Times pass through datetimes (microseconds): a figure may be one microsecond off its ms sum
US = 2e-6


def test_a_recording_is_timed_by_its_recorded_arrivals(tmp_path: Path) -> None:
    result = mn.collect(_timed_tool_call(tmp_path))
    timing = result.timing
    # line 0 starts the run, line 3 is the first text-delta, line 29 the finish
    assert timing.time_to_first_token == pytest.approx(0.030, abs=US)
    assert timing.total == pytest.approx(0.290 + TOOL_RUNS_MS / 1000, abs=US)
    # the tool: from its call (line 16, arguments complete) to its result (line 17), not the arguments' streaming
    assert timing.tool_time == pytest.approx(TOOL_RUNS_MS / 1000 + 0.010, abs=US)
    assert result.tool_calls[0].tool_time == pytest.approx(timing.tool_time, abs=US)
    one, two = timing.steps
    # step 1 streamed text (lines 2..8: 60 ms) and then the arguments (lines 9..16: 70 ms)
    assert one.streaming == pytest.approx(0.130, abs=US)
    assert one.output_tokens == result.steps[0].usage.output_tokens  # type: ignore[union-attr]
    assert one.tokens_per_second is None  # 130 ms of streaming: too short to say (figures.MIN_RATE_SPAN_MS)
    # step 2: its text (lines 20..27), not the second the tool took before it
    assert two.streaming == pytest.approx(0.070, abs=US)
    steps = result.steps
    assert steps[0].first_token_at is not None
    assert steps[0].last_token_at is not None
    assert (steps[0].last_token_at - steps[0].first_token_at).total_seconds() == pytest.approx(
        0.140, abs=1e-5
    )
    assert timing.tokens_per_second is None  # 200 ms of streaming in all


def test_a_rate_is_output_tokens_over_a_quarter_second_of_streaming_or_more(tmp_path: Path) -> None:
    timing = mn.collect(_timed_tool_call(tmp_path, gap=40.0)).timing
    one, two = timing.steps
    assert one.streaming == pytest.approx(0.520, abs=US)
    assert one.tokens_per_second == pytest.approx(one.output_tokens / 0.520, rel=1e-4)  # type: ignore[operator]
    assert two.tokens_per_second == pytest.approx(two.output_tokens / 0.280, rel=1e-4)  # type: ignore[operator]
    tokens = sum(step.output_tokens or 0 for step in timing.steps)
    assert timing.tokens_per_second == pytest.approx(tokens / 0.800, rel=1e-4)


def test_a_replay_reads_the_same_timing_at_any_speed(tmp_path: Path, recording_comm: RecordingComm) -> None:
    path = _timed_tool_call(tmp_path)
    read = _figures(mn.collect(path))
    fast = mn.replay(path, speed=20.0).wait(timeout=30)
    faster = mn.replay(path, speed=200.0).wait(timeout=30)
    assert _figures(fast) == read
    assert _figures(faster) == _figures(fast)
    stepped = mn.replay(path, autoplay=False)
    stepped.seek(20)
    stepped.seek(5)  # back: a fresh run, the same epoch
    stepped.seek(stepped.total)
    assert _figures(stepped.result) == _figures(fast)
    assert stepped.result.started_at == stepped.result.timing.started_at


def test_an_untimed_recording_replays_with_no_figures_made_from_its_pace(
    recording_comm: RecordingComm,
) -> None:
    slow = mn.replay(fixture_path("tool-call"), speed=50.0).wait(timeout=30)
    fast = mn.replay(fixture_path("tool-call"), speed=500.0).wait(timeout=30)
    assert _figures(slow) == _figures(fast) == _figures(mn.collect(fixture_path("tool-call")))
    assert slow.timing.untimed is not None
    assert slow.timing.total is None
    assert slow.timing.tokens_per_second is None
    assert slow.started_at is None


def test_a_live_feed_is_timed_by_the_clock_and_a_person_deciding_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FrozenTime(monkeypatch)  # the kernel's clock, moved by the test alone
    run = mn.Run()
    run.start()
    clock.advance(0.3)
    for chunk in mn.read_chunks(fixture_path("tool-approval")):
        run.feed(chunk)
    clock.advance(5.0)  # the person takes five seconds
    run.decide("approve", "view", tool_call_id="call_delete_1")
    clock.advance(0.2)  # the tool runs
    for chunk in mn.read_chunks(fixture_path("tool-approval-approved")):
        run.feed(chunk)
    run.end()
    timing = run.result.timing
    assert timing.human_wait == pytest.approx(5.0)
    assert timing.tool_time == pytest.approx(0.2)  # the five seconds are not the tool's
    assert timing.total == pytest.approx(5.5)  # the run's whole time on the clock, the wait in it


def test_a_wall_clock_that_steps_back_makes_no_negative_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's clock is the wall clock: set back (NTP, a loaded VM) while a person decides, the
    wait they took is none, never negative (issue 30: seen as -0.02 s under two busy processes)."""
    clock = FrozenTime(monkeypatch)
    run = mn.Run()
    run.start()
    for chunk in mn.read_chunks(fixture_path("tool-approval")):
        run.feed(chunk)
    clock.advance(-0.025)
    run.decide("approve", "view", tool_call_id="call_delete_1")
    decision = run.result.tool_calls[0].decision
    assert decision is not None
    assert decision.waited == 0


def test_figures_that_the_stream_does_not_tell_are_none() -> None:
    result = mn.collect(fixture_path("tripwire"))  # one chunk: no token, no step
    assert result.timing.time_to_first_token is None
    assert result.timing.tokens_per_second is None
    assert result.timing.steps == []
    assert result.timing.tool_time == 0.0


def test_parts_streaming_together_count_once() -> None:
    assert union_ms([(0, 10), (5, 20), (30, 40)]) == 30
    assert union_ms([(0, 100), (10, 20)]) == 100
    assert union_ms([]) == 0


def test_a_source_read_at_once_without_arrival_times_has_no_durations(tmp_path: Path) -> None:
    """A raw Mastra stream (no mnReceivedMs) read by collect() is timed by how fast it was read:
    a million tokens a second says nothing of the stream, so its durations are None, with why."""
    untimed = mn.collect(fixture_path("tool-call"))
    assert untimed.timing.untimed
    assert "mnReceivedMs" in untimed.timing.untimed
    assert untimed.timing.tokens_per_second is None
    assert untimed.timing.time_to_first_token is None
    assert untimed.timing.total is None
    assert all(step.tokens_per_second is None for step in untimed.timing.steps)
    assert [step.output_tokens for step in untimed.timing.steps] == [15, 18]  # the counts still hold
    view = mn.view()
    for item in mn.read_chunks(fixture_path("tool-call")):
        view.feed(item)
    view.end()
    view.save(tmp_path / "timed.jsonl")
    timed = mn.collect(tmp_path / "timed.jsonl")  # saved with arrival times: timed by them
    assert timed.timing.untimed is None
    assert timed.timing.total is not None
