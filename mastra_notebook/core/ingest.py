"""Sources to chunks and to results: the synchronous entry points over framing and Run."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterator
from typing import Any

from . import otlp
from .chunks import parse_chunk
from .framing import aiter_records, iter_records
from .result import RunResult
from .run import Run
from .waiting import Suggest


def read_chunks(source: Any) -> Iterator[Any]:
    """Every chunk of ``source`` (path, bytes, binary file, iterable of bytes/str split anywhere).

    The framing (JSON Lines, SSE, ``\\x1e``-separated JSON) is sniffed from the first bytes. Each
    item is a typed chunk, an ``UnknownChunk``, or an ``InvalidChunk`` holding the raw line.
    """
    for record in iter_records(source):
        yield parse_chunk(record)


async def aread_chunks(source: AsyncIterable[bytes | str]) -> AsyncIterator[Any]:
    """``read_chunks`` for an async iterable of bytes/str pieces."""
    async for record in aiter_records(source):
        yield parse_chunk(record)


def collect(source: Any, *, suggest: Suggest | None = None) -> RunResult:
    """Read a whole source into a finished RunResult (``suggest``: see ``Run``)."""
    if isinstance(source, Run):
        return source.result
    run = Run(suggest=suggest)
    docs = otlp.documents(source)
    if docs is not None:  # spans: the run starts when its span did
        read = otlp.read(docs)
        run.start(read.start_ms, recorded=True)
        feed_all: Iterator[Any] = iter(read.chunks)
    else:
        run.start(recorded=True)  # timed by its recorded arrivals (mnReceivedMs) only: Run decides
        feed_all = records(source)
    feed = run.feed
    for record in feed_all:
        feed(record)
    run.end()
    return run.result


def records(source: Any) -> Iterator[Any]:
    """Records of a byte source, or the items of a list of chunks (dicts or parsed chunks); an
    OTLP/JSON export of GenAI spans (core/otlp.py) gives its first run's chunks.

    An iterator handed back, not a generator around one: no second frame resumed per record."""
    if isinstance(source, (list, tuple)) and source and not isinstance(source[0], (bytes, str)):
        return iter(source)
    docs = otlp.documents(source)
    if docs is not None:
        return iter(otlp.read(docs).chunks)
    return iter_records(source)
