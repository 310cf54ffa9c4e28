"""On the bundled real Mastra server: a suspended workflow step says the data it expects, read from
the server's own description of the workflow (``GET /api/workflows/:id``), and that call resumes it."""

from __future__ import annotations

import pytest

import mastra_notebook as mn
from mastra_notebook.render.transcript import render_html

pytestmark = pytest.mark.server


def test_a_suspended_step_says_the_data_its_resume_schema_asks_for(client: mn.MastraClient) -> None:
    view = client.workflow("approvalFlow").stream(input_data={"item": "laptop"})
    first = view.wait(60)
    assert first.status == "suspended"
    assert first.workflow is not None
    (step,) = [step for step in first.workflow.steps if step.status == "suspended"]
    assert (
        step.continue_with == 'view.resume({"approved": True}, step="request")'
    )  # resumeSchema: {approved: boolean}
    assert 'view.resume({"approved": True}, step="request")' in render_html(first)
    view.resume({"approved": True})  # the call as shown
    result = view.wait(60)
    assert result.status == "finished"
    assert result.workflow is not None
    assert result.workflow.result["approved"] is True
    assert result.workflow.steps[0].continue_with is None  # answered: no hint left
