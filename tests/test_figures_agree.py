"""Every figure is computed once, in the kernel, and every place that shows it agrees (issue 17).

For every recorded stream in tests/fixtures (providers/, http/ and nested/ included), read at once
(no arrival times: untimed) and as a recording with arrival times (read, viewed and replayed):
``RunResult.timing``, the footer's node fields (``figures``), the transcript, ``mn.compare``,
``to_dataframe`` and the inspector's times say the same; a step, a tool call or a sub-run never lasts
longer than the run that holds it; per-step usage is Mastra's own StepResult usage.
"""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core.numbers import format_duration, to_fixed
from mastra_notebook.render.transcript import render_html

from .conftest import FIXTURES, RecordingComm
from .helpers import REQUEST_MS, timed

STREAMS = sorted(
    [
        *FIXTURES.glob("*.jsonl"),
        *(FIXTURES / "providers").glob("*.jsonl"),
        *(FIXTURES / "http").glob("*.body"),
        *(FIXTURES / "nested").glob("*.body"),
    ]
)


def _ids(path: Path) -> str:
    return str(path.relative_to(FIXTURES))


def _root(result: mn.RunResult) -> dict[str, Any]:
    """The root run node's fields, as the view received them (what the footer and header show)."""
    from mastra_notebook.core.result import view_snapshot

    ops = view_snapshot(result)
    assert ops is not None
    return dict(ops[0][2])


def _ms(seconds: float | None) -> str | None:
    return None if seconds is None else format_duration(seconds * 1000)


def _rate(rate: float | None) -> str | None:
    return None if rate is None else to_fixed(rate, 1)


def _agree(result: mn.RunResult, label: str) -> None:
    """RunResult.timing, the footer's fields, the transcript, compare and the DataFrame agree."""
    timing, shown = result.timing, result.figures
    assert _root(result).get("figures", {}) == shown, label  # the footer's fields are these figures
    assert shown.get("duration") == _ms(timing.total), label
    assert shown.get("first_token") == _ms(timing.time_to_first_token), label
    assert shown.get("tokens_per_second") == _rate(timing.tokens_per_second), label
    if timing.untimed is not None:
        assert not {"duration", "first_token", "tokens_per_second"} & set(shown), label
    # the transcript shows the same strings in its footer
    page = render_html(result)
    for key in ("duration", "first_token", "tokens_per_second", "steps", "cost"):
        if key in shown:
            stat = f'class="mn-stat-value"[^>]*>{re.escape(html.escape(shown[key], quote=False))}</span>'
            assert re.search(stat, page), (label, key)
    # mn.compare writes the views' own strings, a dash where there is none
    rows = dict(mn.compare(result, result).rows())
    for row, key in (("duration", "duration"), ("time to first token", "first_token")):
        assert rows[row][0] == shown.get(key, "—"), (label, row)
    assert rows["tokens/s (streaming)"][0] == shown.get("tokens_per_second", "—"), label
    # to_dataframe: the same numbers
    frame = mn.to_dataframe([result])
    rate = frame.loc[0, "tokens_per_second"]
    rate = None if rate is None or (isinstance(rate, float) and math.isnan(rate)) else float(rate)
    assert _rate(rate) == shown.get("tokens_per_second"), label
    took = frame.loc[0, "duration_s"]
    took = None if took is None or (isinstance(took, float) and math.isnan(took)) else float(took)
    assert _ms(took) == shown.get("duration"), label
    assert frame.loc[0, "total_tokens_with_nested"] == result.usage_with_nested.total_tokens, label


def _moments(result: mn.RunResult) -> list[tuple[str, Any, Any, Any, Any]]:
    """(what, its start, its end, the holding run's start, its end) for every timed part, any depth."""
    out: list[tuple[str, Any, Any, Any, Any]] = []
    stack = [result]
    while stack:
        run = stack.pop()
        start, end = run.started_at, run.finished_at
        for step in run.steps:
            out.append((f"step {step.index}", step.started_at, step.finished_at, start, end))
        for call in run.tool_calls:
            out.append((f"tool {call.tool_name}", call.started_at, call.finished_at, start, end))
            if call.children is not None:
                child = call.children
                out.append((f"sub-run {call.tool_name}", child.started_at, child.finished_at, start, end))
                stack.append(child)
        for wf_step in run.workflow.steps if run.workflow else []:
            out.append(
                (f"workflow step {wf_step.step_name}", wf_step.started_at, wf_step.finished_at, start, end)
            )
            if wf_step.children is not None:
                stack.append(wf_step.children)
    return out


@pytest.mark.parametrize("path", STREAMS, ids=_ids)
def test_read_at_once_the_figures_agree_and_none_are_made_up(
    path: Path, recording_comm: RecordingComm
) -> None:
    read = mn.collect(path)
    viewed = mn.view(path).wait(timeout=60)
    replayed = mn.replay(path, autoplay=False)
    replayed.seek(replayed.total)
    for result, how in ((read, "collect"), (viewed, "view"), (replayed.result, "replay")):
        assert result.timing.untimed is not None, how  # no arrival times: untimed, whoever read it
        assert result.figures == read.figures, how
        _agree(result, f"{path.name} {how}")
    assert all(entry["ms"] is None for entry in replayed.inspector_entries())


