"""The exported page embeds the run as JSON in a <script>: model text must not end or hide it."""

from __future__ import annotations

import json
import re
from typing import Any

import mastra_notebook as mn
from mastra_notebook.widget.export import page_html
from mastra_notebook.widget.wire import message

from .conftest import fixture_path

HOSTILE = "a <!--<script> b </script> c <script>alert(1)</script> d </SCRIPT > e & f > g <\\/ h"


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in strings(item)]


def hostile_run() -> mn.Run:
    run = mn.Run()
    run.feed({"type": "start", "runId": "r", "from": "AGENT", "payload": {}})
    run.feed({"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": HOSTILE}})
    run.feed({"type": "finish", "runId": "r", "from": "AGENT", "payload": {"stepResult": {"reason": "stop"}}})
    run.end()
    return run


def test_the_data_script_holds_no_angle_bracket_and_parses_back() -> None:
    run = hostile_run()
    assert run.result.text == HOSTILE
    html = page_html(run, title="<!--<script>")
    (data,) = re.findall(r'<script type="application/json" id="mn-data">(.*?)</script>', html, re.DOTALL)
    assert "<" not in data
    assert ">" not in data
    assert "&" not in data
    snap = message("snapshot", 0, run.snapshot())
    requests = json.loads(data).pop("requests")  # each step's request, for its toggle (test_request_view)
    assert json.loads(data) == {
        "snapshot": snap,
        "title": "<!--<script>",
        "subtitle": "",
        "requests": requests,
        "present": False,
    }
    assert HOSTILE in strings(json.loads(data))  # the text is all there
    # the page has exactly its three scripts, the boot script last and whole
    assert html.count("<script") == 3
    assert html.rstrip().endswith("</script></body></html>")


def test_the_page_is_headed_by_the_prompt_as_the_view_is(recording_comm: Any) -> None:
    """The exported page's header said only the agent: the prompt's first line (the view's subtitle)
    heads it too, in the data the page mounts from, in its static transcript and in its <title>."""
    view = mn.view(fixture_path("tool-call"))
    view.title, view.subtitle = "agent weather", "What is the weather in Paris?"
    view.wait(30)
    html = view.to_html()
    (data,) = re.findall(r'<script type="application/json" id="mn-data">(.*?)</script>', html, re.DOTALL)
    assert json.loads(data)["subtitle"] == "What is the weather in Paris?"
    static = html.split('<div id="mn-view">', 1)[1].split("<script", 1)[0]
    assert "What is the weather in Paris?" in static
    assert "<title>agent weather · What is the weather in Paris?</title>" in html
