"""Datasets and server-run experiments without a server: items read from lists, mappings, duck-typed
objects and DataFrames; Mastra's experiment watched with a growing, bounded pause (injected clock and
pause) until its scores are there; a watch that runs out of time says so; hostile outputs stay inert
in the tables."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pandas as pd
import pytest

import mastra_notebook as mn
from mastra_notebook.client.datasets import Dataset, DatasetItem, item_bodies
from mastra_notebook.client.experiments import DRIVEN, MAX_PAUSE, MastraExperiment, run_result
from mastra_notebook.client.scores import KnownScorers
from mastra_notebook.runs.experiment import Experiment

from .fake_clock import run_on_fake_clock

HOSTILE = '<img src=x onerror="alert(1)"></bdi>\u202e'


def test_items_from_lists_mappings_objects_and_dataframes() -> None:
    frame = pd.DataFrame({"input": ["a", "b"], "expected": ["A", None], "other": [1, 2]})
    assert item_bodies(frame) == [{"input": "a", "groundTruth": "A"}, {"input": "b"}]
    messages = [{"role": "user", "content": "hi"}]  # an input may be messages
    assert item_bodies(["a", messages]) == [{"input": "a"}, {"input": messages}]
    assert item_bodies([{"input": "a", "expected": "A"}, {"input": "b", "groundTruth": "B"}]) == [
        {"input": "a", "groundTruth": "A"},
        {"input": "b", "groundTruth": "B"},
    ]
    assert item_bodies([DatasetItem("a", "A", id="i1")]) == [{"input": "a", "groundTruth": "A"}]
    assert item_bodies(None) == []
    with pytest.raises(ValueError, match="'input' column"):
        item_bodies(pd.DataFrame({"question": ["a"]}))
    with pytest.raises(TypeError, match="not str"):
        item_bodies("one prompt")
    with pytest.raises(TypeError, match="wrap it in a list"):
        item_bodies({"input": "a"})


class FakeMastra:
    """A dataset ``d1`` whose experiment ``e1`` runs for ``polls_to_end`` reads of its record; its
    scores come ``scores_late`` reads of the scores after that."""

    def __init__(self, polls_to_end: int = 3, scores_late: int = 1, output: str = "Paris.") -> None:
        self.polls_to_end, self.scores_late, self.output = polls_to_end, scores_late, output
        self.record_reads = self.score_reads = 0
        self.posted: list[Any] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/api/scores/scorers":
            return httpx.Response(200, json={"answer-length": {}, "tone-scorer": {}})
        if path == "/api/datasets/d1/items":
            return httpx.Response(200, json={"items": [self.item()], "pagination": {"hasMore": False}})
        if path == "/api/datasets/d1/experiments/e1":
            self.record_reads += 1
            ended = self.record_reads >= self.polls_to_end
            counts = {"succeededCount": 1 if ended else 0, "failedCount": 0, "totalItems": 1}
            return httpx.Response(
                200, json={"id": "e1", "status": "completed" if ended else "running", **counts}
            )
        if path == "/api/datasets/d1/experiments/e1/results":
            result = {
                "itemId": "i1",
                "input": "What is Paris?",
                "groundTruth": "Paris",
                "output": {"text": self.output},
            }
            return httpx.Response(200, json={"results": [result], "pagination": {"hasMore": False}})
        if path == "/api/scores/run/e1":
            self.score_reads += 1
            row = {
                "scorerId": "answer-length",
                "entityId": "i1",
                "score": 0.5,
                "reason": HOSTILE,
            }
            rows = [row] if self.score_reads > self.scores_late else []
            return httpx.Response(200, json={"scores": rows, "pagination": {"hasMore": False}})
        self.posted.append((request.method, path))
        return httpx.Response(404, json={"error": f"no route {path}"})

    @staticmethod
    def item() -> dict[str, Any]:
        return {"id": "i1", "input": "What is Paris?", "groundTruth": "Paris", "datasetVersion": 1}


def watched(fake: FakeMastra, **given: Any) -> tuple[MastraExperiment, list[float]]:
    """Experiment ``e1`` watched to its end here (no task of its own), its pauses taken on a fake clock."""
    client = mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(fake), retries=0)
    dataset = Dataset(client.transport, KnownScorers(client.transport), {"id": "d1", "name": "capitals"})
    now = [0.0]
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        now[0] += seconds

    clock: Callable[[], float] = lambda: now[0]  # noqa: E731 - the fake clock
    experiment = Experiment(dataset.refresh().items, name="pirate", agent="dynamic")
    watch = MastraExperiment(
        client.transport, dataset.path, experiment, "e1", agent_id="dynamic", scorers=["answer-length"],
        clock=clock, sleep=sleep, **given,
    )  # fmt: skip
    run_on_fake_clock(watch.poll())
    return watch, pauses


def test_an_experiment_is_read_with_a_growing_pause_until_its_scores_are_there() -> None:
    fake = FakeMastra(polls_to_end=6, scores_late=2)
    watch, pauses = watched(fake)
    assert watch.status == "completed"
    assert watch.error is None
    assert pauses == [0.25, 0.5, 1.0, MAX_PAUSE, MAX_PAUSE, 0.1, 0.2]  # the record's, then the scores'
    [row] = watch.experiment.to_dataframe().to_dict("records")
    assert row["text"] == "Paris."
    assert row["status"] == "finished"
    assert row["score_answer-length"] == 0.5
    [cell] = watch.experiment.cells
    assert cell.result.scores[0].reason == HOSTILE


def test_a_watch_that_runs_out_of_time_says_so_and_where_to_look() -> None:
    watch, pauses = watched(FakeMastra(polls_to_end=10_000), timeout=10)
    assert sum(pauses) <= 10
    assert watch.status == "running"
    assert watch.error is not None
    assert "still running after 10 s" in watch.error
    assert "GET /api/datasets/d1/experiments/e1" in watch.error
    assert [cell.status for cell in watch.experiment.cells] == ["queued"]


def test_scores_that_never_come_are_counted_not_waited_for_forever() -> None:
    watch, _ = watched(FakeMastra(polls_to_end=1, scores_late=10_000), scores_timeout=3)
    assert watch.status == "completed"
    assert watch.error == "0 of 1 scores came within 3 s (GET /api/scores/run/e1)"


def test_a_server_result_fills_the_cell_a_notebook_run_would() -> None:
    """Output text, usage, status, error and trace id: the same RunResult fields a run streamed here has."""
    row = {
        "itemId": "i1",
        "output": {"text": "Ahoy", "usage": {"inputTokens": 3, "outputTokens": 4}},
        "traceId": "t" * 32,
    }
    result = run_result(row, "dynamic", [])
    assert (result.text, result.status, result.trace_id) == ("Ahoy", "finished", "t" * 32)
    assert (result.usage.input_tokens, result.usage.output_tokens, result.usage.total_tokens) == (3, 4, 7)
    failed = run_result({"itemId": "i2", "error": {"message": "boom"}}, "dynamic", [])
    assert failed.status == "error"
    assert failed.error is not None
    assert failed.error.message == "boom"


def test_showing_a_dataset_makes_no_request() -> None:
    """``items`` is what was read (``refresh()`` reads again): displaying a dataset draws only that."""
    fake = FakeMastra()
    wire = httpx.MockTransport(fake)
    client = mn.MastraClient("http://mastra.test", wire=wire, retries=0)
    dataset = Dataset(client.transport, KnownScorers(client.transport), {"id": "d1", "name": "capitals"})
    assert dataset.refresh().items == [DatasetItem("What is Paris?", "Paris", "i1", 1)]
    sent = client.transport.sent
    html = dataset._repr_html_()
    assert "What is Paris?" in html
    assert [item.input for item in dataset.items] == ["What is Paris?"]
    repr(dataset)
    assert client.transport.sent == sent  # drawn from what was read: nothing was asked


def test_hostile_items_stay_inert_in_the_dataset_table() -> None:
    client = mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(FakeMastra()), retries=0)
    dataset = Dataset(client.transport, KnownScorers(client.transport), {"id": "d1", "name": HOSTILE})
    dataset.items = [DatasetItem(HOSTILE, HOSTILE, "i1")]
    shown = dataset._repr_html_()
    assert "<img" not in shown
    assert "&lt;img src=x onerror=" in shown


def test_items_read_again_keep_their_order_where_the_server_lists_them_in_another() -> None:
    """Items of one batch share their creation time, and Mastra lists those in any order: a second
    read (a dataset experiment's) numbers them as the first did, and puts new items after."""
    listed = [
        {"id": "i1", "input": "What is Paris?", "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "i2", "input": "What is Berlin?", "createdAt": "2026-01-01T00:00:00Z"},
    ]

    def fake(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"items": list(listed), "pagination": {"hasMore": False}})

    client = mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(fake), retries=0)
    dataset = Dataset(client.transport, KnownScorers(client.transport), {"id": "d1", "name": "capitals"})
    first = [item.input for item in dataset.refresh().items]
    listed.reverse()
    listed.insert(0, {"id": "i3", "input": "What is Rome?", "createdAt": "2026-01-02T00:00:00Z"})
    assert [item.input for item in dataset.refresh().items] == [*first, "What is Rome?"]


