"""Properties: any split of a stream's bytes gives the same result; garbage never breaks a run."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mastra_notebook as mn
from mastra_notebook.core.chunks import raw_text

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
