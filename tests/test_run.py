"""Run semantics where Mastra's streams are subtle."""

from __future__ import annotations

from typing import Any

import mastra_notebook as mn

from .conftest import fixture_path
from .helpers import replay


def chunk(chunk_type: str, **payload: Any) -> dict[str, Any]:
    return {"type": chunk_type, "runId": "run-1", "from": "AGENT", "payload": payload}


def delta(text: str, text_id: str = "t") -> dict[str, Any]:
    return chunk("text-delta", id=text_id, text=text)


def feed_all(*items: Any) -> mn.Run:
    run = mn.Run()
    for item in items:
        run.feed(item)
    return run


def test_result_is_a_snapshot_at_any_moment() -> None:
    run = feed_all(chunk("start", id="a"), delta("Hel"))
    assert run.result.status == "running"
    assert run.result.text == "Hel"
    run.feed(delta("lo"))
    assert run.result.text == "Hello"


def test_a_stream_without_a_terminal_chunk_is_incomplete_and_keeps_everything() -> None:
    run = feed_all(
        chunk("start"), delta("partial"), chunk("tool-call", toolCallId="c", toolName="t", args={})
    )
    run.end()
    assert run.result.status == "incomplete"
    assert run.result.text == "partial"
    assert run.result.tool_calls[0].status == "running"


def test_error_stays_error_whatever_finish_follows() -> None:
    run = feed_all(
        delta("x"),
        chunk("error", error={"message": "boom"}),
        chunk("finish", stepResult={"reason": "stop"}, output={"usage": {}}),
    )
    run.end()
    assert run.result.status == "error"
    assert run.result.error is not None
    assert run.result.error.message == "boom"


def test_error_messages_are_normalised() -> None:
    for error, message in [
        ("plain", "plain"),
        ({"cause": {"message": "deep"}}, "deep"),
        ({"details": {"errorMessage": "in details"}}, "in details"),
        ({"name": "TypeError"}, "TypeError"),
        (None, "error"),
    ]:
        assert feed_all(chunk("error", error=error)).result.error.message == message  # type: ignore[union-attr]


def test_unknown_types_are_chunks_invalid_lines_are_kept() -> None:
    run = feed_all(
        chunk("something-new", a=1), b"garbage", {"type": "text-delta", "payload": {}}, delta("ok")
    )
    result = run.result
    assert result.chunk_count == 2
    assert [line.raw for line in result.invalid][0] == "garbage"
    assert "payload.text" in result.invalid[1].error
    assert result.text == "ok"
    assert [p.kind for p in result.parts] == ["unknown", "invalid", "invalid", "text"]


def test_tool_args_stream_and_parse_partially() -> None:
    run = mn.Run()
    ops: list[list[Any]] = []
    run.tree.sink = ops.append
    run.feed(chunk("tool-call-input-streaming-start", toolCallId="c", toolName="search"))
    for piece in ['{"query": "par', "is wea", 'ther", "limit": 3', "}"]:
        run.feed(chunk("tool-call-delta", toolCallId="c", toolName="search", argsTextDelta=piece))
    args_seen = [op[3] for op in ops if op[0] == "set" and op[2] == "args"]
    assert args_seen == [{"query": "par"}, {"query": "paris wea"}, {"query": "paris weather", "limit": 3}]
    call = run.result.tool_calls[0]
    assert call.args_text == '{"query": "paris weather", "limit": 3}'
    assert call.status == "streaming-args"


def test_goal_that_continues_starts_a_new_attempt() -> None:
    run = feed_all(
        chunk("start"),
        delta("first try", "a1"),
        chunk(
            "finish", stepResult={"reason": "stop"}, output={"usage": {"inputTokens": 5, "outputTokens": 5}}
        ),
        chunk("goal", iteration=1, pending=True),
        chunk("goal", iteration=1, passed=False, shouldContinue=True, reason="not yet"),
        delta("second try", "a2"),
        chunk(
            "finish", stepResult={"reason": "stop"}, output={"usage": {"inputTokens": 7, "outputTokens": 3}}
        ),
        chunk("goal", iteration=2, passed=True, shouldContinue=False),
    )
    run.end()
    result = run.result
    assert result.text == "second try"
    assert [g.should_continue for g in result.goals] == [True, False]
    assert result.goals[0].evaluation["reason"] == "not yet"
    assert result.usage.total_tokens == 20  # every attempt counts
    assert result.status == "finished"


