"""Properties: any split of a stream's bytes gives the same result; garbage never breaks a run."""

from __future__ import annotations

import itertools
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mastra_notebook as mn
from mastra_notebook.core.chunks import raw_text
from mastra_notebook.render.transcript import render_html

from .conftest import FIXTURES, comparable

SCENARIOS = ["tool-call", "agent-as-tool", "workflow-as-tool", "sources-files", "background-task"]
BODIES = {name: (FIXTURES / "http" / f"{name}.body").read_bytes() for name in SCENARIOS}
BODIES["workflow-stream"] = (FIXTURES / "http" / "workflow-stream.body").read_bytes()
LINES = {name: (FIXTURES / f"{name}.jsonl").read_bytes().splitlines() for name in SCENARIOS}


def same(result: mn.RunResult) -> Any:
    return comparable(result.model_dump(mode="json"))


def split(body: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(body), *(c % (len(body) + 1) for c in cuts)})
    return [body[a:b] for a, b in itertools.pairwise(points)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(BODIES)), cuts=st.lists(st.integers(min_value=0), max_size=40))
def test_any_split_gives_the_same_result(name: str, cuts: list[int]) -> None:
    body = BODIES[name]
    assert same(mn.collect(split(body, cuts))) == same(mn.collect(body))


garbage_line = st.one_of(
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b" ").replace(b"\x1e", b" ")),
    st.text(max_size=40).map(lambda t: t.replace("\n", " ").replace("\x1e", " ").replace("\r", " ").encode()),
    st.sampled_from(
        [
            b"[]",
            b"null",
            b"42",
            b'"x"',
            b'{"type": 1}',
            b'{"payload": {}}',
            b'{"type": "text-delta", "payload": {"id": "zz"}}',
            b'{"type": "text-delta"}',
            b'{"type": "tool-call-delta", "payload": {"argsTextDelta": 5}}',
            b'{"type": "tool-result", "payload": null}',
            b"{",
            b"data: x",
        ]
    ),
).filter(lambda line: line.strip() != b"")


@settings(max_examples=80, deadline=None)
@given(
    name=st.sampled_from(SCENARIOS),
    garbage=st.lists(st.tuples(st.integers(min_value=0), garbage_line), min_size=1, max_size=15),
)
def test_garbage_lines_are_kept_and_leave_the_real_text_intact(
    name: str, garbage: list[tuple[int, bytes]]
) -> None:
    lines = list(LINES[name])
    for position, line in garbage:  # after the first line: the framing is sniffed from the first bytes
        lines.insert(1 + position % len(lines), line)
    clean = mn.collect(b"\n".join(LINES[name]))
    mixed = mn.collect(b"\n".join(lines))
    assert mixed.text == clean.text
    assert [c.tool_call_id for c in mixed.tool_calls] == [c.tool_call_id for c in clean.tool_calls]
    assert mixed.chunk_count == clean.chunk_count
    assert len(mixed.invalid) == len(garbage)
    assert sorted(i.raw for i in mixed.invalid) == sorted(raw_text(line) for _, line in garbage)


# ---- hostile transformations of the real recordings ------------------------------------------------------
#
# Each check must hold whatever is done to a recording: its body cut anywhere, garbage lines between its
# lines, a chunk wrapped in k tool-output envelopes of a new tool call, its ids reused the way
# OpenAI-compatible servers reuse them. The checks: feed never raises, every line is accounted for
# (chunk_count + len(invalid)), and the result can be written as JSON and drawn as a transcript.

ALL_LINES = {
    path.stem: path.read_bytes().splitlines()
    for path in sorted(FIXTURES.glob("*.jsonl"))
    if path.stem != "long-text"  # 5,000 lines: too slow for many examples, and nothing new
}
TEXT_TYPES = ("text-start", "text-delta", "text-end")


