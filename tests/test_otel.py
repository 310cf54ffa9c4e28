"""OpenTelemetry out and in: a run exported as GenAI spans (OTLP/JSON, through the SDK) and read back by
``mn.collect`` / ``mn.view`` as the same run, for what the conventions carry."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import Item, Outcome
from mastra_notebook.analysis.pairwise import Judged, Pairwise, Verdict
from mastra_notebook.core import otlp
from mastra_notebook.core.feedback import make

from .made_experiments import experiment_of
from .otel_runs import FIXTURE, attributes, carried, spans, timed_run

pytest.importorskip("opentelemetry.sdk", reason="the otel extra (the test dependency group has it)")
from mastra_notebook.otel import OtelRun, export_otel


def test_a_run_is_invoke_agent_with_chat_and_execute_tool_spans_and_evaluation_events(tmp_path: Path) -> None:
    result = timed_run(tmp_path)
    exported = export_otel(result, tmp_path / "run.otlp.json")
    found = spans(orjson.loads((tmp_path / "run.otlp.json").read_bytes()))
    assert exported.spans == len(found) == 4
    by_name = {s["name"]: s for s in found}
    root = by_name["invoke_agent weather"]
    assert "parentSpanId" not in root or not root["parentSpanId"]
    assert sorted(s["name"] for s in found if s.get("parentSpanId") == root["spanId"]) == [
        "chat mock-weather",
        "chat mock-weather",
        "execute_tool getWeather",
    ]
    tool = attributes(by_name["execute_tool getWeather"])
    assert tool[otlp.OPERATION] == "execute_tool"
    assert orjson.loads(tool[otlp.TOOL_ARGUMENTS]) == {"city": "Paris"}
    assert orjson.loads(tool[otlp.TOOL_RESULT])["temperatureC"] == 18
    chats = [attributes(s) for s in found if s["name"].startswith("chat")]
    assert [c["gen_ai.usage.input_tokens"] for c in chats] == [19, 60]
    assert {c[otlp.RESPONSE_MODEL] for c in chats} == {"mock-weather"}
    events = {otlp.plain_attributes(e["attributes"])[otlp.EVALUATION_NAME]: e for e in root["events"]}
    assert {e["name"] for e in root["events"]} == {"gen_ai.evaluation.result"}
    score = otlp.plain_attributes(events["exact"]["attributes"])
    assert (score[otlp.EVALUATION_VALUE], score[otlp.EVALUATION_LABEL]) == (1.0, "pass")
    label = otlp.plain_attributes(events["label"]["attributes"])
    assert (label[otlp.EVALUATION_LABEL], label[otlp.EVALUATION_EXPLANATION]) == ("up", "good answer")
    # timed by the run, not by the export: the root span starts when the run did
    assert int(root["startTimeUnixNano"]) == otlp.ns(result.started_at, 0)
    assert int(root["endTimeUnixNano"]) == otlp.ns(result.finished_at, 0)


def test_a_round_trip_gives_the_same_run(tmp_path: Path) -> None:
    original = timed_run(tmp_path)
    first = export_otel(original, tmp_path / "first.json").document
    read = mn.collect(tmp_path / "first.json")
    chats = sorted(
        (s for s in spans(first) if s["name"].startswith("chat")), key=lambda s: int(s["startTimeUnixNano"])
    )
    # the conventions have no first token's time: a step's text arrives as its model call ends
    assert [otlp.ns(step.first_token_at, 0) for step in read.steps] == [
        int(c["endTimeUnixNano"]) for c in chats
    ]
    export_otel(read, tmp_path / "second.json")
    again = mn.collect(tmp_path / "second.json")
    assert again.model_dump() == read.model_dump()  # export, ingest, export again, read: the same RunResult
    assert carried(read) == carried(original)  # and what the conventions carry is the original's
    assert read.started_at == original.started_at


def test_mn_view_reads_an_otlp_export_as_collect_does(tmp_path: Path) -> None:
    original = timed_run(tmp_path)
    export_otel(original, tmp_path / "run.json")
    streamed = mn.stream(tmp_path / "run.json").wait(timeout=30)
    assert carried(streamed) == carried(original)


def test_read_otel_reads_every_run_of_an_export_and_collect_says_it_read_the_first(tmp_path: Path) -> None:
    base = timed_run(tmp_path)
    runs = [
        base.model_copy(update={"run_id": f"run-{n}", "feedback": make("up", n, f"answer {n}")})
        for n in (1, 2, 3)
    ]
    export_otel(runs, tmp_path / "runs.json")
    read = mn.read_otel(tmp_path / "runs.json")
    assert [carried(r) for r in read] == [carried(r) for r in runs]  # each run whole, in the export's order
    with pytest.warns(
        UserWarning, match=r"holds 3 runs: the first is read; mn.read_otel\(source\) reads every"
    ):
        first = mn.collect(tmp_path / "runs.json")
    assert carried(first) == carried(runs[0])
    export_otel(runs[0], tmp_path / "one.json")
    assert [carried(r) for r in mn.read_otel(tmp_path / "one.json")] == [carried(runs[0])]
    with pytest.raises(ValueError, match="no OpenTelemetry export of spans"):
        mn.read_otel(FIXTURE)


def test_a_pretty_printed_export_and_one_per_line_are_read(tmp_path: Path) -> None:
    original = timed_run(tmp_path)
    document = export_otel(original, tmp_path / "run.json").document
    (tmp_path / "pretty.json").write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
    (tmp_path / "lines.jsonl").write_bytes(
        orjson.dumps(document) + b"\n" + orjson.dumps({"resourceSpans": []})
    )
    for name in ("pretty.json", "lines.jsonl"):
        assert carried(mn.collect(tmp_path / name)) == carried(original)


def test_a_recording_that_mentions_resource_spans_is_read_as_a_recording() -> None:
    """Only a document whose first field is ``resourceSpans`` is an export: a recording whose garbage
    line (or a tool's text) names it is read as a recording, the line kept and reported (hypothesis
    found a garbage line '"resource_spans"' read as a broken export, and collect raised)."""
    lines = FIXTURE.read_bytes().splitlines()
    for garbage in (b'"resource_spans"', b'{"note": "resourceSpans"}', b'{"resourceSpans": [], oops'):
        mixed = mn.collect(b"\n".join([lines[0], garbage, *lines[1:]]))
        assert [invalid.raw for invalid in mixed.invalid] == [garbage.decode()]
        assert mixed.text == mn.collect(FIXTURE).text
    assert otlp.documents(b'{"resourceSpans": [], oops\n') is None  # an export that is no JSON: a recording


def snake(value: Any) -> Any:
    """OTLP/JSON with the proto field names (``resource_spans``, ``string_value``), as Phoenix writes it."""
    if isinstance(value, dict):
        return {re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), k): snake(v) for k, v in value.items()}
    return [snake(item) for item in value] if isinstance(value, list) else value


def test_the_proto_field_names_are_read_too(tmp_path: Path) -> None:
    original = timed_run(tmp_path)
    document = snake(export_otel(original, tmp_path / "run.json").document)
    assert "resource_spans" in document
    (tmp_path / "snake.json").write_bytes(orjson.dumps(document))
    assert carried(mn.collect(tmp_path / "snake.json")) == carried(original)


def test_the_spans_join_mastras_trace_under_its_root_span(tmp_path: Path) -> None:
    result = timed_run(tmp_path).model_copy(update={"trace_id": "ab" * 16})
    exported = export_otel(OtelRun(result, parent_span_id="cd" * 8), tmp_path / "joined.json")
    found = spans(exported.document)
    assert {s["traceId"] for s in found} == {"ab" * 16}
    assert exported.trace_ids == ("ab" * 16,)
    root = next(s for s in found if s["name"].startswith("invoke_agent"))
    assert root["parentSpanId"] == "cd" * 8
    alone = spans(export_otel(result, tmp_path / "alone.json").document)  # no root span known: a root
    assert {s["traceId"] for s in alone} == {"ab" * 16}
    assert not next(s for s in alone if s["name"].startswith("invoke_agent")).get("parentSpanId")


def test_secrets_are_hidden_as_the_transport_hides_them(tmp_path: Path) -> None:
    result = timed_run(tmp_path)
    call = result.tool_calls[0].model_copy(update={"result": {"echo": "Bearer sk-live-123456"}})
    step = result.steps[0].model_copy(update={"tool_calls": [call]})
    result = result.model_copy(update={"steps": [step, *result.steps[1:]], "tool_calls": [call]})
    redact = mn.MastraClient("http://localhost:1", token="tok-secret-99").transport.redact
    leaked = result.model_copy(update={"text": "the token is tok-secret-99"})
    export_otel(
        leaked, tmp_path / "r.json", redact=redact, headers={"Authorization": "Bearer sk-live-123456"}
    )
    text = (tmp_path / "r.json").read_text()
    assert "tok-secret-99" not in text
    assert "sk-live-123456" not in text
    assert "<hidden>" in text


def test_an_experiment_exports_variants_repeats_inputs_and_pairwise_verdicts(tmp_path: Path) -> None:
    run = timed_run(tmp_path)
    outcomes = [Outcome(0, v, 0, "finished", run) for v in ("short", "long")]
    exp = experiment_of(outcomes, [Item("Paris?", id="item-1")])
    exp.name = "weather"
    exp.verdicts["short", "long"] = Pairwise(
        "short", "long", [Judged(0, 0, "a", Verdict("first", "terse"), Verdict("second", "still terse"))], []
    )
    found = spans(exp.export_otel(tmp_path / "exp.json").document)
    roots = [s for s in found if s["name"].startswith("invoke_agent")]
    said = sorted(
        (attributes(s)[otlp.VARIANT], attributes(s)[otlp.INPUT_ID], attributes(s)[otlp.REPEAT]) for s in roots
    )
    assert said == [("long", "item-1", 0), ("short", "item-1", 0)]
    verdicts = {
        attributes(s)[otlp.VARIANT]: otlp.plain_attributes(e["attributes"])
        for s in roots
        for e in s["events"]
        if otlp.plain_attributes(e["attributes"])[otlp.EVALUATION_NAME].startswith("pairwise")
    }
    assert verdicts["short"][otlp.EVALUATION_LABEL] == "win"
    assert verdicts["long"][otlp.EVALUATION_LABEL] == "loss"


def test_without_the_extra_the_message_names_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk", None)
    with pytest.raises(ImportError, match=r"mastra-notebook\[otel\]"):
        mn.export_otel(timed_run(tmp_path), tmp_path / "x.json")


def test_an_unreachable_receiver_is_an_error(tmp_path: Path) -> None:
    from mastra_notebook.otel import ExportFailed

    with pytest.raises(ExportFailed, match="did not take the spans") as failed:
        export_otel(timed_run(tmp_path), "http://127.0.0.1:9/v1/traces", timeout=1, headers={"x-id": "0"})
    assert "http://127.0.0.1:9/v1/traces" in str(failed.value)  # a short header value is no secret


@pytest.mark.parametrize(
    ("fixture", "nested"), [("agent-as-tool", "invoke_agent"), ("workflow-as-tool", "invoke_workflow")]
)
def test_a_nested_run_is_a_span_under_its_tool_call(tmp_path: Path, fixture: str, nested: str) -> None:
    result = mn.collect(Path(__file__).parent / "fixtures" / f"{fixture}.jsonl")
    found = spans(export_otel(result, tmp_path / "nested.json").document)
    by_id = {s["spanId"]: s for s in found}
    inner = [s for s in found if attributes(s)[otlp.OPERATION] == nested and s.get("parentSpanId")]
    assert inner, [s["name"] for s in found]
    assert all(by_id[s["parentSpanId"]]["name"].startswith("execute_tool") for s in inner)
