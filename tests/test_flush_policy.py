"""When batches leave for the browser (wire.FlushPolicy, driven by an injected clock) and how they
coalesce (wire.OpBatch)."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

import pytest

from mastra_notebook.widget.wire import MAX_WAIT, MIN_GAP, FlushPolicy, OpBatch

EPSILON = 1e-9
OVERHEAD = 120  # bytes of a simulated message besides its text


@dataclass
class Change:
    at: float  # seconds
    text: int = 0  # characters of text it appends
    other: int = 0  # bytes of its other ops (nodes added, fields set)


@dataclass
class Message:
    at: float
    size: int
    text: int
    fed: list[float] = field(default_factory=list)  # when each change it carries came

    @property
    def waits(self) -> list[float]:
        return [self.at - fed for fed in self.fed]


def simulate(changes: list[Change]) -> list[Message]:
    """Feed ``changes`` through a FlushPolicy driven as OpSync (widget/sync.py) drives it (send when
    due, else a timer that only moves earlier; one message carries everything waiting); return the
    messages."""
    policy = FlushPolicy()
    sent: list[Message] = []
    waiting = Message(0.0, OVERHEAD, 0)
    timer = math.inf

    def send(at: float) -> None:
        nonlocal waiting, timer
        waiting.at = at
        sent.append(waiting)
        policy.sent(at, waiting.size, waiting.text)
        waiting, timer = Message(0.0, OVERHEAD, 0), math.inf

    for change in changes:
        if waiting.fed and timer <= change.at:
            send(timer)
        waiting.text += change.text
        waiting.size += change.text + change.other
        waiting.fed.append(change.at)
        due = policy.on_change(change.at, waiting.text)
        if due <= change.at:
            send(change.at)
        else:
            timer = min(timer, due)
    if waiting.fed:
        send(timer)
    return sent


def real_shaped(rate: float, count: int, seed: int, start: float = 0.0) -> list[Change]:
    """What providers send: ``start``, ``step-start``, ``text-start`` (no text, a few hundred bytes
    of ops), then ``count`` deltas of 1-5 characters at ``rate`` a second on average, unevenly
    spaced (exponential gaps: bursts and pauses)."""
    rng = random.Random(seed)
    changes = [Change(start, 0, 300), Change(start + 0.001, 0, 400), Change(start + 0.002, 0, 100)]
    at = start + 0.002
    for _ in range(count):
        at += rng.expovariate(rate)
        changes.append(Change(at, rng.randint(1, 5), 30))  # 30: the run's usage and timing fields
    return changes


def steady(rate: float, count: int, chars: int) -> list[Change]:
    return [Change(i / rate, chars) for i in range(count)]


def gaps(sent: list[Message]) -> list[float]:
    return [b.at - a.at for a, b in itertools.pairwise(sent)]


def assert_within_budget(sent: list[Message]) -> None:
    assert min(gaps(sent), default=math.inf) >= MIN_GAP - EPSILON  # at most 40 messages a second
    span = sent[-1].at - sent[0].at
    assert len(sent) - 1 <= span / MIN_GAP + EPSILON


def bytes_per_text_byte(sent: list[Message]) -> float:
    return sum(m.size for m in sent) / sum(m.text for m in sent)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("rate", [20, 50, 100])
def test_token_deltas_leave_within_min_gap_at_provider_rates(rate: int, seed: int) -> None:
    sent = simulate(real_shaped(rate, count=rate * 10, seed=seed))
    waits = [wait for message in sent for wait in message.waits]
    assert len(waits) == 3 + rate * 10  # none lost
    assert max(waits) <= MIN_GAP + EPSILON  # latency first: never held for bytes
    assert_within_budget(sent)


def test_a_delta_after_a_quiet_moment_leaves_at_once() -> None:
    sent = simulate(steady(20, count=100, chars=3))  # 20 a second: 50 ms apart, more than MIN_GAP
    assert [m.at for m in sent] == [i / 20 for i in range(100)]
    assert all(m.waits == [0.0] for m in sent)


def test_deltas_just_after_a_send_do_not_lock_into_a_slow_cadence() -> None:
    # Issue 17: a delta arriving just after a send waited MAX_WAIT, and the next send then landed just
    # before the next delta: 28 messages for 100 deltas. Each now waits for the gap alone.
    changes = [Change(i * 0.05 + offset, 2) for i in range(50) for offset in (0.0, 0.002)]
    sent = simulate(changes)
    assert len(sent) == 100
    assert max(w for m in sent for w in m.waits) <= MIN_GAP + EPSILON


def test_the_start_chunks_do_not_hold_the_first_deltas() -> None:
    sent = simulate(real_shaped(50, count=10, seed=1))
    assert sent[0].waits == [0.0]  # `start` leaves at once
    assert all(w <= MIN_GAP + EPSILON for m in sent for w in m.waits)


def test_a_burst_of_deltas_is_not_a_firehose() -> None:
    burst = [Change(1.0 + i * 0.0005, 5) for i in range(40)]  # 200 characters in 20 ms, then tokens
    changes = [*burst, *(Change(1.05 + i * 0.01, 3) for i in range(100))]
    sent = simulate(changes)
    assert max(w for m in sent for w in m.waits) <= MIN_GAP + EPSILON
    assert_within_budget(sent)


def test_large_chunks_slower_than_the_budget_are_not_held() -> None:
    sent = simulate(steady(30, count=90, chars=200))  # fewer changes than 40 a second
    assert len(sent) == 90
    assert all(m.waits == [0.0] for m in sent)


@pytest.mark.parametrize(("rate", "chars"), [(2000, 3), (2000, 43), (500, 5), (250, 6)])
def test_a_firehose_is_coalesced_to_the_byte_budget(rate: int, chars: int) -> None:
    sent = simulate(steady(rate, count=rate * 4, chars=chars))
    assert sum(m.text for m in sent) == rate * 4 * chars
    assert_within_budget(sent)
    assert max(w for m in sent for w in m.waits) <= MAX_WAIT + EPSILON  # and nothing waits long
    # Once the stream is seen to be a firehose (its first half second; the last message is what
    # was left when the stream ended, which StreamView.end() sends at once)
    assert bytes_per_text_byte([m for m in sent[:-1] if m.at >= 0.5]) <= 1.5


def test_a_firehose_that_slows_to_tokens_is_live_again() -> None:
    fast = steady(2000, count=2000, chars=5)
    slow = [Change(1.5 + i / 50, 3) for i in range(100)]
    sent = simulate([*fast, *slow])
    late = [w for m in sent for fed, w in zip(m.fed, m.waits, strict=True) if fed >= 2.0]
    assert late
    assert max(late) <= MIN_GAP + EPSILON  # within half a second of the slowdown


def test_token_streams_cost_more_bytes_than_a_firehose() -> None:
    # Latency first: at provider rates the overhead is not paid by the text (that is the price of
    # showing each token within MIN_GAP); under a firehose it is.
    assert bytes_per_text_byte(simulate(real_shaped(100, count=1000, seed=0))) > 1.5
    assert bytes_per_text_byte(simulate(steady(2000, count=8000, chars=5))) <= 1.5 + 0.01


# ---- OpBatch --------------------------------------------------------------------------------------


def test_a_batch_joins_appends_and_keeps_the_last_set() -> None:
    batch = OpBatch()
    batch.add(["add", "run", {"id": "t", "kind": "text"}])
    batch.add(["append", "t", "text", "Hel"])
    batch.add(["set", "run", "status", "running"])
    batch.add(["append", "t", "text", "lo"])
    batch.add(["set", "run", "status", "finished"])
    assert batch.text_chars == 5
    assert len(batch) == 3
    assert batch.take() == [
        ["add", "run", {"id": "t", "kind": "text"}],
        ["append", "t", "text", "Hello"],
        ["set", "run", "status", "finished"],
    ]
    assert len(batch) == 0
    assert batch.text_chars == 0


def test_a_set_after_an_append_replaces_it_and_the_callers_op_is_not_grown() -> None:
    batch = OpBatch()
    first = ["append", "t", "text", "a"]
    batch.add(first)
    batch.add(["append", "t", "text", "b"])
    assert first == ["append", "t", "text", "a"]
    batch.add(["set", "t", "text", "whole"])
    batch.add(["append", "t", "text", "!"])
    # in order, the browser ends with "whole!"
    assert batch.take() == [
        ["append", "t", "text", "ab"],
        ["set", "t", "text", "whole"],
        ["append", "t", "text", "!"],
    ]
