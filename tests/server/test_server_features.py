"""The test server's features for issues 19 and 20, over plain HTTP: the request the model was given
(with redaction off and on), traces on storage, agents of the request context, working and
observational memory, scorers, datasets and experiments."""

from __future__ import annotations

import json
import secrets
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx
import pytest

pytestmark = pytest.mark.server

T = TypeVar("T")


@pytest.fixture
def http(mastra_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=f"{mastra_url}/api", timeout=60) as client:
        yield client


def poll(fetch: Callable[[], T], done: Callable[[T], bool], what: str, timeout: float = 60) -> T:
    """``fetch()`` again until ``done`` holds for what it returns: a bounded condition wait (the
    server writes traces and scores after the stream ends)."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value):
            return value
        assert time.monotonic() < deadline, f"timed out waiting until {what}: last {value!r}"[:2000]
        time.sleep(0.05)


def stream(http: httpx.Client, agent: str, prompt: str, **body: Any) -> list[dict[str, Any]]:
    """The chunks of one `/stream` run (SSE `data:` lines, decoded as UTF-8)."""
    response = http.post(
        f"/agents/{agent}/stream", json={"messages": [{"role": "user", "content": prompt}], **body}
    )
    response.raise_for_status()
    lines = response.content.decode("utf-8").split("\n\n")
    data = [line.removeprefix("data: ") for line in lines if line.startswith("data: ")]
    return [json.loads(item) for item in data if item != "[DONE]"]


def of_type(chunks: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [chunk for chunk in chunks if chunk["type"] == kind]


def answer(chunks: list[dict[str, Any]]) -> str:
    return "".join(chunk["payload"]["text"] for chunk in of_type(chunks, "text-delta"))


def trace_id() -> str:
    return secrets.token_hex(16)


# ---- what the model was given ------------------------------------------------------------------


def test_step_start_carries_the_chat_completions_body_with_redaction_off(unredacted_url: str) -> None:
    with httpx.Client(base_url=f"{unredacted_url}/api", timeout=60) as http:
        chunks = stream(
            http,
            "weather",
            "What is the weather in Paris?",
            instructions="Answer like a forecaster.",
            modelSettings={"temperature": 0.25, "maxOutputTokens": 321},
        )
    first, second = (chunk["payload"]["request"]["body"] for chunk in of_type(chunks, "step-start"))
    assert first["model"] == "mock-weather"
    assert first["temperature"] == 0.25
    assert first["max_tokens"] == 321
    assert first["messages"] == [
        {"role": "system", "content": "Answer like a forecaster."},  # the override, not the agent's own
        {"role": "user", "content": "What is the weather in Paris?"},
    ]
    [tool] = first["tools"]
    assert tool["type"] == "function"
    assert tool["function"]["name"] == "getWeather"
    assert tool["function"]["description"] == "Current weather for a city"
    assert tool["function"]["parameters"]["properties"] == {"city": {"type": "string"}}
    # step 2 was given the call and its result
    assistant, result = second["messages"][2:]
    assert assistant["role"] == "assistant"
    assert assistant["tool_calls"][0]["function"] == {"name": "getWeather", "arguments": '{"city":"Paris"}'}
    assert result["role"] == "tool"
    assert result["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert json.loads(result["content"])["city"] == "Paris"


def test_step_start_is_redacted_by_default(http: httpx.Client) -> None:
    chunks = stream(http, "weather", "What is the weather in Paris?")
    requests = [chunk["payload"]["request"] for chunk in of_type(chunks, "step-start")]
    assert requests == [{}, {}]


# ---- traces ------------------------------------------------------------------------------------


def read_trace(http: httpx.Client, trace: str) -> dict[str, Any]:
    """The trace once the exporter flushed it and its root spans ended (404 until then)."""

    def fetch() -> dict[str, Any] | None:
        response = http.get(f"/observability/traces/{trace}")
        return response.json() if response.status_code == 200 else None

    def complete(found: dict[str, Any] | None) -> bool:
        roots = [span for span in (found or {}).get("spans", []) if span.get("parentSpanId") is None]
        return bool(roots) and all(span.get("endedAt") for span in roots)

    found = poll(fetch, complete, f"trace {trace} is stored and ended")
    assert found is not None
    return found


def test_a_memory_agent_that_calls_a_tool_has_model_memory_and_tool_spans_in_one_trace(
    http: httpx.Client,
) -> None:
    trace = trace_id()
    memory = {"thread": f"t-{uuid.uuid4()}", "resource": "trace-user"}
    options = {"memory": memory, "tracingOptions": {"traceId": trace}}
    stream(http, "weatherMemory", "Weather in Paris?", **options)
    chunks = stream(http, "weatherMemory", "And in Berlin?", instructions="Be brief.", **options)
    assert answer(chunks).startswith("Berlin: ")
    assert "Earlier questions in this thread: 1." in answer(chunks)  # the first turn was recalled

    spans = read_trace(http, trace)["spans"]
    assert {span["traceId"] for span in spans} == {trace}
    roots = [span for span in spans if span.get("parentSpanId") is None]
    assert [span["spanType"] for span in roots] == ["agent_run", "agent_run"]  # both turns, one trace
    kinds = {(span["spanType"], span["name"]) for span in spans}
    assert ("memory_operation", "memory: recall") in kinds
    assert ("memory_operation", "memory: save") in kinds
    assert ("tool_call", "tool: 'getWeather'") in kinds
    generations = [span for span in spans if span["spanType"] == "model_generation"]
    assert len(generations) == 2
    # the trace holds what the model was given, though the stream was redacted
    second = max(generations, key=lambda span: span["startedAt"])
    messages = second["input"]["messages"]
    assert messages[0] == {"role": "system", "content": "Be brief."}
    assert "getWeather" in json.dumps(second["attributes"])


# ---- agents of the request context -------------------------------------------------------------


def test_the_dynamic_agent_takes_instructions_and_model_from_the_request_context(http: httpx.Client) -> None:
    context = {"style": "pirate", "model": "mock-dynamic-detailed"}
    resolved = http.get("/agents/dynamic", params={"requestContext": json.dumps(context)}).json()
    assert resolved["instructions"] == "Answer in pirate."
    assert resolved["modelId"] == "mock-dynamic-detailed"
    default = http.get("/agents/dynamic").json()
    assert default["instructions"] == "Answer in plain words."
    assert default["modelId"] == "mock-dynamic-brief"

    pirate = answer(stream(http, "dynamic", "What is Paris?", requestContext=context))
    assert pirate.startswith("Arr! You asked")
    assert "This is the detailed model." in pirate
    plain = answer(stream(http, "dynamic", "What is Paris?"))
    assert (
        plain == '(plain words) You asked: "What is Paris?". My instructions say: "Answer in plain words.".'
    )
    overridden = answer(stream(http, "dynamic", "What is Paris?", instructions="Answer in uppercase."))
    assert overridden == overridden.upper()


# ---- memory ------------------------------------------------------------------------------------


def test_working_memory_is_updated_by_the_model_turn_by_turn(http: httpx.Client) -> None:
    thread, resource = f"wm-{uuid.uuid4()}", f"user-{uuid.uuid4()}"
    memory = {"thread": thread, "resource": resource}

    def working_memory() -> str | None:
        params = {"agentId": "workingMemory", "resourceId": resource}
        found = http.get(f"/memory/threads/{thread}/working-memory", params=params).json()
        value: str | None = found["workingMemory"]
        return value

    seen = []
    for prompt in ("Hi, my name is Ada.", "I live in Lyon.", "What do you know about me?"):
        chunks = stream(http, "workingMemory", prompt, memory=memory)
        calls = [chunk["payload"] for chunk in of_type(chunks, "tool-call")]
        seen.append(([call["toolName"] for call in calls], working_memory(), answer(chunks)))
    assert seen == [
        (
            ["updateWorkingMemory"],
            "# User\n- Name: Ada\n- Location:\n- Likes:",
            "Noted. What I know about you: Name: Ada.",
        ),
        (
            ["updateWorkingMemory"],
            "# User\n- Name: Ada\n- Location: Lyon\n- Likes:",
            "Noted. What I know about you: Name: Ada; Location: Lyon.",
        ),
        (
            [],
            "# User\n- Name: Ada\n- Location: Lyon\n- Likes:",
            "What I know about you: Name: Ada; Location: Lyon.",
        ),
    ]


def test_observational_memory_observes_the_thread_with_the_scripted_observer(http: httpx.Client) -> None:
    thread = f"om-{uuid.uuid4()}"
    memory = {"thread": thread, "resource": "om-user"}
    prompts = [
        "Hello, I am planning a long trip to Japan next spring with my family of four.",
        "We want to see Kyoto, Osaka and Tokyo, and we like temples and food markets.",
        "How long should we stay in each city?",
    ]
    markers: list[dict[str, Any]] = []
    answers = []
    for prompt in prompts:
        chunks = stream(http, "observer", prompt, memory=memory)
        markers += [chunk for chunk in chunks if chunk["type"].startswith("data-om-")]
        answers.append(answer(chunks))
    kinds = [marker["type"] for marker in markers]
    assert "data-om-status" in kinds
    assert "data-om-observation-start" in kinds
    end = next(marker for marker in markers if marker["type"] == "data-om-observation-end")
    assert set(end) == {"type", "data", "transient"}  # no runId, payload or from
    assert "User said: Hello, I am planning a long trip to Japan" in end["data"]["observations"]
    assert "I have observed: Hello, I am planning a long trip" in answers[-1]  # in the system prompt now

    params = {"agentId": "observer", "threadId": thread, "resourceId": "om-user"}
    record = http.get("/memory/observational-memory", params=params).json()["record"]
    assert "We want to see Kyoto" in record["activeObservations"]


# ---- scorers, datasets and experiments ---------------------------------------------------------


def scores_of(http: httpx.Client, run_id: str, count: int) -> dict[str, list[Any]]:
    """The scores of a run (or an experiment) by scorer id, once ``count`` of them are stored."""
    found = poll(
        lambda: http.get(f"/scores/run/{run_id}").json()["scores"],
        lambda scores: len(scores) >= count,
        f"{count} scores for {run_id}",
    )
    by_id: dict[str, list[Any]] = {}
    for row in found:
        by_id.setdefault(row["scorerId"], []).append(row)
    return by_id


def test_scorers_are_listed_by_id_and_score_runs(http: httpx.Client) -> None:
    listed = http.get("/scores/scorers").json()
    assert {
        "completeness-scorer",
        "keyword-coverage-scorer",
        "textual-difference-scorer",
        "content-similarity-scorer",
        "tone-scorer",
        "answer-length",
        "judge-answers-question",
    } <= set(listed)

    # the dynamic agent's own scorers (sampling rate 1)
    chunks = stream(http, "dynamic", "What is Paris?")
    run_id = chunks[0]["runId"]
    scores = scores_of(http, run_id, 2)
    assert set(scores) == {"answer-length", "completeness-scorer"}
    [length] = scores["answer-length"]
    assert length["score"] == 0.7  # 14 words of 20
    assert length["reason"] == "14 words; score 0.7"
    assert length["runId"] == run_id

    # per request, by id: a prebuilt code scorer and the scripted LLM judge
    picked = {"a": {"scorer": "keyword-coverage-scorer"}, "b": {"scorer": "judge-answers-question"}}
    chunks = stream(http, "dynamic", "What is Paris?", scorers=picked)
    scores = scores_of(http, chunks[0]["runId"], 2)
    assert set(scores) == {"keyword-coverage-scorer", "judge-answers-question"}
    [judged] = scores["judge-answers-question"]
    assert judged["score"] == 1
    assert judged["reason"] == "The answer takes up what, paris."  # words of four letters or more


def test_a_dataset_experiment_runs_on_the_server_and_two_compare(http: httpx.Client) -> None:
    dataset = http.post("/datasets", json={"name": f"capitals-{uuid.uuid4()}"}).json()
    items = [
        {"input": "What is Paris?", "groundTruth": "Paris is the capital of France."},
        {"input": "What is Berlin?", "groundTruth": "Berlin is the capital of Germany."},
    ]
    http.post(f"/datasets/{dataset['id']}/items/batch", json={"items": items}).raise_for_status()
    stored = http.get(f"/datasets/{dataset['id']}/items").json()["items"]
    assert sorted(item["input"] for item in stored) == ["What is Berlin?", "What is Paris?"]

    def experiment(style: str) -> str:
        body = {
            "name": style,
            "targetType": "agent",
            "targetId": "dynamic",
            "scorerIds": ["answer-length"],
            "requestContext": {"style": style},
        }
        started = http.post(f"/datasets/{dataset['id']}/experiments", json=body).json()
        assert started["status"] == "pending"
        experiment_id: str = started["experimentId"]
        poll(
            lambda: http.get(f"/datasets/{dataset['id']}/experiments/{experiment_id}").json(),
            lambda found: found["status"] in {"completed", "failed"},
            f"experiment {style} ends",
        )
        return experiment_id

    pirate, upper = experiment("pirate"), experiment("uppercase")
    results = http.get(f"/datasets/{dataset['id']}/experiments/{pirate}/results").json()["results"]
    assert sorted(row["output"]["text"].split('"')[1] for row in results) == [
        "What is Berlin?",
        "What is Paris?",
    ]
    assert all(row["output"]["text"].startswith("Arr!") for row in results)
    assert len(scores_of(http, pirate, 2)["answer-length"]) == 2

    compared = http.post(
        f"/datasets/{dataset['id']}/compare", json={"experimentIdA": pirate, "experimentIdB": upper}
    ).json()
    assert len(compared["items"]) == 2
    for item in compared["items"]:
        a, b = item["results"][pirate], item["results"][upper]
        assert a["output"]["text"].startswith("Arr!")
        assert b["output"]["text"] == b["output"]["text"].upper()
        assert set(a["scores"]) == set(b["scores"]) == {"answer-length"}
