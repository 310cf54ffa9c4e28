"""Mastra's datasets and experiments from the notebook, against the bundled Mastra server: a dataset
made from a DataFrame and added to, an experiment run on the server whose results and scores equal
Mastra's own rows, one Experiment type and row schema whoever ran it, two experiments compared, an unknown scorer or agent refused with the list before
anything starts, and an experiment Mastra failed saying where its reason is."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mastra_notebook as mn
from mastra_notebook.client.datasets import Dataset
from mastra_notebook.client.experiments import DRIVEN, MastraExperiment

from ..helpers import stopped_by_max_tokens_within_one_wave

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
    assert isinstance(pirate, mn.Experiment)  # one experiment result, whoever ran it
    assert pirate.wait(120) is pirate
    watch = pirate.remote
    assert isinstance(watch, MastraExperiment)
    assert watch.status == "completed", watch.error
    assert watch.error is None
    assert watch.progress == (3, 0, 3)

    frame = pirate.to_dataframe()
    assert list(frame["input"]) == [item.input for item in dataset.items]  # the dataset's order
    assert all(text.startswith("Arr!") for text in frame["text"])
    assert set(frame["status"]) == {"finished"}
    assert all(isinstance(trace, str) and len(trace) == 32 for trace in frame["trace_id"])
    own = server_scores(client, watch.id)
    assert len(own) == 6  # 3 items x 2 scorers
    for item, row in zip(dataset.items, frame.to_dict("records"), strict=True):
        for scorer in ("answer-length", "judge-answers-question"):
            assert row[f"score_{scorer}"] == own[(item.id, scorer)]
    assert "answer-length_mean" in pirate.summary().columns

    upper = dataset.experiment(
        "dynamic", scorers=["answer-length"], request_context={"style": "uppercase"}, name="upper"
    )
    compared = dataset.compare(pirate, upper)
    assert upper.done
    assert compared.labels == ("pirate", "upper")
    assert sorted(compared) == [0, 1, 2]  # every answer differs (its length's score, too)
    for comparison in compared.values():
        a, b = comparison.results
        assert a.text.startswith("Arr!")
        assert b.text == b.text.upper()


def test_the_same_experiment_from_a_list_and_as_a_dataset_gives_the_same_columns(
    client: mn.MastraClient, tmp_path: Path
) -> None:
    """``agent.experiment(list)`` run in the notebook and ``dataset.experiment`` run by Mastra are one
    type with one row schema; a saved one reopens equal."""
    dataset = made(client)
    here = client.agent("dynamic").experiment(dataset.items, scorers=["answer-length"]).wait(120)
    there = dataset.experiment("dynamic", scorers=["answer-length"], name="there").wait(120)
    assert type(here) is type(there)
    ours, theirs = mn.to_dataframe(here), mn.to_dataframe(there)
    assert list(ours.columns) == list(theirs.columns)
    assert list(ours["input"]) == list(theirs["input"])
    assert list(here.summary().columns) == list(there.summary().columns)
    reopened = mn.load_experiment(there.save(tmp_path / "there"))
    assert reopened.items == there.items
    assert [c.result for c in reopened.cells] == [c.result for c in there.cells]
    pd.testing.assert_frame_equal(reopened.to_dataframe(), there.to_dataframe())


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
    failed = dataset.watched(started["experimentId"], "unchecked", "dynamic", ["nope"], started).wait(60)
    watch = failed.remote
    assert isinstance(watch, MastraExperiment)
    assert watch.status == "failed"
    assert watch.error is not None
    assert "never began" in watch.error
    assert f"'Experiment {watch.id} failed: ...'" in watch.error
    assert {cell.status for cell in failed.cells} == {"queued"}  # no item ran


def test_items_that_fail_show_their_errors(client: mn.MastraClient) -> None:
    dataset = made(client)
    failed = dataset.experiment("errorAgent", scorers=["answer-length"], name="errors").wait(60)
    watch = failed.remote
    assert isinstance(watch, MastraExperiment)
    assert watch.status == "failed"
    assert watch.progress == (0, 3, 3)
    assert (
        watch.error
        == "3 of 3 items failed (0 succeeded); the first said: Mock upstream connection reset (ECONNRESET)"
    )
    frame = failed.to_dataframe()
    assert set(frame["status"]) == {"error"}
    assert set(frame["error"]) == {"Mock upstream connection reset (ECONNRESET)"}
    assert failed.summary().loc["baseline", "errors"] == 3


def test_a_budget_drives_the_experiment_and_stops_its_queued_items_within_one_wave(
    client: mn.MastraClient,
) -> None:
    """With a budget the notebook runs each item on the server (Mastra's caller-driven loop): once
    ``max_tokens`` is crossed the queued items never run, the running ones finish, Mastra's record
    counts the rest as skipped, and the summary says which limit stopped it at what figure."""
    questions = [f"Question number {n}: why is the sky blue?" for n in range(12)]
    dataset = client.create_dataset(f"budget-{uuid.uuid4().hex[:8]}", questions)
    concurrency, limit = 3, 400
    exp = dataset.experiment(
        "dynamic", scorers=["answer-length"], name="budgeted", max_concurrency=concurrency,
        max_tokens=limit, max_cost_usd=1.0,
    ).wait(300)  # fmt: skip
    ran, stopped = stopped_by_max_tokens_within_one_wave(exp, limit, concurrency)
    assert all(len(cell.result.scores) == 1 for cell in ran)  # each item's score, from its run's answer

    watch = exp.remote
    assert isinstance(watch, MastraExperiment)
    assert watch.status == "completed"  # told it ended: the items never run are Mastra's skipped
    assert watch.progress == (len(ran), 0, len(questions))
    record = client.transport.call("GET", watch.path)
    assert record["skippedCount"] == len(stopped)
    assert server_scores(client, watch.id).keys() == {
        (exp.items[cell.item].id, "answer-length") for cell in ran
    }


def test_a_driven_experiment_whose_kernel_is_gone_is_reattached_as_far_as_it_got(
    client: mn.MastraClient,
) -> None:
    """A budgeted experiment runs only while the kernel driving it does: one left half run (created
    not started, one item run, never finalized, as a kernel killed midway leaves it) is reattached at
    once with the result it has and a sentence saying why the rest will not come, not watched until
    the timeout. One driven to its end reattaches as any other."""
    dataset = made(client)
    body = {"targetType": "agent", "targetId": "dynamic", "scorerIds": ["answer-length"], "start": False,
            "metadata": {"scorerIds": ["answer-length"], DRIVEN: True}}  # fmt: skip
    left = client.transport.call("POST", f"{dataset.path}/experiments", json=body)["experimentId"]
    first = dataset.items[0]
    client.transport.call("POST", f"{dataset.path}/experiments/{left}/items/{first.id}/run", json={})

    reattached = client.experiment(left).wait(30)  # returns at once: nothing more will come
    watch = reattached.remote
    assert isinstance(watch, MastraExperiment)
    assert watch.status == "running"
    assert watch.error is not None
    assert watch.error.startswith("the kernel that started it runs its items one by one (it had a budget)")
    ran = {reattached.items[cell.item].id: cell for cell in reattached.cells if cell.status == "finished"}
    assert list(ran) == [first.id]  # (items made in one request are ordered by id in another kernel)
    assert [cell.status for cell in reattached.cells].count("queued") == 2
    assert ran[first.id].result.scores[0].scorer == "answer-length"

    finished = dataset.experiment("dynamic", scorers=["answer-length"], max_tokens=100_000).wait(60)
    again = client.experiment(finished.remote.id).wait(60)
    assert again.remote.error is None

    def answers(exp: Any) -> dict[str | None, str]:
        return {exp.items[cell.item].id: cell.result.text for cell in exp.cells}

    assert answers(again) == answers(finished)
