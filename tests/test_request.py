"""RunResult.steps[i].request: what the model was given in each step, read from the stream's step-start
(issue 19, part 1). Every real-provider recording's bodies are read here a second time, plainly, one
small reader per provider, and must equal what the normaliser made of them."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mastra_notebook as mn
from mastra_notebook.core.request import (
    NO_BODY_REASON,
    NO_STEP_START_REASON,
    FilePart,
    ImagePart,
    ModelRequest,
    normalise_request,
)

from .conftest import FIXTURES
from .providers import PROVIDER_FIXTURES, scenarios

Flat = list[tuple[str, str, Any]]  # (role, part type, what it holds), in the order the model read it
Read = tuple[str | None, Flat, list[str]]  # system prompt, messages flattened, tool names


def chunks(path: Any) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def request_of(name: str, step: int) -> ModelRequest:
    request = mn.collect(PROVIDER_FIXTURES / f"{name}.jsonl").steps[step].request
    assert request is not None
    return request


def step_starts(name: str) -> list[dict[str, Any]]:
    return [c["payload"] for c in chunks(PROVIDER_FIXTURES / f"{name}.jsonl") if c["type"] == "step-start"]


# ---- the recorded bodies, read plainly (as each provider's docs lay them out) ----------------------


def read_anthropic(body: dict[str, Any]) -> Read:
    system = "\n\n".join(block["text"] for block in body["system"])
    flat: Flat = []
    for message in body["messages"]:
        for block in message["content"]:
            if block["type"] == "text":
                flat.append((message["role"], "text", block["text"]))
            elif block["type"] == "tool_use":
                flat.append(("assistant", "tool-call", (block["id"], block["name"], block["input"])))
            elif block["type"] == "tool_result":
                flat.append(("tool", "tool-result", (block["tool_use_id"], json.loads(block["content"]))))
            else:
                raise AssertionError(f"a block this test does not read: {block['type']}")
    return system, flat, [tool["name"] for tool in body.get("tools", [])]


def read_openai_chat(body: dict[str, Any]) -> Read:
    system = "\n\n".join(m["content"] for m in body["messages"] if m["role"] == "system")
    flat: Flat = []
    for message in body["messages"]:
        role = message["role"]
        if role == "tool":
            flat.append(("tool", "tool-result", (message["tool_call_id"], json.loads(message["content"]))))
        elif role != "system":
            if message["content"]:
                flat.append((role, "text", message["content"]))
            for call in message.get("tool_calls", []):
                function = call["function"]
                args = json.loads(function["arguments"])
                flat.append((role, "tool-call", (call["id"], function["name"], args)))
    return system, flat, [tool["function"]["name"] for tool in body.get("tools", [])]


def read_openai_responses(body: dict[str, Any]) -> Read:
    items = body["input"]
    system = "\n\n".join(item["content"] for item in items if item.get("role") == "developer")
    flat: Flat = []
    for item in items:
        if item.get("role") == "user":
            flat += [("user", "text", part["text"]) for part in item["content"]]
        elif item.get("type") == "function_call":
            call = (item["call_id"], item["name"], json.loads(item["arguments"]))
            flat.append(("assistant", "tool-call", call))
        elif item.get("type") == "function_call_output":
            flat.append(("tool", "tool-result", (item["call_id"], json.loads(item["output"]))))
        elif item.get("type") == "reasoning":
            summary = "\n\n".join(s["text"] for s in item["summary"])
            flat.append(("assistant", "reasoning", summary))
        elif item.get("role") != "developer":
            raise AssertionError(f"an item this test does not read: {item}")
    return system, flat, [tool.get("name", tool["type"]) for tool in body.get("tools", [])]


def read_google(body: dict[str, Any]) -> Read:
    system = "\n\n".join(part["text"] for part in body["systemInstruction"]["parts"])
    flat: Flat = []
    for content in body["contents"]:
        role = "assistant" if content["role"] == "model" else content["role"]
        for part in content["parts"]:
            if "text" in part:
                flat.append((role, "text", part["text"]))
            elif "functionCall" in part:
                call = part["functionCall"]
                flat.append(("assistant", "tool-call", (call["id"], call["name"], call["args"])))
            elif "functionResponse" in part:
                answer = part["functionResponse"]
                flat.append(("tool", "tool-result", (answer["id"], answer["response"]["content"])))
    names = [f["name"] for tool in body.get("tools", []) for f in tool.get("functionDeclarations", [])]
    return system, flat, names


READERS: dict[str, tuple[str, Callable[[dict[str, Any]], Read]]] = {
    "anthropic": ("anthropic.messages", read_anthropic),
    "openai-chat": ("openai.chat", read_openai_chat),
    "openai-responses": ("openai.responses", read_openai_responses),
    "google": ("google.generative-ai", read_google),
    "router-openai": ("openai.chat", read_openai_chat),  # Mastra's router speaks OpenAI chat
}


def reader(name: str) -> tuple[str, Callable[[dict[str, Any]], Read]]:
    return next(value for prefix, value in READERS.items() if name.startswith(prefix + "-"))


def flatten(request: ModelRequest) -> Flat:
    flat: Flat = []
    for message in request.messages:
        for part in message.parts:
            if part.type in {"text", "reasoning"}:
                flat.append((message.role, part.type, part.text))
            elif part.type == "tool-call":
                flat.append((message.role, part.type, (part.id, part.name, part.args)))
            elif part.type == "tool-result":
                flat.append((message.role, part.type, (part.id, part.result)))
            else:
                flat.append((message.role, part.type, None))
    return flat


# ---- every recording ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", scenarios())
def test_each_steps_request_is_what_the_recorded_body_holds(name: str) -> None:
    result = mn.collect(PROVIDER_FIXTURES / f"{name}.jsonl")
    starts = step_starts(name)
    assert len(result.steps) == len(starts)
    api, read = reader(name)
    for step, start in zip(result.steps, starts, strict=True):
        body = start["request"].get("body")
        if not body:  # a call that failed before the provider answered carries no body
            assert step.request is None
            assert step.request_reason == NO_BODY_REASON
            continue
        request = step.request
        assert request is not None, step.request_reason
        assert step.request_reason is None
        system, flat, tool_names = read(body)
        assert request.system == system
        assert flatten(request) == flat
        assert [tool.name for tool in request.tools] == tool_names
        assert request.settings.model == body.get("model")
        assert request.provider == api
        assert request.source == "stream"
        assert request.raw is body or request.raw == body


@pytest.mark.parametrize("name", scenarios())
def test_a_steps_request_holds_the_calls_and_results_of_the_steps_before(name: str) -> None:
    result = mn.collect(PROVIDER_FIXTURES / f"{name}.jsonl")
    for before, step in zip(result.steps, result.steps[1:], strict=False):
        assert step.request is not None
        parts = [part for message in step.request.messages for part in message.parts]
        called = {part.id: part.name for part in parts if part.type == "tool-call"}
        answered = {part.id: part.name for part in parts if part.type == "tool-result"}
        for call in before.tool_calls:
            if not call.provider_executed:
                assert called[call.tool_call_id] == call.tool_name
                assert answered[call.tool_call_id] == call.tool_name  # named from its call
        roles = [message.role for message in step.request.messages]
        assert all(a != b for a, b in itertools.pairwise(roles)), roles


def test_anthropic_tools_second_step_in_full() -> None:
    request = request_of("anthropic-tools", 1)
    dumped = request.model_dump(exclude={"raw"})
    assert dumped["system"] == "You are a helpful assistant."
    assert dumped["messages"] == [
        {
            "role": "user",
            "parts": [{"type": "text", "text": "Please update the issue list, then say hello."}],
        },
        {
            "role": "assistant",
            "parts": [
                {"type": "text", "text": "I'll update the issue list for you."},
                {
                    "type": "tool-call",
                    "id": "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
                    "name": "updateIssueList",
                    "args": {},
                    "note": None,  # from the request itself
                },
            ],
        },
        {
            "role": "tool",
            "parts": [
                {
                    "type": "tool-result",
                    "id": "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
                    "name": "updateIssueList",
                    "result": {"updated": 3},
                    "note": None,
                }
            ],
        },
    ]
    assert dumped["tools"][0]["input_schema"]["type"] == "object"
    assert dumped["settings"]["max_tokens"] == 64000
    assert dumped["settings"]["tool_choice"] == {"type": "auto"}
    assert dumped["settings"]["other"] == {"stream": True}


def test_settings_of_each_recorded_shape() -> None:
    thinking = request_of("anthropic-thinking", 0)
    reasoning = request_of("openai-responses-reasoning", 0)
    google = request_of("google-tools", 0)
    chat = request_of("openai-chat-text", 0)
    assert thinking.settings.reasoning == {"type": "enabled", "budget_tokens": 1024}
    assert reasoning.settings.reasoning == {"summary": "auto"}
    assert reasoning.settings.other == {"store": False, "include": ["reasoning.encrypted_content"]}
    assert google.settings.model is None  # Google names the model in the URL, not the body
    assert google.settings.tool_choice == {"functionCallingConfig": {"mode": "AUTO"}}
    assert chat.settings.other == {"stream": True, "stream_options": {"include_usage": True}}


def test_built_in_tools_are_named_with_their_provider_type() -> None:
    anthropic = request_of("anthropic-web-search", 0)
    openai = request_of("openai-responses-web-search", 0)
    assert [(t.name, t.provider_type) for t in anthropic.tools] == [("web_search", "web_search_20250305")]
    assert [(t.name, t.provider_type) for t in openai.tools] == [("web_search", "web_search")]


# ---- no body: the reason says what to turn on -----------------------------------------------------


def redacted(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stream as MastraServer sends it by default: step-start's request is ``{}``
    (@mastra/server's redactStreamChunk)."""
    return [
        {**c, "payload": {**c["payload"], "request": {}}} if c["type"] == "step-start" else c for c in lines
    ]


