"""render/timeline.py: the static timeline's layout (the same rules as js/src/render/timeline.ts, whose
vitest cases are mirrored here) and its script-free HTML."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.core.recording import TIME_KEY
from mastra_notebook.render.timeline import MAX_BARS, Bar, index, layout, layout_html, timeline_html

from .conftest import fixture_path

T0 = 1_000_000.0


def _tree(*pairs: tuple[str | None, dict[str, Any]]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    return index(["add", parent, node] for parent, node in pairs)


def _n(node_id: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "kind": kind, **fields}


# js/test/timeline.test.ts: SUPERVISOR
SUPERVISOR = _tree(
    (None, _n("root", "run", agent_id="supervisor", started_at=T0, finished_at=T0 + 9000, status="finished")),
    ("root", _n("s1", "step", index=1, started_at=T0 + 100, ended_at=T0 + 7000)),
    ("root", _n("t1", "text", started_at=T0 + 200, ended_at=T0 + 600)),
    ("root", _n("c1", "tool", tool_name="agent-researcher", started_at=T0 + 600, called_at=T0 + 1000,
                waiting_since=T0 + 1000, decision={"action": "approve", "by": "view", "at": T0 + 3000},
                ended_at=T0 + 6500)),
    ("c1", _n("r1", "run", agent_id="researcher", nested=True, started_at=T0 + 3100, finished_at=T0 + 6400)),
    ("r1", _n("s1a", "step", index=1, started_at=T0 + 3100, ended_at=T0 + 6400)),
    ("r1", _n("t1a", "reasoning", started_at=T0 + 3200, ended_at=T0 + 5000)),
    ("root", _n("s2", "step", index=2, started_at=T0 + 7000, ended_at=T0 + 8900)),
    ("root", _n("t2", "text", started_at=T0 + 7100, ended_at=T0 + 8800)),
)  # fmt: skip


def _tags_and_attributes(html: str) -> set[str]:
    seen: set[str] = set()

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            seen.add(tag)
            seen.update(name for name, _ in attrs)

    Parser().feed(html)
    return seen


def _by_id(bars: list[Bar]) -> dict[str, Bar]:
    return {bar.id: bar for bar in bars}


def test_bars_nest_as_the_tree_does_as_in_the_browser() -> None:
    plan = layout(*SUPERVISOR, now=T0 + 20_000)
    assert [(b.id, b.depth, b.label) for b in plan.bars] == [
        ("root", 0, "supervisor"),
        ("s1", 1, "step 1"),
        ("t1", 2, "text"),
        ("c1", 2, "agent-researcher"),
        ("r1", 3, "sub-agent researcher"),
        ("s1a", 4, "step 1"),
        ("t1a", 5, "reasoning"),
        ("s2", 1, "step 2"),
        ("t2", 2, "text"),
    ]
    assert plan.total == 9000
    assert _by_id(plan.bars)["s1"].covers == ["s1", "t1", "c1"]
    tool = _by_id(plan.bars)["c1"]
    assert [(s.phase, s.start, s.end) for s in tool.segments] == [
        ("args", 600, 1000),
        ("wait", 1000, 3000),
        ("exec", 3000, 6500),
    ]


def test_what_is_open_ends_at_the_latest_time_known() -> None:
    nodes, children = _tree(
        (None, _n("root", "run", started_at=T0, status="running")),
        ("root", _n("s1", "step", index=1, started_at=T0 + 10)),
        ("root", _n("c1", "tool", tool_name="search", status="streaming-args", started_at=T0 + 400)),
    )
    plan = layout(nodes, children)  # no "now": the latest time in the tree
    tool = _by_id(plan.bars)["c1"]
    assert (tool.start, tool.end, tool.open) == (400, 400, True)
    assert layout(nodes, children, now=T0 + 1000).total == 1000


def test_a_recording_lays_out_by_its_recorded_times(tmp_path: Path) -> None:
    lines = fixture_path("tool-call").read_bytes().splitlines()
    path = tmp_path / "timed.jsonl"
    path.write_bytes(
        b"\n".join(orjson.dumps({**orjson.loads(raw), TIME_KEY: 10.0 * i}) for i, raw in enumerate(lines))
    )
    run = mn.Run()
    for chunk in mn.read_chunks(path):
        run.feed(chunk)
    run.end()
    plan = layout(*index(run.snapshot()))
    kinds = [(b.kind, b.depth) for b in plan.bars]
    assert kinds == [("run", 0), ("step", 1), ("text", 2), ("tool", 2), ("step", 1), ("text", 2)]
    tool = next(b for b in plan.bars if b.kind == "tool")
    # arguments stream from line 9 to the call (line 16); it runs until its result (line 17)
    assert [(s.phase, s.start, s.end) for s in tool.segments] == [("args", 90, 160), ("exec", 160, 170)]
    assert plan.total == 290


def test_the_html_has_no_script_and_hostile_names_render_inert() -> None:
    nodes, children = _tree(
        (None, _n("root", "run", started_at=T0, finished_at=T0 + 100)),
        (
            "root",
            _n("c1", "tool", tool_name='<img src=x onerror="alert(1)">', started_at=T0, ended_at=T0 + 50),
        ),
    )
    html = timeline_html(nodes, children)
    assert "<script" not in html
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert _tags_and_attributes(html) <= {"details", "summary", "div", "span", "open", "class", "style", "title",
                                          "data-phase", "data-bar", "data-node-ref", "data-axis"}  # fmt: skip
    assert "left:0.000%;width:50.000%" in html


def test_a_shared_axis_draws_a_shorter_run_shorter() -> None:
    plan = layout(*SUPERVISOR)
    own = layout_html(plan)
    doubled = layout_html(plan, span=18_000)
    assert "width:100.000%" in own  # the run fills its own axis
    assert "width:50.000%" in doubled  # half of a twice longer one


def test_a_long_timeline_starts_folded_and_stops_at_max_bars() -> None:
    pairs: list[tuple[str | None, dict[str, Any]]] = [(None, _n("root", "run", started_at=T0))]
    pairs += [
        ("root", _n(f"t{i}", "text", started_at=T0 + i, ended_at=T0 + i + 1)) for i in range(MAX_BARS + 5)
    ]
    plan = layout(*_tree(*pairs))
    assert len(plan.bars) == MAX_BARS
    assert plan.more == 6
    html = layout_html(plan)
    assert html.startswith('<details class="mn-static-timeline"')
    assert "6 more bars not drawn" in html
    assert layout_html(layout(*SUPERVISOR)).startswith("<details open")


@pytest.mark.parametrize("name", ["agent-as-tool", "workflow-stream", "tool-approval", "parallel-tools"])
def test_every_recording_lays_out(name: str) -> None:
    run = mn.Run()
    for chunk in mn.read_chunks(fixture_path(name)):
        run.feed(chunk)
    run.end()
    plan = layout(*index(run.snapshot()))
    assert plan.bars[0].kind == "run"
    assert all(b.start <= b.end for b in plan.bars)
    assert all(s.start <= s.end for b in plan.bars for s in b.segments)
    assert len({b.id for b in plan.bars}) == len(plan.bars)


def test_the_transcript_holds_the_timeline_with_the_nested_runs_bars() -> None:
    lines = fixture_path("agent-as-tool").read_bytes().splitlines()
    timed = [{**orjson.loads(raw), TIME_KEY: 20.0 * i} for i, raw in enumerate(lines) if raw.strip()]
    html = mn.collect(timed)._repr_html_()
    assert html.count('class="mn-static-timeline"') == 1  # once, for the root run
    start = html.index('class="mn-static-timeline"')
    timeline = html[start:]
    assert 'data-bar="tool"' in timeline
    assert "sub-agent researcher" in timeline
    assert "<script" not in html
    # read at once, with no arrival times: nothing to lay out in time
    assert 'class="mn-static-timeline"' not in mn.collect(fixture_path("agent-as-tool"))._repr_html_()


def test_compare_draws_two_timelines_on_one_time_axis(tmp_path: Path) -> None:
    lines = fixture_path("tool-call").read_bytes().splitlines()
    paths = []
    for name, gap in (("quick", 10.0), ("slow", 30.0)):  # the slow run takes three times as long
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(
            b"\n".join(orjson.dumps({**orjson.loads(raw), TIME_KEY: gap * i}) for i, raw in enumerate(lines))
        )
        paths.append(path)
    comparison = mn.compare(*paths, labels=["quick", "slow"])
    quick, slow = comparison.timelines()
    assert slow.total == pytest.approx(3 * quick.total)
    # 0.2 s of streaming says no rate (as the footer); 0.6 s does: 33 tokens over it
    assert dict(comparison.rows())["tokens/s (streaming)"] == ["—", "55.0"]
    html = comparison._repr_html_()
    assert html.count('class="mn-static-timeline"') == 2
    assert "quick: timeline" in html
    assert "slow: timeline" in html
    first = html[html.index("quick: timeline") : html.index("slow: timeline")]
    second = html[html.index("slow: timeline") :]
    assert re.search(
        r'data-bar="run"[^>]*><span[^>]*>[^<]*</span><span[^>]*><span style="[^"]*width:33\.333%', first
    )
    assert re.search(
        r'data-bar="run"[^>]*><span[^>]*>[^<]*</span><span[^>]*><span style="[^"]*width:100\.000%', second
    )


@pytest.mark.parametrize(
    ("span", "ticks"),
    [
        (4500, [0, 1000, 2000, 3000, 4000]),
        (290, [0, 100, 200]),
        (12_000, [0, 5000, 10_000]),
        (0, [0]),
        (2.2, [0, 1, 2]),
    ],
)
def test_ticks_fall_on_round_times(span: float, ticks: list[float]) -> None:
    from mastra_notebook.render.timeline import ticks_for

    assert ticks_for(span) == ticks
