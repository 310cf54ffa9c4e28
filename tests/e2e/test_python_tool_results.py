"""Python tools' rich results in a real JupyterLab against the bundled Mastra server (issue 21): a
tool returning a million-row DataFrame draws its first rows as a table, with how many stayed in the
kernel; one returning a matplotlib figure draws it as an image, live and in the saved transcript.
Screenshots in light and dark themes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

TOOLS = '''import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

def everything() -> pd.DataFrame:
    """Every order."""
    rows = 1_000_000
    return pd.DataFrame({"order": np.arange(rows), "total": 5 + np.arange(rows) * 37 % 900 / 10})

def chart(title: str):
    """A chart of the orders."""
    figure, axes = plt.subplots(figsize=(4, 2.4))
    axes.bar(["Mon", "Tue", "Wed", "Thu"], [12, 19, 7, 15], color="#4c78a8")
    axes.set_title(title)
    return figure'''


def test_a_dataframe_and_a_figure_from_python_tools(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "python-tool-results",
        'v = client.agent("toolUser").stream("call everything", tools=[everything])\nv',
        'w = client.agent("toolUser").stream(\'call chart with {"title": "Orders"}\', tools=[chart])\nw',
        "print(type(v.wait(30).tool_calls[0].value).__name__, len(v.result.tool_calls[0].value))",
        setup=TOOLS,
        run=(0, 1, 2),
    )
    table_root, chart_root = e2e.view_root(page, 1), e2e.view_root(page, 2)
    assert e2e.wait_status(table_root, "finished", "error", "aborted", "incomplete") == "finished"
    assert e2e.wait_status(chart_root, "finished", "error", "aborted", "incomplete") == "finished"

    table_card = e2e.tool_card(table_root, "everything")
    if table_card.locator(".mn-rich table").count() == 0:  # a finished card may start folded
        table_card.locator(".mn-card-head").first.click()
    expect(table_card.locator(".mn-rich table tbody tr")).to_have_count(50)
    expect(table_card.locator(".mn-rich-preview")).to_have_text(
        "first 50 of 1,000,000 rows: 999,950 more rows stay in the kernel"
    )
    # the model got the first records, and said so
    expect(table_root.locator(".mn-run-root > .mn-parts > .mn-text").last).to_contain_text(
        'everything returned {"records":[{"order":0,"total":5}'
    )

    chart_card = e2e.tool_card(chart_root, "chart")
    if chart_card.locator(".mn-rich img").count() == 0:
        chart_card.locator(".mn-card-head").first.click()
    image = chart_card.locator(".mn-rich img.mn-image")
    expect(image).to_have_attribute("src", re.compile(r"^data:image/png;base64,"))
    assert image.evaluate("img => img.naturalWidth") > 100  # a real picture was decoded
    # the saved notebook's transcript (hidden where the widget draws) has the picture too
    transcript = e2e.cell(page, 2).locator(".mastra-notebook-transcript").first
    expect(transcript).to_be_hidden()
    # published after the run ends, a turn after the widget draws "finished": wait for the picture
    expect(transcript.locator("img[src^='data:image/png;base64,']")).to_have_count(1)

    e2e.run_cells(page, 3)  # the DataFrame itself stayed in the kernel
    expect(e2e.cell(page, 3).locator(".jp-OutputArea-output")).to_contain_text("DataFrame 1000000")

    for card, drawn in ((table_card, ".mn-rich table"), (chart_card, ".mn-rich img")):
        if not card.locator(drawn).is_visible():  # folded again since: open for the pictures
            card.locator(".mn-card-head").first.click()
        expect(card.locator(drawn)).to_be_visible()
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(table_card, f"python-tool-table-{theme}")
        e2e.screenshot(chart_card, f"python-tool-chart-{theme}")
    e2e.set_theme(page, "light")