def test_a_redacted_stream_gives_no_request_and_says_what_to_turn_on() -> None:
    result = mn.collect(redacted(chunks(PROVIDER_FIXTURES / "anthropic-tools.jsonl")))
    assert len(result.steps) == 2
    for step in result.steps:
        assert step.request is None
        assert step.request_reason == NO_BODY_REASON
    assert "streamOptions: {redact: false}" in NO_BODY_REASON
    assert "`trace()` on the run's view fills it in" in NO_BODY_REASON  # the call that fills it, named


def test_a_continuation_without_its_step_start_says_so() -> None:
    result = mn.collect(FIXTURES / "tool-approval-approved.jsonl")
    assert result.steps[0].request is None
    assert result.steps[0].request_reason == NO_STEP_START_REASON
    assert result.steps[1].request is not None  # the step after it began in this stream


def test_a_body_of_no_known_shape_keeps_what_it_has() -> None:
    # the scripted server once reported {model, messages: <a count>}: its model and raw are kept
    body = {"model": "mock-plain", "messages": 2}
    lines = chunks(FIXTURES / "plain-text.jsonl")
    lines = [
        {**c, "payload": {**c["payload"], "request": {"body": body}}} if c["type"] == "step-start" else c
        for c in lines
    ]
    request = mn.collect(lines).steps[0].request
    assert request is not None
    assert (request.provider, request.messages, request.settings.model) == (None, [], "mock-plain")
    assert request.raw == body
    assert request.settings.other == {"messages": 2}


