"""One chunk vocabulary, one coercion of items, and the small bugs the second generation fixed."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.core.chunks import KNOWN_TYPES, PREFIXES, ExecutionEventChunk, UnknownChunk, coerce
from mastra_notebook.core.handlers import HANDLERS
from mastra_notebook.core.recording import Recording
from mastra_notebook.render.transcript import render_html
from mastra_notebook.widget.wire import FLUSH_INTERVAL

from .conftest import FIXTURES, RecordingComm, fixture_path
from .fake_clock import run_on_fake_clock

TEXT = {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": "hi"}}


def test_every_handled_type_has_a_model() -> None:
    for chunk_type in HANDLERS:
        assert chunk_type in KNOWN_TYPES or chunk_type in PREFIXES, chunk_type


def test_workflow_approval_and_every_execution_event_are_modelled() -> None:
    assert type(mn.parse_chunk({"type": "workflow-execution-approval", "payload": {}})) is not UnknownChunk
    for primitive in ("agent", "workflow", "tool"):
        event = {"type": f"{primitive}-execution-event-text-delta", "payload": TEXT}
        assert isinstance(mn.parse_chunk(event), ExecutionEventChunk)


def test_any_text_or_bytes_item_is_one_chunk() -> None:
    text = orjson.dumps(TEXT)
    for item in (text, text.decode(), bytearray(text), memoryview(text), TEXT, mn.parse_chunk(TEXT)):
        assert coerce(item) == TEXT, type(item)
        run = mn.Run()
        run.feed(item)
        assert (run.result.text, run.result.chunk_count, run.result.invalid) == ("hi", 1, [])


def test_a_bytearray_item_is_saved_as_its_chunk(tmp_path: Path) -> None:
    recording = Recording()
    recording.add(bytearray(orjson.dumps(TEXT)), 1.0)
    recording.add(memoryview(orjson.dumps(TEXT)), 2.0)
    path = recording.save(tmp_path / "r.jsonl")
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    assert lines == [{**TEXT, "mnReceivedMs": 1.0}, {**TEXT, "mnReceivedMs": 2.0}]


def test_a_saved_line_keeps_the_chunk_byte_for_byte(tmp_path: Path) -> None:
    raw = b'{"type":"data-x","data":{"b":1,"a":[1.50,2]}}'  # key order and number text kept
    recording = Recording()
    recording.add(raw, 3.0)
    assert next(recording.lines()) == raw[:-1] + b',"mnReceivedMs":3.0}'


def test_loading_a_recording_leaves_the_callers_chunks_alone() -> None:
    chunks = [{**TEXT, "mnReceivedMs": 5.0}]
    recording = Recording.load(chunks)
    assert chunks == [{**TEXT, "mnReceivedMs": 5.0}]
    assert recording.times == [5.0]
    assert recording.chunk(0) == TEXT


def test_every_loop_iteration_of_a_workflow_step_shows_in_the_transcript() -> None:
    chunks: list[dict[str, Any]] = [
        {"type": "workflow-start", "runId": "w", "payload": {"workflowId": "loop"}}
    ]
    for i in range(3):
        step = {"stepName": "count", "stepCallId": f"c{i}"}
        chunks.append({"type": "workflow-step-start", "runId": "w", "payload": step})
        chunks.append(
            {
                "type": "workflow-step-result",
                "runId": "w",
                "payload": {**step, "status": "success", "output": {"n": f"iteration-{i}"}},
            }
        )
    result = mn.collect(chunks)
    assert [step.output for step in result.workflow.steps] == [{"n": f"iteration-{i}"} for i in range(3)]  # type: ignore[union-attr]
    html = render_html(result)
    assert html.count('data-kind="workflow-step"') == 3  # one card each, folded to "→ {n: ...}"
    assert all(f"iteration-{i}" in html for i in range(3))


def test_a_reused_tool_call_id_shows_both_calls_in_the_transcript() -> None:
    chunks = []
    for city in ("Paris", "Berlin"):
        chunks.append({"type": "step-start", "runId": "r", "payload": {}})
        chunks.append(
            {
                "type": "tool-call",
                "runId": "r",
                "payload": {"toolCallId": "call_0", "toolName": "w", "args": {"city": city}},
            }
        )
        chunks.append(
            {
                "type": "tool-result",
                "runId": "r",
                "payload": {"toolCallId": "call_0", "result": f"{city}-result"},
            }
        )
        chunks.append(
            {"type": "step-finish", "runId": "r", "payload": {"stepResult": {"reason": "tool-calls"}}}
        )
    result = mn.collect(chunks)
    assert [call.result for call in result.tool_calls] == ["Paris-result", "Berlin-result"]
    assert [[call.args for call in step.tool_calls] for step in result.steps] == [
        [{"city": "Paris"}],
        [{"city": "Berlin"}],
    ]
    html = render_html(result)
    assert html.count('data-kind="tool"') == 2  # one card each, folded to "w(city=...) → ..."
    assert "Paris-result" in html
    assert "Berlin-result" in html


def test_feeding_a_replay_folds_the_fed_chunk(recording_comm: RecordingComm) -> None:
    replay = mn.replay(fixture_path("plain-text"), autoplay=False)
    replay.seek(3)
    replay.feed({"type": "text-delta", "runId": "x", "payload": {"id": "late", "text": "THE END"}})
    assert replay.position == replay.total
    assert replay.result.text.endswith("THE END")
    assert replay.result.text.startswith(mn.collect(fixture_path("plain-text")).text)


def test_a_view_fed_by_hand_sends_its_last_ops_without_end(recording_comm: RecordingComm) -> None:
    async def scenario() -> None:
        view = mn.view()
        for index in range(5):
            view.feed({**TEXT, "payload": {"id": "t", "text": f"<{index}>"}})
        await asyncio.sleep(FLUSH_INTERVAL * 3)  # on the fake clock: the loop is free, what was fed left
        sent = "".join(
            op[3]
            for message in recording_comm.custom()
            if message.get("t") == "ops"
            for op in message["ops"]
            if op[0] == "append"
        )
        assert sent.endswith("<4>")

    run_on_fake_clock(scenario())


def test_an_error_in_a_browser_message_shows_in_the_view(recording_comm: RecordingComm) -> None:
    view = mn.view()
    view.feed(TEXT)
    view._on_browser_message(view, {"t": "approve", "tool_call_id": "nope"}, [])  # not a live view
    banners = [part for part in view.result.parts if part.kind == "banner"]
    assert banners[-1].type == "error"
    assert "approve failed" in (banners[-1].text or "")
    assert "not connected to a Mastra server" in (banners[-1].text or "")


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda path: path.stem)
def test_steps_equal_mastras_own_step_results(path: Path) -> None:
    """Each finished step as Mastra's step-finish reports it: text, finish reason, tool calls. A step
    still open when the stream ended (aborted, waiting for approval) comes last, unfinished."""
    finishes = [
        chunk for chunk in map(orjson.loads, path.read_bytes().splitlines()) if chunk["type"] == "step-finish"
    ]
    result = mn.collect(path)
    theirs = [
        (
            chunk["payload"]["output"].get("text", ""),
            chunk["payload"]["stepResult"]["reason"],
            [call["toolCallId"] for call in chunk["payload"]["output"].get("toolCalls", [])],
        )
        for chunk in finishes
    ]
    ours = [
        (step.text, step.finish_reason, [call.tool_call_id for call in step.tool_calls])
        for step in result.steps
    ]
    assert ours[: len(theirs)] == theirs
    assert all(step.finish_reason is None for step in result.steps[len(theirs) :])
    assert len(result.steps) - len(theirs) <= 1


def test_an_inspector_row_names_the_envelope_its_json_shows() -> None:
    """A row labelled ``start``/``AGENT`` opened JSON that said ``tool-output``/``USER``: an envelope's
    entry names its outer chunk as well as the one it carries."""
    from mastra_notebook.core.recording import describe

    chunks = [orjson.loads(line) for line in fixture_path("agent-as-tool").read_bytes().splitlines()]
    nested = next(chunk for chunk in chunks if chunk["type"] == "tool-output")
    entry = describe(nested)
    assert entry["outer"] == {"type": "tool-output", "from": nested.get("from")}
    assert (entry["type"], entry["from"]) == (nested["payload"]["output"]["type"], "AGENT")
    assert "outer" not in describe(chunks[0])  # a plain chunk is its own JSON


# ---- one status vocabulary (issue 17): every status shown in the word of one table --------------

_RUN_STATUSES = ("running", "finished", "error", "aborted", "tripwire", "suspended", "incomplete")


def _shown_statuses(html: str) -> list[str]:
    """Every status word the transcript shows where it shows one: each status badge (the header's, a
    run's, a workflow's, a tool's, a step's, a task's) and the footer's status."""
    from html import unescape

    badges = re.findall(
        r'<span class="mn-badge(?! mn-overridden)[^"]*"(?![^>]*data-state="scoring")[^>]*>([^<]*)</span>',
        html,
    )
    footer = re.findall(r'data-stat="status"[^>]*><span class="mn-stat-value"[^>]*>([^<]*)</span>', html)
    # a sandbox's exit code is set as a badge too (data.ts): a code, not a status
    return [unescape(word) for word in badges + footer if not re.fullmatch(r"exit -?\d+", word)]


def test_the_table_names_every_status_the_code_keeps_once() -> None:
    """Every RunResult status, tool call status, Mastra step and task status and header state has a
    word; no word is a key that says something else (``aborted`` is "stopped" everywhere)."""
    from typing import get_args

    from mastra_notebook.core.handlers.tasks import _TASK_STATES
    from mastra_notebook.core.handlers.workflow import _WORKFLOW_STATUS
    from mastra_notebook.core.result import Status
    from mastra_notebook.core.status_words import STATUSES, WORDS, status_word

    tool_statuses = {"streaming-args", "running", "done", "error", "awaiting-approval", "suspended", "denied"}
    header_states = {"queued", "starting", "streaming", "paused", "approval"}
    needed = {*get_args(Status), *tool_statuses, *_WORKFLOW_STATUS, *_TASK_STATES, "completed", "failed"}
    assert needed | header_states <= set(STATUSES)
    assert all(status_word(word) == word for word in WORDS if word in STATUSES)
    assert {status_word(s) for s in ("aborted", "canceled", "cancelled")} == {"stopped"}
    assert status_word("awaiting-approval") == status_word("approval") == "waiting for approval"
    assert status_word("denied") == "declined"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda path: path.stem)
def test_every_fixture_shows_only_the_tables_status_words(path: Path) -> None:
    from mastra_notebook.core.status_words import WORDS, status_word

    result = mn.collect(path)
    shown = _shown_statuses(render_html(result))
    assert shown, "the footer says the run's status at least"
    assert set(shown) <= WORDS, set(shown) - WORDS
    assert status_word(result.status) in shown
    rows = dict(mn.compare(result, result).rows())
    assert set(rows["status"]) == {status_word(result.status)}
    for key, cells in rows.items():
        if key.startswith("tool call"):
            assert {re.search(r"\) \[(.*?)\] →", cell)[1] for cell in cells} <= WORDS  # type: ignore[index]


def test_every_status_of_the_table_is_shown_in_its_word_on_every_card() -> None:
    from mastra_notebook.core.status_words import BANNERS, STATUSES, WORDS, status_word
    from mastra_notebook.render.transcript import render_ops as render_tree

    ops: list[Any] = [["add", None, {"id": "root", "kind": "run", "status": "running"}]]
    for i, status in enumerate(STATUSES):
        ops += [
            [
                "add",
                "root",
                {"id": f"t{i}", "kind": "tool", "tool_call_id": f"c{i}", "tool_name": "t", "status": status},
            ],
            ["add", "root", {"id": f"s{i}", "kind": "workflow-step", "step_name": f"s{i}", "status": status}],
            ["add", "root", {"id": f"k{i}", "kind": "background-task", "task_id": f"k{i}", "status": status}],
        ]
    shown = _shown_statuses(render_tree(ops))
    assert len(shown) >= 3 * len(STATUSES)
    assert set(shown) <= WORDS
    for status in _RUN_STATUSES:
        html = render_tree([["add", None, {"id": "root", "kind": "run", "status": status}]])
        assert _shown_statuses(html) == [status_word(status)] * 2  # the header's badge and the footer
        assert (BANNERS.get(status) or "") in html


def test_the_bundle_carries_pythons_table() -> None:
    """The widget's bundle (built from js/src/status-words.ts, which imports the JSON) holds the table
    as Python reads it: a table changed without a rebuild fails here."""
    from mastra_notebook.core.status_words import TABLE

    def js(value: Any) -> str:  # as esbuild writes a JSON import into the minified bundle
        if isinstance(value, dict):
            keys = (key if key.isidentifier() else orjson.dumps(key).decode() for key in value)
            return (
                "{"
                + ",".join(f"{key}:{js(item)}" for key, item in zip(keys, value.values(), strict=True))
                + "}"
            )
        return orjson.dumps(value).decode()

    bundle = (Path(mn.__file__).parent / "static" / "widget.js").read_text("utf-8")
    for part in ("statuses", "decisions", "banners"):
        assert js(TABLE[part]) in bundle, part
