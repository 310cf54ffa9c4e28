"""Framing: bytes in, one JSON text per chunk out. Knows bytes, not meaning.

Three framings reach us, sniffed from the first bytes rather than a content type:

- JSON Lines (``fullStream`` recordings): one JSON object per line;
- ``\\x1e``-separated JSON (Mastra's workflow HTTP streams, no end marker);
- Server-Sent Events (Mastra's agent HTTP streams): ``data: <json>`` events, ``:`` comments,
  ``data: [DONE]`` at the end, or just EOF.

JSON text never holds a raw newline or ``\\x1e``, so the first two are one framing that splits on
both. JSON objects back to back where two pieces meet (``{...}`` then ``{...}``: a list of chunk
strings) are split too. Splitting happens on bytes, so a source cut in the middle of a UTF-8 character
is harmless.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal

import orjson

Framing = Literal["json", "sse"]

_SSE_START = re.compile(rb"^(data|event|id|retry)?:")
_READ_SIZE = 1 << 20
_SNIFF_LIMIT = 64 * 1024  # a framing still undecided after this many bytes is decided as at EOF
_LEADING = b" \t\r\n\x1e"  # whitespace (and separators) before the first record: nothing to keep
_BOM = b"\xef\xbb\xbf"
# A JSON string (its braces do not count) or a bracket; the string loop unrolled, so a long string
# is matched in one way only
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]]')
_NEXT_OBJECT = re.compile(rb"[ \t\r]*\{")


def sniff(head: bytes, *, final: bool = False) -> Framing | None:
    """The framing of a stream that starts with ``head``; None while the bytes so far cannot tell.

    SSE when the first line is an SSE field (``data:``, ``:``, ``event:``, ...) and the line after it
    is blank or another field: a JSON Lines file whose first line is a garbage ``data: x`` stays
    JSON. ``final`` decides with what there is (at EOF).
    """
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n\x1e")
    if not stripped:
        return None
    end = stripped.find(b"\n")  # find, not partition: the rest may be megabytes
    first = stripped if end < 0 else stripped[:end]
    if not _SSE_START.match(first):
        if end < 0 and not final and b"data:".startswith(first[:5]):
            return None  # "da" may still become "data:"
        return "json"
    second_end = stripped.find(b"\n", end + 1) if end >= 0 else -1
    if second_end < 0 and not final:
        return None
    following = b"" if end < 0 else stripped[end + 1 : second_end if second_end >= 0 else None]
    if not following.strip(b"\r") or _SSE_START.match(following):
        return "sse"
    return "json"


class Framer:
    """Incremental splitter: ``feed(bytes)`` and ``close()`` return the complete records so far.

    A record is the bytes of one JSON value (an SSE event's data). ``done`` turns true after
    ``data: [DONE]``; anything after it is ignored.

    The unfinished last line is kept in one growing ``bytearray``: a piece that ends no line is
    only appended to it, and a piece that ends lines is split once, so a 60 MB event arriving in
    16 KiB pieces is framed in linear time. Whitespace before the first record is dropped, not
    buffered. The framing is sniffed from the first bytes; if it still cannot be told once 64 KiB
    are held (only a first SSE field line, or the line after it, that long can do that), it is
    decided with what is held, exactly as at EOF, and the held bytes are framed with it: nothing
    waits for ever and no byte is lost.
    """

    def __init__(self) -> None:
        self.framing: Framing | None = None
        self.done = False
        self._buffer = bytearray()  # the unfinished last line (before sniffing: the head)
        self._event: list[bytes] = []
        self._fresh = True  # nothing read yet: a byte order mark may come
        self._glued = False  # the unfinished record holds a "}" and a "{" where two pieces met

    def feed(self, data: bytes) -> list[bytes]:
        """The records that ``data`` completes (SSE events or lines, sniffed from the first bytes)."""
        if self.done or not data:
            return []
        if self.framing is None:
            return self._sniff(data, final=False)
        return self._lines(data, final=False)

    def close(self) -> list[bytes]:
        """Flush what is left at EOF (a last line without newline, an SSE event without blank line)."""
        if self.done:
            return []
        if self.framing is None:
            return self._sniff(b"", final=True)
        return self._lines(b"", final=True)

    def _sniff(self, data: bytes, *, final: bool) -> list[bytes]:
        if self._fresh and data:
            self._fresh = False
            data = data.removeprefix(_BOM)
        head = self._buffer
        before = len(head)
        if before:
            head += data
        else:
            data = data.lstrip(_LEADING)  # whitespace before the first record: nothing to keep
        size = len(head) or len(data)
        at_bound = size >= _SNIFF_LIMIT
        # Undecided past 8 bytes means a first SSE field line: only a line end (or the bound) can
        # decide it, so a growing head is not rescanned for every piece.
        if before <= 8 or final or at_bound or b"\n" in data:
            held = bytes(head) if head else data
            framing = sniff(held, final=final or at_bound)
        else:
            framing = None
        if framing is None:
            if not head:
                head += data
            return []
        self.framing = framing
        head.clear()
        return self._lines(held, final=final)

    def _lines(self, data: bytes, *, final: bool) -> list[bytes]:
        """Split the unfinished line plus ``data`` into complete lines, and those into records."""
        sse = self.framing == "sse"
        buffer = self._buffer
        if buffer and not sse and _objects_meet(buffer, data):
            self._glued = True
        if not final and b"\n" not in data and (sse or b"\x1e" not in data):
            buffer += data  # no line ended: keep the piece, look at nothing old
            return []
        if buffer:
            buffer += data
            data = bytes(buffer)
            buffer.clear()
        if not sse:
            records, rest = _split_json(data, final=final)
            if self._glued and records:  # the first record is the one the pieces met in
                self._glued = False
                records[:1] = _unglue(records[0])
            buffer += rest
            return records
        lines = data.split(b"\n")
        if not final:
            buffer += lines.pop()
        records = self._sse_lines(lines)
        return records + self._dispatch() if final and not self.done else records

    def _sse_lines(self, lines: list[bytes]) -> list[bytes]:
        records: list[bytes] = []
        for raw_line in lines:
            if self.done:
                break
            line = raw_line.removesuffix(b"\r")
            if not line:
                records += self._dispatch()
            elif line.startswith(b"data:"):  # one slice, not two: an event can be huge
                self._event.append(line[6:] if line.startswith(b"data: ") else line[5:])
            # ":" comments (keepalives) and event/id/retry fields carry no chunk
        return records

    def _dispatch(self) -> list[bytes]:
        if not self._event:
            return []
        event, self._event = self._event, []
        data = event[0] if len(event) == 1 else b"\n".join(event)
        if len(data) < 64 and data.strip() == b"[DONE]":
            self.done = True
            return []
        return [data] if data and not data.isspace() else []


def _split_json(block: bytes, *, final: bool) -> tuple[list[bytes], bytes]:
    """JSON records split on newlines and \\x1e, and the unfinished rest (empty when ``final``).

    ``bytes.split`` is several times faster than a regex here, which matters at 3 MB.
    """
    if b"\x1e" in block:
        block = block.replace(b"\x1e", b"\n")
    lines = block.split(b"\n")
    rest = b"" if final else lines.pop()
    records = [r for r in lines if r and not r.isspace()]
    return records, rest


def _objects_meet(before: bytearray, after: bytes) -> bool:
    """An unfinished line that ends with ``}`` and a piece that starts with ``{`` (blanks aside).

    Objects back to back are looked for only where pieces meet (each string of a list of chunks is
    one piece): two small slices per piece, where scanning every record cost 10% of ``collect()``.
    """
    return after[:16].lstrip(b" \t\r").startswith(b"{") and before[-16:].rstrip(b" \t\r").endswith(b"}")


def _unglue(record: bytes) -> list[bytes]:
    """A record where pieces met as ``}{``: its values, unless it parses as one value (the braces
    were inside a string)."""
    try:
        orjson.loads(record)
    except orjson.JSONDecodeError:
        return _values(record)
    return [record]


def _values(record: bytes) -> list[bytes]:
    """The top-level values of ``record``: split after each ``}`` that closes one and is followed
    by ``{``; brackets inside strings do not count. Every byte but the blanks between is kept."""
    values: list[bytes] = []
    start = depth = 0
    for token in _TOKEN.finditer(record):
        at = token.start()
        char = record[at]
        if char == 0x22:  # '"': a whole string
            continue
        if char in b"{[":
            depth += 1
            continue
        depth = max(depth - 1, 0)
        if depth == 0 and char == 0x7D:  # '}' closing a top-level object
            following = _NEXT_OBJECT.match(record, at + 1)
            if following is not None:
                values.append(record[start : at + 1])
                start = following.end() - 1
    values.append(record[start:])
    return values


def _as_bytes(piece: bytes | bytearray | memoryview | str) -> bytes:
    return piece.encode() if isinstance(piece, str) else bytes(piece)


def _pieces(source: Any) -> Iterator[bytes]:
    """The bytes of a path, a bytes object, a binary file, or an iterable of bytes/str pieces."""
    if isinstance(source, (str, os.PathLike)):
        with Path(source).open("rb") as file:
            yield from _pieces(file)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        yield bytes(source)
    elif hasattr(source, "read"):
        stream: IO[Any] = source
        while piece := stream.read(_READ_SIZE):
            yield _as_bytes(piece)
    elif isinstance(source, Iterable):
        for piece in source:
            yield _as_bytes(piece)
    else:
        raise TypeError(
            f"cannot read chunks from a {type(source).__name__}: give a path, bytes, a binary file, "
            "or an iterable of bytes/str"
        )


def iter_records(source: Any) -> Iterator[bytes]:
    """Every record (one JSON text per chunk) of a synchronous source, framing sniffed."""
    framer = Framer()
    for piece in _pieces(source):
        yield from framer.feed(piece)
        if framer.done:
            return
    yield from framer.close()


async def aiter_records(source: AsyncIterable[bytes | str]) -> AsyncIterator[bytes]:
    """Every record of an async iterable of bytes/str pieces (an HTTP body, say)."""
    framer = Framer()
    async for piece in source:
        for record in framer.feed(_as_bytes(piece)):
            yield record
        if framer.done:
            return
    for record in framer.close():
        yield record
