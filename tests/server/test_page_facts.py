"""What a reader reads on a page of a live run of the bundled real Mastra server, in the kernel (issue 30;
the e2e tests test_status_words and test_scores opened JupyterLab for it): a suspended workflow's
status words, banner and resume hint, and the header's "scoring…" while Mastra's scores are awaited,
then a badge per score. The page is the static transcript of the view's snapshot (the widget's own
renderers, run in the kernel); tests/test_page_facts.py checks the recorded pages, and
js/test/page-facts.test.ts the widget's DOM of them."""

from __future__ import annotations

import threading

import pytest

import mastra_notebook as mn
from mastra_notebook.render.transcript import render_ops

from ..helpers import PARIS_BADGES, PARIS_SCORERS, PARIS_SCORES, texts_of, wait_until

pytestmark = pytest.mark.server

HINT = 'view.resume({"approved": True}, step="request")'


def page(view: mn.StreamView) -> str:
    return render_ops(view.run.snapshot(), view.title)


def test_a_suspended_workflow_says_suspended_and_the_call_that_resumes_it(client: mn.MastraClient) -> None:
    view = client.workflow("approvalFlow").stream(input_data={"item": "laptop"})
    assert view.wait(60).status == "suspended"
    html = page(view)
    assert texts_of(html, "mn-state") == ["suspended"]  # the header's word
    assert texts_of(html, "mn-stat", data_stat="status")[-1] == "suspended"  # the run's footer
    assert texts_of(html, "mn-status-banner") == [f"Run suspended: continue with {HINT}"]
    assert texts_of(html, "mn-continue-code") == [HINT]


def test_the_header_says_scoring_until_the_scores_come_then_a_badge_each(client: mn.MastraClient) -> None:
    gate = threading.Event()

    def held(result: mn.RunResult, *, input: object = None, expected: object = None) -> bool:
        gate.wait(120)  # scored once the test lets it: the view says "scoring…" meanwhile
        return "Paris" in result.text

    paris = mn.scorer(held, name="mentions Paris", threshold=1)
    view = client.agent("dynamic").stream("What is Paris?", scorers=[*PARIS_SCORERS, paris])
    fields = view.run.state.node.fields
    try:
        wait_until(lambda: fields.get("status") == "finished" and fields.get("scoring") is True, "scoring")
        assert texts_of(page(view), "mn-head-scores") == ["scoring…"]
        assert not fields.get("score_badges")
    finally:
        gate.set()
    result = view.wait(60)
    assert [(s.scorer, s.score, s.passed, s.source) for s in result.scores] == [
        (s.scorer, s.score, s.passed, s.source) for s in PARIS_SCORES
    ]  # the scores tests/test_page_facts.py draws
    assert result.score("answer-length").reason == "14 words; score 0.7"
    assert fields.get("scoring") is None
    assert [badge["text"] for badge in fields["score_badges"]] == PARIS_BADGES
    assert fields["score_badges"][0]["title"] == "answer-length (Mastra scorer): 14 words; score 0.7"
    assert texts_of(page(view), "mn-head-scores") == ["".join(PARIS_BADGES)]