def test_repeated_tool_result_updates_the_same_call() -> None:
    run = feed_all(
        chunk("tool-call", toolCallId="c", toolName="t", args={}),
        chunk("tool-result", toolCallId="c", toolName="t", result={"v": 1}),
        chunk("tool-result", toolCallId="c", toolName="t", result={"v": 2}),
    )
    (call,) = run.result.tool_calls
    assert call.result == {"v": 2}


def test_progress_arriving_on_both_channels_shows_once() -> None:
    def output(step: int) -> dict[str, Any]:
        return {"type": "progress", "step": step}

    def task_output(step: int) -> dict[str, Any]:
        inner = chunk("tool-output", toolCallId="c", toolName="t", output=output(step))
        return {
            "type": "background-task-output",
            "payload": {"taskId": "k", "toolCallId": "c", "payload": inner},
        }

    run = feed_all(
        chunk("tool-call", toolCallId="c", toolName="t", args={}),
        chunk("background-task-started", taskId="k", toolCallId="c", toolName="t"),
        chunk("tool-output", toolCallId="c", toolName="t", output=output(1)),
        task_output(1),
        task_output(2),
        chunk("tool-output", toolCallId="c", toolName="t", output=output(2)),
        chunk("tool-output", toolCallId="c", toolName="t", output=output(3)),
    )
    assert run.result.tool_calls[0].outputs == [output(1), output(2), output(3)]


def test_nesting_to_any_depth() -> None:
    inner: dict[str, Any] = delta("deep", "d")
    for depth in range(5):
        inner = {
            "type": "tool-output",
            "runId": f"r{depth}",
            "from": "USER",
            "payload": {"toolCallId": f"c{depth}", "toolName": f"agent-{depth}", "output": inner},
        }
    run = feed_all(inner)
    result = run.result
    for depth in reversed(range(5)):
        (call,) = result.tool_calls
        assert call.tool_call_id == f"c{depth}"
        assert call.children is not None
        result = call.children
    assert result.text == "deep"


def test_custom_tool_values_are_outputs_not_children() -> None:
    run = feed_all(chunk("tool-output", toolCallId="c", toolName="t", output={"type": "progress", "pct": 5}))
    (call,) = run.result.tool_calls
    assert call.outputs == [{"type": "progress", "pct": 5}]
    assert call.children is None


def test_tool_suspended_then_resumed() -> None:
    run = feed_all(
        chunk("tool-call", toolCallId="c", toolName="ask", args={}),
        chunk("tool-call-suspended", toolCallId="c", toolName="ask", suspendPayload={"question": "why?"}),
    )
    run.end()
    assert run.result.status == "suspended"
    assert run.result.tool_calls[0].suspend_payload == {"question": "why?"}
    run.feed(chunk("tool-result", toolCallId="c", toolName="ask", result="because"))
    run.feed(chunk("finish", stepResult={"reason": "stop"}, output={}))
    run.end()
    assert run.result.status == "finished"
    assert run.result.tool_calls[0].result == "because"


def test_suspended_workflow_step() -> None:
    run = feed_all(
        {"type": "workflow-start", "runId": "w", "from": "WORKFLOW", "payload": {"workflowId": "flow"}},
        {
            "type": "workflow-step-start",
            "from": "WORKFLOW",
            "payload": {"stepName": "ask", "status": "running"},
        },
        {"type": "workflow-step-suspended", "from": "WORKFLOW", "payload": {"stepName": "ask"}},
        {"type": "workflow-finish", "from": "WORKFLOW", "payload": {"workflowStatus": "suspended"}},
    )
    run.end()
    result = run.result
    assert result.status == "suspended"
    assert result.workflow is not None
    assert result.workflow.status == "suspended"
    assert result.workflow.steps[0].status == "suspended"


