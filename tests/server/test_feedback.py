"""Human labels sent to Mastra (issue 20 item 5), against the bundled server: ``view.label(...)`` posts
to ``/api/observability/feedback`` with the run's trace id, and Mastra stores it (read back through
``GET /api/observability/feedback?traceId=``). The branch without an observability store is tested
under a fake server (tests/test_feedback.py): the bundled one always keeps it."""

from __future__ import annotations

from typing import Any

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server


def stored(client: mn.MastraClient, trace_id: str) -> list[dict[str, Any]]:
    """Mastra's feedback records of trace ``trace_id``, oldest first."""
    answer = client.transport.call("GET", "/api/observability/feedback", params={"traceId": trace_id})
    return sorted(answer["feedback"], key=lambda record: str(record.get("timestamp")))


def test_a_label_is_stored_by_mastra_with_the_run_s_trace_id(client: mn.MastraClient) -> None:
    view = client.agent("plainText").stream("Say something short.")
    result = view.wait(60)
    assert result.status == "finished"
    assert result.trace_id is not None

    label = view.label(thumbs="down", score=2, comment="too long for the question")
    assert (label.sent_to_mastra, label.reason) == (True, None)
    assert view.result.feedback == label

    records = stored(client, result.trace_id)
    by_type = {record["feedbackType"]: record for record in records}
    assert set(by_type) == {"thumbs", "rating"}
    assert (by_type["thumbs"]["value"], by_type["rating"]["value"]) == (0, 2)
    assert by_type["thumbs"]["comment"] == "too long for the question"
    for record in records:
        assert record["traceId"] == result.trace_id
        assert record["runId"] == result.run_id
        assert record["feedbackSource"] == "user"

    view.label(thumbs="up")  # a later label: one more record (Mastra's feedback is a log of events)
    assert [r["value"] for r in stored(client, result.trace_id) if r["feedbackType"] == "thumbs"] == [0, 1]
