"""A suspended workflow step says the data it expects: ``view.resume({"approved": True}, step=...)``.

Mastra's ``workflow-step-suspended`` chunk carries only the suspend payload; the step's resume schema
comes from ``GET /api/workflows/:id``, which the client reads once beside the stream. Whatever goes
wrong there is no hint, never a failure (the real server: tests/server/test_resume_hint.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.client.mastra import MastraClient
from mastra_notebook.render.transcript import render_html
from mastra_notebook.widget.suggest import example

from .conftest import RecordingComm

APPROVED = '{"json":{"type":"object","properties":{"approved":{"type":"boolean"}},"required":["approved"]}}'
WORKFLOW = {
    "name": "approvalFlow",
    "steps": {"request": {"id": "request", "resumeSchema": APPROVED}, "finish": {"id": "finish"}},
    "allSteps": {"request": {"id": "request", "resumeSchema": APPROVED, "isWorkflow": False}},
}
CHUNKS = [
    {"type": "workflow-start", "runId": "w1", "from": "WORKFLOW", "payload": {"workflowId": "approvalFlow"}},
    {"type": "workflow-step-start", "runId": "w1", "from": "WORKFLOW", "payload": {"stepName": "request"}},
    {"type": "workflow-step-suspended", "runId": "w1", "from": "WORKFLOW",
     "payload": {"stepName": "request", "suspendPayload": {"question": 'Approve "laptop"?'}}},
    {"type": "workflow-finish", "runId": "w1", "from": "WORKFLOW", "payload": {"workflowStatus": "suspended"}},
]  # fmt: skip
HINTED = 'view.resume({"approved": True}, step="request")'
NO_HINT = 'view.resume(resume_data, step="request")'


@pytest.mark.parametrize(
    ("schema", "shown"),
    [
        ({"type": "object", "properties": {"approved": {"type": "boolean"}}}, '{"approved": True}'),
        (
            {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer"},
                    "mood": {"enum": ["sunny", "rainy"]},
                    "note": {"anyOf": [{"type": "null"}, {"type": "string"}]},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "limit": {"type": "number", "default": 2.5},
                    "where": {"type": "object", "properties": {"lat": {"type": ["number", "null"]}}},
                },
            },
            '{"city": "...", "days": 0, "mood": "sunny", "note": "...", "tags": [], "limit": 2.5,'
            ' "where": {"lat": 0}}',
        ),
        ({"const": {"ok": True, "by": None}}, '{"ok": True, "by": None}'),
        ({"type": "object"}, "{}"),
        ("not a schema", "..."),
    ],
)
def test_an_example_shows_the_fields_and_their_types(schema: Any, shown: str) -> None:
    assert example(schema) == shown


def test_a_run_told_the_schemas_shows_them_on_a_step_waiting_now_and_on_one_later() -> None:
    run = mn.Run()
    for chunk in CHUNKS[:3]:
        run.feed(chunk)
    assert run.result.workflow.steps[0].continue_with == NO_HINT  # type: ignore[union-attr]
    run.expect_resume({"request": orjson.loads(APPROVED)["json"]})
    assert run.result.workflow.steps[0].continue_with == HINTED  # type: ignore[union-attr]
    later = mn.Run()
    later.expect_resume({"request": {"type": "object", "properties": {"approved": {"type": "boolean"}}}})
    for chunk in CHUNKS:
        later.feed(chunk)
    later.end()
    assert later.result.workflow.steps[0].continue_with == HINTED  # type: ignore[union-attr]


def _serve(workflow: Callable[[], httpx.Response]) -> tuple[list[str], httpx.MockTransport]:
    """A fake server for a client (``MastraClient(..., wire=wire)``): ``workflow()`` answers the GET
    of the workflow, the stream is CHUNKS. Returns the requests seen, and the wire."""
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.method} {request.url.path}")
        if request.method == "GET":
            return workflow()
        body = b"".join(orjson.dumps(chunk) + b"\x1e" for chunk in CHUNKS)
        return httpx.Response(200, content=body, headers={"content-type": "text/plain"})

    return seen, httpx.MockTransport(handle)


def test_the_client_reads_the_schemas_once_and_the_step_says_them(recording_comm: RecordingComm) -> None:
    seen, wire = _serve(lambda: httpx.Response(200, json=WORKFLOW))
    view = (
        MastraClient("http://mastra.test", wire=wire)
        .workflow("approvalFlow")
        .stream({"item": "laptop"}, run_id="w1")
    )
    result = view.wait(60)
    assert result.status == "suspended"
    assert result.workflow.steps[0].continue_with == HINTED  # type: ignore[union-attr]
    html = render_html(result)
    assert 'view.resume({"approved": True}, step="request")' in html  # on the step
    assert 'Run suspended: continue with view.resume({"approved": True}' in html  # and its banner
    view.resume({"approved": True})
    view.wait(60)
    assert seen.count("GET /api/workflows/approvalFlow") == 1  # once, not per round
    assert seen.count("POST /api/workflows/approvalFlow/resume-stream") == 1


@pytest.mark.parametrize(
    "answer",
    [
        lambda: httpx.Response(500, json={"error": "boom"}),
        lambda: httpx.Response(200, content=b"<html>not json</html>"),
        lambda: httpx.Response(200, json=["a", "list"]),
        lambda: httpx.Response(200, json={"steps": {"request": {"resumeSchema": "{oops"}}, "allSteps": 3}),
        lambda: (_ for _ in ()).throw(httpx.ConnectError("refused")),
    ],
    ids=["500", "not-json", "a-list", "bad-schema", "refused"],
)
def test_whatever_fails_is_no_hint_and_the_run_goes_on(
    recording_comm: RecordingComm, answer: Callable[[], httpx.Response]
) -> None:
    _, wire = _serve(answer)
    result = (
        MastraClient("http://mastra.test", retries=0, wire=wire)
        .workflow("approvalFlow")
        .stream(run_id="w1")
        .wait(60)
    )
    assert (result.status, result.error, result.invalid) == ("suspended", None, [])
    assert result.workflow.steps[0].continue_with == NO_HINT  # type: ignore[union-attr]
