"""Recordings: every chunk a view received, with its arrival time, saved as JSONL and read back.

A saved line is the chunk as Mastra sent it plus one key, ``mnReceivedMs`` (milliseconds since the
first chunk). That keeps a recording a valid Mastra JSONL stream for every other reader, and plain
Mastra JSONL without timings is a valid recording.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import values
from .chunks import InvalidChunk, coerce, is_chunk, unwrap
from .ingest import records
from .state import TIME_KEY

__all__ = ["TIME_KEY", "Recording", "describe"]


def _line(item: Any, at_ms: float) -> bytes:
    """One saved line: the chunk as it came, with its time added. A chunk that came as JSON text is
    kept byte for byte (however deep it is nested); only the time key is spliced in."""
    stamp = f"{round(at_ms, 1)}".encode()
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
    """Chunks in arrival order, each with its time (ms since the first chunk)."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.times: list[float] = []
        self._start: float | None = None

    def __len__(self) -> int:
        return len(self.items)

    def add(self, item: Any, at_ms: float | None = None) -> None:
        if at_ms is None:
            now = time.monotonic()
            if self._start is None:
                self._start = now
            at_ms = (now - self._start) * 1000
        self.items.append(item)
        self.times.append(at_ms)

    def chunk(self, index: int) -> dict[str, Any] | InvalidChunk:
        return coerce(self.items[index])

    def lines(self) -> Iterator[bytes]:
        for item, at_ms in zip(self.items, self.times, strict=True):
            yield _line(item, at_ms)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        with path.open("wb") as file:
            for line in self.lines():
                file.write(line + b"\n")
        return path

    @classmethod
    def load(cls, source: Any) -> Recording:
        """A recording from any source ``read_chunks`` takes; chunks without a time get none (NaN)."""
        recording = cls()
        for record in records(source):
            chunk = coerce(record)
            at_ms = math.nan
            if isinstance(chunk, dict) and TIME_KEY in chunk:  # a copy: the caller's dict stays whole
                value = chunk[TIME_KEY]
                chunk = {key: item for key, item in chunk.items() if key != TIME_KEY}
                at_ms = float(value) if isinstance(value, (int, float)) else at_ms
            recording.add(chunk, at_ms)
        return recording

    @property
    def timed(self) -> bool:
        return not all(math.isnan(t) for t in self.times)


def describe(chunk: dict[str, Any] | InvalidChunk) -> dict[str, Any]:
    """What the inspector lists for a chunk: its innermost type, ``from``, and the nesting path."""
    if isinstance(chunk, InvalidChunk):
        return {"type": "invalid", "from": None, "path": [], "error": chunk.error, "raw": chunk.raw[:200]}
    path: list[str] = []
    inner: dict[str, Any] = chunk
    while (envelope := unwrap(inner)) is not None and is_chunk(envelope.inner):  # as the reducer routes
        path.append(envelope.label)
        inner = envelope.inner
    return {"type": inner.get("type"), "from": inner.get("from"), "path": path}
