"""The static transcript (the widget's renderers run in the kernel: render/engine.py): hostile payloads
render inert, the widget's banners and image types, a RunResult without its view tree."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core.captions import summarize_args
from mastra_notebook.core.numbers import format_duration, format_int
from mastra_notebook.core.result import RunResult, view_snapshot
from mastra_notebook.core.run import Run
from mastra_notebook.render.transcript import render_html, render_ops, requests_of

from . import hostile as h
from .conftest import RecordingComm, fixture_path
from .parity_text import visible_text

RUN = {"runId": "r", "from": "AGENT"}
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def chunk(kind: str, **payload: Any) -> dict[str, Any]:
    return {"type": kind, **RUN, "payload": payload}


def run_of(chunks: list[dict[str, Any]], *, end: bool = True) -> Run:
    run = Run()
    for item in chunks:
        run.feed(item)
    if end:
        run.end()
    return run


def tool_run(name: str, args: Any, result: Any) -> Run:
    return run_of(
        [
            chunk("start"),
            chunk("tool-call", toolCallId="c1", toolName=name, args=args),
            chunk("tool-result", toolCallId="c1", toolName=name, result=result),
            chunk("finish", stepResult={"reason": "stop"}),
        ]
    )


def tags(html: str) -> set[str]:
    return {name.lower() for name in re.findall(r"<\s*([a-zA-Z][a-zA-Z0-9-]*)", html)}


ALLOWED_TAGS = {
    "div", "span", "bdi", "details", "summary", "pre", "code", "b", "ol", "ul", "li", "p", "a", "img",
    "em", "strong", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "hr", "br", "table", "thead",
    "tbody", "tr", "th", "td", "s",
}  # fmt: skip


def test_model_text_cannot_inject_markup_or_script() -> None:
    hostile = (
        "<script>alert(1)</script> <img src=x onerror=alert(1)> <style>*{}</style>\n\n"
        "[click](javascript:alert(1)) [data](data:text/html,<b>x</b>) [ok](https://example.com/a?b=1)\n\n"
        "![tracker](https://tracker.example/pixel.png)"
    )
    html = render_html(run_of([chunk("start"), chunk("text-delta", id="t", text=hostile)]).result)
    assert "<script" not in html
    assert "<style" not in html
    assert "onerror" not in html.replace("onerror=alert(1)&gt;", "")  # only as escaped text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert not re.search(r'href="(?!https?:|mailto:)', html)  # http(s)/mailto links only
    assert 'href="https://example.com/a?b=1"' in html
    assert "tracker.example" not in html.split("[image")[0][-200:]  # no remote image: its alt, as text
    assert "[image: tracker]" in html
    assert "<img" not in html
    assert tags(html) <= ALLOWED_TAGS


def test_tool_names_and_values_are_escaped_and_isolated() -> None:
    name = "view_\u202eyrammus"  # U+202E would draw the rest reversed
    html = render_html(tool_run(name, {"q": "<b>bold</b>"}, {"answer": "</pre><script>x</script>"}).result)
    assert re.search(f'<bdi class="mn-name" dir="auto"[^>]*>{name}</bdi>', html)
    assert "<b>bold</b>" not in html
    assert "</pre><script>" not in html
    assert "&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;" in html
    # the folded line drops direction controls, as the widget's summary does
    assert "yrammus(q=" not in html
    assert re.search(r'class="mn-fold-args mn-fold-only"[^>]*>\(q="&lt;b&gt;bold&lt;/b&gt;"\)', html)


def test_a_value_ten_thousand_levels_deep_is_drawn_cut() -> None:
    run = tool_run("deep", {"n": 1}, h.deep_list(10_000))
    html = render_html(run.result)
    assert "more levels not written" in html  # the view's marker
    loaded = RunResult.model_validate_json(run.result.model_dump_json())  # no view tree: from its parts
    assert view_snapshot(loaded) is None
    assert "more levels not written" in render_html(loaded)


def test_runs_nested_below_the_view_depth_are_counted_not_drawn() -> None:
    result = mn.collect(h.body(h.deep_tool_output_lines(40)))
    html = render_html(result)
    assert re.search(r"… \d+ more levels of nested runs \(kept in the result, not drawn\)", html)
    assert html.count('data-kind="tool"') <= 20


@pytest.mark.parametrize(
    ("status_chunks", "words"),
    [
        ([chunk("start"), chunk("text-delta", id="t", text="cut")], "The stream ended without a finish"),
        (
            [chunk("start"), chunk("tool-call-approval", toolCallId="c1", toolName="rm", args={})],
            "Run suspended",
        ),
        ([chunk("start"), chunk("tripwire", reason="blocked words")], "blocked words"),  # its own banner
    ],
)
def test_the_widgets_status_banners(status_chunks: list[dict[str, Any]], words: str) -> None:
    html = render_html(run_of(status_chunks).result)
    assert html.count(words) == 1  # a banner node of that level stands for the status banner
    assert "finished" not in re.sub(r"<[^>]+>", "", html).split()  # no word of a finished run


def test_a_waiting_tool_shows_the_call_that_answers_and_stays_open() -> None:
    html = render_html(
        run_of([chunk("start"), chunk("tool-call-approval", toolCallId="c1", toolName="rm", args={})]).result
    )
    assert "waiting for approval" in html  # the header's word, as the widget's
    assert 'view.approve("c1")' in html
    assert re.search(r'<details [^>]*data-kind="tool"[^>]* open>', html)


@pytest.mark.parametrize(
    ("media_type", "inline"),
    [("image/png", True), ("image/webp", True), ("image/svg+xml", False), ("text/html", False)],
)
def test_only_raster_images_are_inline(media_type: str, inline: bool) -> None:
    data = PNG if media_type.startswith("image/") else "PHN2Zz48L3N2Zz4="
    run = run_of([chunk("start"), chunk("file", data=data, mediaType=media_type)])
    html = render_html(run.result)
    assert (f'src="data:{media_type};base64,' in html) is inline
    assert "<svg" not in html


def test_structured_output_is_drawn_once_as_a_tree_with_raw_json_folded() -> None:
    result = mn.collect(fixture_path("structured-output"))
    html = render_html(result)
    assert html.count("Structured output") == 1
    assert "{ 5 keys }" in html or "keys }" in html
    raw = html.split("raw JSON", 1)[1]
    assert raw.count('"temperatureC": 18') == 1  # the JSON text once, under raw JSON
    assert html.count("temperatureC") == 2  # the tree's key and the raw JSON: not the streamed text


def test_long_json_is_cut_behind_show_all() -> None:
    value = {f"key{i}": "x" * 70 for i in range(30)}
    html = render_html(tool_run("big", {}, value).result)
    assert re.search(r"<details data-mn-show-all[^>]*><summary data-mn-control[^>]*>show all 32 lines", html)


def test_a_sub_agents_raw_result_is_folded_under_its_run() -> None:
    html = render_html(mn.collect(fixture_path("agent-as-tool")))
    assert "Raw result" in html
    assert "subAgentThreadId" in html.split("Raw result", 1)[1]  # only under Raw result
    assert "subAgentThreadId" not in html.split("Raw result", 1)[0]


def test_a_result_loaded_from_json_draws_like_the_run_it_came_from() -> None:
    # (read at once, the runs have no timeline; a RunResult keeps no reasoning times: its reasoning says "Thought", not "Thought for 2.1 s")
    for name in ("tool-call", "agent-as-tool", "workflow-stream", "sources-files", "parallel-tools"):
        result = mn.collect(fixture_path(name))
        loaded = RunResult.model_validate_json(result.model_dump_json())
        drawn, again = render_html(result), render_html(loaded)
        text = [re.sub(r"\s+", "", re.sub(r"<[^>]+>", " ", html)) for html in (drawn, again)]
        assert text[0] == text[1], name


def test_numbers_round_as_javascript_rounds() -> None:
    assert format_duration(1250) == "1.3 s"  # toFixed rounds the half up; Python's format would say 1.2
    assert format_duration(0.5) == "1 ms"  # Math.round
    assert format_int(1234567.5) == "1,234,568"
    assert summarize_args({"city": "Paris", "days": [1, 2]}) == 'city="Paris", days=[2]'


def test_a_views_transcript_is_drawn_from_the_final_state_it_saves(recording_comm: RecordingComm) -> None:
    view = mn.view()
    for item in mn.read_chunks(fixture_path("tool-call")):
        view.feed(item)
    view.end()
    final = json.loads(view._final)  # what the widget draws when the notebook is opened again
    assert view._transcript() == render_ops(
        final["ops"], view.title, view.subtitle, [view.view_key], requests_of(final["ops"], view.result)
    )


def test_a_transcript_names_the_view_that_hides_it_and_no_other(recording_comm: RecordingComm) -> None:
    """A drawn view hides the transcripts of its own key (widget.ts): a view's names it, a bare
    RunResult's names none, so it is never hidden; a key is a class name, so only hex passes."""
    first, second = mn.view(title="a"), mn.view(title="b")
    for view in (first, second):
        view.feed({"type": "text-delta", **RUN, "payload": {"id": "t", "text": "hi"}})
        view.end()
    assert first.view_key != second.view_key
    assert re.fullmatch(r"[0-9a-f]{32}", first.view_key)
    html = first._transcript()
    assert f'class="mastra-notebook-transcript mn-transcript-of-{first.view_key}"' in html
    assert second.view_key not in html
    assert 'class="mastra-notebook-transcript"' in first.result._repr_html_()
    assert "mn-transcript-of-" not in first.result._repr_html_()
    hostile = render_html(first.result, view_keys=['x" onclick="alert(1)', "} body {display:none", "ABC"])
    assert 'class="mastra-notebook-transcript"' in hostile