def test_the_request_is_written_with_the_result_and_read_back() -> None:
    result = mn.collect(PROVIDER_FIXTURES / "openai-responses-parallel-tools.jsonl")
    again = mn.RunResult.model_validate_json(result.model_dump_json())
    assert again.steps[1].request == result.steps[1].request


# ---- shapes the recordings do not hold ------------------------------------------------------------


def test_images_files_and_settings_across_shapes() -> None:
    chat = normalise_request(
        {
            "model": "gpt-4o",
            "max_completion_tokens": 50,
            "temperature": 0.2,
            "stop": "END",
            "messages": [
                {"role": "developer", "content": "Be brief."},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is this?"},
                        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                        {
                            "type": "file",
                            "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,BB"},
                        },
                    ],
                },
            ],
        }
    )
    assert chat.system == "Be brief."
    assert chat.messages[0].parts[1:] == [
        ImagePart(media_type="image/png", data="AAAA"),
        FilePart(media_type="application/pdf", data="BB", filename="a.pdf"),
    ]
    assert (chat.settings.max_tokens, chat.settings.temperature, chat.settings.stop) == (50, 0.2, ["END"])

    google = normalise_request(
        {
            "contents": [
                {"role": "user", "parts": [{"inlineData": {"mimeType": "image/jpeg", "data": "CC"}}]},
                {"role": "model", "parts": [{"text": "hmm", "thought": True}, {"text": "A cat."}]},
            ],
            "generationConfig": {"temperature": 1, "maxOutputTokens": 9, "responseMimeType": "text/plain"},
            "tools": [{"googleSearch": {}}],
        }
    )
    assert google.messages[0].parts == [ImagePart(media_type="image/jpeg", data="CC")]
    assert [(m.role, [p.type for p in m.parts]) for m in google.messages][1] == (
        "assistant",
        ["reasoning", "text"],
    )
    assert (google.settings.temperature, google.settings.max_tokens) == (1, 9)
    assert google.settings.other == {"generationConfig": {"responseMimeType": "text/plain"}}
    assert [(t.name, t.provider_type) for t in google.tools] == [("googleSearch", "googleSearch")]

    anthropic = normalise_request(
        {
            "model": "claude",
            "max_tokens": 10,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t1",
                            "content": [{"type": "text", "text": "42"}],
                        },
                        {"type": "text", "text": "and now?"},
                    ],
                }
            ],
        },
        provider_hint="anthropic.messages",
    )
    assert anthropic.provider == "anthropic.messages"
    assert [(m.role, flatten(ModelRequest(messages=[m]))) for m in anthropic.messages] == [
        ("tool", [("tool", "tool-result", ("t1", 42))]),
        ("user", [("user", "text", "and now?")]),
    ]

    responses = normalise_request(
        {"model": "gpt-5", "instructions": "Hi.", "input": "Hello", "max_output_tokens": 5}
    )
    assert (responses.system, responses.messages[0].text, responses.settings.max_tokens) == (
        "Hi.",
        "Hello",
        5,
    )


