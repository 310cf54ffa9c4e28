"""Mastra's datasets and experiments from the notebook, against the bundled Mastra server: a dataset
made from a DataFrame and added to, an experiment run on the server whose results and scores equal
Mastra's own rows, two experiments compared, an unknown scorer or agent refused with the list before
anything starts, and an experiment Mastra failed saying where its reason is."""

from __future__ import annotations

import uuid
from typing import Any

import pandas as pd
import pytest

import mastra_notebook as mn
from mastra_notebook.client.datasets import Dataset, DatasetExperiment

from ..helpers import parse

pytestmark = pytest.mark.server

QUESTIONS = pd.DataFrame(
    {
        "input": ["What is Paris?", "What is Berlin?"],
        "expected": ["Paris is the capital of France.", None],  # an item may have no ground truth
    }
)


def made(client: mn.MastraClient) -> Dataset:
    dataset = client.create_dataset(f"capitals-{uuid.uuid4().hex[:8]}", QUESTIONS)
    dataset.add(["What is Rome?"])
    return dataset


def server_scores(client: mn.MastraClient, experiment_id: str) -> dict[tuple[str, str], Any]:
    """Mastra's own score rows of an experiment, by (item id, scorer id)."""
    listed = client.transport.call("GET", f"/api/scores/run/{experiment_id}", params={"perPage": 100})
    return {(row["entityId"], row["scorerId"]): row["score"] for row in listed["scores"]}


def test_a_dataset_from_a_dataframe_its_items_and_the_catalogue(client: mn.MastraClient) -> None:
    dataset = made(client)
    items = dataset.items
    # items of one batch share their creation time: the server orders them as it likes
    assert sorted((item.input, item.expected or "") for item in items) == [
        ("What is Berlin?", ""),
        ("What is Paris?", "Paris is the capital of France."),
        ("What is Rome?", ""),
    ]
    assert items[-1].input == "What is Rome?"  # added after the others
    assert all(item.id for item in items)
    listed = client.datasets()
    assert listed[dataset.id]["name"] == dataset.name
    assert dataset.name in listed._repr_html_()
    assert dataset.id in set(listed.to_dataframe()["id"])
    assert client.dataset(dataset.name).id == client.dataset(dataset.id).id == dataset.id
    with pytest.raises(LookupError, match="no dataset 'nowhere'"):
        client.dataset("nowhere")


def test_an_experiment_runs_on_the_server_its_scores_show_and_two_compare(client: mn.MastraClient) -> None:
    dataset = made(client)
    pirate = dataset.experiment(
        client.agent("dynamic"),
        scorers=["answer-length", "judge-answers-question"],
        request_context={"style": "pirate"},
        name="pirate",
    )
    assert pirate.wait(120) is pirate
    assert pirate.status == "completed", pirate.error
    assert pirate.error is None
    assert pirate.progress == (3, 0, 3)

    frame = pirate.to_dataframe()
    assert list(frame["input"]) == [item.input for item in dataset.items]  # the dataset's order
    assert all(text.startswith("Arr!") for text in frame["output"])
    own = server_scores(client, pirate.id)
    assert len(own) == 6  # 3 items x 2 scorers
    for row in pirate.rows():
        for scorer in ("answer-length", "judge-answers-question"):
            assert row[f"score_{scorer}"] == own[(row["item_id"], scorer)]
    shown = pirate.html()
    assert 'data-status="completed"' in shown
    assert "What is Berlin?" in shown
    assert "0.65" in shown  # answer-length of a 13-word pirate answer
    assert "The answer takes up what, paris." in shown  # a score's reason, on hover

    upper = dataset.experiment(
        "dynamic", scorers=["answer-length"], request_context={"style": "uppercase"}, name="upper"
    )
    compared = dataset.compare(pirate, upper)
    assert upper.ended
    assert compared.labels == ("pirate", "upper")
    rows = compared.rows()
    assert [row["input"] for row in rows] == list(frame["input"])
    for row in rows:
        assert row["output_a"].startswith("Arr!")
        assert row["output_b"] == row["output_b"].upper()
        assert row["score_answer-length_a"] == 0.65
        assert row["delta_answer-length"] == pytest.approx(row["score_answer-length_b"] - 0.65)
    html = compared._repr_html_()
    assert "A: pirate" in html
    assert "B: upper" in html
    assert "▼" in html  # uppercase answers are shorter


def test_an_unknown_scorer_or_agent_is_refused_with_the_list_before_anything_runs(
    client: mn.MastraClient,
) -> None:
    dataset = made(client)
    with pytest.raises(ValueError, match="unknown Mastra scorer 'answer_length'") as refused:
        dataset.experiment("dynamic", scorers=["answer_length"])
    assert "answer-length, completeness-scorer" in str(refused.value)  # the ids there are
    with pytest.raises(ValueError, match="no agent 'dynamo' on this server") as no_agent:
        dataset.experiment("dynamo", scorers=["answer-length"])
    assert "dynamic" in str(no_agent.value)
    assert len(dataset.experiments()) == 0  # nothing was started


def test_an_experiment_mastra_failed_says_where_its_reason_is(client: mn.MastraClient) -> None:
    dataset = made(client)
    # what a client that did not check would start: Mastra fails it at once, 0/0, reason in its log only
    body = {"targetType": "agent", "targetId": "dynamic", "scorerIds": ["nope"], "name": "unchecked"}
    started = client.transport.call("POST", f"{dataset.path}/experiments", json=body)
    failed = DatasetExperiment(dataset, started["experimentId"], "unchecked", "dynamic", ["nope"])
    failed.take(started)
    failed.start()
    failed.wait(60)
    assert failed.status == "failed"
    assert failed.error is not None
    assert "never began" in failed.error
    assert f"'Experiment {failed.id} failed: ...'" in failed.error
    assert failed.to_dataframe().empty
    assert "mn-experiment-error" in failed.html()


def test_items_that_fail_show_their_errors(client: mn.MastraClient) -> None:
    dataset = made(client)
    failed = dataset.experiment("errorAgent", scorers=["answer-length"], name="errors").wait(60)
    assert failed.status == "failed"
    assert failed.progress == (0, 3, 3)
    assert (
        failed.error
        == "3 of 3 items failed (0 succeeded); the first said: Mock upstream connection reset (ECONNRESET)"
    )
    assert set(failed.to_dataframe()["error"]) == {"Mock upstream connection reset (ECONNRESET)"}
    assert parse(failed.html()).rows[0][-1] == "error"  # an error column, as items failed
