"""Real-provider streams, recorded through the real Mastra (tests/fixtures/providers/), against
Mastra's own result of the same run. See server/providers/ for how they are made."""

from __future__ import annotations

import json
from typing import Any

import pytest

import mastra_notebook as mn

from .providers import PROVIDER_FIXTURES, mastra_side, our_side, scenarios

SCENARIOS = scenarios()


def chunks(name: str) -> list[dict[str, Any]]:
    with (PROVIDER_FIXTURES / f"{name}.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def collect(name: str) -> mn.RunResult:
    return mn.collect(PROVIDER_FIXTURES / f"{name}.jsonl")


def test_every_scenario_is_recorded() -> None:
    # the brief's coverage: one recording per case, across the three providers and the router
    assert {
        "anthropic-text",
        "anthropic-thinking",
        "anthropic-tools",
        "anthropic-web-search",
        "anthropic-refusal",
        "openai-chat-text",
        "openai-responses-reasoning",
        "openai-responses-web-search",
        "openai-responses-parallel-tools",
        "openai-responses-error",
        "openai-responses-stream-error",
        "google-text",
        "google-tools",
        "router-openai-text",
        "router-openai-tools",
    } <= set(SCENARIOS)
    for name in SCENARIOS:
        assert (PROVIDER_FIXTURES / f"{name}.jsonl").is_file()


@pytest.mark.parametrize("name", SCENARIOS)
def test_agrees_with_mastra(name: str) -> None:
    expected = json.loads((PROVIDER_FIXTURES / f"{name}.mastra.json").read_text(encoding="utf-8"))
    theirs, ours = mastra_side(expected), our_side(collect(name))
    # key by key first: a failure names the field that differs
    for key in theirs:
        assert ours[key] == theirs[key], key
    assert ours == theirs


# ---- what each stream must show, where a naive reader goes wrong ---------------------------


def test_router_reused_ids_are_new_parts_and_calls() -> None:
    raw = chunks("router-openai-tools")
    # the facts the reader must cope with: `txt-0` names the text of every step, `call_0` twice
    assert [c["payload"]["id"] for c in raw if c["type"] == "text-start"] == ["txt-0"] * 3
    assert [c["payload"]["toolCallId"] for c in raw if c["type"] == "tool-call"] == [
        "call_0",
        "call_0",
        "call_1",
    ]
    # chat completions: a step's text-end comes after its tool input started streaming
    types = [c["type"] for c in raw]
    assert types.index("tool-call-input-streaming-start") < types.index("text-end")

    result = collect("router-openai-tools")
    assert [s.text for s in result.steps] == [
        "Let me check Paris.",
        "Now Berlin and Rome.",
        "Paris is 18°C and sunny, Berlin 12°C and cloudy, Rome 24°C and clear.",
    ]
    assert [(c.tool_call_id, c.args["city"], c.result["city"]) for c in result.tool_calls] == [
        ("call_0", "Paris", "Paris"),
        ("call_0", "Berlin", "Berlin"),
        ("call_1", "Rome", "Rome"),
    ]
    assert [[getattr(c, "tool_call_id", c) for c in s.tool_calls] for s in result.steps] == [
        ["call_0"],
        ["call_0", "call_1"],
        [],
    ]


def test_anthropic_tools_step_texts_and_no_arg_call() -> None:
    raw = chunks("anthropic-tools")
    # AI SDK 7 providers open every step with a lifecycle `custom` chunk: not the user's data
    assert [c["payload"]["kind"] for c in raw if c["type"] == "custom"] == ["anthropic.message_start"] * 2
    result = collect("anthropic-tools")
    assert [s.text for s in result.steps] == [
        "I'll update the issue list for you.",
        "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    ]
    (call,) = result.tool_calls
    assert (call.tool_name, call.args, call.result) == ("updateIssueList", {}, {"updated": 3})
    assert call.outputs == []  # the lifecycle chunks are not tool output either


def test_anthropic_thinking_signature_is_not_text() -> None:
    raw = chunks("anthropic-thinking")
    signed = [c for c in raw if c["type"] == "reasoning-delta" and "signature" in json.dumps(c["payload"])]
    assert signed, "the signature arrives on a reasoning-delta's provider metadata"
    result = collect("anthropic-thinking")
    assert (
        result.reasoning_text
        == "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185"
    )
    assert result.text == "925 ÷ 5 = 185"
    assert result.steps[0].reasoning_text == result.reasoning_text


def test_anthropic_web_search_is_provider_executed_with_citations() -> None:
    raw = chunks("anthropic-web-search")
    citations = [c for c in raw if c["type"] == "text-end" and c["payload"].get("citations")]
    assert citations, "Anthropic puts citations ({source, citedText}) on text-end"
    assert {"source", "citedText"} <= set(citations[0]["payload"]["citations"][0])
    result = collect("anthropic-web-search")
    (call,) = result.tool_calls
    assert call.tool_name == "web_search"
    assert call.provider_executed is True  # run by Anthropic, its result in the same stream
    assert call.args == {"query": "tech news today September 26 2025"}
    assert isinstance(call.result, list)
    assert call.result[0]["url"].startswith("https://")
    assert result.finish_reason == "stop"
    assert result.steps[0].tool_calls
    assert len(result.steps) == 1


def test_anthropic_refusal_is_content_filter_not_error() -> None:
    result = collect("anthropic-refusal")
    assert (result.status, result.finish_reason, result.text, result.error) == (
        "finished",
        "content-filter",
        "",
        None,
    )
    finish = next(c for c in chunks("anthropic-refusal") if c["type"] == "step-finish")
    stop = finish["payload"]["metadata"]["providerMetadata"]["anthropic"]["stopDetails"]
    assert stop["type"] == "refusal"  # the explanation lives in the step metadata only


def test_openai_reasoning_encrypted_content_is_not_text() -> None:
    raw = chunks("openai-responses-reasoning")
    assert any(
        "reasoningEncryptedContent" in json.dumps(c.get("payload"))
        for c in raw
        if c["type"].startswith("reasoning")
    )
    result = collect("openai-responses-reasoning")
    assert result.reasoning_text.startswith("**Calculating step-by-step using calculator**")
    assert "gAAAA" not in result.reasoning_text + result.text
    assert [c.result for c in result.tool_calls] == [{"result": 19}, {"result": 57}, {"result": 570}]
    assert [s.text for s in result.steps] == ["", "", "", "The final result is **570**."]


def test_openai_web_search_calls_have_empty_args_and_results() -> None:
    result = collect("openai-responses-web-search")
    assert len(result.tool_calls) == 6
    for call in result.tool_calls:
        assert (call.tool_name, call.args, call.provider_executed) == ("web_search", {}, True)
        assert call.result is not None
    raw = chunks("openai-responses-web-search")
    cited = [c for c in raw if c["type"] == "text-end" and c["payload"].get("citations")]
    assert {"source", "startIndex", "endIndex"} <= set(cited[0]["payload"]["citations"][0])


def test_openai_parallel_wrapper_is_two_calls_and_two_text_parts() -> None:
    result = collect("openai-responses-parallel-tools")
    assert [(c.tool_call_id, c.tool_name, c.result is not None) for c in result.tool_calls] == [
        ("call_parallel_0", "weather", True),
        ("call_parallel_1", "cityAttractions", True),
    ]
    # step 2 holds two text messages (phase commentary, then final_answer): joined, in order
    assert result.steps[1].text == "Got itHere are a few **AI"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("openai-responses-error", "Unsupported parameter: 'temperature' is not supported with this model."),
        (
            "openai-responses-stream-error",
            "You exceeded your current quota, please check your plan and billing details.",
        ),
    ],
)
def test_openai_errors_end_the_run(name: str, message: str) -> None:
    result = collect(name)
    assert (result.status, result.finish_reason) == ("error", "error")
    assert result.error is not None
    assert result.error.message.startswith(message)
    assert result.error.name == "AI_APICallError"


