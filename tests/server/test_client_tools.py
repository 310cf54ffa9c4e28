"""Python functions as Mastra client tools, against the real server (agent ``toolUser``).

The scripted model calls the client tools its prompt names (``call lookup with {...}``) and, once
their results are in, answers by quoting them: what a result says reached the model.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from pathlib import Path
from typing import Literal

import pydantic
import pytest

import mastra_notebook as mn
from mastra_notebook.client.tools import client_tools, tool

pytestmark = pytest.mark.server


def ask(client: mn.MastraClient, prompt: str, tools: object, **options: object) -> mn.RunResult:
    """The toolUser agent's answer to ``prompt``, with these client tools."""
    return client.agent("toolUser").stream(prompt, tools=tools, **options).wait(30)


def lookup(city: str, unit: Literal["C", "F"] = "C") -> dict[str, object]:
    """Look up the temperature in a city.

    A second paragraph the model is not told.
    """
    return {"city": city, "temperature": 18 if unit == "C" else 64, "unit": unit}


def test_a_client_tools_result_is_in_the_same_view_and_the_answer_uses_it(
    client: mn.MastraClient, tmp_path: Path
) -> None:
    view = client.agent("toolUser").stream('call lookup with {"city": "Paris"}', tools=[lookup])
    result = view.wait(30)
    assert result.status == "finished"
    (call,) = result.tool_calls
    assert (call.tool_name, call.status, call.args) == ("lookup", "done", {"city": "Paris"})
    assert call.result == {"city": "Paris", "temperature": 18, "unit": "C"}
    assert call.ran_in == "notebook"
    assert 'lookup returned {"city":"Paris","temperature":18,"unit":"C"}' in result.text
    assert [s.finish_reason for s in result.steps] == ["tool-calls", "stop"]  # two requests, one run
    kinds = [entry["type"] for entry in view.inspector_entries()]
    assert kinds.index("tool-call") < kinds.index("tool-result") < kinds.index("text-delta")
    # the recording keeps the mark: a replay shows where the tool ran
    assert mn.collect(view.save(tmp_path / "run.jsonl")).tool_calls[0].ran_in == "notebook"


def test_a_raising_tool_shows_its_error_and_the_run_finishes(client: mn.MastraClient) -> None:
    def explode() -> str:
        raise ValueError("the sensor is offline")

    result = client.agent("toolUser").stream("call explode", tools=[explode]).wait(30)
    assert result.status == "finished"
    (call,) = result.tool_calls
    assert call.status == "error"
    assert call.error is not None
    assert call.error.message == "ValueError: the sensor is offline"
    assert "explode failed: ValueError: the sensor is offline" in result.text


def test_invalid_arguments_go_back_to_the_model_as_a_tool_error(client: mn.MastraClient) -> None:
    called: list[object] = []

    def count(n: int) -> int:
        called.append(n)
        return n

    result = client.agent("toolUser").stream('call count with {"n": "many"}', tools=[count]).wait(30)
    assert result.status == "finished"
    assert called == []  # never run with what the schema refuses
    error = result.tool_calls[0].error
    assert error is not None
    assert error.message.startswith("invalid arguments for count: n: Input should be a valid integer")
    assert "count failed: invalid arguments for count: n:" in result.text


def test_async_and_renamed_tools(client: mn.MastraClient) -> None:
    async def slow_double(x: int) -> int:
        await asyncio.sleep(0.01)
        return 2 * x

    prompt = 'call double with {"x": 21} and call where with {"city": "Oslo"}'
    view = client.agent("toolUser").stream(prompt, tools={"double": slow_double, "where": lookup})
    result = view.wait(30)
    assert [(c.tool_name, c.result) for c in result.tool_calls] == [
        ("double", 42),
        ("where", {"city": "Oslo", "temperature": 18, "unit": "C"}),
    ]
    assert "double returned 42" in result.text
    assert "where returned" in result.text


class Forecast(pydantic.BaseModel):
    city: str
    days: int = pydantic.Field(3, ge=1, le=7)
    unit: Literal["C", "F"] = "C"
    note: str | None = None


