"""Issue 31's review against the bundled Mastra server: a label of an experiment's run reaches
Mastra's feedback with the run's trace id (also after ``load_experiment(folder, client)``), and
``exp.to_dataset`` makes a Mastra dataset of the reviewed inputs with each label as ground truth.
(The keyboard, the restart and the resume are tests/e2e/test_review.py's.)"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server


def stored(client: mn.MastraClient, trace_id: str) -> list[dict[str, Any]]:
    """Mastra's feedback records of trace ``trace_id``."""
    return list(
        client.transport.call("GET", "/api/observability/feedback", params={"traceId": trace_id})["feedback"]
    )


def test_labels_reach_mastra_and_become_a_dataset(client: mn.MastraClient, tmp_path: Path) -> None:
    inputs = [f"Question {i}: say something short." for i in range(3)]
    exp = client.agent("plainText").experiment(inputs, view=False, name="reviewed").wait(120)
    exp.save(tmp_path)
    review = exp.review(mn.Rubric(thumbs=True, categories=["right", "wrong"]), order="input", reviewer="ana")
    first = review.label(thumbs="up", category="right", comment="fine")
    assert first.sent_to_mastra is True
    assert len(first.trace_ids) == 1
    thumbs, category = sorted(stored(client, first.trace_ids[0]), key=lambda r: r["feedbackType"] != "thumbs")
    assert (thumbs["feedbackType"], thumbs["value"], thumbs["comment"]) == ("thumbs", 1, "fine")
    assert (category["feedbackType"], category["value"]) == ("category", "right")  # a string value

    again = mn.load_experiment(tmp_path, client=client)  # a new kernel: the labels, and the client to send
    resumed = again.review(mn.Rubric(thumbs=True, categories=["right", "wrong"]), order="input")
    assert resumed.progress == "2 of 3"
    second = resumed.label(thumbs="down", category="wrong")
    assert second.sent_to_mastra is True
    assert sorted((r["feedbackType"], r["value"]) for r in stored(client, second.trace_ids[0])) == [
        ("category", "wrong"),
        ("thumbs", 0),
    ]

    name = f"reviewed-{uuid.uuid4().hex[:8]}"
    dataset = again.to_dataset(name, field="category")
    items = sorted((item.input, item.expected) for item in client.dataset(name).items)
    assert items == [(inputs[0], "right"), (inputs[1], "wrong")]
    assert dataset.name == name


def test_a_pair_s_choice_reaches_mastra_as_a_preference_on_each_trace(client: mn.MastraClient) -> None:
    variants = {
        "plain": {"instructions": "Answer in plain words."},
        "upper": {"instructions": "Answer in uppercase."},
    }
    exp = client.agent("dynamic").experiment(["Where is NASA based?"], variants, view=False).wait(120)
    review = exp.review(pairwise=("plain", "upper"), reviewer="ana")
    made = review.label(choice="a", comment="plain reads better")
    assert made.sent_to_mastra is True
    plain, upper = made.trace_ids
    ((chosen,), (other,)) = stored(client, plain), stored(client, upper)
    assert (chosen["feedbackType"], chosen["value"], other["value"]) == ("preference", 1, 0)
    assert chosen["comment"] == "plain reads better"
    assert chosen["metadata"]["otherTraceId"] == upper