@pytest.mark.parametrize("path", STREAMS, ids=_ids)
def test_recorded_the_figures_agree_everywhere(
    path: Path, tmp_path: Path, recording_comm: RecordingComm
) -> None:
    recorded = timed(path, tmp_path / f"{path.stem}.timed.jsonl")
    read = mn.collect(recorded)
    viewed = mn.view(recorded).wait(timeout=60)
    replay = mn.replay(recorded, autoplay=False)
    replay.seek(replay.total)
    replayed = replay.result
    assert read.timing.untimed is None
    for result, how in ((read, "collect"), (viewed, "view"), (replayed, "replay")):
        assert result.figures == read.figures, how
        assert result.timing.total == pytest.approx(read.timing.total, abs=1e-5), how
        _agree(result, f"{recorded.name} {how}")
    # the run starts when its request went out, not at its first chunk
    if read.timing.total is not None and read.chunk_count:
        assert read.timing.total * 1000 >= REQUEST_MS - 1e-3
    # the inspector's times are the run's clock: the moment the run ended is one of its rows
    times = [entry["ms"] for entry in replay.inspector_entries()]
    assert times[0] == pytest.approx(REQUEST_MS)
    if replayed.timing.total is not None:
        ended = replayed.timing.total * 1000
        assert any(abs(ms - ended) < 0.2 for ms in times), (ended, times[-3:])
        assert ended <= max(times) + 0.2
    if replayed.timing.time_to_first_token is not None:
        first = replayed.timing.time_to_first_token * 1000
        assert any(abs(ms - first) < 0.2 for ms in times)
    # nothing lasts longer than the run that holds it
    for what, start, end, outer_start, outer_end in _moments(read):
        if start is not None and outer_start is not None:
            assert start >= outer_start, what
        if end is not None and outer_end is not None:
            assert end <= outer_end, what


def test_per_step_usage_is_mastras_step_result_usage_on_the_nested_supervisor() -> None:
    """Recorded from the bundled server (tests/server/conftest.py): /stream's body and /generate's
    result, Mastra's own StepResults. Over HTTP the last step-finish carries the run's total."""
    result = mn.collect(FIXTURES / "nested" / "supervisor.body")
    mastra = json.loads((FIXTURES / "nested" / "supervisor.generate.json").read_text())
    own = [(s["usage"]["inputTokens"], s["usage"]["outputTokens"]) for s in mastra["steps"]]
    assert [(s.usage.input_tokens, s.usage.output_tokens) for s in result.steps if s.usage] == own
    total = mastra["totalUsage"]
    assert (result.usage.input_tokens, result.usage.output_tokens) == (
        total["inputTokens"],
        total["outputTokens"],
    )
    # the sub-agents' tokens are counted apart, and together
    inside = sum(call.children.usage_with_nested.total_tokens for call in result.tool_calls if call.children)
    assert inside > 0
    assert result.usage_with_nested.total_tokens == result.usage.total_tokens + inside
    figures = result.figures
    assert (
        figures["tokens"]
        == f"{result.usage.total_tokens:,} tokens · {result.usage_with_nested.total_tokens:,} with sub-agents"
    )


@pytest.mark.parametrize("path", sorted((FIXTURES / "providers").glob("*.jsonl")), ids=_ids)
def test_per_step_usage_equals_mastras_own_result(path: Path) -> None:
    mastra = json.loads(path.with_suffix(".mastra.json").read_text())
    result = mn.collect(path)
    usages = [step["usage"] for step in mastra.get("steps", [])]  # a failed step reports none: 0
    expected = [(usage.get("inputTokens") or 0, usage.get("outputTokens") or 0) for usage in usages]
    assert [(s.usage.input_tokens, s.usage.output_tokens) for s in result.steps if s.usage] == expected


def test_a_workflow_without_a_model_shows_no_tokens() -> None:
    run = mn.Run()
    for chunk in (
        {"type": "workflow-start", "runId": "w", "from": "WORKFLOW", "payload": {"workflowId": "count"}},
        {"type": "workflow-step-start", "runId": "w", "from": "WORKFLOW", "payload": {"stepName": "add"}},
        {"type": "workflow-step-result", "runId": "w", "from": "WORKFLOW",
         "payload": {"stepName": "add", "status": "success", "output": 2}},
        {"type": "workflow-finish", "runId": "w", "from": "WORKFLOW",
         "payload": {"workflowStatus": "success", "output": {"usage": {"inputTokens": 0, "outputTokens": 0}}}},
    ):  # fmt: skip
        run.feed(chunk)
    run.end()
    assert "tokens" not in run.result.figures
    assert "tokens" not in render_html(run.result).split("data-kind")[0]


def test_a_run_starts_when_its_request_is_sent() -> None:
    run = mn.Run()
    run.start(at_ms=1_000_000.0)
    run.feed({"type": "start", "runId": "r", "from": "AGENT", "payload": {}}, received_ms=300.0)
    run.feed({"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": "Hi"}},
             received_ms=340.0)  # fmt: skip
    run.end()
    assert run.result.timing.time_to_first_token == pytest.approx(0.340)
    assert run.result.figures["first_token"] == "340 ms"
