"""A Mastra dataset's experiment in a real JupyterLab with the real Mastra server: the display updates
in place from pending to the results with their scores (no cell run again), and two experiments
compare per item; a slow one shows its progress as its items end. Light and dark screenshots
(dataset-experiment-*, dataset-compare-*, dataset-experiment-progress-*)."""

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
    "pirate = ds.experiment('dynamic', scorers=['answer-length', 'judge-answers-question'],\n"
    "                       request_context={'style': 'pirate'}, name='pirate')\n"
    "pirate"
)
COMPARE = (
    "upper = ds.experiment('dynamic', scorers=['answer-length', 'judge-answers-question'],\n"
    "                      request_context={'style': 'uppercase'}, name='uppercase')\n"
    "ds.compare(pirate, upper)"
)

FAILING = "ds.experiment('errorAgent', scorers=['answer-length'], name='upstream down')"
SLOW = "slow = ds.experiment('slow', name='slow', max_concurrency=1)  # one item at a time, ~10 s each\nslow"


def test_a_dataset_experiment_shows_its_results_and_scores_and_two_compare(
    client_notebook: e2e.ClientNotebook,
) -> None:
    page = client_notebook.open("datasets", DATASET, PIRATE, COMPARE, SLOW, FAILING)  # every cell run

    expect(output(page, 1).locator("table.mn-catalogue")).to_contain_text("What is Berlin?", timeout=30_000)
    experiment = output(page, 2).locator(".mn-dataset-experiment")
    # the cell ran once; its display moved on to the end by itself (update_display from the watcher)
    expect(experiment.locator('.mn-status[data-status="completed"]')).to_be_visible(timeout=60_000)
    results = experiment.locator('table[data-kind="results"]')
    expect(results.locator("tbody tr")).to_have_count(3, timeout=60_000)
    expect(results).to_contain_text("Arr! You asked")
    expect(experiment.locator(".mn-means")).to_contain_text("answer-length 0.65")
    expect(experiment).to_contain_text("3 of 3 items")
    expect(results.locator(".mn-score").first).to_have_attribute("title", "13 words; score 0.65")

    compared = output(page, 3).locator(".mn-dataset-comparison")
    expect(compared.locator("tbody tr")).to_have_count(3, timeout=60_000)
    expect(compared).to_contain_text("A: pirate")
    expect(compared).to_contain_text("B: uppercase")
    expect(compared).to_contain_text("▼")

    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        for shown, name in ((experiment, "dataset-experiment"), (compared, "dataset-compare")):
            e2e.screenshot(shown, f"{name}-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    # items that failed: why, at the top and per item
    failing = output(page, 5).locator(".mn-dataset-experiment")
    expect(failing.locator('.mn-status[data-status="failed"]')).to_be_visible(timeout=60_000)
    expect(failing.locator(".mn-experiment-error")).to_contain_text("3 of 3 items failed")
    expect(failing.locator('table[data-kind="results"]')).to_contain_text("Mock upstream connection reset")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(failing, f"dataset-experiment-failed-{theme}")
    e2e.set_theme(page, "light")

    # the progress of a running experiment, drawn again in place as its items end
    slow = output(page, 4).locator(".mn-dataset-experiment")
    expect(slow).to_contain_text("1 of 3 items", timeout=60_000)
    expect(slow.locator(".mn-status")).to_have_text("running…")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(slow, f"dataset-experiment-progress-{theme}")
    e2e.set_theme(page, "light")
    expect(slow.locator('.mn-status[data-status="completed"]')).to_be_visible(timeout=90_000)
    expect(slow.locator('table[data-kind="results"] tbody tr')).to_have_count(3)
