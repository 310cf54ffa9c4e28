"""What a card shows folded is written once, by the kernel (core/captions.py), as node fields both
renderers show as they are: summaries cut as JavaScript counts (UTF-16), durations and sizes
rounded as ``toFixed`` rounds. These were format.ts's own tests while the widget wrote them."""

from __future__ import annotations

from typing import Any

import pytest

from mastra_notebook.core import captions
from mastra_notebook.core.captions import (
    captions_of,
    human_size,
    summarize_args,
    summarize_text,
    summarize_value,
    truncate,
)
from mastra_notebook.core.run import Run

RUN = {"runId": "r", "from": "AGENT"}


def chunk(kind: str, **payload: Any) -> dict[str, Any]:
    return {"type": kind, **RUN, "payload": payload}


def test_arguments_read_as_key_equals_value_first_keys_only() -> None:
    assert summarize_args({"city": "Paris", "days": 3}) == 'city="Paris", days=3'
    assert summarize_args({"q": {"deep": 1}, "list": [1, 2, 3]}) == "q={…}, list=[3]"
    many = summarize_args({f"k{i}": i for i in range(20)})
    assert len(many) <= 48
    assert many.startswith("k0=0, k1=1")
    assert many.endswith("…")
    assert summarize_args(None) == ""
    assert summarize_args({"b": 1, "2": 2, "1": 3}) == "b=1, 2=2, 1=3"  # in the order they came


def test_values_read_short_strings_by_their_first_line_objects_by_first_keys() -> None:
    assert summarize_value({"temp": 21, "sky": "clear"}) == '{temp: 21, sky: "clear"}'
    assert summarize_value("first line\nsecond") == '"first line…"'
    assert summarize_value([1, [2], {"a": 1}]) == "[1, [1], {…}]"
    assert len(summarize_value("z" * 500, 40)) == 40
    assert summarize_value(None) == "null"
    assert summarize_value(1.0) == "1"  # a whole number, whatever its type
    assert summarize_value(0.5) == "0.5"


def test_summaries_drop_direction_controls_and_cut_by_characters() -> None:
    assert summarize_text("a\u202eb\u2066c") == "abc"
    assert summarize_value({"k": "x\u202ey"}) == '{k: "xy"}'
    assert truncate("abcdef", 4) == "abc…"
    assert truncate("abc", 4) == "abc"
    # characters, not bytes or UTF-16 units: 80 emoji fit, one more is cut, and none is halved
    assert summarize_text("😀" * 80) == "😀" * 80
    assert summarize_text("😀" * 81) == "😀" * 79 + "…"


@pytest.mark.parametrize(
    ("size", "shown"),
    [(0, "0 B"), (1023, "1023 B"), (1536, "1.5 KB"), (1075, "1.0 KB"), (10 * 1024 * 1024 + 1, "10 MB")],
)
def test_sizes_round_as_to_fixed(size: int, shown: str) -> None:
    assert human_size(size) == shown


def test_a_tool_card_is_labelled_as_it_changes() -> None:
    run = Run()
    run.start(at_ms=1000)
    run.feed(
        {**chunk("tool-call-input-streaming-start", toolCallId="c1", toolName="weather"), "mnReceivedMs": 0}
    )
    tool = next(node for node in run.state.node.children if node.kind == "tool")
    assert tool.fields.get("args_summary") is None  # still streaming: "(…)"
    run.feed(
        {**chunk("tool-call", toolCallId="c1", toolName="weather", args={"city": "Paris"}), "mnReceivedMs": 5}
    )
    assert tool.fields["args_summary"] == 'city="Paris"'
    run.feed(
        {
            **chunk("tool-result", toolCallId="c1", toolName="weather", result={"temp": 18}),
            "mnReceivedMs": 1255,
        }
    )
    assert tool.fields["outcome"] == "→ {temp: 18}"
    assert tool.fields["duration"] == "1.3 s"  # 1250 ms: toFixed rounds the half up


def test_a_declined_call_and_an_error_say_so() -> None:
    denied = captions_of("tool", {"status": "denied", "denied_reason": "not now\nreally"})
    assert denied["outcome"] == "→ declined: not now…"
    failed = captions_of("tool", {"status": "error", "error": {"name": "TypeError", "message": "bad"}})
    assert failed["outcome"] == "→ error: TypeError: bad"
    assert captions_of("workflow-step", {"error": {"code": 1}})["outcome"] == "→ error: {…"
    assert captions_of("workflow-step", {"output": {"ok": True}})["outcome"] == "→ {ok: true}"


def test_a_tool_holding_a_run_says_its_answer() -> None:
    fields = {"status": "done", "result": {"text": "It is sunny.", "subAgentThreadId": "t"}}
    assert captions_of("tool", fields, nested=True)["outcome"] == '→ "It is sunny."'
    assert captions_of("tool", fields)["outcome"].startswith("→ {text:")


def test_a_decision_says_the_wait() -> None:
    assert captions.waited(8700) == "8.7 s"
    assert captions.waited(None) is None