def reuse_ids(lines: list[bytes]) -> list[bytes]:
    """Every top-level text id becomes ``txt-0``; tool call ids are numbered per step from ``call_0``
    (the first id seen in a step is ``call_0``, the next ``call_1``); a later chunk for a call keeps the
    id its call got."""
    renamed: dict[str, str] = {}
    in_step = 0
    out: list[bytes] = []
    for line in lines:
        chunk = orjson.loads(line)
        payload = chunk.get("payload")
        if chunk.get("type") == "step-start":
            in_step = 0
        if isinstance(payload, dict):
            payload = dict(payload)
            if chunk.get("type") in TEXT_TYPES and isinstance(payload.get("id"), str):
                payload["id"] = "txt-0"
            call_id = payload.get("toolCallId")
            if isinstance(call_id, str):
                if call_id not in renamed:
                    renamed[call_id] = f"call_{in_step}"
                    in_step += 1
                payload["toolCallId"] = renamed[call_id]
            chunk = {**chunk, "payload": payload}
        out.append(orjson.dumps(chunk))
    return out


def wrap(line: bytes, levels: int) -> bytes:
    """``line`` inside ``levels`` tool-output envelopes of a tool call no chunk announced (written as
    text: orjson.dumps stops at 254 levels)."""
    before = b"".join(
        b'{"type":"tool-output","runId":"run-wrap","from":"AGENT","payload":{"output":' for _ in range(levels)
    )
    after = b"".join(
        b',"toolCallId":"call-wrap-%d","toolName":"agent-wrap"}}' % i for i in range(levels)[::-1]
    )
    return before + line + after


def sse_body(lines: list[bytes]) -> bytes:
    return b"".join(b"data: " + line + b"\n\n" for line in lines) + b"data: [DONE]\n\n"


sse_safe_garbage = garbage_line.map(lambda line: line.replace(b"\r", b" ")).filter(
    lambda line: line.strip() not in (b"", b"[DONE]")
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(ALL_LINES)),
    reused=st.booleans(),
    wrapped=st.one_of(
        st.none(), st.tuples(st.integers(min_value=0), st.integers(min_value=1, max_value=400))
    ),
    garbage=st.lists(st.tuples(st.integers(min_value=0), sse_safe_garbage), max_size=8),
    as_sse=st.booleans(),
    cuts=st.lists(st.integers(min_value=0), max_size=30),
)
def test_hostile_recordings_are_read_whole_and_written(
    *,
    name: str,
    reused: bool,
    wrapped: tuple[int, int] | None,
    garbage: list[tuple[int, bytes]],
    as_sse: bool,
    cuts: list[int],
) -> None:
    """A recording with its ids reused, one chunk wrapped ``levels`` deep, garbage lines between its
    lines, as JSON Lines or SSE, cut anywhere: still read whole, and written."""
    lines = reuse_ids(ALL_LINES[name]) if reused else list(ALL_LINES[name])
    if wrapped is not None:
        index, levels = wrapped[0] % len(lines), wrapped[1]
        lines[index] = wrap(lines[index], levels)
    for position, line in garbage:
        lines.insert(1 + position % len(lines), line)  # after the first line: the framing is sniffed
    run = mn.Run()
    for line in lines:
        run.feed(line)  # never raises
    run.end()
    by_line = run.result
    assert by_line.chunk_count + len(by_line.invalid) == len(lines)
    body = sse_body(lines) if as_sse else b"\n".join(lines) + b"\n"
    result = mn.collect(split(body, cuts))
    assert result.chunk_count + len(result.invalid) == len(lines)
    assert result.model_dump_json()
    assert render_html(result)


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(ALL_LINES)), cuts=st.lists(st.integers(min_value=0), max_size=20))
def test_reused_ids_change_neither_the_text_nor_the_calls(name: str, cuts: list[int]) -> None:
    """Ids reused as real providers reuse them read like the unique ids of the recording."""
    original = mn.collect(b"\n".join(ALL_LINES[name]))
    body = b"\n".join(reuse_ids(ALL_LINES[name]))
    reused = mn.collect(split(body, cuts))
    assert reused.text == original.text
    assert reused.reasoning_text == original.reasoning_text
    assert [p.kind for p in reused.parts] == [p.kind for p in original.parts]
    assert [(c.tool_name, c.args, c.result, c.status) for c in reused.tool_calls] == [
        (c.tool_name, c.args, c.result, c.status) for c in original.tool_calls
    ]
    assert reused.model_dump_json()
    assert render_html(reused)
