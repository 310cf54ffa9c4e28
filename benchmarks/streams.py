"""Real-shaped streams for the live benchmarks (latency.py, render.py), and their feeder.

Real providers stream ``start``, ``step-start`` (with the request body), ``text-start``, then
token-sized deltas (1-5 characters), unevenly spaced. ``real_shaped`` makes such a stream: the
first and last chunks of a real provider recording (tests/fixtures/providers/openai-chat-text.jsonl,
the AI SDK's OpenAI chat fixture through the real Mastra), and between them deltas of 1-5 characters
of plain words (paragraphs every ~80 deltas) at ``rate`` deltas a second on average, gaps drawn from
a gamma distribution (shape 2: bursts and pauses, never a fixed beat). ``provider`` takes a whole
provider recording as it is, at its recorded pace when it has one (``mnReceivedMs`` on its lines),
else at ``rate`` with the same jitter. Both are saved as recordings (JSONL with ``mnReceivedMs``)
and fed by ``feed`` from a task on the kernel's loop at their recorded times; ``feed_floor`` feeds
their text, the same way, to render.py's floor (a bare widget), batched as the view's messages are.

A delta is seen on screen when the view's text shows as many letters as the stream had up to it
(``letters``): letters survive markdown rendering (``**``, list numbers and punctuation do not), and a
delta with no letter is not measured.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import random
import re
import time
from pathlib import Path
from typing import Any

from mastra_notebook.core.recording import Recording

ROOT = Path(__file__).resolve().parent.parent
PROVIDER = ROOT / "tests" / "fixtures" / "providers" / "openai-chat-text.jsonl"
_SENTENCES = (
    "the model streams its answer one token at a time while a notebook shows each word as it comes "
    "readers judge a prompt by what they see so the text must keep up with the stream and never lag "
    "behind by more than a frame or two whatever the pace of the provider"
)
WORDS = _SENTENCES.split()
PARAGRAPH_DELTAS = 80  # deltas per paragraph, about (real answers break every few hundred characters)
SHAPE = 2.0  # gamma shape of the gaps between deltas: coefficient of variation 1/sqrt(2)
FLOOR_GAP_S = 1 / 40  # the floor's messages: at once, or this long after the previous (as wire.MIN_GAP)


def _chunks(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _gaps(rng: random.Random, rate: float, count: int) -> list[float]:
    return [rng.gammavariate(SHAPE, 1 / (SHAPE * rate)) for _ in range(count)]


def _pieces(rng: random.Random, count: int) -> list[str]:
    """``count`` deltas of 1-5 characters of plain words, each with a letter in it."""
    pieces: list[str] = []
    while len(pieces) < count:
        word = rng.choice(WORDS)
        head = "\n\n" if len(pieces) % PARAGRAPH_DELTAS == PARAGRAPH_DELTAS - 1 else " " if pieces else ""
        rest = head + word
        while rest and len(pieces) < count:
            size = rng.randint(1, 5)
            size = max(size, len(rest) - len(rest.lstrip()) + 1)  # never whitespace alone
            pieces.append(rest[:size])
            rest = rest[size:]
    return pieces


def real_shaped(rate: float, seconds: float, seed: int = 17) -> list[tuple[float, dict[str, Any]]]:
    """``start``, ``step-start``, ``text-start`` (a real provider's), then ``rate * seconds`` deltas of
    1-5 characters with jittered gaps, then the provider's ``text-end``, ``step-finish``, ``finish``;
    each with its time (ms from the first chunk)."""
    rng = random.Random(seed)
    provider = _chunks(PROVIDER)
    head, tail = provider[:3], provider[-3:]
    text_id = head[2]["payload"]["id"]
    template = next(c for c in provider if c["type"] == "text-delta")
    count = round(rate * seconds)
    timed: list[tuple[float, dict[str, Any]]] = [(i * 1.0, chunk) for i, chunk in enumerate(head)]
    at = 2.0
    for gap, piece in zip(_gaps(rng, rate, count), _pieces(rng, count), strict=True):
        at += gap * 1000
        timed.append((at, {**template, "payload": {"id": text_id, "text": piece}}))
    timed += [(at + 1.0 + i, chunk) for i, chunk in enumerate(tail)]
    return timed


def provider(path: Path, rate: float, seed: int = 17) -> tuple[list[tuple[float, dict[str, Any]]], bool]:
    """A provider recording's chunks with times: its own (``mnReceivedMs``) when it has them, else
    ``rate`` chunks a second with jitter. Also says whether the pace was recorded."""
    recording = Recording.load(path)
    items = chunks(recording)
    if recording.timed:
        return list(zip(recording.times, items, strict=True)), True
    gaps = _gaps(random.Random(seed), rate, len(items))
    times = [sum(gaps[:i]) * 1000 for i in range(len(items))]
    return list(zip(times, items, strict=True)), False


def chunks(recording: Recording) -> list[dict[str, Any]]:
    """A recording's chunks as dicts (its items may be the JSON text they came as)."""
    return [dict(recording.chunk(i)) for i in range(len(recording))]


def save(path: Path, timed: list[tuple[float, dict[str, Any]]]) -> Path:
    recording = Recording()
    for at_ms, chunk in timed:
        recording.add(chunk, at_ms)
    return recording.save(path)


def letters(text: str) -> int:
    return len(re.findall(r"[A-Za-z]", text))


def marks(path: Path) -> list[int]:
    """Per chunk of a saved stream: the letters of text shown once it is drawn (0: not measured)."""
    total, out = 0, []
    for item in chunks(Recording.load(path)):
        added = letters(item["payload"].get("text", "")) if item.get("type") == "text-delta" else 0
        total += added
        out.append(total if added else 0)
    return out


def count_messages(view: Any) -> list[float]:
    """Note the wall clock (s) of every ops message ``view`` sends to the browser from now on."""
    sent: list[float] = []
    send = view.send

    def counted(msg: Any, buffers: Any = None) -> None:
        if isinstance(msg, dict) and msg.get("t") == "ops":
            sent.append(time.time())
        send(msg, buffers)

    view.send = counted
    return sent


async def feed(view: Any, path: Path, fed: list[float], wait_s: float = 1.0) -> None:
    """Feed the saved stream at ``path`` into ``view`` at its recorded times (after ``wait_s``: the
    view is shown and said hello), noting the wall clock (ms) just before each chunk in ``fed``."""
    recording = Recording.load(path)
    await asyncio.sleep(wait_s)
    start = time.monotonic()
    for at_ms, item in zip(recording.times, recording.items, strict=True):
        await asyncio.sleep(max(0.0, start + at_ms / 1000 - time.monotonic()))
        fed.append(time.time() * 1000)
        view.feed(item)
    view.end()


async def feed_floor(widget: Any, path: Path, wait_s: float = 1.0) -> None:
    """Feed the text of the saved stream at ``path`` to a bare widget at its recorded times (after
    ``wait_s``), as custom messages ``{"text": ...}``: a delta leaves at once, or ``FLOOR_GAP_S`` after
    the previous message with whatever came meanwhile (at most 40 messages a second, as the view's
    kernel side sends). Then ``{"end": True, "messages": n, "peak": most messages in any second}``."""
    loop = asyncio.get_running_loop()
    recording = Recording.load(path)
    pending: list[str] = []
    sent: list[float] = []
    timer: asyncio.TimerHandle | None = None

    def flush() -> None:
        nonlocal timer
        timer = None
        if pending:
            widget.send({"text": "".join(pending)})
            pending.clear()
            sent.append(time.monotonic())

    await asyncio.sleep(wait_s)
    start = time.monotonic()
    for at_ms, item in zip(recording.times, chunks(recording), strict=True):
        await asyncio.sleep(max(0.0, start + at_ms / 1000 - time.monotonic()))
        if item.get("type") != "text-delta":
            continue
        pending.append(item["payload"]["text"])
        if timer is None:
            delay = sent[-1] + FLOOR_GAP_S - time.monotonic() if sent else 0.0
            if delay <= 0:
                flush()
            else:
                timer = loop.call_later(delay, flush)
    while timer is not None:  # the last batch, at its time
        await asyncio.sleep(FLOOR_GAP_S / 5)
    peak = max((bisect.bisect_left(sent, at + 1.0) - i for i, at in enumerate(sent)), default=0)
    widget.send({"end": True, "messages": len(sent), "peak": peak})