def test_failed_workflow_is_an_error() -> None:
    run = feed_all(
        {"type": "workflow-start", "payload": {"workflowId": "flow"}},
        {
            "type": "workflow-finish",
            "payload": {"workflowStatus": "failed", "error": {"message": "step blew up"}},
        },
    )
    assert run.result.status == "error"
    assert run.result.error is not None
    assert run.result.error.message == "step blew up"


def test_client_marks_abort_and_transport_errors() -> None:
    run = feed_all(delta("half"))
    run.mark_aborted()
    assert (run.result.status, run.result.finish_reason, run.result.text) == ("aborted", "aborted", "half")
    failed = mn.Run()
    failed.mark_error("Agent not found", status_code=404)
    assert failed.result.error is not None
    assert (failed.result.status, failed.result.error.status_code) == ("error", 404)


def test_feed_accepts_parsed_chunks_and_text() -> None:
    lines = fixture_path("tool-call").read_text().splitlines()
    from_text = feed_all(*lines).result
    from_chunks = feed_all(*mn.read_chunks(fixture_path("tool-call"))).result
    assert from_text.text == from_chunks.text
    assert from_text.tool_calls[0].args == from_chunks.tool_calls[0].args


def test_snapshot_rebuilds_what_the_ops_built() -> None:
    live: list[list[Any]] = []
    run = mn.Run(on_op=live.append)
    for item in mn.read_chunks(fixture_path("agent-as-tool")):
        run.feed(item)
    run.end()
    assert replay(live) == replay(run.snapshot())


def test_the_first_ending_stands() -> None:
    run = feed_all(chunk("error", error="boom"), chunk("tripwire", reason="late"), chunk("abort"))
    result = run.result
    assert (result.status, result.error.message) == ("error", "boom")  # type: ignore[union-attr]
    assert result.tripwire is not None  # still recorded and shown
    assert [p.type for p in result.parts if p.kind == "banner"] == ["error", "tripwire", "abort"]


def test_background_progress_is_kept_once() -> None:
    result = mn.collect(fixture_path("background-task"))
    (task,) = result.background_tasks
    assert [o["step"] for o in result.tool_calls[0].outputs] == [1, 2, 3]
    assert task.outputs == []  # on the tool call, not twice


def test_text_deltas_on_the_hot_path_read_as_every_chunk_does() -> None:
    """handlers.fold folds a valid text-delta itself (no check() or handler call): it still settles
    the run, names a part by an id's str, and leaves a bad delta to check() to say why."""
    run = feed_all(delta("a", 5), delta("b", "5"), delta("c", [1]))  # type: ignore[arg-type]
    result = run.result
    assert (result.run_id, result.chunk_count, result.text) == ("run-1", 3, "abc")
    assert sorted(run.state.open_texts) == ["5", "[1]"]
    bad = feed_all(
        {"type": "text-delta", "payload": {"id": "t", "text": 5}},
        {"type": "text-delta", "payload": "x"},
        delta("ok"),
    ).result
    assert (bad.chunk_count, bad.text, len(bad.invalid)) == (1, "ok", 2)
    assert all("payload" in line.error for line in bad.invalid)


def test_lines_of_the_notebook_own_types_and_odd_types_never_raise() -> None:
    """Run.feed sends only mn-feedback and mn-scores lines to their readers; one whose payload is
    not theirs is an unknown chunk, and a type that cannot be hashed is no crash."""
    run = feed_all(
        {"type": "mn-feedback", "payload": "not a label"},
        {"type": "mn-scores", "payload": {"scores": "none"}},
        {"type": ["text-delta"], "payload": {}},
        {"type": {"a": 1}},
        delta("ok"),
    )
    result = run.result
    assert (result.feedback, result.scores, result.text) == (None, [], "ok")
    assert result.chunk_count == 3  # the two own-type lines and the delta; the odd types are invalid
    assert len(result.invalid) == 2
