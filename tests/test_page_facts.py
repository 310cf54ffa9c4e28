"""What a reader reads on a page, in the kernel (issue 30): the strings the kernel computes for a view's
header and footer (figures, status words, the overrides badge, scores) and mn.compare's table, once
checked by opening JupyterLab (the e2e tests test_figures, test_overrides_header, test_status_words,
test_scores), are checked here without a browser, on a fixed clock:

- the node fields the kernel writes, and the static transcript drawn from the page's snapshot (the
  widget's own renderers, run in the kernel: render/engine.py);
- each page's snapshot is kept in ``tests/parity/pages/<page>.json`` (``MN_UPDATE_PARITY=1`` rewrites
  them; the test fails when the kernel would write another), for ``js/test/page-facts.test.ts`` to
  mount with the widget's renderer in jsdom and read its DOM.

What needs the bundled real server (a workflow's resume hint, Mastra's scores while they are awaited)
is in tests/server/test_page_facts.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core.ingest import records
from mastra_notebook.core.run import Run
from mastra_notebook.render.transcript import render_ops

from .helpers import PARIS_BADGES, PARIS_SCORES, ROOT, texts_of, timed
from .parity_text import UPDATE

FIXTURES = ROOT / "tests" / "fixtures"
PAGES = ROOT / "tests" / "parity" / "pages"
SUPERVISOR = FIXTURES / "nested" / "supervisor.body"
EPOCH_MS = 1_700_000_000_000.0  # the run's request is sent here; a recording's own times follow it
HOW = "MN_UPDATE_PARITY=1 .venv/bin/python -m pytest tests/test_page_facts.py"


def replayed(path: Path, *, end: bool = True, first: int | None = None) -> Run:
    """A recording read into a Run on a fixed clock (its own arrival times, if any, after EPOCH_MS)."""
    run = Run(epoch_ms=EPOCH_MS)
    run.start(recorded=True)
    for index, item in enumerate(records(path)):
        if first is not None and index >= first:
            break
        run.feed(item)
    if end:
        run.end()
    return run


def supervisor(tmp: Path, request_ms: float, gap_ms: float) -> Run:
    """The supervisor's run (two sub-agents) as a server that answers after ``request_ms`` sends it."""
    return replayed(timed(SUPERVISOR, tmp / f"supervisor-{request_ms}.jsonl", request_ms, gap_ms))


def figures_page(tmp: Path) -> Run:
    return supervisor(tmp, 320.0, 30.0)


def overridden_page(tmp: Path) -> Run:
    run = replayed(FIXTURES / "tool-approval.jsonl")
    run.describe(overrides={"instructions": "Answer like a forecaster."})  # as a client session does
    return run


def stopped_page(tmp: Path) -> Run:
    run = replayed(FIXTURES / "long-text.jsonl", end=False, first=50)
    run.mark_aborted()  # what view.stop() says of a run stopped mid-stream
    run.end()
    return run


def scoring_page(tmp: Path) -> Run:
    run = replayed(FIXTURES / "plain-text.jsonl")
    run.scoring(True)  # Mastra scores after the stream: awaited
    return run


def scored_page(tmp: Path) -> Run:
    run = scoring_page(tmp)
    run.add_scores(PARIS_SCORES)
    run.scoring(False)
    return run


# page name -> (its title, how its run is made)
PAGE_RUNS: dict[str, tuple[str, Callable[[Path], Run]]] = {
    "figures-supervisor": ("supervisor", figures_page),
    "header-overridden": ("agent weatherAgent", overridden_page),
    "status-stopped": ("long-text", stopped_page),
    "scores-scoring": ("agent dynamic", scoring_page),
    "scores-scored": ("agent dynamic", scored_page),
}


def page_of(name: str, tmp: Path) -> tuple[Run, str]:
    """The page's run and its static transcript; its snapshot checked against (or, updating, written
    to) tests/parity/pages/<name>.json."""
    title, make = PAGE_RUNS[name]
    run = make(tmp)
    data = {"title": title, "snapshot": {"t": "snapshot", "seq": 0, "ops": run.snapshot()}}
    dumped = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    path = PAGES / f"{name}.json"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumped)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: {HOW}"
    assert path.read_text() == dumped, f"{path.relative_to(ROOT)} is not what the kernel writes today: {HOW}"
    return run, render_ops(data["snapshot"]["ops"], title)


def footer_stat(html: str, key: str) -> str:
    """The root run's footer stat ``key`` (label and value): the last of its kind, after the nested runs'."""
    return texts_of(html, "mn-stat", data_stat=key)[-1]


