"""A Mastra dataset's experiment in a real JupyterLab with the real Mastra server: it is an
experiment's grid like ``agent.experiment``'s, whose tiles fill in place as Mastra's results come
(no cell run again), items that failed included. What the dataset's table and the experiment's rows
hold is tested in Python (tests/test_datasets.py, tests/server/test_datasets.py). Light and dark
screenshots (dataset-experiment-*)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e


def output(page: Any, index: int) -> Any:
    return e2e.cell(page, index).locator(".jp-OutputArea-output").first


DATASET = (
    "import pandas as pd, uuid\n"
    "questions = pd.DataFrame({'input': ['What is Paris?', 'What is Berlin?', 'What is Rome?'],\n"
    "    'expected': ['Paris is the capital of France.', 'Berlin is the capital of Germany.', None]})\n"
    "ds = client.create_dataset(f'capitals-{uuid.uuid4().hex[:6]}', questions)\n"
    "ds"
)
PIRATE = (
    "pirate = ds.experiment('dynamic', scorers=['answer-length'],\n"
    "                       request_context={'style': 'pirate'}, name='pirate')\n"
    "pirate"
)
FAILING = "ds.experiment('errorAgent', scorers=['answer-length'], name='upstream down')"


def test_a_dataset_experiment_fills_its_grid_in_place(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open("datasets", DATASET, PIRATE, FAILING)  # every cell run once

    grid = output(page, 2).locator(".mn-experiment")
    expect(grid.locator(".mn-grid-tile")).to_have_count(3, timeout=60_000)
    finished = grid.locator('.mn-grid-run[data-status="finished"]')
    expect(finished).to_have_count(3, timeout=90_000)  # filled by the watcher, the cell not run again
    expect(finished.first.locator(".mn-grid-answer")).to_contain_text("Arr! You asked")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(grid, f"dataset-experiment-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    failing = output(page, 3).locator(".mn-experiment")
    expect(failing.locator('.mn-grid-run[data-status="error"]')).to_have_count(3, timeout=90_000)


REATTACH = "exp = client.experiment({experiment_id!r})  # started by another client: reattached by id\nexp"


@pytest.mark.screenshots
def test_pictures_of_a_reattached_experiment(client_notebook: e2e.ClientNotebook) -> None:
    """docs/guide.md's picture (reattached-experiment-light.png), and the dark one: an experiment
    started by another client (this test's process), reattached in the notebook by its id, its grid
    filled as the server's items end. What it holds is tested in tests/server/test_reattach.py."""
    import uuid

    import mastra_notebook as mn

    other = mn.MastraClient(client_notebook.url)
    ds = other.create_dataset(f"reattach-{uuid.uuid4().hex[:6]}")
    for question in ("What is Paris?", "What is Berlin?", "What is Rome?", "What is Lisbon?"):
        ds.add([question])
    started = ds.experiment(
        "dynamic",
        scorers=["answer-length"],
        name="pirate, started elsewhere",
        request_context={"style": "pirate"},
    )
    assert started.remote is not None
    page = client_notebook.open("reattached", REATTACH.format(experiment_id=started.remote.id))  # type: ignore[attr-defined]
    grid = output(page, 1).locator(".mn-experiment")
    expect(grid.locator('.mn-grid-run[data-status="finished"]')).to_have_count(4, timeout=90_000)
    expect(grid.locator(".mn-exp-progress")).to_contain_text("completed on the server · 4 of 4 items ended")
    e2e.screenshots_light_and_dark(page, grid, "reattached-experiment", max_height=2400)
    started.wait(60)
