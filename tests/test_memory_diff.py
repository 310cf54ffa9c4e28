"""What memory did in a chat turn, computed without a server: the messages recalled (a finish
chunk's ``all`` minus ``user`` minus ``nonUser``, matched by value) and the working memory's diff,
drawn as inert HTML whatever the text holds."""

from __future__ import annotations

import html
from html.parser import HTMLParser
from typing import Any

import orjson
import pytest

from mastra_notebook.client.memory import RecalledMessage, message_text, recalled
from mastra_notebook.render.transcript import render_ops
from mastra_notebook.widget.conversation import RECALLED_CHARS, memory_html, working_diff

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">&amp; "quoted" \u202e'


def text(role: str, value: str) -> dict[str, Any]:
    return {"role": role, "content": [{"type": "text", "text": value}]}


def finish(all_: list[Any], user: list[Any], non_user: list[Any]) -> dict[str, Any]:
    messages = {"all": all_, "user": user, "nonUser": non_user}
    return {"type": "finish", "runId": "r", "payload": {"messages": messages}}


def test_recalled_is_all_minus_this_turns_input_and_output_matched_by_value() -> None:
    earlier_q, earlier_a = text("user", HOSTILE), text("assistant", "Noted.")
    call = {
        "role": "assistant",
        "content": [{"type": "tool-call", "toolName": "updateWorkingMemory", "input": {"memory": HOSTILE}}],
    }
    result = {
        "role": "tool",
        "content": [
            {"type": "tool-result", "toolName": "updateWorkingMemory", "output": {"type": "json", "value": 1}}
        ],
    }
    now_q, now_a = text("user", "Noted."), text("assistant", "Noted.")  # same words, other roles
    chunks = [
        {"type": "start"},
        finish([earlier_q, earlier_a, now_q, call, result, now_a], [now_q], [call, result, now_a]),
    ]
    assert recalled(chunks) == [
        RecalledMessage(role="user", text=HOSTILE),
        RecalledMessage(role="assistant", text="Noted."),  # the earlier answer: now_a removed only once
    ]
    assert message_text(call) == f'called updateWorkingMemory({{"memory":{_json(HOSTILE)}}})'
    assert message_text(result) == "updateWorkingMemory returned 1"


def test_a_turn_of_several_requests_recalls_what_its_first_request_recalled() -> None:
    earlier, prompt = text("user", "earlier"), text("user", "call lookup")
    call = {"role": "assistant", "content": [{"type": "tool-call", "toolName": "lookup", "input": {}}]}
    answer = text("assistant", "done")
    chunks = [  # a client tool's round: the second request recalls the turn's own first messages too
        finish([earlier, prompt, call], [prompt], [call]),
        finish([earlier, prompt, call, call, answer], [], [call, answer]),
    ]
    assert recalled(chunks) == [RecalledMessage(role="user", text="earlier")]


def test_no_finish_or_a_finish_without_messages_recalls_nothing() -> None:
    assert recalled([]) == []
    assert recalled([{"type": "finish", "payload": {"stepResult": {"reason": "stop"}}}]) == []
    assert recalled([{"type": "finish", "payload": {"messages": {"all": "nonsense"}}}]) == []


def test_the_working_memory_diff_marks_added_removed_and_kept_lines() -> None:
    before = "# User\n- Name: Ada\n- Location:"
    after = "# User\n- Name: Ada\n- Location: Lyon"
    assert working_diff(before, after) == [
        (" ", "# User"),
        (" ", "- Name: Ada"),
        ("-", "- Location:"),
        ("+", "- Location: Lyon"),
    ]
    assert working_diff(None, "a") == [("+", "a")]
    assert working_diff(None, None) == []


class Tags(HTMLParser):
    """Every tag and attribute name the HTML opens: what a browser would make of it."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}

    def handle_data(self, data: str) -> None:
        self.text += data


def test_hostile_text_renders_inert_and_whole() -> None:
    shown = memory_html([(HOSTILE, HOSTILE)], "keep\n" + HOSTILE, "keep\n" + HOSTILE + "!", HOSTILE)
    parsed = Tags()
    parsed.feed(shown)
    assert parsed.tags <= {"div", "details", "summary", "ol", "li", "span", "bdi"}
    assert parsed.attributes <= {"class", "style", "data-role", "data-mark", "open", "dir"}
    # the recalled role and text, the removed line, the added line (HOSTILE + "!"), the note
    assert parsed.text.count(HOSTILE) == 5
    assert HOSTILE + "!" in parsed.text
    assert "Recalled 1 message" in parsed.text
    assert "Working memory: +1 -1 lines" in parsed.text


def test_only_what_there_is_to_show_is_drawn() -> None:
    assert memory_html([], None, None) == ""
    unchanged = memory_html([], "same", "same")
    assert "Working memory: unchanged" in unchanged
    assert '<details class="mn-memory-working">' in unchanged  # folded: nothing changed
    assert "mn-memory-recalled" not in unchanged
    note = memory_html([], None, None, "agent a has no memory: give it a Memory")
    assert "mn-memory-note" in note
    assert "Working memory" not in note


def test_a_long_recalled_message_is_cut_with_its_length() -> None:
    long = "x" * (RECALLED_CHARS * 3)
    shown = memory_html([("user", long)], None, None)
    assert f"{'x' * RECALLED_CHARS}… ({len(long)} characters)" in html.unescape(shown)
    assert "x" * (RECALLED_CHARS + 1) not in shown


def _json(value: str) -> str:
    return orjson.dumps(value).decode()


def _om_card(type_: str, data: object) -> Tags:
    """An observational-memory marker's card, as the transcript draws it (js/src/render/data.ts)."""
    html = render_ops(
        [
            ["add", None, {"id": "root", "kind": "run", "status": "finished"}],
            ["add", "root", {"id": "d", "kind": "data", "type": type_, "data": data}],
        ]
    )
    card = html[html.index('data-node-id="d"') - 50 :]
    drawn = Tags()
    drawn.feed(card[card.index("<") : card.index("</div></div></div>")])
    return drawn


@pytest.mark.parametrize(
    ("type_", "data", "said"),
    [
        ("data-om-status", {"windows": {"active": {"messages": {"tokens": 48, "threshold": 60}}}},
         "status: messages 48 of 60 tokens before observing"),
        ("data-om-observation-start", {"tokensToObserve": 116}, "observing 116 tokens"),
        ("data-om-status", "nonsense", "status: messages ? of ? tokens before observing"),
        ("data-om-buffering-start", None, "buffering-start"),
    ],
)  # fmt: skip
def test_observational_memory_markers_say_what_they_are_in_the_transcript(
    type_: str, data: object, said: str
) -> None:
    assert f"Observational memory{said}" in _om_card(type_, data).text


def test_an_observation_s_text_is_inert_in_the_transcript() -> None:
    end = {"tokensObserved": 116, "observationTokens": 65, "durationMs": 119.0, "observations": HOSTILE}
    drawn = _om_card("data-om-observation-end", end)
    assert drawn.text.startswith("Observational memoryobserved 116 tokens into 65 in 119 ms")
    assert "<script>alert(1)</script>" in drawn.text  # the value, as text
    assert drawn.tags <= {"div", "span", "bdi", "pre", "summary", "details"}
