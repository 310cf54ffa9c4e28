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

import orjson

from .chunks import ChunkBase, InvalidChunk, decode
from .ingest import records

TIME_KEY = "mnReceivedMs"


def _as_chunk(item: Any) -> dict[str, Any] | InvalidChunk:
    """A decoded chunk (dict), or the invalid record as it came."""
    if isinstance(item, dict):
        return item
    if isinstance(item, ChunkBase):
        return item.to_dict()
    if isinstance(item, InvalidChunk):
        return item
    if isinstance(item, (bytes, str)):
        return decode(item)
    return InvalidChunk(raw=repr(item), error=f"not a chunk: a {type(item).__name__}")


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
        return _as_chunk(self.items[index])

    def lines(self) -> Iterator[bytes]:
        for item, at_ms in zip(self.items, self.times, strict=True):
            chunk = _as_chunk(item)
            if isinstance(chunk, InvalidChunk):  # kept as it came: it stays invalid on replay
                yield chunk.raw.encode()
            else:
                yield orjson.dumps({**chunk, TIME_KEY: round(at_ms, 1)})

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
            chunk = _as_chunk(record)
            at_ms = math.nan
            if isinstance(chunk, dict):
                value = chunk.pop(TIME_KEY, None)
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
    inner: Any = chunk
    while isinstance(inner, dict):
        payload = inner.get("payload")
        if not isinstance(payload, dict):
            break
        if inner.get("type") == "tool-output" and isinstance(payload.get("output"), dict):
            path.append(str(payload.get("toolName") or payload.get("toolCallId")))
            inner = payload["output"]
        elif inner.get("type") == "workflow-step-output" and isinstance(payload.get("output"), dict):
            path.append(str(payload.get("stepName")))
            inner = payload["output"]
        elif inner.get("type") == "background-task-output" and isinstance(payload.get("payload"), dict):
            path.append(f"task {payload.get('toolName') or payload.get('taskId')}")
            inner = payload["payload"]
        else:
            break
    return {"type": inner.get("type"), "from": inner.get("from"), "path": path}