def test_a_schema_from_a_pydantic_model(client: mn.MastraClient) -> None:
    got: list[Forecast] = []

    def forecast(request: Forecast) -> list[str]:
        """Forecast for a city, day by day."""
        got.append(request)
        return [f"day {d}" for d in range(1, request.days + 1)]

    made = client_tools([forecast])["forecast"]
    schema = made.request_field()["inputSchema"]
    assert made.description == "Forecast for a city, day by day."
    assert set(schema["properties"]) == {"city", "days", "unit", "note"}
    assert schema["required"] == ["city"]
    result = ask(client, 'call forecast with {"city": "Rome", "days": 2}', [forecast])
    assert got == [Forecast(city="Rome", days=2)]
    assert result.tool_calls[0].result == ["day 1", "day 2"]
    bad = ask(client, 'call forecast with {"city": "Rome", "days": 9}', [forecast])
    assert "days: Input should be less than or equal to 7" in bad.text


def test_schema_from_hints_defaults_and_docstring() -> None:
    def search(query: str, limit: int = 5, kind: Literal["a", "b"] | None = None) -> list[str]:
        """Search the notes.

        Longer text."""
        return []

    made = tool(search, name="find")
    field = made.request_field()
    assert (field["id"], field["description"]) == ("find", "Search the notes.")
    properties = field["inputSchema"]["properties"]
    assert properties["limit"]["default"] == 5
    assert {"enum": ["a", "b"], "type": "string"} in properties["kind"]["anyOf"]
    assert field["inputSchema"]["required"] == ["query"]
    with pytest.raises(ValueError, match="two tools are named 'find'"):
        client_tools([made, tool(search, name="find")])
    with pytest.raises(TypeError, match="a tool must be a function"):
        client_tools(["search"])
    with pytest.raises(ValueError, match="'<lambda>' cannot name a tool"):
        client_tools([lambda x: x])
    assert set(client_tools({"square": lambda x: x * x})) == {"square"}
    partial = functools.partial(search, limit=2)
    assert tool(partial, name="two").request_field()["inputSchema"]["properties"]["limit"]["default"] == 2


def test_a_slow_sync_tool_leaves_stop_responsive(client: mn.MastraClient) -> None:
    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(300)  # a long computation, in its thread: longer than the wait below
        return "late"

    view = client.agent("toolUser").stream("call slow", tools=[slow])
    try:
        assert started.wait(30)
        assert view.result.tool_calls[0].status == "running"
        view.stop()  # handled while the tool still works (it ends at release.set(), after the wait)
        result = view.wait(60)
    finally:
        release.set()
    assert result.status == "aborted"
    assert result.finish_reason == "aborted"
    assert not view.streaming
    stopped = result.tool_calls[0]
    assert stopped.status == "error"
    assert stopped.error is not None
    assert stopped.error.message == "stopped before slow finished"


def test_a_tool_timeout_is_an_error_the_model_is_told(client: mn.MastraClient) -> None:
    release = threading.Event()

    def stuck() -> str:
        release.wait(30)
        return "never seen"

    try:
        result = client.agent("toolUser").stream("call stuck", tools=[stuck], tool_timeout=0.2).wait(30)
    finally:
        release.set()
    assert result.status == "finished"
    assert result.tool_calls[0].error is not None
    assert result.tool_calls[0].error.message == "stuck did not finish within 0.2 s"
    assert "stuck failed: stuck did not finish within 0.2 s" in result.text