class GrowingMastra(FakeMastra):
    """Dataset ``d1`` of two items whose experiment ``e1`` ends item ``i1`` at the second read of its
    record and ``i2`` at the third (then completed); each result's score is there with it. It also
    lists every experiment (``GET /api/experiments``: ``e1`` and ``e2``, which runs no dataset)."""

    def __init__(self, scorers_recorded: bool = True) -> None:
        super().__init__()
        self.scorers_recorded = scorers_recorded

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/api/datasets":
            return httpx.Response(
                200, json={"datasets": [{"id": "d1", "name": "capitals"}], "pagination": {"hasMore": False}}
            )
        if path == "/api/experiments":
            e1 = {"id": "e1", "datasetId": "d1", "name": "pirate", "status": "running", "totalItems": 2}
            e2 = {"id": "e2", "datasetId": None, "status": "completed"}
            return httpx.Response(200, json={"experiments": [e1, e2], "pagination": {"hasMore": False}})
        if path == "/api/datasets/d1/items":
            items = [
                {**self.item(), "id": f"i{n}", "input": f"q{n}", "createdAt": f"2026-01-0{n}"} for n in (1, 2)
            ]
            return httpx.Response(200, json={"items": items, "pagination": {"hasMore": False}})
        if path == "/api/datasets/d1/experiments/e1":
            self.record_reads += 1
            ended = min(self.record_reads - 1, 2)
            record = {
                "id": "e1", "name": "pirate", "targetId": "dynamic",
                "status": "completed" if ended == 2 else "running",
                "succeededCount": ended, "failedCount": 0, "totalItems": 2,
            }  # fmt: skip
            if self.scorers_recorded:  # as the notebook starts one: Mastra's record keeps none itself
                record["metadata"] = {"scorerIds": ["answer-length"]}
            return httpx.Response(200, json=record)
        ended = range(1, min(max(self.record_reads - 1, 0), 2) + 1)
        if path == "/api/datasets/d1/experiments/e1/results":
            rows = [{"itemId": f"i{n}", "output": {"text": f"answer {n}"}} for n in ended]
            return httpx.Response(200, json={"results": rows, "pagination": {"hasMore": False}})
        if path == "/api/scores/run/e1":
            rows = [{"scorerId": "answer-length", "entityId": f"i{n}", "score": n / 4} for n in ended]
            return httpx.Response(200, json={"scores": rows, "pagination": {"hasMore": False}})
        return super().__call__(request)


