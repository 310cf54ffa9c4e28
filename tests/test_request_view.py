"""A step's request in the view (issue 19, part 2): the kernel labels each step's request once
(``request_summary``) or says why it has none (``request_reason``); the widget's "Request" toggle asks
the kernel for it when opened, and the answer is bounded; the transcript and the export page carry
each step's request folded, bounded the same way, escaped."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.core.captions import new_messages_from, request_summary
from mastra_notebook.core.ingest import records
from mastra_notebook.core.request import NO_BODY_REASON, normalise_request
from mastra_notebook.core.request_bounded import PAGE, WIRE, bounded_request, request_reply, requests_by_node
from mastra_notebook.core.run import Run
from mastra_notebook.render.transcript import render_html
from mastra_notebook.widget.export import page_html

from .providers import PROVIDER_FIXTURES
from .request_bodies import anthropic_body, big_request_chunks, one_step

HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


def run_of(chunks: list[dict[str, Any]] | Path) -> Run:
    run = Run()
    for item in records(chunks) if isinstance(chunks, Path) else chunks:
        run.feed(item)
    run.end()
    return run


def steps_of(run: Run) -> list[dict[str, Any]]:
    return [op[2] for op in run.snapshot() if op[2].get("kind") == "step"]


# ---- the label and the reason -----------------------------------------------------------------


def test_label_says_system_messages_history_tools_and_temperature() -> None:
    request = normalise_request(anthropic_body("now", history=4, tools=2))
    history = new_messages_from(request, None)
    assert history == 4  # the last user message is this turn's: the four before it are history
    assert request_summary(request, history) == "system · 5 messages (4 history) · 2 tools · temperature 0.3"
    assert (
        request_summary(normalise_request({"messages": [{"role": "user", "content": "hi"}]})) == "1 message"
    )
    assert request_summary(normalise_request({"model": "x", "messages": 2})) == "body as sent"


def test_a_later_step_counts_the_messages_of_the_step_before_as_history() -> None:
    run = run_of(PROVIDER_FIXTURES / "anthropic-tools.jsonl")
    assert [step.get("request_summary") for step in steps_of(run)] == [
        "system · 1 message · 1 tool",
        "system · 3 messages (1 history) · 1 tool",
    ]
    assert all(step.get("request_reason") is None for step in steps_of(run))


def test_every_real_provider_recording_labels_its_steps() -> None:
    for path in sorted(PROVIDER_FIXTURES.glob("*.jsonl")):
        for step in steps_of(run_of(path)):
            label = step.get("request_summary")
            assert (label and "message" in label) or step.get("request_reason"), (path.name, step)


def test_a_redacted_body_says_what_to_turn_on_on_the_server() -> None:
    (step,) = steps_of(run_of(one_step({})))
    assert step.get("request_summary") is None
    assert step["request_reason"] == NO_BODY_REASON
    assert "redact: false" in step["request_reason"]


def test_the_body_is_normalised_once_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    from mastra_notebook.core import result_from_state, state

    calls: list[Any] = []
    real = state.normalise_request

    def counting(body: Any, hint: str | None = None) -> Any:
        calls.append(hint)
        return real(body, hint)

    monkeypatch.setattr(state, "normalise_request", counting)
    monkeypatch.setattr(result_from_state, "normalise_request", counting)
    run = run_of(PROVIDER_FIXTURES / "anthropic-tools.jsonl")
    for _ in range(3):
        assert run.result.steps[1].request is not None
    # each step's body read when it starts; the first step's once more for the provider its finish named
    assert len(calls) == 3


# ---- the bounded reply -------------------------------------------------------------------------


def test_a_200_kb_request_is_bounded_on_the_wire_and_says_where_the_whole_is() -> None:
    run = run_of(big_request_chunks())
    (node,) = steps_of(run)
    reply = request_reply(run.snapshot(), run.result, node["id"])
    size = len(orjson.dumps(reply))
    assert size <= WIRE.whole, size
    request = reply["request"]
    assert request["cut"] is True
    assert reply["where"] == request["where"] == "result.steps[0].request"
    assert request["system"].startswith("Be exact.")
    assert "more characters]" in request["system"]
    assert len(request["system"]) < 5_000
    # this step's new messages come first: the prompt and the tool round trip are all there
    new = [message for message in request["messages"] if message["new"]]
    assert [message["role"] for message in new] == ["user", "assistant", "tool"]
    assert request["message_count"] == 43
    assert request["tool_count"] == 30
    assert request["omitted"]  # what did not fit is counted, not silently dropped
    assert sum(request["omitted"].values()) + len(request["messages"]) + len(request["tools"]) == 73


def test_a_page_carries_less_of_each_step() -> None:
    run = run_of(big_request_chunks())
    (found,) = requests_by_node(run.snapshot(), run.result).values()
    assert len(orjson.dumps(found.shown(PAGE))) <= PAGE.whole


def test_inline_image_data_is_never_carried() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "A" * 40_000}}
    body = {
        "system": "s",
        "messages": [{"role": "user", "content": [image, {"type": "text", "text": "what?"}]}],
    }
    shown = bounded_request(normalise_request(body, "anthropic.messages"))
    part = shown["messages"][0]["parts"][0]
    assert part == {"type": "image", "media_type": "image/png", "size_label": "29 KB inline"}


def test_the_reply_names_nested_runs_by_their_place_in_the_result() -> None:
    run = run_of(PROVIDER_FIXTURES / "anthropic-tools.jsonl")
    found = requests_by_node(run.snapshot(), run.result)
    assert [item.where for item in found.values()] == ["result.steps[0].request", "result.steps[1].request"]
    assert request_reply(run.snapshot(), run.result, "nope")["request"] is None


def test_the_view_answers_the_toggle(monkeypatch: pytest.MonkeyPatch) -> None:
    view = mn.StreamView()
    sent: list[Any] = []
    monkeypatch.setattr(view, "send", lambda content, buffers=None: sent.append(content))
    for chunk in big_request_chunks():
        view.feed(chunk)
    node_id = next(op[2]["id"] for op in view.run.snapshot() if op[2]["kind"] == "step")
    view._on_browser_message(view, {"t": "request", "id": node_id}, [])
    (reply,) = [message for message in sent if message.get("t") == "request"]
    assert reply["id"] == node_id
    assert reply["request"]["system"].startswith("Be exact.")
    assert len(orjson.dumps(reply)) <= WIRE.whole + 100
    # the request is no node field: the snapshot the view sends carries only the label
    assert len(orjson.dumps(view.run.snapshot())) < 2_000


# ---- the transcript and the export page --------------------------------------------------------


class _Folds(HTMLParser):
    """Whether every request sits in a closed <details>, and no markup came from a value."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[bool] = []  # each request fold: opened?
        self.tags: set[str] = set()
        self.fold: bool | None = None  # the last disclosure opened? (its panel follows)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        classes = (names.get("class") or "").split()
        self.tags.add(tag)
        if tag == "details" and "mn-disclosure" in classes:
            self.fold = "open" in names
        elif tag == "div" and "mn-request" in classes and self.fold is not None:
            self.requests.append(self.fold)
            self.fold = None


