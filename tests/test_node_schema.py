"""The node schema (mastra_notebook/core/nodes.py) is the one contract of the view nodes: the
TypeScript types and the protocol's node table are generated from it (scripts/contract.py, with the
traits and messages of mastra_notebook/widget/contract.py), and the reducer writes no field it does
not declare."""

from __future__ import annotations

import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from mastra_notebook.core import nodes
from mastra_notebook.core.ingest import records
from mastra_notebook.core.run import Run

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
ALL = sorted(FIXTURES.rglob("*.jsonl"))


# scripts/contract.py, the generator (a repository script, not package code): its functions
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "contract.py"))


def chunk(chunk_type: str, **payload: Any) -> dict[str, Any]:
    return {"type": chunk_type, "runId": "r1", "from": "AGENT", "payload": payload}


def _nested(inner: dict[str, Any], levels: int) -> dict[str, Any]:
    """``inner`` as a tool of a tool of ... (``levels`` deep) wrote it."""
    for level in range(levels):
        inner = chunk("tool-output", toolCallId=f"deep-{level}", toolName="deeper", output=inner)
    return inner


def _fed(*items: Any) -> Run:
    run = Run()
    for item in items:
        run.feed(item)
    return run


def synthetic_runs() -> Iterator[tuple[str, Run]]:
    """What no recorded fixture shows: goals, data, unknown and invalid lines, decisions, resume
    schemas, progress, a client tool, an HTTP error, runs nested deeper than the view draws."""
    run = _fed(
        chunk("start", id="agent"),
        chunk("step-start", warnings=[{"type": "other", "message": "w"}]),
        chunk("reasoning-start", id="r"),
        chunk("redacted-reasoning", id="r", data="xx"),
        chunk("goal", iteration=1, passed=False, shouldContinue=True),
        chunk("is-task-complete", iteration=1, passed=True),
        {"type": "data-progress", "data": {"done": 1}},
        chunk("custom", value=1),
        chunk("raw", anything=True),
        chunk("something-new", a=1),
        b"not a chunk",
        chunk("tool-call", toolCallId="c1", toolName="ask", args={}),
        chunk("tool-call-approval", toolCallId="c1", toolName="ask", resumeSchema='{"type": "object"}'),
        chunk("tool-call", toolCallId="c2", toolName="pause", args={}),
        chunk("tool-call-suspended", toolCallId="c2", suspendPayload={"why": 1}, resumeSchema=None),
        chunk("tool-call", toolCallId="c3", toolName="local", args={}),
        chunk("background-task-started", taskId="t1", toolName="slow", toolCallId="c9"),
        chunk("background-task-failed", taskId="t1", error="boom"),
        chunk("tripwire", reason="blocked", processorId="p"),
    )
    run.decide("approve", "python", tool_call_id="c1")
    run.running_in_notebook(["c3"])
    run.mark_error("HTTP 500", status_code=500, details={"body": "x"})
    run.end()
    yield "agent", run

    workflow = _fed(
        chunk("workflow-start", workflowId="wf"),
        chunk("workflow-step-start", stepName="request", stepCallId="s1", payload={"a": 1}),
        chunk("workflow-step-progress", stepName="request", done=1),
        chunk("workflow-step-suspended", stepName="request", suspendPayload={"ask": True}),
        chunk("workflow-step-output", stepName="request", output={"x": 1}),
    )
    workflow.expect_resume({"request": {"type": "object", "properties": {"approved": {"type": "boolean"}}}})
    workflow.decide("resume", "view", step="request")
    workflow.end()
    yield "workflow", workflow

    deep = _fed(chunk("tool-call", toolCallId="top", toolName="deep", args={}))
    deep.feed(_nested(chunk("text-delta", id="t", text="deep down"), 20))
    deep.end()
    yield "deep", deep


def fixture_runs() -> Iterator[tuple[str, Run]]:
    for fixture in ALL:
        run = Run()
        for item in records(fixture):
            run.feed(item)
        run.end()
        yield fixture.relative_to(FIXTURES).as_posix(), run


@pytest.mark.parametrize("path", ["js/src/contract.generated.ts", "docs/view-protocol.md"])
def test_the_generated_files_are_what_the_script_writes(path: str) -> None:
    written = {file.relative_to(ROOT).as_posix(): text for file, text in SCRIPT["generated"]().items()}
    committed = (ROOT / path).read_text() if (ROOT / path).exists() else ""
    assert committed == written[path], (
        f"{path} drifted from mastra_notebook/core/nodes.py or widget/contract.py: "
        f"run `{SCRIPT['COMMAND']}` (from the repository root) and commit it"
    )


def test_every_field_the_reducer_writes_is_declared() -> None:
    """Every fixture and the synthetic runs: each node's fields are declared for its kind, and their
    values have the declared types."""
    undeclared: dict[str, set[str]] = {}
    kinds: set[str] = set()
    for name, run in [*fixture_runs(), *synthetic_runs()]:
        for op in run.snapshot():
            assert op[0] == "add"
            node = op[2]
            kinds.add(node["kind"])
            extra = set(node) - nodes.fields_of(node["kind"])
            if extra:
                undeclared.setdefault(node["kind"], set()).update(f"{field} ({name})" for field in extra)
                continue
            try:
                nodes.BY_KIND[node["kind"]].model_validate(node)
            except ValidationError as error:
                pytest.fail(f"{name}: a {node['kind']} node's value is not of its declared type: {error}")
    assert not undeclared, f"fields the reducer writes but mastra_notebook/core/nodes.py lacks: {undeclared}"
    assert kinds == set(nodes.BY_KIND), f"kinds no run wrote: {set(nodes.BY_KIND) - kinds}"


def test_the_new_fields_are_written() -> None:
    """The fields the protocol's table once missed are written by the synthetic runs (not dead)."""
    written: dict[str, set[str]] = {}
    for _, run in synthetic_runs():
        for op in run.snapshot():
            written.setdefault(op[2]["kind"], set()).update(op[2])
    assert {"continue_with", "provider_executed", "orphan", "ran_in", "decision", "approval"} <= written[
        "tool"
    ]
    assert {"hidden_levels"} <= written["tool"]
    assert {"continue_with", "progress", "suspend_payload", "decision"} <= written["workflow-step"]