def test_a_client_tool_that_needs_approval(client: mn.MastraClient, tmp_path: Path) -> None:
    ran: list[str] = []

    def delete(name: str) -> dict[str, object]:
        ran.append(name)
        return {"deleted": name}

    careful = tool(delete, require_approval=True)
    view = client.agent("toolUser").stream('call delete with {"name": "notes.txt"}', tools=[careful])
    waiting = view.wait(30)
    assert mn.collect(view.save(tmp_path / "waiting.jsonl")).status == "suspended"  # a replay agrees
    assert waiting.status == "suspended"
    assert waiting.tool_calls[0].status == "awaiting-approval"
    assert waiting.tool_calls[0].continue_with is not None
    assert waiting.tool_calls[0].ran_in is None  # not yet
    assert ran == []
    view.approve()
    result = view.wait(30)
    assert ran == ["notes.txt"]
    assert result.status == "finished"
    assert result.tool_calls[0].decision is not None
    assert result.tool_calls[0].decision.action == "approve"
    assert result.tool_calls[0].ran_in == "notebook"
    assert 'delete returned {"deleted":"notes.txt"}' in result.text

    declined = client.agent("toolUser").stream('call delete with {"name": "b.txt"}', tools=[careful])
    declined.wait(30)
    declined.decline(reason="keep it")
    result = declined.wait(30)
    assert ran == ["notes.txt"]
    assert (result.tool_calls[0].status, result.tool_calls[0].denied_reason) == ("denied", "keep it")
    assert result.tool_calls[0].ran_in is None  # declined: never run
    assert "delete failed: declined by the user: keep it" in result.text


def test_require_tool_approval_covers_client_tools_too(client: mn.MastraClient) -> None:
    view = client.agent("toolUser").stream(
        'call lookup with {"city": "Bern"}', tools=[lookup], require_tool_approval=True
    )
    assert view.wait(30).tool_calls[0].status == "awaiting-approval"  # Mastra itself asks for none
    view._handle_browser_message({"t": "approve", "tool_call_id": view.result.tool_calls[0].tool_call_id})
    result = view.wait(30)
    assert result.status == "finished"
    decision = result.tool_calls[0].decision
    assert decision is not None
    assert (decision.action, decision.by) == ("approve", "view")  # as a click on the view's Approve
    assert 'lookup returned {"city":"Bern"' in result.text


def test_client_tools_in_stream_many(client: mn.MastraClient) -> None:
    cities = ["Paris", "Lima", "Oslo", "Rome", "Kyiv"]
    prompts = [f'call lookup with {{"city": "{city}"}}' for city in cities]
    batch = client.agent("toolUser").stream_many(prompts, concurrency=2, tools=[lookup])
    results = batch.wait(60)
    assert [r.status for r in results] == ["finished"] * 5
    assert [r.tool_calls[0].result["city"] for r in results] == cities
    assert all(f'"city":"{city}"' in r.text for city, r in zip(cities, results, strict=True))


def test_max_tool_rounds_stops_a_runaway_agent(client: mn.MastraClient, tmp_path: Path) -> None:
    calls: list[int] = []

    def tick() -> int:
        calls.append(1)
        return len(calls)

    view = client.agent("toolUser").stream("call tick again and again", tools=[tick], max_tool_rounds=2)
    result = view.wait(30)
    assert len(calls) == 2
    assert [c.status for c in result.tool_calls] == ["done", "done", "error"]
    last = result.tool_calls[-1].error
    assert last is not None
    assert "max_tool_rounds" in last.message
    assert [c.ran_in for c in result.tool_calls] == ["notebook", "notebook", None]
    assert result.status == "incomplete"  # the agent never answered
    assert mn.collect(view.save(tmp_path / "runaway.jsonl")).status == "incomplete"  # a replay agrees


def test_return_values_become_json() -> None:
    import datetime

    import numpy as np
    import pandas as pd

    from mastra_notebook.client.tools import jsonable

    frame = pd.DataFrame({"city": ["Oslo"], "rain": [np.int64(3)]})
    assert jsonable(frame) == [{"city": "Oslo", "rain": 3}]
    assert jsonable(frame["rain"]) == {"0": 3}
    assert jsonable({"n": np.float64(1.5), "when": datetime.date(2026, 1, 2), "tags": {"a"}}) == {
        "n": 1.5,
        "when": "2026-01-02",
        "tags": ["a"],
    }
    assert jsonable(object()).startswith("<object object at")