def test_every_page_is_made_here() -> None:
    """No snapshot outlives its page (js/test/page-facts.test.ts reads them all)."""
    assert {path.stem for path in PAGES.glob("*.json")} == set(PAGE_RUNS)


def test_the_header_and_footer_show_the_kernels_figures(tmp_path: Path) -> None:
    run, html = page_of("figures-supervisor", tmp_path)
    figures = run.state.node.fields["figures"]
    assert figures["tokens"] == "453 tokens · 1,378 with sub-agents"  # both totals: sub-agents used tokens
    assert figures["first_token"] == "410 ms"  # from the request: 320 ms, then 3 chunks 30 ms apart
    assert (figures["tokens_with_nested"], figures["tokens_per_second"], figures["duration"]) == (
        "1,378",
        "80.4",
        "3.4 s",
    )
    header = texts_of(html, "mn-header")[0]
    assert "453 tokens · 1,378 with sub-agents" in header
    assert "first token 410 ms" in header
    assert footer_stat(html, "tokens_with_nested") == "with sub-agents1,378"
    assert footer_stat(html, "tokens_per_s") == "tok/s80.4"
    assert footer_stat(html, "duration") == "duration3.4 s"


def test_compare_shows_each_runs_own_figures(tmp_path: Path) -> None:
    quick, slow = supervisor(tmp_path, 320.0, 30.0), supervisor(tmp_path, 650.0, 45.0)
    comparison = mn.compare(quick.result, slow.result, labels=["quick server", "slow server"])
    rows = dict(comparison.rows())
    assert rows["time to first token"] == ["410 ms", "785 ms"]  # the views' own strings
    assert rows["tokens with sub-agents"] == ["1,378", "1,378"]
    html = comparison._repr_html_()
    assert "quick server" in html
    assert "slow server" in html
    assert "785 ms" in html


def test_the_header_says_instructions_overridden(tmp_path: Path) -> None:
    run, html = page_of("header-overridden", tmp_path)
    assert run.state.node.fields["overrides"] == ["instructions"]
    assert run.result.overrides == {"instructions": "Answer like a forecaster."}
    assert texts_of(html, "mn-overridden") == ["instructions overridden"]


def test_a_run_without_overrides_has_no_badge(tmp_path: Path) -> None:
    html = render_ops(replayed(FIXTURES / "tool-approval.jsonl").snapshot(), "agent weatherAgent")
    assert texts_of(html, "mn-overridden") == []


def test_a_stopped_run_says_stopped_in_its_header_and_footer(tmp_path: Path) -> None:
    run, html = page_of("status-stopped", tmp_path)
    assert run.result.status == "aborted"  # the value kept; "stopped" is the word shown
    assert texts_of(html, "mn-header")[0].startswith("long-textstopped")
    assert texts_of(html, "mn-state") == ["stopped"]
    assert footer_stat(html, "status") == "stopped"


@pytest.mark.parametrize(
    ("fixture", "status", "header", "tool"),
    [
        ("tool-approval", "suspended", "waiting for approval", "waiting for approval"),
        ("tool-approval-declined", "finished", "finished", "declined"),
    ],
)
def test_a_call_waiting_for_a_person_and_a_declined_one_say_so(
    fixture: str, status: str, header: str, tool: str
) -> None:
    """The parity snapshots of these recordings (tests/parity/snapshots/) are the pages
    js/test/page-facts.test.ts reads for the same words."""
    run = replayed(FIXTURES / f"{fixture}.jsonl")
    assert run.result.status == status
    html = render_ops(run.snapshot(), fixture)
    assert texts_of(html, "mn-badge") == [header, tool]  # the header's state, then the tool card's


def test_the_header_says_scoring_while_the_scores_are_awaited(tmp_path: Path) -> None:
    run, html = page_of("scores-scoring", tmp_path)
    assert run.state.node.fields["scoring"] is True
    assert texts_of(html, "mn-head-scores") == ["scoring…"]


def test_a_badge_per_score_and_a_row_in_the_footer(tmp_path: Path) -> None:
    run, html = page_of("scores-scored", tmp_path)
    badges: list[dict[str, Any]] = run.state.node.fields["score_badges"]
    assert [badge["text"] for badge in badges] == PARIS_BADGES
    assert badges[0]["title"] == "answer-length (Mastra scorer): 14 words; score 0.7"
    assert run.state.node.fields.get("scoring") is None
    assert texts_of(html, "mn-head-scores") == ["".join(PARIS_BADGES)]  # its badges, in order
    assert texts_of(html, "mn-score-row") == [
        "answer-length0.714 words; score 0.7completeness-scorer1judge-answers-question1mentions Paris1 ✓"
    ]
