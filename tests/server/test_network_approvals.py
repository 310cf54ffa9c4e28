"""A network run's approvals against the real server: view.approve()/decline() (and the view's own
buttons, whose message the widget receives) go to /approve-network-tool-call and
/decline-network-tool-call and continue the same view and run."""

from __future__ import annotations

from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.client.session import RunSession

pytestmark = pytest.mark.server


def waiting_network(client: mn.MastraClient) -> tuple[mn.StreamView, Any]:
    view = client.agent("networkApprover").network("Delete record r-42")
    assert isinstance(view.controls, RunSession)
    assert view.controls.kind == "network"
    result = view.wait(60)
    assert result.status == "suspended", result.error
    (call,) = result.tool_calls
    assert (call.tool_name, call.status, call.args) == ("deleteRecord", "awaiting-approval", {"id": "r-42"})
    assert call.continue_with is not None
    assert call.continue_with.startswith(f'view.approve("{call.tool_call_id}")')
    return view, call


def test_approve_runs_the_tool_and_the_network_completes(client: mn.MastraClient) -> None:
    view, call = waiting_network(client)
    view.approve()
    result = view.wait(60)
    assert result.status == "finished", result.error
    assert result.text == 'Deleted: {"deleted":true,"id":"r-42"}'
    (done,) = result.tool_calls  # the same card, carried past its decision
    assert (done.tool_call_id, done.status, done.result) == (
        call.tool_call_id,
        "done",
        {"deleted": True, "id": "r-42"},
    )
    assert done.decision is not None
    assert (done.decision.action, done.decision.by) == ("approve", "python")


def test_decline_with_a_reason(client: mn.MastraClient) -> None:
    view, _ = waiting_network(client)
    view.decline(reason="keep it, please")
    result = view.wait(60)
    assert result.status == "finished", result.error
    assert result.text == "Not deleted: keep it, please"  # the network was told why
    (declined,) = result.tool_calls
    assert declined.decision is not None
    assert declined.decision.action == "decline"


def test_the_views_approve_button(client: mn.MastraClient) -> None:
    view, call = waiting_network(client)
    view._handle_browser_message({"t": "approve", "tool_call_id": call.tool_call_id})  # what a click sends
    result = view.wait(60)
    assert result.status == "finished", result.error
    assert result.tool_calls[0].decision is not None
    assert result.tool_calls[0].decision.by == "view"
    assert result.text.startswith("Deleted:")


def test_an_agent_approval_still_goes_to_approve_tool_call(client: mn.MastraClient) -> None:
    view = client.agent("approver").stream("Delete record abc-123")
    assert view.wait(60).status == "suspended"
    view.approve()
    assert view.wait(60).text.endswith("Done: record abc-123 was deleted.")


def test_resume_on_a_network_says_why_not(client: mn.MastraClient) -> None:
    view = mn.StreamView(title="network networkApprover")
    RunSession(client.transport, view.stream, "/api/agents/networkApprover", "network")
    with pytest.raises(RuntimeError, match="no route for it"):
        view.resume({"answer": "yes"})