def test_the_header_shows_title_and_subtitle_escaped() -> None:
    html = render_html(mn.collect(fixture_path("plain-text")), "<weather>", "What is <b>it</b> like?")
    assert "&lt;weather&gt;" in html
    assert "What is &lt;b&gt;it&lt;/b&gt; like?" in html


def test_a_source_read_at_once_shows_no_durations_in_its_transcript() -> None:
    """A recording without arrival times is timed by how fast it was read: ``collect`` leaves its
    durations out of the RunResult's timing and out of the transcript drawn from it alike. The same
    chunks with their arrival times (mnReceivedMs) show them."""
    chunks = [json.loads(line) for line in fixture_path("tool-call.jsonl").read_text().splitlines() if line]
    untimed = mn.collect(chunks)
    assert untimed.timing.untimed is not None
    assert untimed.timing.total is None
    page = visible_text(render_html(untimed))
    assert "Let me look up" in page  # the run is all there
    assert "duration" not in page
    assert "first token" not in page
    assert not re.search(r"\d ms\b", page), re.findall(r"[\d.]+ ms\b", page)

    timed = mn.collect([{**item, "mnReceivedMs": 40 * index} for index, item in enumerate(chunks)])
    assert timed.timing.untimed is None
    assert timed.timing.total is not None
    page = render_html(timed)
    assert "duration" in page
    assert "first token" in page


def test_reasoning_read_at_once_is_done_though_untimed() -> None:
    """An untimed run has no ended_at: the reasoning block still folds as done ("Thought", not
    "Thinking…"), and an empty one (encrypted reasoning) is not drawn."""
    run = mn.Run()
    run.start(recorded=True)
    for item in mn.read_chunks(fixture_path("reasoning")):
        run.feed(item)
    run.end()
    nodes_seen, stack = [], [run.state.node]
    while stack:
        node = stack.pop()
        nodes_seen.append(node)
        stack.extend(node.children)
    reasoning = [node for node in nodes_seen if node.kind == "reasoning"]
    assert reasoning
    assert all(node.fields["done"] is True and node.fields["ended_at"] is None for node in reasoning)
    page = render_html(run.result)
    assert "Thinking" not in page
    assert "Thought" in page
    encrypted = render_html(mn.collect(fixture_path("providers/openai-responses-web-search")))
    assert "Thinking" not in encrypted
    assert 'data-kind="reasoning"' not in encrypted