def test_a_watched_experiment_fills_each_cell_as_its_item_ends_not_only_at_the_end() -> None:
    fake = GrowingMastra()
    client = mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(fake), retries=0)
    dataset = Dataset(client.transport, KnownScorers(client.transport), {"id": "d1", "name": "capitals"})
    experiment = Experiment(dataset.refresh().items, name="pirate", agent="dynamic")
    seen: list[list[str]] = []

    async def sleep(seconds: float) -> None:  # each pause between reads: what the cells show then
        seen.append([cell.status for cell in experiment.cells])

    watch = MastraExperiment(
        client.transport, dataset.path, experiment, "e1", agent_id="dynamic", scorers=["answer-length"],
        clock=lambda: 0.0, sleep=sleep,
    )  # fmt: skip
    run_on_fake_clock(watch.poll())
    assert seen == [["queued", "queued"], ["finished", "queued"]]  # i1 shown while i2 still ran
    assert watch.describe() == "completed on the server · 2 of 2 items ended"
    assert [r.scores[0].score for r in (c.result for c in experiment.cells)] == [0.25, 0.5]


@pytest.mark.parametrize("scorers_recorded", [True, False])
def test_any_kernel_lists_the_servers_experiments_and_reattaches_to_one_by_id(scorers_recorded: bool) -> None:
    """Started by the notebook, its scorer ids are in its record's metadata; started elsewhere, the
    scores of whichever scorers scored it are read."""
    fake = GrowingMastra(scorers_recorded)
    client = mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(fake), retries=0)
    listed = client.experiments()
    assert (listed["e1"].status, listed["e1"].dataset_id, listed["e2"].status) == (
        "running",
        "d1",
        "completed",
    )
    assert "pirate" in listed._repr_html_()
    again = client.experiment("e1")  # watched from the package's own loop (a script)
    assert again.wait(30) is again
    assert (again.name, again.agent) == ("pirate", "dynamic")
    frame = again.to_dataframe()
    assert list(frame["text"]) == ["answer 1", "answer 2"]
    assert list(frame["score_answer-length"]) == [0.25, 0.5]
    assert again.remote is not None
    assert again.remote.scorers == (["answer-length"] if scorers_recorded else None)  # type: ignore[attr-defined]
    with pytest.raises(LookupError, match=r"no experiment 'e9' on http://mastra\.test \(2 experiments"):
        client.experiment("e9")
    with pytest.raises(LookupError, match="runs no dataset"):
        client.experiment("e2")


