"""Recordings: every chunk a view received, with its arrival time, saved as JSONL and read back.

A saved line is the chunk as Mastra sent it plus one key, ``mnReceivedMs`` (milliseconds since the
run started: its request was sent; in older recordings, since the first chunk). That keeps a
recording a valid Mastra JSONL stream for every other reader, and plain Mastra JSONL without timings
is a valid recording.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from . import values
from .chunks import InvalidChunk, coerce, is_chunk, unwrap
from .files import write_atomically
from .ingest import records
from .state import TIME_KEY

__all__ = ["TIME_KEY", "Recording", "describe"]


def _line(item: Any, at_ms: float) -> bytes:
    """One saved line: the chunk as it came, with its time added. A chunk that came as JSON text is
    kept byte for byte (however deep it is nested); only the time key is spliced in."""
    stamp = f"{round(at_ms, 1)}".encode()
    untimed = math.isnan(at_ms)  # a line read without a time is saved without one
    if untimed and isinstance(item, (bytes, bytearray, memoryview, str)):
        text = (item.encode() if isinstance(item, str) else bytes(item)).strip()
        chunk = coerce(text)
        return chunk.raw.encode() if isinstance(chunk, InvalidChunk) else text
    if untimed:
        chunk = coerce(item)
        return chunk.raw.encode() if isinstance(chunk, InvalidChunk) else values.dump(chunk).encode()
    if isinstance(item, (bytes, bytearray, memoryview, str)):
        text = (item.encode() if isinstance(item, str) else bytes(item)).strip()
        chunk = coerce(text)
        if isinstance(chunk, InvalidChunk):  # kept as it came: it stays invalid on replay
            return chunk.raw.encode()
        body = text[:-1].rstrip()  # a JSON object: "{...}" without its closing brace
        return body + (b"," if chunk else b"") + b'"' + TIME_KEY.encode() + b'":' + stamp + b"}"
    chunk = coerce(item)
    if isinstance(chunk, InvalidChunk):
        return chunk.raw.encode()
    return values.dump({**chunk, TIME_KEY: round(at_ms, 1)}).encode()


class Recording:
    """Chunks in arrival order, each with its time: ms since the run started, on the kernel's clock."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.times: list[float] = []
        self._start: float | None = None
        self.started_ms: float | None = None  # the start on the wall clock (epoch ms)
        self.live = True  # a chunk without a recorded time is timed by its arrival (else it has none)

    def __len__(self) -> int:
        return len(self.items)

    def start(self, *, live: bool = True) -> float:
        """The run starts now (its request is sent, or ``live=False``: a source whose own recorded
        times are the only ones starts being read); the first call counts. Returns the start (epoch ms)."""
        if self._start is None:
            self._start, self.started_ms = time.monotonic(), time.time() * 1000
            self.live = live
        assert self.started_ms is not None
        return self.started_ms

    def add(self, item: Any, at_ms: float | None = None) -> None:
        """Add a chunk that arrived now (or at ``at_ms``); a chunk that carries its recorded time
        (``mnReceivedMs``) keeps it, and is kept without it."""
        if at_ms is None:
            item, at_ms = _recorded(item)
        if at_ms is None:
            if self.live:
                self.start()
                assert self._start is not None
                at_ms = (time.monotonic() - self._start) * 1000
            else:
                at_ms = math.nan
        self.items.append(item)
        self.times.append(at_ms)

    def chunk(self, index: int) -> dict[str, Any] | InvalidChunk:
        """Chunk ``index`` as a dict (or why it is not a chunk)."""
        return coerce(self.items[index])

    def lines(self, after: Iterable[dict[str, Any]] = ()) -> Iterator[bytes]:
        """The JSONL lines ``save`` writes: each chunk as it came, with its arrival time, then the
        lines ``after``, untimed."""
        for item, at_ms in zip(self.items, self.times, strict=True):
            yield _line(item, at_ms)
        for item in after:
            yield _line(item, math.nan)

    def save(self, path: str | Path, after: Iterable[dict[str, Any]] = ()) -> Path:
        """Write the recording to ``path`` as JSONL (``mn.view(path)`` or ``mn.replay(path)`` reads it),
        then the lines ``after``, untimed (the run's scores: no chunk of its stream says them)."""
        path = Path(path)
        write_atomically(
            path, b"".join(line + b"\n" for line in self.lines(after))
        )  # whole, or the previous file
        return path

    @classmethod
    def load(cls, source: Any) -> Recording:
        """A recording from any source ``read_chunks`` takes; chunks without a time get none (NaN)."""
        recording = cls()
        recording.start(live=False)
        for record in records(source):
            recording.add(record)
        return recording

    @property
    def timed(self) -> bool:
        """Whether any chunk has an arrival time (plain Mastra JSONL has none)."""
        return not all(math.isnan(t) for t in self.times)


_KEY_BYTES = TIME_KEY.encode()


def is_stored(source: Any) -> bool:
    """Whether ``source`` is a stream read from storage (a path, bytes, a file, a list of chunks): timed
    only by its recorded arrivals, if any. An iterator or async iterable may be live: timed as it comes."""
    stored = (str, Path, bytes, bytearray, memoryview, list, tuple)
    return isinstance(source, stored) or callable(getattr(source, "read", None))


def _recorded(item: Any) -> tuple[Any, float | None]:
    """A chunk that carries its recorded time: the chunk without it (a copy), and the time."""
    if isinstance(item, dict):
        if TIME_KEY not in item:
            return item, None
        chunk: Any = item
    elif isinstance(item, (bytes, bytearray, memoryview, str)):
        text = item.encode() if isinstance(item, str) else bytes(item)
        if _KEY_BYTES not in text:  # a live chunk: no parse
            return item, None
        chunk = coerce(text)
    else:
        return item, None
    if not isinstance(chunk, dict) or TIME_KEY not in chunk:
        return item, None
    value = chunk[TIME_KEY]
    at_ms = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    return {key: part for key, part in chunk.items() if key != TIME_KEY}, at_ms


def describe(chunk: dict[str, Any] | InvalidChunk) -> dict[str, Any]:
    """What the inspector lists for a chunk: its innermost type, ``from``, the nesting path and, for
    an envelope, the outermost chunk's type and ``from`` (``outer``)."""
    if isinstance(chunk, InvalidChunk):
        return {"type": "invalid", "from": None, "path": [], "error": chunk.error, "raw": chunk.raw[:200]}
    path: list[str] = []
    inner: dict[str, Any] = chunk
    while (envelope := unwrap(inner)) is not None and is_chunk(envelope.inner):  # as the reducer routes
        path.append(envelope.label)
        inner = envelope.inner
    described: dict[str, Any] = {"type": inner.get("type"), "from": inner.get("from"), "path": path}
    if path:  # the JSON a row opens is the outermost envelope: the row names it as well
        described["outer"] = {"type": chunk.get("type"), "from": chunk.get("from")}
    return described
