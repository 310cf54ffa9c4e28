"""The timeline in the static transcript and in ``mn.compare``: drawn by the widget's own timeline
(js/src/render/timeline.ts, whose layout rules js/test/timeline.test.ts checks) in the kernel's
engine. Here: what reaches the script-free HTML."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.core.recording import TIME_KEY
from mastra_notebook.render.transcript import render_ops

from .conftest import fixture_path

T0 = 1_000_000.0


def _n(node_id: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "kind": kind, **fields}


def _timed(tmp_path: Path, name: str, gap_ms: float, fixture: str = "tool-call") -> Path:
    """``fixture`` recorded with a chunk every ``gap_ms``."""
    lines = fixture_path(fixture).read_bytes().splitlines()
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(
        b"\n".join(
            orjson.dumps({**orjson.loads(raw), TIME_KEY: gap_ms * i}) for i, raw in enumerate(lines) if raw
        )
    )
    return path


def _html(path: Path) -> str:
    """The transcript of a recording fed at its recorded times."""
    run = mn.Run()
    for chunk in mn.read_chunks(path):
        run.feed(chunk)
    run.end()
    return run.result._repr_html_()


def _timeline(html: str) -> str:
    """The transcript's timeline: the folded disclosure that holds the bars."""
    start = html.index('class="mn-timeline"')
    return html[start : html.index("</details>", start)]


def _tags_and_attributes(html: str) -> set[str]:
    seen: set[str] = set()

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            seen.add(tag)
            seen.update(name for name, _ in attrs)

    Parser().feed(html)
    return seen


def test_a_recording_draws_its_bars_by_its_recorded_times(tmp_path: Path) -> None:
    html = _html(_timed(tmp_path, "timed", 10.0))
    timeline = _timeline(html)
    bars = re.findall(r'class="mn-tl-bar mn-tl-(\w+)"', timeline)
    assert bars == ["run", "step", "text", "tool", "step", "text"]
    # the tool's arguments stream from chunk 9 to the call (16), it runs until its result (17): of 290 ms
    tool = timeline[timeline.index('class="mn-tl-bar mn-tl-tool"') :]
    assert re.search(r'data-phase="args"[^>]*left:0%;width:87\.5%', tool)
    assert re.search(r'data-phase="exec"[^>]*left:87\.5%;width:12\.5%', tool)


def test_the_transcript_holds_one_timeline_with_the_nested_runs_bars(tmp_path: Path) -> None:
    html = _html(_timed(tmp_path, "nested", 20.0, "agent-as-tool"))
    assert html.count('class="mn-timeline"') == 1  # once, for the root run
    timeline = _timeline(html)
    assert 'class="mn-tl-bar mn-tl-tool"' in timeline
    assert "sub-agent researcher" in timeline
    assert "<script" not in html
    # read at once, with no arrival times: nothing to lay out in time, and no empty panel
    assert 'class="mn-timeline"' not in mn.collect(fixture_path("agent-as-tool"))._repr_html_()


def test_the_html_has_no_script_and_hostile_names_render_inert() -> None:
    ops = [
        ["add", None, _n("root", "run", started_at=T0, finished_at=T0 + 100, status="finished")],
        [
            "add",
            "root",
            _n("c1", "tool", tool_name='<img src=x onerror="alert(1)">', started_at=T0, ended_at=T0 + 50),
        ],
    ]
    timeline = _timeline(render_ops(ops))
    assert "<script" not in timeline
    assert "<img" not in timeline
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in timeline
    assert _tags_and_attributes(timeline) <= {"div", "span", "class", "style", "title", "data-bars", "data-live",
                                              "data-open", "data-phase", "data-covers", "data-bar", "data-node-ref"}  # fmt: skip


def test_compare_draws_two_timelines_on_one_time_axis(tmp_path: Path) -> None:
    quick, slow = _timed(tmp_path, "quick", 10.0), _timed(tmp_path, "slow", 30.0)  # three times as long
    comparison = mn.compare(quick, slow, labels=["quick", "slow"])
    # 0.2 s of streaming says no rate (as the footer); 0.6 s does: 33 tokens over it
    assert dict(comparison.rows())["tokens/s (streaming)"] == ["—", "55.0"]
    html = comparison._repr_html_()
    first = html[html.index("quick: timeline") : html.index("slow: timeline")]
    second = html[html.index("slow: timeline") :]
    run_bar = r'class="mn-tl-bar mn-tl-run"[^>]*style="[^"]*left:0%;width:{}%'
    assert re.search(run_bar.format(r"33\.33\d*"), first)  # the quick run takes a third of the axis
    assert re.search(run_bar.format("100"), second)


@pytest.mark.parametrize("name", ["agent-as-tool", "workflow-stream", "tool-approval", "parallel-tools"])
def test_every_recording_draws_a_timeline(tmp_path: Path, name: str) -> None:
    html = _html(_timed(tmp_path, name, 5.0, name))
    bars = re.findall(r'class="mn-tl-bar mn-tl-(\w[\w-]*)"', _timeline(html))
    assert bars[0] == "run"
    assert len(bars) > 2
