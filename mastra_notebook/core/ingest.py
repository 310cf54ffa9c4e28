"""Sources to chunks and to results: the synchronous entry points over framing and Run."""

from __future__ import annotations

import warnings
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
    """Read a whole source into a finished RunResult (``suggest``: see ``Run``); an OpenTelemetry
    export of many runs gives its first (``read_otel`` reads them all)."""
    if isinstance(source, Run):
        return source.result
    docs = otlp.documents(source)
    if docs is not None:
        return _from_spans(_first_run(docs), suggest)
    run = Run(suggest=suggest)
    run.start(recorded=True)  # timed by its recorded arrivals (mnReceivedMs) only: Run decides
    feed = run.feed
    for record in records(source):
        feed(record)
    run.end()
    return run.result


def read_otel(source: Any) -> list[RunResult]:
    """Every run of an OpenTelemetry export of GenAI spans (OTLP/JSON: a path, bytes or a parsed
    document; what ``export_otel`` writes to a file, or a collector's file exporter) as a finished
    RunResult, in the export's order. ValueError when ``source`` holds no such spans."""
    docs = otlp.documents(source)
    if docs is None:
        raise ValueError(
            "this is no OpenTelemetry export of spans (OTLP/JSON with resourceSpans): "
            "mn.collect(source) reads a recording"
        )
    return [_from_spans(read, None) for read in otlp.read_all(docs)]


def _from_spans(read: otlp.Read, suggest: Suggest | None) -> RunResult:
    """A run read from spans: it starts when its span did."""
    run = Run(suggest=suggest)
    run.start(read.start_ms, recorded=True)
    feed = run.feed
    for chunk in read.chunks:
        feed(chunk)
    run.end()
    return run.result


def _first_run(docs: list[dict[str, Any]]) -> otlp.Read:
    """The first run of an export; of many, said with how to read them all."""
    read = otlp.read(docs)
    if read.runs > 1:
        warnings.warn(
            f"this OpenTelemetry export holds {read.runs} runs: the first is read; "
            "mn.read_otel(source) reads every one",
            stacklevel=3,
        )
    return read


def records(source: Any) -> Iterator[Any]:
    """Records of a byte source, or the items of a list of chunks (dicts or parsed chunks); an
    OTLP/JSON export of GenAI spans (core/otlp.py) gives its first run's chunks.

    An iterator handed back, not a generator around one: no second frame resumed per record."""
    if isinstance(source, (list, tuple)) and source and not isinstance(source[0], (bytes, str)):
        return iter(source)
    docs = otlp.documents(source)
    if docs is not None:
        return iter(_first_run(docs).chunks)
    return iter_records(source)
