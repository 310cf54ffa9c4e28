"""The catalogue in a real JupyterLab with the real Mastra server: agents, workflows, one agent in
full and a workflow's runs as tables, readable in light and dark (screenshots); a network run's
Approve button continues it through /approve-network-tool-call."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

LUMINANCE = """el => {
    const channels = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    let back = el;  // the first ancestor with a background of its own
    while (back && /rgba\\(.*, 0\\)|transparent/.test(getComputedStyle(back).backgroundColor)) back = back.parentElement;
    const text = lum(channels(getComputedStyle(el).color));
    const ground = lum(channels(getComputedStyle(back || document.body).backgroundColor));
    return (Math.max(text, ground) + 0.05) / (Math.min(text, ground) + 0.05);
}"""


def output(page: Any, index: int) -> Any:
    return e2e.cell(page, index).locator(".jp-OutputArea-output").first


def test_catalogue_tables_and_a_network_approval(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "catalogue",
        "client.agents()",
        "client.workflows()",
        "client.agent('approver').info()",
        "client.workflow('weatherReport').stream(input_data={'city': 'Paris'}).wait(60)\n"
        "client.workflow('weatherReport').runs()",
        "net = client.agent('networkApprover').network('Delete record r-42')\nnet",
    )  # every cell run

    agents = output(page, 1).locator("table.mn-catalogue")
    expect(agents).to_be_visible(timeout=30_000)
    weather = agents.locator("tr", has=page.locator("td code", has_text="weather")).first
    expect(weather).to_contain_text("getWeather — Current weather for a city")
    expect(weather).to_contain_text("mock-provider/mock-weather")
    expect(agents.locator("tr", has_text="deleteRecord (needs approval)")).to_have_count(
        2
    )  # two agents have it
    first_cell = agents.locator("td").first
    assert first_cell.evaluate("el => getComputedStyle(el).textAlign") == "left"  # not JupyterLab's right
    expect(output(page, 2).locator("table.mn-catalogue")).to_contain_text("fetch-forecast → write-report")
    info = output(page, 3).locator(".mn-agent-info")
    expect(info).to_contain_text("Permanently delete a record by id")
    info.locator("summary", has_text="schema").click()
    expect(info.locator("pre").first).to_contain_text('"additionalProperties": false')
    expect(output(page, 4).locator("table.mn-catalogue")).to_contain_text(
        "write-report success", timeout=60_000
    )

    for theme in e2e.THEMES:
        e2e.set_theme(page, theme)
        for index, name in ((1, "agents"), (2, "workflows"), (3, "agent-info"), (4, "workflow-runs")):
            shown = output(page, index)
            for part in (shown.locator("td").first, shown.locator("td span").first):
                assert part.evaluate(LUMINANCE) >= 4.5, (theme, name)  # text and muted text alike
            e2e.screenshot(shown, f"catalogue-{name}-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    net = e2e.view_root(page, 5)
    assert e2e.wait_status(net, "suspended", "finished", "error") == "suspended"
    card = e2e.tool_card(net, "deleteRecord")
    expect(card).to_have_attribute("data-tool-status", "awaiting-approval")
    card.locator("button.mn-approve").click()
    assert e2e.wait_status(net, "finished", "error", timeout=60_000) == "finished"
    expect(net).to_contain_text('Deleted: {"deleted":true,"id":"r-42"}')
    expect(card.locator(".mn-decision")).to_contain_text("Approved in the view")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(net, f"network-approved-{theme}")
    e2e.set_theme(page, "light")