def test_unknown_shapes_keep_raw_and_what_is_recognisable() -> None:
    assert normalise_request([1, 2]).raw == [1, 2]
    odd = normalise_request({"model": "m", "temperature": "hot", "prompt": "x"})
    assert (odd.provider, odd.settings.model, odd.settings.temperature) == (None, "m", None)
    assert odd.settings.other == {"temperature": "hot", "prompt": "x"}  # a wrong type stays as sent


# ---- never raises ---------------------------------------------------------------------------------

KEYS = [
    "model", "messages", "contents", "input", "instructions", "system", "systemInstruction", "tools",
    "role", "content", "parts", "type", "text", "tool_calls", "function", "name", "arguments", "id",
    "call_id", "tool_call_id", "tool_use_id", "input_schema", "parameters", "functionDeclarations",
    "functionCall", "functionResponse", "response", "args", "output", "summary", "source", "url",
    "data", "image_url", "file", "inlineData", "fileData", "generationConfig", "temperature",
    "max_tokens", "stop", "thought", "refusal", "mimeType",
]  # fmt: skip
TYPES = [
    "text", "tool_use", "tool_result", "thinking", "image", "document", "image_url", "file",
    "input_text", "input_image", "input_file", "function_call", "function_call_output", "reasoning",
    "web_search_call", "message", "function", "web_search_tool_result",
]  # fmt: skip
ROLES = ["system", "developer", "user", "assistant", "tool", "model", "function"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from([*TYPES, *ROLES, "data:image/png;base64,AA", '{"a": 1}', "[1", "data:;base64,"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=5),
    ),
    max_leaves=40,
)
hints = st.none() | st.sampled_from(
    ["anthropic.messages", "openai.chat", "openai.responses", "google.generative-ai", "openai"]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=json_values, hint=hints)
def test_normalise_request_never_raises(body: Any, hint: str | None) -> None:
    request = normalise_request(body, hint)
    assert request.raw is body
    request.model_dump_json()  # and it writes


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    top=st.sampled_from(["messages", "contents", "input"]),
    messages=st.lists(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5), max_size=5),
    hint=hints,
)
def test_normalise_request_never_raises_on_near_shapes(
    top: str, messages: list[Any], hint: str | None
) -> None:
    normalise_request({top: messages, "tools": messages, "system": messages}, hint).model_dump_json()
