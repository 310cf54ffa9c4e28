"""The client against the real, bundled Mastra server: every flow, asserted on the RunResult and on
what the widget holds."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pydantic
import pytest

import mastra_notebook as mn
from mastra_notebook.client import session as sessions
from mastra_notebook.client.mastra import body_options, camel
from mastra_notebook.client.session import RunSession

from ..conftest import RecordingComm
from ..helpers import WEATHER_REPORT_DONE, browser_state, everything_shown, step_statuses, wait_until
from .faults import BASIC, BASIC_PASSWORD, BASIC_USER, REDIRECT_TO, fault_server

pytestmark = pytest.mark.server


def widget_text(comm: RecordingComm) -> str:
    """All text the browser would hold, from the messages the widget sent."""
    nodes = browser_state(comm.custom())
    return " ".join(str(node.get("text", "")) for node in nodes.values())


def test_agents_are_listed(client: mn.MastraClient) -> None:
    agents = client.agents()
    assert {"weather", "supervisor", "approver", "suspender", "slow"} <= set(agents)


def test_weather_agent_streams_text_and_a_tool_call(
    client: mn.MastraClient, recording_comm: RecordingComm
) -> None:
    view = client.agent("weather").stream("What is the weather in Paris?")
    result = view.wait(60)
    assert result.status == "finished"
    (call,) = result.tool_calls
    assert (call.tool_name, call.args, call.status) == ("getWeather", {"city": "Paris"}, "done")
    assert call.result["city"] == "Paris"
    assert result.text.startswith("Let me look up the current weather in Paris.")
    assert result.usage.total_tokens > 0
    nodes = browser_state(recording_comm.custom())
    assert nodes["root"]["status"] == "finished"
    tool = next(n for n in nodes.values() if n["kind"] == "tool")
    assert tool["args"] == {"city": "Paris"}
    assert tool["status"] == "done"


@pytest.mark.parametrize(
    ("agent", "check"),
    [
        ("plainText", lambda r: r.text.startswith("#") and "```" in r.text),
        ("reasoning", lambda r: "408" in r.text and len(r.reasoning_text) > 20 and r.usage.reasoning_tokens > 0),
        ("parallelTools", lambda r: [c.args["city"] for c in r.tool_calls] == ["Paris", "Berlin"]
         and all(c.status == "done" for c in r.tool_calls)),
        ("toolError", lambda r: r.tool_calls[0].status == "error" and r.tool_calls[0].error.message
         and r.status == "finished"),
        ("errorAgent", lambda r: r.status == "error" and "ECONNRESET" in r.error.message),
        ("sources", lambda r: len(r.sources) >= 2 and r.files),
    ],
)  # fmt: skip
def test_agent_flows(client: mn.MastraClient, agent: str, check: Any) -> None:
    result = client.agent(agent).stream("Please answer.").wait(60)
    assert check(result), result.model_dump_json(indent=1)[:2000]


def test_sub_agents_two_levels_deep(client: mn.MastraClient, recording_comm: RecordingComm) -> None:
    result = client.agent("supervisor").stream("Get the 3-day forecast for Paris.").wait(60)
    (delegate,) = result.tool_calls
    assert delegate.tool_name == "agent-researcher"
    researcher = delegate.children
    assert researcher is not None
    assert researcher.status == "finished"
    names = [call.tool_name for call in researcher.tool_calls]
    assert names == ["getForecast", "agent-analyst"]
    forecast, analyst = researcher.tool_calls
    assert [o["day"] for o in forecast.outputs] == [1, 2, 3]
    assert analyst.children is not None
    assert analyst.children.text
    assert analyst.children.text in widget_text(recording_comm)


def test_workflow_as_tool(client: mn.MastraClient) -> None:
    result = client.agent("workflowAgent").stream("Weather report for London").wait(60)
    (call,) = result.tool_calls
    assert call.tool_name == "workflow-weatherReport"
    assert call.children is not None
    assert call.children.workflow is not None
    steps = call.children.workflow.steps
    assert [s.step_name for s in steps] == ["fetch-forecast", "write-report"]
    assert steps[1].children is not None
    assert steps[1].children.text


class WeatherSummary(pydantic.BaseModel):
    city: str
    temperatureC: float
    conditions: str
    advice: list[str]
    confidence: float


def test_structured_output_with_a_pydantic_model(client: mn.MastraClient) -> None:
    result = (
        client.agent("structured")
        .stream("Weather for Paris as JSON.", structured_output=WeatherSummary)
        .wait(60)
    )
    assert result.status == "finished"
    summary = WeatherSummary.model_validate(result.object)
    assert summary.city == "Paris"


def test_approve_continues_the_same_view(client: mn.MastraClient, recording_comm: RecordingComm) -> None:
    view = client.agent("approver").stream("Delete record abc-123")
    first = view.wait(60)
    assert first.status == "suspended"
    assert first.tool_calls[0].status == "awaiting-approval"
    view.approve()
    result = view.wait(60)
    assert result.status == "finished"
    assert result.run_id == first.run_id
    (call,) = result.tool_calls
    assert (call.status, call.result) == ("done", {"deleted": True, "id": "abc-123"})
    assert browser_state(recording_comm.custom())["root"]["status"] == "finished"


def test_approve_from_the_widget_button(client: mn.MastraClient) -> None:
    view = client.agent("approver").stream("Delete record abc-123")
    call_id = view.wait(60).tool_calls[0].tool_call_id
    view._on_browser_message(view, {"t": "approve", "tool_call_id": call_id}, [])
    view.approve()  # the notebook's next cell, after the click: nothing more is sent
    result = view.wait(60)
    (call,) = result.tool_calls
    assert call.status == "done"
    assert call.decision is not None
    assert (call.decision.action, call.decision.by) == ("approve", "view")
    assert result.human_wait == call.decision.waited
    assert result.status == "finished"


def test_python_decision_leaves_the_wait_out_of_tool_time(
    client: mn.MastraClient, capsys: pytest.CaptureFixture[str]
) -> None:
    view = client.agent("approver").stream("Delete record abc-123")
    (waiting,) = view.wait(60).tool_calls
    # a person reads the card for a second: its wait began a second earlier (no sleep)
    view.run.state.calls[waiting.tool_call_id].fields["waiting_since"] -= 1000
    view.approve()
    view.approve()
    assert "already approved from Python: nothing sent" in capsys.readouterr().out
    call = view.wait(60).tool_calls[0]
    assert call.decision is not None
    assert call.decision.waited is not None
    assert call.decision.waited >= 1.0
    assert call.tool_time is not None
    assert call.tool_time < call.decision.waited


def test_decline_with_a_reason(client: mn.MastraClient) -> None:
    view = client.agent("approver").stream("Delete record abc-123")
    view.wait(60)
    view.decline(reason="It is still referenced.")
    result = view.wait(60)
    assert result.status == "finished"
    assert result.tool_calls[0].status == "denied"
    assert "It is still referenced." in result.text


def test_suspended_tool_is_resumed(client: mn.MastraClient) -> None:
    view = client.agent("suspender").stream("Plan my trip")
    first = view.wait(60)
    assert first.status == "suspended"
    assert first.tool_calls[0].suspend_payload
    view.resume({"answer": "Lisbon"})
    result = view.wait(60)
    assert result.status == "finished"
    assert "Lisbon" in result.text


def test_workflow_streams_steps(client: mn.MastraClient, recording_comm: RecordingComm) -> None:
    result = client.workflow("weatherReport").stream(input_data={"city": "Berlin"}).wait(60)
    assert result.status == "finished"
    assert result.workflow is not None
    assert result.workflow.status == "success"
    assert step_statuses(result) == WEATHER_REPORT_DONE
    assert result.workflow.result["city"] == "Berlin"
    kinds = [n["kind"] for n in browser_state(recording_comm.custom()).values()]
    assert kinds.count("workflow-step") == 2


def test_suspended_workflow_is_resumed(client: mn.MastraClient) -> None:
    view = client.workflow("approvalFlow").stream(input_data={"item": "laptop"})
    first = view.wait(60)
    assert first.status == "suspended"
    view.resume({"approved": True})
    result = view.wait(60)
    assert result.status == "finished"
    assert result.workflow is not None
    assert result.workflow.result["approved"] is True
    assert result.run_id == first.run_id


def test_stop_closes_the_stream_and_keeps_the_partial_text(client: mn.MastraClient) -> None:
    view = client.agent("slow").stream("deltas=400 delay=25")
    wait_until(lambda: len(view.result.text) >= 200, "200 characters came", timeout=30)
    view.stop()
    assert (view.result.status, view.streaming) == ("aborted", False)  # as stop() returns
    result = view.wait(60)
    assert result.status == "aborted"
    assert result.finish_reason == "aborted"
    assert 200 <= len(result.text) < 400 * 40


def test_stop_button_in_the_widget(client: mn.MastraClient) -> None:
    view = client.agent("slow").stream("deltas=400 delay=25")
    wait_until(lambda: bool(view.result.text), "the answer began", timeout=30)
    view._on_browser_message(view, {"t": "stop"}, [])
    assert view.result.status == "aborted"
    assert view.wait(60).status == "aborted"


def test_unknown_agent_is_a_404_error_in_the_view(
    client: mn.MastraClient, recording_comm: RecordingComm
) -> None:
    result = client.agent("doesNotExist").stream("hi").wait(30)
    assert result.status == "error"
    assert result.error is not None
    assert (result.error.status_code, result.error.message) == (404, "Agent with id doesNotExist not found")
    banner = next(n for n in browser_state(recording_comm.custom()).values() if n["kind"] == "banner")
    assert "doesNotExist not found" in banner["message"]


def test_bad_body_is_a_400_with_mastras_issues(client: mn.MastraClient) -> None:
    result = client.agent("weather").stream(5).wait(30)  # type: ignore[arg-type]
    assert result.status == "error"
    assert result.error is not None
    assert result.error.status_code == 400
    assert result.error.message.startswith("Invalid request body: messages")


def test_refused_connection() -> None:
    result = mn.MastraClient("http://127.0.0.1:9").agent("weather").stream("hi").wait(30)
    assert result.status == "error"
    assert result.error is not None
    assert "cannot connect to the Mastra server at http://127.0.0.1:9" in result.error.message


def test_auth_header_passed_through_and_401() -> None:
    with fault_server() as url:
        refused = mn.MastraClient(url).agent("auth").stream("hi").wait(60)
        allowed = (
            mn.MastraClient(url, headers={"Authorization": "Bearer secret"})
            .agent("auth")
            .stream("hi")
            .wait(60)
        )
    assert refused.status == "error"
    assert refused.error is not None
    assert (refused.error.status_code, refused.error.message) == (401, "Unauthorized")
    assert (allowed.status, allowed.text) == ("finished", "Hello world")


def test_dropped_connection_keeps_everything_as_incomplete() -> None:
    with fault_server() as url:
        result = mn.MastraClient(url).agent("drop").stream("hi").wait(60)
    assert result.status == "incomplete"
    assert result.text == "Hello world"
    assert any(p.kind == "banner" and "lost" in (p.text or "") for p in result.parts)


def test_stalled_server_hits_the_read_timeout() -> None:
    with fault_server() as url:
        result = mn.MastraClient(url, timeout=1.0).agent("stall").stream("hi").wait(60)
    assert result.status == "error"
    assert result.error is not None
    assert "timed out (ReadTimeout)" in result.error.message
    assert result.text == "Hello world"


def test_keepalive_comments_are_ignored() -> None:
    with fault_server() as url:
        result = mn.MastraClient(url).agent("keepalive").stream("hi").wait(60)
    assert (result.status, result.text, result.invalid) == ("finished", "Hello world", [])


def test_ten_concurrent_streams_in_one_loop(client: mn.MastraClient) -> None:
    async def scenario() -> list[mn.RunResult]:
        views = [client.agent("weather").stream(f"Weather in city {i}?") for i in range(10)]
        return [await view for view in views]

    results = asyncio.run(scenario())
    assert all(r.status == "finished" and r.tool_calls[0].status == "done" for r in results)
    assert len({r.run_id for r in results}) == 10


def test_options_map_to_mastras_body() -> None:
    assert camel("max_steps") == "maxSteps"
    assert camel("maxSteps") == "maxSteps"
    body = body_options({"max_steps": 3, "require_tool_approval": True, "until_idle": {"max_idle_ms": 1},
                         "run_id": "r", "request_context": {"a": 1}, "structured_output": WeatherSummary,
                         "customThing": 1})  # fmt: skip
    assert body["maxSteps"] == 3
    assert body["requireToolApproval"] is True
    assert body["runId"] == "r"
    assert body["requestContext"] == {"a": 1}
    assert body["customThing"] == 1
    assert body["structuredOutput"]["schema"]["properties"]["city"] == {"title": "City", "type": "string"}
    assert json.dumps(body)


def test_stop_cancels_a_workflow_run_on_the_server(client: mn.MastraClient) -> None:
    import httpx

    view = client.workflow("slowCount").stream(input_data={"steps": 60, "delayMs": 100})

    def has_output() -> bool:
        workflow = view.result.workflow
        return bool(workflow and workflow.steps and workflow.steps[0].outputs)

    wait_until(has_output, "a step's first output", timeout=30)
    view.stop()
    assert view.result.status == "aborted"
    result = view.wait(60)
    assert result.status == "aborted"
    assert 1 <= len(result.workflow.steps[0].outputs) < 60  # type: ignore[union-attr]
    run_id = result.run_id

    def cancelled() -> bool:  # the server's own record of the run says it was cancelled
        state = httpx.get(f"{client.base_url}/api/workflows/slowCount/runs/{run_id}").json()
        return bool(state.get("status") == "canceled")

    wait_until(cancelled, "the server's record of the run says canceled", timeout=60, every=0.2)


def test_agent_network_run(client: mn.MastraClient) -> None:
    result = client.agent("networkSupervisor").network("Get the 3-day forecast for Paris").wait(60)
    assert result.status == "finished"
    assert result.text.startswith("Here is the 3-day forecast for Paris")
    (researcher,) = result.tool_calls
    assert researcher.tool_name == "agent-researcher"
    assert researcher.children is not None
    assert [c.tool_name for c in researcher.children.tool_calls] == ["getForecast", "agent-analyst"]
    assert result.usage.total_tokens > 0


def test_credentials_in_the_url_are_basic_auth_and_never_shown(tmp_path: Path) -> None:
    secrets = [BASIC_PASSWORD, quote(BASIC_PASSWORD), BASIC.decode(), "hdr-secret"]
    with fault_server() as url:
        base = url.replace("http://", f"http://{BASIC_USER}:{BASIC_PASSWORD}@")
        client = mn.MastraClient(base, headers={"X-Api-Key": "hdr-secret"})
        assert client.base_url == url
        signed_in = client.agent("basic").stream("hi")
        assert (signed_in.wait(60).status, signed_in.result.text) == (
            "finished",
            "Hello world",
        )  # Basic auth sent
        wrong = (
            mn.MastraClient(url.replace("http://", f"http://{BASIC_USER}:wrong@")).agent("basic").stream("hi")
        )
        assert wrong.wait(60).error is not None
        assert wrong.result.error.status_code == 401
        failing = [
            client.agent("moved").stream("hi"),
            client.agent("hugeerror").stream("hi"),
            client.agent("drop").stream("hi"),
            mn.MastraClient(base, timeout=1.0).agent("stall").stream("hi"),
            mn.MastraClient(base.rsplit(":", 1)[0] + ":9", headers={"Authorization": "Bearer hdr-secret"})
            .agent("weather")
            .stream("hi"),
        ]
        for view in failing:
            view.wait(60)
    assert all(view.result.status in ("error", "incomplete") for view in failing)
    assert "cannot connect to the Mastra server at http://127.0.0.1:9" in failing[-1].result.error.message
    shown = [repr(client), repr(client.agent("basic")), repr(client.workflow("w"))]
    shown += [everything_shown(view, tmp_path) for view in [signed_in, *failing]]
    for text in shown:
        assert not any(secret in text for secret in secrets), text[:2000]


def test_a_redirect_ends_the_view_in_error_saying_where() -> None:
    with fault_server() as url:
        result = mn.MastraClient(url).agent("moved").stream("hi").wait(60)
    assert result.status == "error"
    assert result.error is not None
    assert result.error.status_code == 307
    assert REDIRECT_TO in result.error.message
    assert result.invalid == []  # the redirect page is not read as a stream


def test_a_huge_error_body_is_not_read_whole() -> None:
    with fault_server() as url:  # the error page never ends: reading it whole would never return
        result = mn.MastraClient(url).agent("hugeerror").stream("hi").wait(60)
    assert result.status == "error"
    assert result.error is not None
    assert result.error.status_code == 500
    assert result.error.message.startswith("<p>Internal error</p>")
    assert len(result.error.message) <= 500


def banners(result: mn.RunResult) -> list[str]:
    return [p.text or "" for p in result.parts if p.kind == "banner"]


def session_of(view: mn.StreamView) -> RunSession:
    assert isinstance(view.controls, RunSession)
    return view.controls


def test_a_failed_workflow_cancel_is_a_warning_on_the_run() -> None:
    with fault_server() as url:
        view = mn.MastraClient(url).workflow("refuse").stream(input_data={})
        wait_until(lambda: view.result.chunk_count > 0, "the workflow streams", timeout=30)
        view.stop()
        assert view.wait(60).status == "aborted"
        cancelling = session_of(view).cancelling
        assert cancelling is not None
        wait_until(cancelling.done, "the cancel's answer", timeout=60)
    (warning,) = [b for b in banners(view.result) if "could not cancel" in b]
    assert "HTTP 500: cannot cancel that run" in warning
    assert "could not cancel" in json.dumps(view._transcript())  # the final state was sent again


def test_stop_does_not_block_the_loop_on_a_hung_workflow_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions, "CANCEL_TIMEOUT", 0.5)

    async def scenario(url: str) -> tuple[mn.RunResult, mn.StreamView]:
        view = mn.MastraClient(url).workflow("hang").stream(input_data={})
        while view.result.chunk_count == 0:  # the workflow streams
            await asyncio.sleep(0.01)
        view.stop()  # on the loop, as a Stop click in the kernel is
        cancelling = session_of(view).cancelling
        assert isinstance(cancelling, asyncio.Task)
        assert not cancelling.done()  # the POST to a server that never answers is not awaited here
        assert view.result.status == "aborted"
        result = await view
        await cancelling
        return result, view

    with fault_server() as url:
        result, view = asyncio.run(scenario(url))
    assert result.status == "aborted"
    assert any("could not cancel" in b and "timed out (ReadTimeout)" in b for b in banners(view.result))
