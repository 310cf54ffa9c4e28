"""What the client lists comes back as typed records (core/records.py): attributes and a repr, the
server's own keys still readable, odd values read as empty; drawn by render/catalogue.py, with no
request made to draw them."""

from __future__ import annotations

import httpx
import pydantic
import pytest
from IPython.lib.pretty import pretty

import mastra_notebook as mn
from mastra_notebook.core.records import (
    AgentRecord,
    ScorerRecord,
    ThreadRecord,
    WorkflowRecord,
    WorkflowRunRecord,
)

from .helpers import parse, row_of

LISTED = {  # what a server answers to each GET
    "/api/agents": {"a": {"name": "A", "provider": "mock", "modelId": "m"}},
    "/api/agents/a": {"name": "A", "tools": {}},
    "/api/workflows": {"w": {"name": "W", "stepGraph": []}},
    "/api/workflows/w/runs": {"runs": [{"runId": "r9", "status": "success"}], "total": 1},
    "/api/workflows/w/runs/r9": {"status": "success"},
    "/api/memory/status": {"result": True},
    "/api/memory/threads": {"threads": [{"id": "t1"}]},
}


def client_of(seen: list[httpx.Request], status: int = 200) -> mn.MastraClient:
    """A client whose server answers LISTED (or ``status`` with an error), counting requests."""

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if status != 200:
            return httpx.Response(status, json={"error": "gone"})
        return httpx.Response(200, json=LISTED[request.url.path])

    return mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(answer), backoff_ms=0)


GRAPH = [
    {"type": "step", "step": {"id": "fetch"}},
    {"type": "parallel", "steps": [{"step": {"id": "a"}}, {"step": {"id": "b"}}]},
    {"type": "step", "step": {"id": "ask", "canSuspend": True}},
]


def test_an_agent_record_reads_by_attribute_and_by_the_servers_keys() -> None:
    agent = AgentRecord.of(
        "weather",
        {
            "name": "Weather",
            "provider": "mock",
            "modelId": "m1",
            "instructions": [{"role": "system", "content": "Be brief."}, "Use tools."],
            "tools": {"getWeather": {"description": "Current weather", "requireApproval": True}},
            "agents": {"helper": {"name": "Helper"}},
            "custom": 7,  # a key this package does not know: kept
        },
    )
    assert agent.id == "weather"
    assert agent.model == "mock/m1"
    assert agent.instructions == "Be brief.\n\nUse tools."
    assert agent.callable_tools == [
        ("getWeather", "Current weather", True),
        ("agent-helper", "the agent Helper", False),
    ]
    assert agent["tools"]["getWeather"]["description"] == "Current weather"  # the server's JSON
    assert agent["modelId"] == "m1"
    assert agent["custom"] == 7
    assert agent.get("description", "none sent") == "none sent"  # a key it did not send
    with pytest.raises(KeyError):
        agent["description"]
    assert "modelId" in agent
    assert "description" not in agent
    assert dict(agent)["custom"] == 7
    assert repr(agent).startswith("AgentRecord(id='weather', name='Weather'")
    with pytest.raises(pydantic.ValidationError):
        agent.name = "changed"  # type: ignore[misc]  # frozen


def test_odd_values_read_as_empty_rather_than_failing() -> None:
    odd = AgentRecord.of("b", {"tools": "not a mapping", "instructions": 3, "modelId": None})
    assert (odd.tools, odd.instructions, odd.model) == ({}, "3", "")
    assert AgentRecord.of("a", None).callable_tools == []
    assert WorkflowRecord.of("w", {"stepGraph": [1, {"type": "sleep"}]}).steps == ["sleep"]
    scorer = ScorerRecord.of("s", {"scorer": {"config": {"name": "S"}}, "agentIds": ["x", 2]})
    assert (scorer.name, scorer.description, scorer.agent_ids) == ("S", "", ["x", "2"])


def test_a_workflow_and_its_runs() -> None:
    workflow = WorkflowRecord.of(
        "report",
        {"stepGraph": GRAPH, "inputSchema": '{"json": {"properties": {"city": {"type": "string"}}}}'},
    )
    assert workflow.steps == ["fetch", "a ∥ b", "ask (can suspend)"]
    assert workflow.input_fields == "city?: string"
    snapshot = '{"status": "running", "context": {"input": {}, "fetch": {"status": "success"}}}'
    run = WorkflowRunRecord.of("r1", {"snapshot": snapshot})  # some storages keep it as JSON text
    assert (run.run_id, run.status, run.steps) == ("r1", "running", [("fetch", "success")])
    assert WorkflowRunRecord.of("r2", {"status": "success", "snapshot": {"status": "x"}}).status == "success"


def test_the_client_returns_records_and_drawing_them_makes_no_request() -> None:
    seen: list[httpx.Request] = []
    client = client_of(seen)
    agents, workflows = client.agents(), client.workflows()
    runs = client.workflow("w").runs()
    threads = client.agent("a").threads()
    info = client.agent("a").info()
    run = client.workflow("w").run("r9").info()
    assert isinstance(agents["a"], AgentRecord)
    assert agents["a"].model == "mock/m"
    assert isinstance(workflows["w"], WorkflowRecord)
    assert isinstance(runs["r9"], WorkflowRunRecord)
    assert runs["r9"].status == "success"
    assert runs.total == 1
    assert threads == [ThreadRecord(id="t1")]
    assert threads[0]["id"] == "t1"
    assert (info.id, info.name, info.memory) == ("a", "A", True)
    assert (run.run_id, run.status, run["status"]) == ("r9", "success", "success")
    asked = len(seen)
    shown = [agents._repr_html_(), workflows._repr_html_(), runs._repr_html_(), info._repr_html_()]
    texts = [pretty(agents), pretty(workflows), pretty(runs), pretty(info)]
    assert len(seen) == asked  # drawn from what was read
    assert row_of(parse(shown[0]), "a")[2] == "mock/m"
    assert row_of(parse(shown[2]), "r9")[1] == "success"
    assert row_of(parse(shown[3]), "memory")[1] == "yes"
    assert texts[0] == "1 agents at http://mastra.test:\n  a  (mock/m; no tools)"
    assert texts[3].startswith("agent a (model ?; no tools)")


def test_a_failing_listing_still_raises_the_clients_error() -> None:
    client = client_of([], status=404)
    with pytest.raises(mn.MastraError, match="GET /api/agents"):
        client.agents()
