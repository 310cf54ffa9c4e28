"""A huge plain JSON tool result (issue 33, item 5) is bounded wherever it is shown or saved: the
view's node fields, the saved notebook (its transcript and widget state), the recording's view and the
export page. The kernel keeps it whole (``call.result``, a client tool's ``call.value``), the card
says what was cut and where the whole is, and what a model is sent of a client tool's is cut too.

The 50 MB value is made in the test (tests/big_results.py): its rows share one string, so it weighs 50 MB as JSON and little in
memory (only a recording read back holds it as 50 MB of strings)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.client.tools import MODEL
from mastra_notebook.core.bounding import FIELD
from mastra_notebook.core.recording import Recording
from mastra_notebook.widget.export import page_html

from .big_results import fed, huge, with_result
from .helpers import client_round, execute

MB = 1_000_000
SAVED_LIMIT = 2 * MB  # the acceptance: a 50 MB result leaves a saved notebook under 2 MB


def json_size(value: Any) -> int:
    return len(orjson.dumps(value))


def tool_node(ops: list[Any]) -> dict[str, Any]:
    (node,) = [op[2] for op in ops if op[0] == "add" and op[2].get("kind") == "tool"]
    return dict(node)


def test_the_view_shows_a_50_mb_result_cut_and_the_kernel_keeps_it_whole() -> None:
    big = huge()
    assert json_size(big) > 50 * MB
    run = fed(with_result(big))
    snapshot = run.snapshot()
    assert json_size(snapshot) < FIELD.whole + 20_000  # the whole view: the cut result and the rest
    node = tool_node(snapshot)
    assert json_size(node["result"]) < FIELD.whole
    assert node["result"]["rows"][-1] == "… 4,992 more items"  # each cut said where it is (8 rows kept)
    assert run.result.tool_call("call_weather_1").result is big  # the RunResult's is the whole
    cut = node["result_cut"]
    assert "48 MB" in cut["note"]  # the whole size (50,050,000 bytes)
    assert cut["where"] == "result.tool_call('call_weather_1').result"


def test_a_small_result_is_shown_whole_and_says_nothing() -> None:
    node = tool_node(fed(with_result({"rows": [1, 2, 3]})).snapshot())
    assert node["result"] == {"rows": [1, 2, 3]}
    assert "result_cut" not in node or node["result_cut"] is None


def test_a_result_that_shrinks_drops_its_note() -> None:
    """A call's result set again (a resumed call) smaller: the note goes with the cut."""
    run = fed(with_result(huge()))
    node = run.state.calls["call_weather_1"]
    run.state.set_result(node, {"ok": True})
    assert node.fields["result"] == {"ok": True}
    assert node.fields["result_cut"] is None
    assert node.cut_size("result") == 0


def test_a_50_mb_string_result_is_cut_too() -> None:
    text = "y" * (50 * MB)
    run = fed(with_result(text))
    node = tool_node(run.snapshot())
    assert len(node["result"]) < FIELD.whole
    assert node["result"].endswith("more characters]")
    assert run.result.tool_calls[0].result is text
    assert node["result_cut"]["note"].startswith("Cut for the view: 48 MB")


def test_a_hostile_call_id_is_quoted_in_the_note() -> None:
    """The id is the model's: it is written as a Python literal (its controls escaped), drawn as text."""
    chunks = with_result(huge())
    odd = "c'); import os #\u202e"
    for chunk in chunks:
        if "toolCallId" in chunk.get("payload", {}):
            chunk["payload"]["toolCallId"] = odd
    where = tool_node(fed(chunks).snapshot())["result_cut"]["where"]
    assert where == f"result.tool_call({odd!r}).result"
    assert "\u202e" not in where


def test_the_export_page_of_a_50_mb_result_is_small_and_says_the_cut(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(chunk) for chunk in with_result(huge())) + b"\n")
    assert path.stat().st_size > 50 * MB
    recording = Recording.load(path)
    run = fed(list(recording.items))
    page = page_html(run, "big", recording=recording)  # the snapshot, the replay's ops, the transcript
    assert len(page.encode()) < SAVED_LIMIT
    drawn = page.split('<script type="text/plain" id="mn-bundle">')[0]  # the static transcript
    assert "Cut for the view: 48 MB of JSON in all" in drawn
    assert "result.tool_call('call_weather_1').result" in drawn


@pytest.mark.timeout(300)
def test_a_saved_notebook_of_a_50_mb_result_is_under_2_mb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(chunk) for chunk in with_result(huge())) + b"\n")
    notebook = execute(
        [
            f"import mastra_notebook as mn\nv = mn.view({str(path)!r})\nv",
            "r = v.wait()\nimport orjson\nassert len(orjson.dumps(r.tool_call('call_weather_1').result)) > 50_000_000",
        ],
        tmp_path,
        monkeypatch,
    )
    saved = tmp_path / "saved.ipynb"
    assert saved.stat().st_size < SAVED_LIMIT, saved.stat().st_size
    htmls = [o["data"]["text/html"] for o in notebook.cells[0].outputs if "text/html" in o.get("data", {})]
    assert any("Cut for the view: 48 MB of JSON in all" in html for html in htmls)
    assert any("result.tool_call('call_weather_1').result" in html for html in htmls)
    states = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    (final,) = [s["state"]["_final"] for s in states.values() if "_final" in s["state"]]
    assert "Cut for the view" in final  # the saved widget state draws the note too


# ---- what a model is sent of a client tool's result ------------------------------------------------


def test_a_client_tools_50_mb_return_is_sent_cut_with_a_note_and_kept_whole() -> None:
    big = huge()

    def everything() -> dict[str, Any]:
        """Everything."""
        return big

    run, (chunk,) = client_round(everything, {})
    sent = chunk["payload"]["result"]
    assert json_size(sent) < MODEL.value + 2_000
    assert "48 MB" in sent["note"]
    assert "to_model=" in sent["note"]
    assert sent["result"]["rows"][-1].endswith("more items")
    (call,) = run.result.tool_calls
    assert call.value is big  # the function's own return, whole in the kernel
    assert call.result == sent  # what the model got
    cut = run.state.calls["c1"].fields["result_cut"]
    assert cut["where"] == "result.tool_call('c1').value"


def test_a_client_tools_small_return_is_sent_as_it_is() -> None:
    def small() -> dict[str, int]:
        """Small."""
        return {"n": 1}

    run, (chunk,) = client_round(small, {})
    assert chunk["payload"]["result"] == {"n": 1}
    assert run.state.calls["c1"].fields.get("result_cut") is None


def test_to_model_beyond_the_limit_is_cut_too() -> None:
    def rows() -> int:
        """A count."""
        return 3

    run, (chunk,) = client_round(mn.tool(rows, to_model=lambda n: ["z" * 1_000] * 1_000), {})
    sent = chunk["payload"]["result"]
    assert "to_model=" in sent["note"]
    assert json_size(sent) < MODEL.value + 2_000
    assert run.result.tool_calls[0].value == 3
