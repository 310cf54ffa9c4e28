"""Scorers attached to an agent on the server: a run that names no scorers still gets the scores Mastra
gives it with the agent's own (read after the run, equal to Mastra's rows); an agent without any is
not waited on."""

from __future__ import annotations

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server


def test_the_agents_own_scorers_are_read_after_a_run_that_names_none(client: mn.MastraClient) -> None:
    attached = {
        scorer_id for scorer_id, entry in client.scorers().items() if "dynamic" in entry.get("agentIds", ())
    }
    assert attached == {"answer-length", "completeness-scorer"}  # server/features.mjs, sampling rate 1

    result = client.agent("dynamic").stream("What is Paris?").wait(60)
    assert result.status == "finished"
    assert {score.scorer for score in result.scores} == attached
    assert all(score.source == "mastra" for score in result.scores)
    rows = client.transport.call("GET", f"/api/scores/run/{result.run_id}", params={"perPage": 100})
    own = {row["scorerId"]: (row["score"], row.get("reason")) for row in rows["scores"]}
    assert {score.scorer: (score.score, score.reason) for score in result.scores} == own
    assert result.score("answer-length").score == 0.7  # 14 words of 20


def test_an_agent_without_scorers_has_no_scores_and_no_warning(client: mn.MastraClient) -> None:
    result = client.agent("plainText").stream("hi").wait(60)
    assert result.status == "finished"
    assert result.scores == []
    assert not [part for part in result.parts if part.kind == "banner"]  # nothing was waited for
