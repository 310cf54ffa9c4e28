"""Issue 20, "where scores show": a run's scores in the footer's scores row of the static transcript
(RunResult._repr_html_) and of the export page, on a RunResult read back from JSON, and on a gallery
tile's view; a scorer's reason is text, never markup."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import mastra_notebook as mn
from mastra_notebook.widget.gallery import Gallery

from .conftest import RecordingComm

HOSTILE = '<img src=x onerror="alert(1)">'
CHUNKS: list[dict[str, Any]] = [
    {"type": "start", "runId": "r1", "payload": {}},
    {"type": "text-delta", "runId": "r1", "payload": {"id": "t", "text": "Paris."}},
    {"type": "finish", "runId": "r1", "payload": {"stepResult": {"reason": "stop"}}},
]


def scores() -> list[mn.Score]:
    return [
        mn.Score(scorer="answer-length", score=0.7, reason="14 words; score 0.7", source="mastra"),
        mn.Score(scorer="exact", score=0.0, passed=False, threshold=1.0, reason=HOSTILE),
    ]


def scored_run() -> mn.Run:
    run = mn.Run()
    for chunk in CHUNKS:
        run.feed(chunk)
    run.add_scores(scores())
    return run


def assert_scores_row(page: str) -> None:
    """The footer's row: each score's scorer, value with its mark, and its reason (escaped)."""
    footer = page[page.index('data-score="answer-length"') :]
    assert re.search(r'class="mn-stat-label"[^>]*>answer-length</span>', footer)
    assert re.search(r'class="mn-stat-value"[^>]*>0\.7</span>', footer)
    assert 'data-score="exact"' in footer
    assert re.search(r'class="mn-stat-value"[^>]*>0 ✗</span>', footer)
    assert "14 words; score 0.7" in footer
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in footer
    assert "<img" not in page  # the hostile reason is inert: text and an escaped title only


def test_the_static_transcript_has_a_scores_row_in_its_footer() -> None:
    page = scored_run().result._repr_html_()
    assert_scores_row(page)
    assert "answer-length 0.7" in page  # and the header's badges


def test_a_result_read_back_from_json_keeps_its_scores_and_draws_them() -> None:
    result = scored_run().result
    again = mn.RunResult.model_validate_json(result.model_dump_json())
    assert again.scores == result.scores
    assert again.score("exact").passed is False
    page = again._repr_html_()  # drawn from its parts (core/result_nodes.py), not from a view
    assert_scores_row(page)
    assert "exact 0 ✗" in page  # the header's badge


def test_a_result_without_scores_has_no_scores_row() -> None:
    run = mn.Run()
    for chunk in CHUNKS:
        run.feed(chunk)
    assert "data-score" not in run.result._repr_html_()
    loaded = mn.RunResult.model_validate_json(run.result.model_dump_json())
    assert "data-score" not in loaded._repr_html_()


def test_the_export_page_carries_the_scores(recording_comm: RecordingComm) -> None:
    view = mn.StreamView(title="agent")
    for chunk in CHUNKS:
        view.feed(chunk)
    view.run.add_scores(scores())
    page = view.to_html()
    assert_scores_row(page)  # its static transcript, shown until the widget mounts
    root = next(op[2] for op in view.run.snapshot() if op[1] is None)
    assert [b["scorer"] for b in root["score_badges"]] == ["answer-length", "exact"]  # the widget's data


async def test_a_gallery_tile_shows_its_scores(recording_comm: RecordingComm) -> None:
    def start() -> tuple[mn.StreamView, Any]:
        view = mn.StreamView(title="agent test")

        async def work() -> None:
            await asyncio.sleep(0)
            for chunk in CHUNKS:
                view.feed(chunk)
            view.run.add_scores(scores())

        return view, work

    gallery = Gallery(2, page_size=2)
    for i in range(4):
        gallery.submit(start, prompt=f"prompt {i}", title="agent test")
    results = await gallery
    assert [[s.scorer for s in r.scores] for r in results] == [["answer-length", "exact"]] * 4
    tile = gallery.tiles[0]
    runs = gallery.page_data()["tiles"][0]["runs"]  # what the tile draws: the badges' words and tones
    assert [(b["text"], b["tone"]) for b in runs[0]["badges"]] == [
        ("answer-length 0.7", "neutral"),
        ("exact 0 ✗", "error"),
    ]
    again = gallery.open(tile)  # its full view, drawn from what it kept
    assert again is not None
    badges = again.run.state.node.fields["score_badges"]  # what the view's header and footer draw
    assert [b["text"] for b in badges] == ["answer-length 0.7", "exact 0 ✗"]
    assert "exact 0 ✗" in again._final
