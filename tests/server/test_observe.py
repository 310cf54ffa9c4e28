"""A workflow's runs, listed, and an existing run watched from a second client through Mastra's
observe stream, against the real server."""

from __future__ import annotations

import uuid

import pytest

import mastra_notebook as mn
from mastra_notebook.client.catalogue import WorkflowRuns

from ..helpers import WEATHER_REPORT_DONE, parse, row_of, step_statuses, wait_until

pytestmark = pytest.mark.server


def test_a_second_client_watches_a_running_workflow(mastra_url: str) -> None:
    starter, watcher = mn.MastraClient(mastra_url), mn.MastraClient(mastra_url)
    run_id = f"observed-{uuid.uuid4()}"
    # 20 steps of 250 ms: the watcher must see the run while it still runs, and the server gives no
    # gate to hold it there; 5 s is many times what listing the runs takes on a loaded machine
    started = starter.workflow("slowCount").stream(input_data={"steps": 20, "delayMs": 250}, run_id=run_id)
    listed: list[WorkflowRuns] = []

    def seen() -> bool:
        listed.append(watcher.workflow("slowCount").runs())
        return run_id in listed[-1]

    wait_until(seen, "the watcher lists the run", timeout=60, every=0.05)
    runs = listed[-1]
    assert isinstance(runs, WorkflowRuns)
    assert runs[run_id]["snapshot"]["status"] == "running"  # still going when the watcher comes
    observed = watcher.workflow("slowCount").run(run_id).view()
    assert observed.subtitle == f"observing run {run_id}"
    mine, theirs = started.wait(60), observed.wait(60)
    assert (mine.status, theirs.status) == ("finished", "finished")
    assert theirs.run_id == run_id
    assert step_statuses(theirs) == step_statuses(mine) == [("count-slowly", "success")]
    assert theirs.workflow is not None
    assert mine.workflow is not None
    assert theirs.workflow.result == mine.workflow.result == {"counted": 20}
    outputs = theirs.workflow.steps[0].outputs
    assert [o["counted"] for o in outputs] == list(range(1, 21))  # from the start, each once

    runs = watcher.workflow("slowCount").runs()  # listed again: now a finished run
    row = row_of(parse(runs._repr_html_()), run_id)
    assert row[1] == "success"
    assert row[2] == "count-slowly success"
    assert runs.total >= 1
    assert watcher.workflow("slowCount").run(run_id).info()["status"] == "success"


def test_observing_a_finished_run_replays_it(client: mn.MastraClient) -> None:
    first = client.workflow("weatherReport").stream(input_data={"city": "Lisbon"}).wait(60)
    assert first.run_id is not None
    again = client.workflow("weatherReport").run(first.run_id).view().wait(60)
    assert again.status == "finished"
    assert step_statuses(again) == step_statuses(first) == WEATHER_REPORT_DONE
    assert again.workflow is not None
    assert first.workflow is not None
    assert again.workflow.result == first.workflow.result


def test_observing_an_unknown_run_says_so(client: mn.MastraClient) -> None:
    result = client.workflow("slowCount").run("no-such-run").view().wait(30)
    assert result.status == "error"
    assert result.error is not None
    assert (result.error.status_code, result.error.message) == (404, "Workflow run not found")


def test_runs_filter_by_status(client: mn.MastraClient) -> None:
    for city in ("Oslo", "Bergen", "Tromsø"):  # more runs than a page holds
        client.workflow("weatherReport").stream(input_data={"city": city}).wait(60)
    done = client.workflow("weatherReport").runs(status="success", per_page=2)
    assert len(done) == 2  # per_page alone pages (Mastra's storage pages only given a page too)
    assert {run["snapshot"]["status"] for run in done.values()} == {"success"}
