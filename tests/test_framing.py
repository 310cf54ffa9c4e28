"""Framing: JSON Lines, SSE and \\x1e-separated JSON, from any source, split anywhere."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest

import mastra_notebook as mn
from mastra_notebook.core.framing import Framer, aiter_records, iter_records, sniff

from .conftest import FIXTURES

A = b'{"type":"text-delta","payload":{"id":"t","text":"h\xc3\xa9"}}'
B = b'{"type":"text-delta","payload":{"id":"t","text":"llo"}}'


@pytest.mark.parametrize(
    ("head", "framing"),
    [
        (b"data: {}\n\n", "sse"),
        (b"data: {}", None),
        (b": keepalive\n\n", "sse"),
        (b"event: x\ndata: {}\n", "sse"),
        (b"data: x\n{}\n", "json"),
        (b"{", "json"),
        (b"\n\n  {", "json"),
        (b"\x1e{", "json"),
        (b"d", None),
        (b"", None),
        (b"garbage\n", "json"),
    ],
)
def test_sniff(head: bytes, framing: str | None) -> None:
    assert sniff(head) == framing


def test_jsonl_rs_and_sse_give_the_same_records() -> None:
    jsonl = A + b"\n" + B + b"\n"
    rs = A + b"\x1e" + B + b"\x1e"
    sse = b": hello\n\ndata: " + A + b"\n\ndata: " + B + b"\n\ndata: [DONE]\n\n"
    assert list(iter_records(jsonl)) == list(iter_records(rs)) == list(iter_records(sse)) == [A, B]


def test_sse_ends_at_done_and_at_eof() -> None:
    assert list(iter_records(b"data: " + A + b"\n\ndata: [DONE]\n\ndata: " + B + b"\n\n")) == [A]
    assert list(iter_records(b"data: " + A + b"\n\ndata: " + B)) == [A, B]  # EOF, no [DONE], no blank line


def test_sse_crlf_multiline_data_and_fields() -> None:
    body = b'id: 1\r\nevent: chunk\r\ndata: {"type":\r\ndata: "x"}\r\n\r\nretry: 10\r\n\r\n'
    assert list(iter_records(body)) == [b'{"type":\n"x"}']


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_split_anywhere_even_inside_a_utf8_character(size: int) -> None:
    body = (FIXTURES / "http" / "tool-call.body").read_bytes()
    pieces = [body[i : i + size] for i in range(0, len(body), size)]
    assert list(iter_records(pieces)) == list(iter_records(body))


def test_sources_path_str_file_and_str_pieces() -> None:
    path = FIXTURES / "tool-call.jsonl"
    expected = list(iter_records(path.read_bytes()))
    assert list(iter_records(str(path))) == expected
    assert list(iter_records(io.BytesIO(path.read_bytes()))) == expected
    assert list(iter_records(path.read_text().splitlines(keepends=True))) == expected


def test_unsupported_source_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="cannot read chunks from a int"):
        list(iter_records(42))


def test_async_records() -> None:
    body = (FIXTURES / "http" / "workflow-stream.body").read_bytes()

    async def pieces() -> AsyncIterator[bytes]:
        for i in range(0, len(body), 5):
            yield body[i : i + 5]

    async def read() -> list[bytes]:
        return [record async for record in aiter_records(pieces())]

    assert asyncio.run(read()) == list(iter_records(body))


def test_aread_chunks_types_them() -> None:
    async def pieces() -> AsyncIterator[str]:
        yield A.decode() + "\nnot json\n"

    async def read() -> list[object]:
        return [chunk async for chunk in mn.aread_chunks(pieces())]

    first, second = asyncio.run(read())
    assert type(first).__name__ == "TextDeltaChunk"
    assert isinstance(second, mn.InvalidChunk)


def test_framer_waits_for_a_whole_record() -> None:
    framer = Framer()
    assert framer.feed(A[:10]) == []
    assert framer.feed(A[10:]) == []
    assert framer.feed(b"\n") == [A]
    assert framer.close() == []


def test_a_jsonl_file_starting_with_a_data_line_stays_jsonl() -> None:
    assert list(iter_records(b"data: x\n" + A + b"\n")) == [b"data: x", A]
    assert list(iter_records(b"data: " + A)) == [A]  # a one-event SSE body without a blank line


def test_whitespace_before_the_first_record_is_not_buffered() -> None:
    framer = Framer()
    for _ in range(1000):
        assert framer.feed(b"\n \r\n\t\x1e" * 100) == []
    assert len(framer._buffer) == 0  # nothing held for a body of blanks
    assert framer.framing is None
    assert framer.feed(b"\n\n" + A + b"\n") == [A]
    assert framer.close() == []
    assert list(iter_records([b" \n"] * 10_000)) == []  # only whitespace: no record, nothing held


def test_a_leading_byte_order_mark_is_dropped() -> None:
    assert list(iter_records(b"\xef\xbb\xbf" + A + b"\n" + B)) == [A, B]


@pytest.mark.parametrize("piece", [1 << 10, 1 << 14])
def test_an_undecided_framing_is_decided_at_64_kib_losing_nothing(piece: int) -> None:
    """A first SSE line of 100 KB keeps the sniff undecided; at 64 KiB it is decided as at EOF."""
    text = "x" * 100_000
    big = b'{"type":"text-delta","payload":{"id":"t","text":"' + text.encode() + b'"}}'
    for body, framing, expected in [
        (b": hello\ndata: " + big + b"\n\ndata: " + A + b"\n\n", "sse", [big, A]),
        (b"data: " + big + b"\n\n", "sse", [big]),
        (b"data: x\n" + big + b"\n" + A + b"\n", "json", [b"data: x", big, A]),
    ]:
        framer = Framer()
        cut = -(-66_000 // piece) * piece  # the first piece boundary past 64 KiB
        records = [r for start in range(0, cut, piece) for r in framer.feed(body[start : start + piece])]
        assert framer.framing == framing  # decided before the first line or record ended
        assert records + framer.feed(body[cut:]) + framer.close() == expected


def test_json_objects_back_to_back_are_one_record_each() -> None:
    assert list(iter_records([A.decode(), B.decode()])) == [A, B]  # a list of chunk strings
    assert list(iter_records([A, B + b" ", b"\t" + A + b"\n" + B[:9], B[9:]])) == [A, B, A, B]
    result = mn.collect([A.decode(), B.decode()])
    assert (result.text, result.chunk_count, result.invalid) == ("héllo", 2, [])


def test_braces_inside_strings_do_not_split() -> None:
    inside = b'{"type":"text-delta","payload":{"id":"t","text":"a} {b}{\\"c"}}'
    cut = inside.index(b'{\\"c')  # pieces meet between "}" and "{" inside the string: one record
    assert list(iter_records([inside[:cut], inside[cut:]])) == [inside]
    assert list(iter_records([inside.decode(), A.decode()])) == [inside, A]


def test_a_broken_object_back_to_back_with_a_good_one_loses_nothing() -> None:
    broken = b'{"type":"text-delta","payload":{"text":}}'  # balanced, but not JSON
    assert list(iter_records([broken, A + b"\n"])) == [broken, A]
    assert list(iter_records(['{"a":[{"b":1}]}', '{"c":{}}'])) == [b'{"a":[{"b":1}]}', b'{"c":{}}']


@pytest.mark.parametrize("framing", ["sse", "json"])
def test_a_long_record_grows_one_buffer_in_place(framing: str) -> None:
    """Pieces of a long record are appended to one bytearray, never re-concatenated (which made a
    60 MB event in 16 KiB pieces take 45 s); benchmarks/framing.py measures the speed."""
    big = b'{"type":"text-delta","payload":{"id":"t","text":"' + b"y" * 1_000_000 + b'"}}'
    body = (b"data: " + big + b"\n\n") if framing == "sse" else (A + b"\n" + big + b"\n")
    framer = Framer()
    records = framer.feed(body[:16384])
    buffer = framer._buffer
    for start in range(16384, len(body) - 2, 16384):
        records += framer.feed(body[start : min(start + 16384, len(body) - 2)])
        assert framer._buffer is buffer
    records += framer.feed(body[-2:]) + framer.close()
    assert records == ([big] if framing == "sse" else [A, big])


@pytest.mark.parametrize("separator", [b"\x1e", b"\n"])
def test_records_come_out_as_soon_as_they_end(separator: bytes) -> None:
    """A workflow stream (``\\x1e``, no newline at all) is framed live, not at the 64 KiB bound."""
    framer = Framer()
    assert framer.feed(A + separator) == [A]
    assert framer.feed(B[:20]) == []
    assert framer.feed(B[20:] + separator) == [B]
    sse = Framer()
    assert sse.feed(b"data: " + A) == []
    assert sse.feed(b"\n\n") == [A]


def test_garbage_and_undecodable_lines_between_good_ones_are_kept_with_why() -> None:
    """Run.feed reads a bytes record itself and leaves anything but a JSON object to coerce: the
    raw line is kept (undecodable bytes escaped) with the reason, and the good chunks around it,
    back to back across pieces, still fold."""
    pieces = [A + b"\nnot json\n\xff\xfe{\n", b"[1]\n42\n" + A[:7], A[7:] + b"\n", B.decode(), A.decode()]
    result = mn.collect(pieces)
    assert (result.text, result.chunk_count) == ("héhéllohé", 4)
    assert [(line.raw, line.error.split(":")[0]) for line in result.invalid] == [
        ("not json", "not JSON"),
        ("\\xff\\xfe{", "not JSON"),
        ("[1]", "not a chunk"),
        ("42", "not a chunk"),
    ]
    assert "a JSON list" in result.invalid[2].error


def test_a_line_that_is_two_objects_in_one_piece_loses_nothing() -> None:
    """Objects back to back are split where pieces meet; inside one piece such a line is one record,
    kept whole (and reported) when it is not JSON: never raised, never dropped."""
    result = mn.collect(A + B + b"\n" + A)
    assert result.chunk_count + len(result.invalid) == 2
    assert [line.raw for line in result.invalid] == [(A + B).decode()]