def hostile_chunks() -> list[dict[str, Any]]:
    body = anthropic_body(HOSTILE, tools=1)
    body["system"] = HOSTILE
    body["tools"][0]["name"] = HOSTILE
    return one_step(body)


def test_the_transcript_carries_each_request_folded_and_escaped() -> None:
    html = render_html(mn.collect(PROVIDER_FIXTURES / "anthropic-tools.jsonl"))
    folds = _Folds()
    folds.feed(html)
    assert folds.requests == [False, False]
    assert "Request · system · 3 messages (1 history) · 1 tool" in html
    assert "Please update the issue list, then say hello." in html
    assert "updateIssueList" in html

    hostile = render_html(run_of(hostile_chunks()).result)
    folds = _Folds()
    folds.feed(hostile)
    assert "script" not in folds.tags
    assert "img" not in folds.tags
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in hostile


def test_a_transcript_of_a_redacted_run_says_why() -> None:
    html = render_html(run_of(one_step({})).result)
    assert "Request · not carried" in html
    assert "redact: false" in html


def test_the_export_page_embeds_each_request_for_its_toggle() -> None:
    page = page_html(run_of(hostile_chunks()), "agent")
    data = json.loads(page.split('<script type="application/json" id="mn-data">')[1].split("</script>")[0])
    (shown,) = data["requests"].values()
    assert shown["request"]["system"] == HOSTILE
    assert "<script>alert(2)" not in page  # in the page's JSON and its transcript, escaped
    folds = _Folds()
    folds.feed(page.split('<div id="mn-view">')[1].split("<script")[0])
    assert folds.requests == [False]


def test_a_step_redacted_in_the_stream_is_labelled_from_the_trace_once_filled() -> None:
    run = run_of(one_step({}))
    ops: list[Any] = []
    run.tree.sink = ops.append
    traced = normalise_request(anthropic_body("hello", history=2, tools=1)).model_copy(
        update={"source": "trace"}
    )
    run.fill_requests([traced])
    (step,) = steps_of(run)
    assert (
        step["request_summary"]
        == "system · 3 messages (2 history) · 1 tool · temperature 0.3 · from the trace"
    )
    assert step.get("request_reason") is None
    assert ops  # a live view hears it
    (found,) = requests_by_node(run.snapshot(), run.result).values()
    assert found.shown()["request"]["source"] == "trace"
