"""A timed run with a score and a label, and what the GenAI conventions carry of a run: for the tests
of OpenTelemetry out and in (tests/test_otel.py, tests/test_otel_receiver.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

import mastra_notebook as mn
from mastra_notebook.core import otlp
from mastra_notebook.core.feedback import make
from mastra_notebook.core.score import Score

FIXTURE = Path(__file__).parent / "fixtures" / "tool-call.jsonl"


def timed_run(tmp_path: Path) -> mn.RunResult:
    """The tool-call fixture as a timed recording (a chunk every 7 ms), with a Python score and a label."""
    lines = FIXTURE.read_bytes().splitlines()
    timed = [{**orjson.loads(line), "mnReceivedMs": 7.0 * index} for index, line in enumerate(lines)]
    path = tmp_path / "timed.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(chunk) for chunk in timed))
    result = mn.collect(path)
    return result.model_copy(
        update={
            "scores": [Score(scorer="exact", score=1.0, reason="it matched", passed=True, threshold=0.5)],
            "feedback": make("up", 4, "good answer"),
        }
    )


def spans(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for r in document["resourceSpans"] for scope in r["scopeSpans"] for s in scope["spans"]]


def attributes(span: dict[str, Any]) -> dict[str, Any]:
    return otlp.plain_attributes(span.get("attributes"))


def carried(result: mn.RunResult) -> dict[str, Any]:
    """What the conventions carry of a run (times as offsets from its start, in ms)."""
    start = result.started_at
    assert start is not None

    def ms(moment: Any) -> float | None:
        return None if moment is None else round((moment - start).total_seconds() * 1000, 2)

    return {
        "status": result.status,
        "run_id": result.run_id,
        "agent_id": result.agent_id,
        "text": result.text,
        "usage": result.usage,
        "finish_reason": result.finish_reason,
        "scores": result.scores,
        "label": (result.feedback.thumbs, result.feedback.score, result.feedback.comment)
        if result.feedback
        else None,
        # each time in ms to 10 us: epoch ms in a float move a difference by about 1 us (these are 7 ms apart)
        "duration": None if result.duration is None else round(result.duration * 1000, 2),
        "steps": [
            (
                s.index,
                s.text,
                s.finish_reason,
                s.usage,
                s.model_id,
                s.provider,
                s.response_id,
                ms(s.started_at),
            )
            for s in result.steps
        ],
        "tool_calls": [
            (c.tool_call_id, c.tool_name, c.args, c.result, c.status, ms(c.called_at), ms(c.finished_at))
            for c in result.tool_calls
        ],
    }