def test_google_thought_signature_is_not_text() -> None:
    raw = chunks("google-tools")
    assert any("thoughtSignature" in json.dumps(c.get("payload")) for c in raw)
    result = collect("google-tools")
    assert [s.text for s in result.steps] == ["", 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y']
    (call,) = result.tool_calls
    assert (call.tool_name, call.args, call.result["location"]) == (
        "weather",
        {"location": "San Francisco"},
        "San Francisco",
    )
    # Gemini says STOP with a function call; the step is still a tool-calls step
    assert result.steps[0].finish_reason == "tool-calls"


def test_a_refusal_says_so_with_the_providers_explanation() -> None:
    banners = [part for part in collect("anthropic-refusal").parts if part.kind == "banner"]
    assert len(banners) == 1
    assert banners[0].text is not None
    assert banners[0].text.startswith("The provider refused to answer (content-filter): ")
    assert "blocked under Anthropic's Usage Policy" in banners[0].text
    assert banners[0].value["category"] == "cyber"


def test_provider_lifecycle_events_are_kept_but_not_drawn() -> None:
    result = collect("anthropic-tools")
    assert [event["kind"] for event in result.provider_events] == ["anthropic.message_start"] * 2
    assert not any(part.kind == "data" for part in result.parts)


def test_citations_become_sources_once_per_url_with_the_cited_text() -> None:
    for name in ("anthropic-web-search", "openai-responses-web-search"):
        result = collect(name)
        urls = [source.url for source in result.sources]
        assert len(urls) == len(set(urls)), name
        cited = [text for source in result.sources for text in source.citations]
        assert cited, name
        assert all(isinstance(text, str) and text.strip() for text in cited), name


def test_text_blocks_split_at_citations_flow_as_one_part() -> None:
    """Anthropic cuts one answer into blocks at every citation; drawn apart, markdown loses its lists."""
    result = collect("anthropic-web-search")
    (text,) = [part.text for part in result.parts if part.kind == "text"]
    assert text == result.text
    assert "\n- Microsoft shook up its AI stack" in text or "- Microsoft shook up" in text
