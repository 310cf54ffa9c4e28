"""The inspector: a run's raw chunks beside the rendered run, one row per chunk folded in.

:func:`entries` are the rows (a view's ``inspector_entries`` in Python); an :class:`Inspector` sends
them to the browser while its panel is open (``chunks`` messages: all on opening, then the new ones
after each batch of ops) and answers a row's request for its chunk's JSON (docs/view-protocol.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.chunks import InvalidChunk
from ..core.recording import describe
from ..core.values import capped
from ..runs.stream import RunStream
from .contract import ChunkJsonMsg, ChunkJsonReplyMsg, ChunksMsg, InspectMsg


def entries(stream: RunStream, start: int = 0) -> list[dict[str, Any]]:
    """One row per chunk ``stream`` folded in from ``start``: index, arrival ms, type, from, nesting
    path, the view nodes it changed."""
    return [
        {"i": i, "ms": stream.chunk_ms(i), "nodes": stream.touched[i], **describe(stream.recording.chunk(i))}
        for i in range(start, stream.fed)
    ]


def chunk_json(stream: RunStream, index: int) -> ChunkJsonReplyMsg | None:
    """Chunk ``index`` as JSON for its row (long values capped; an invalid line as it came), or None
    for a chunk not folded in."""
    if not 0 <= index < stream.fed:
        return None
    chunk = stream.recording.chunk(index)
    shown = chunk.model_dump() if isinstance(chunk, InvalidChunk) else capped(chunk)
    return ChunkJsonReplyMsg(t="chunk-json", i=index, json=shown)


class Inspector:
    """A view's inspector panel in the browser: which rows it has, and the messages that answer it."""

    def __init__(self, send: Callable[[Any], None], stream: Callable[[], RunStream]) -> None:
        """``send``: a message to the browser; ``stream``: the stream the view shows now."""
        self._send, self._stream = send, stream
        self._listed: int | None = None  # rows the open panel has; None: closed

    def answer(self, msg: InspectMsg | ChunkJsonMsg) -> None:
        """The panel opened or closed (``inspect``), or a row asked for its chunk (``chunk-json``)."""
        if isinstance(msg, InspectMsg):
            self._listed = None
            if msg.open:
                self._list(0)
        elif (reply := chunk_json(self._stream(), msg.i)) is not None:
            self._send(reply)

    def catch_up(self) -> None:
        """An open panel gets the rows of the chunks folded in since it was last sent some."""
        if self._listed is not None and self._listed < self._stream().fed:
            self._list(self._listed)

    def relist(self) -> None:
        """Another run is shown: an open panel lists its chunks instead, now."""
        if self._listed is not None:
            self._list(0)

    def rewind(self) -> None:
        """The run was rebuilt from its start (a replay going back): an open panel lists its chunks
        again from the first, at the next catch up."""
        if self._listed is not None:
            self._listed = 0

    def _list(self, start: int) -> None:
        stream = self._stream()
        self._send(ChunksMsg(t="chunks", start=start, entries=entries(stream, start)))
        self._listed = stream.fed