def test_a_driven_experiments_row_is_priced_by_the_agents_model() -> None:
    """Mastra's result row names no model: a budgeted (driven) experiment prices each item's usage as
    one step of the agent's model, so ``max_cost_usd`` can count it; without the model it is unknown."""
    row = {"output": {"text": "Paris.", "usage": {"inputTokens": 1_000, "outputTokens": 500}}}
    priced = run_result(row, "weather", [], ("gpt-4o-mini", "openai"))
    assert priced.usage.total_tokens == priced.usage_with_nested.total_tokens == 1_500
    assert priced.cost.total_usd == pytest.approx(1_000 * 0.15e-6 + 500 * 0.6e-6)  # gpt-4o-mini's prices
    unpriced = run_result(row, "weather", [], None)
    assert unpriced.cost.total_usd is None
    assert "genai-prices has no price" in str(
        run_result(row, "weather", [], ("mock-model", "mock")).cost.reason
    )


class DrivenMastra:
    """Dataset ``d1`` of three items, an experiment ``e1`` created not started and run item by item;
    item ``i2``'s run fails (HTTP 500). Keeps every request it was sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path, body = request.url.path, orjson.loads(request.content) if request.content else None
        self.sent.append((request.method, path, body))
        if path == "/api/scores/scorers":
            return httpx.Response(200, json={"answer-length": {}})
        if path == "/api/agents":
            return httpx.Response(200, json={"weather": {}})
        if path == "/api/agents/weather":
            return httpx.Response(200, json={"modelId": "gpt-4o-mini", "provider": "openai"})
        if path == "/api/datasets/d1/items":
            items = [{"id": f"i{n}", "input": f"q{n}", "createdAt": f"2026-01-0{n}"} for n in (1, 2, 3)]
            return httpx.Response(200, json={"items": items, "pagination": {"hasMore": False}})
        if path == "/api/datasets/d1/experiments":
            return httpx.Response(200, json={"experimentId": "e1", "status": "running", "totalItems": 3})
        found = re.fullmatch(r"/api/datasets/d1/experiments/e1/items/(i\d)/run", path)
        if found and found.group(1) == "i2":
            return httpx.Response(500, json={"error": "the model is down"})
        if found:
            usage = {"inputTokens": 10, "outputTokens": 5}
            row = {"itemId": found.group(1), "output": {"text": f"answer {found.group(1)}", "usage": usage}}
            score = {"scorerId": "answer-length", "scorerName": "Answer length", "score": 0.5, "reason": "ok"}
            return httpx.Response(200, json={"result": row, "scores": [score]})
        if path == "/api/datasets/d1/experiments/e1/finalize":
            return httpx.Response(200, json={"id": "e1", "status": "completed", "succeededCount": 2,
                                             "failedCount": 0, "skippedCount": 1, "totalItems": 3})  # fmt: skip
        return httpx.Response(404, json={"error": f"no route {path}"})


def test_a_driven_experiment_goes_on_past_an_item_that_failed_to_run_then_finalizes() -> None:
    mastra = DrivenMastra()
    client = mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(mastra), retries=0)
    dataset = Dataset(client.transport, KnownScorers(client.transport), {"id": "d1", "name": "capitals"})
    exp = dataset.experiment("weather", scorers=["answer-length"], max_tokens=10_000, max_concurrency=1).wait(
        30
    )
    created = next(body for method, path, body in mastra.sent if path == "/api/datasets/d1/experiments")
    assert created["start"] is False
    assert created["metadata"][DRIVEN] is True
    runs = [path.rsplit("/", 2)[1] for _, path, _ in mastra.sent if path.endswith("/run")]
    assert runs == ["i1", "i2", "i3"]  # one at a time, in order, past the failure
    assert mastra.sent[-1][:2] == ("POST", "/api/datasets/d1/experiments/e1/finalize")
    assert [cell.status for cell in exp.cells] == ["finished", "error", "finished"]
    failed = exp.cells[1].result.error
    assert failed is not None
    assert failed.message.startswith(
        "Mastra could not run this item: POST /api/datasets/d1/experiments/e1/items/i2/run"
    )
    assert exp.cells[0].result.text == "answer i1"
    assert exp.cells[0].result.scores[0].score == 0.5
    assert exp.cells[0].result.cost.total_usd == pytest.approx(10 * 0.15e-6 + 5 * 0.6e-6)
    assert exp.remote.status == "completed"
    assert exp.batch.budget.tokens == 30  # the two items that ran
