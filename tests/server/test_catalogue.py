"""The catalogue against the real server: agents and workflows as tables that stay mappings by id,
one agent in full, and hostile labels that render inert and keep their order."""

from __future__ import annotations

import re
from html import unescape

import pytest
from IPython.lib.pretty import pretty

import mastra_notebook as mn
from mastra_notebook.client.catalogue import Agents, Workflows

from ..helpers import parse, row_of

pytestmark = pytest.mark.server


def test_agents_are_a_mapping_shown_as_a_table(client: mn.MastraClient) -> None:
    agents = client.agents()
    assert isinstance(agents, dict)
    assert agents["weather"]["tools"]["getWeather"]["description"] == "Current weather for a city"
    assert {"weather", "supervisor", "approver"} <= set(agents)  # still used as a dict by id
    cells = parse(agents._repr_html_())
    assert cells.rows[0] == ["id", "name", "model", "tools", "instructions"]
    assert len(cells.rows) == len(agents) + 1
    weather = row_of(cells, "weather")
    assert weather[1].startswith("weather")
    assert "Looks up the weather with getWeather" in weather[1]
    assert weather[2] == "mock-provider/mock-weather"
    assert weather[3] == "getWeather — Current weather for a city"
    assert weather[4] == 'You are the scripted "weather" test agent.'
    assert row_of(cells, "approver")[3].startswith("deleteRecord (needs approval) — Permanently delete")
    assert row_of(cells, "supervisor")[3] == "agent-researcher — the agent researcher"
    assert row_of(cells, "workflowAgent")[3].startswith("workflow-weatherReport")
    assert "weather  (mock-provider/mock-weather; getWeather)" in pretty(agents)  # a terminal's few lines


def test_workflows_show_their_steps(client: mn.MastraClient) -> None:
    workflows = client.workflows()
    assert isinstance(workflows, dict)
    assert workflows["weatherReport"]["description"].startswith("Fetches a 3-day forecast")
    cells = parse(workflows._repr_html_())
    assert cells.rows[0] == ["id", "name", "steps", "input", "description"]
    report = row_of(cells, "weatherReport")
    assert report[2] == "fetch-forecast → write-report"
    assert report[3] == "city: string"
    assert row_of(cells, "approvalFlow")[2] == "request (can suspend) → finish"
    assert "slowCount  (count-slowly)" in pretty(workflows)


def test_info_shows_one_agent_in_full(client: mn.MastraClient) -> None:
    info = client.agent("approver").info()
    assert info["instructions"] == 'You are the scripted "approver" test agent.'
    assert info.memory is False
    html = info._repr_html_()
    cells = parse(html)
    assert row_of(cells, "model")[1] == "mock-provider/mock-approver"
    assert row_of(cells, "memory")[1] == "no"
    assert row_of(cells, "tool") == ["tool", "description", "input"]
    tool = next(row for row in cells.rows if row[0].startswith("deleteRecord"))
    assert tool[0] == "deleteRecord (needs approval)"
    assert tool[1] == "Permanently delete a record by id"
    assert tool[2].startswith("id: string")  # the fields, then the whole schema under "schema"
    assert '"additionalProperties": false' in tool[2]
    assert '<pre class="mn-view-pre" style="white-space:pre-wrap' in html
    assert 'You are the scripted "approver" test agent.</bdi></pre>' in unescape(html)  # in full
    assert client.agent("bgResearcher").info().memory is True  # asked of /api/memory/status
    supervisor = parse(client.agent("supervisor").info()._repr_html_())
    assert ["agent-researcher", "the agent researcher", "—"] in supervisor.rows


HOSTILE = {
    "evil": {
        "name": "\u202eevil<script>alert(1)</script>",
        "description": '<img src=x onerror="alert(2)">',
        "instructions": [{"role": "system", "content": "Ignore <b>this</b> & that " + "x" * 400}],
        "provider": "<i>p</i>",
        "modelId": "m",
        "tools": {"t<svg onload=alert(3)>": {"description": "\u2067rtl\u2069 </td></tr><tr><td>row"}},
    }
}


def test_hostile_labels_render_inert_and_isolated() -> None:
    for html in (Agents(HOSTILE, "http://x")._repr_html_(), Workflows(HOSTILE)._repr_html_()):
        cells = parse(html)
        assert cells.tags <= {"div", "table", "thead", "tbody", "tr", "th", "td", "bdi", "code", "span", "br"}
        assert len(cells.rows) == 2  # the closing tags in a description opened no row
        assert "<script" not in html
        assert "<img" not in html
        assert "<svg" not in html
        assert cells.bdi >= 3  # name, description and tool each in its own isolate
    row = parse(Agents(HOSTILE)._repr_html_()).rows[1]
    assert row[1].startswith("\u202eevil<script>alert(1)</script>")  # shown as text, kept whole
    assert row[4].endswith("…")
    assert len(row[4]) == 160  # an excerpt of the instructions
    assert re.search(r"\btd\b", row[3])  # the description's markup is text


def test_catalogue_of_a_server_that_answers_oddly() -> None:
    odd = {"a": None, "b": {"tools": "not a mapping", "stepGraph": [1, {"type": "sleep"}], "instructions": 3}}
    assert len(parse(Agents(odd)._repr_html_()).rows) == 3
    assert row_of(parse(Workflows(odd)._repr_html_()), "b")[2] == "sleep"
