"""Scores on a run, against the bundled Mastra server: Mastra's scorers named by id equal Mastra's own
rows (``GET /api/scores/run/:runId``), Python scorers equal the function applied to the result, an
unknown id is refused before anything is posted, and ``client.scorers()`` lists them."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

import mastra_notebook as mn
from mastra_notebook.client.scores import KnownScorers, Scoring, last_run_id

pytestmark = pytest.mark.server

SCORERS = {
    "answer-length",
    "completeness-scorer",
    "keyword-coverage-scorer",
    "textual-difference-scorer",
    "content-similarity-scorer",
    "tone-scorer",
    "judge-answers-question",
}


def words(result: mn.RunResult, *, input: Any = None, expected: Any = None) -> float:
    return len(result.text.split()) / 100


async def mentions(result: mn.RunResult, *, input: Any = None, expected: Any = None) -> bool:
    return "paris" in result.text.lower()


def test_mastra_scores_equal_mastras_own_rows_and_python_scores_the_function(
    client: mn.MastraClient, mastra_url: str
) -> None:
    paris = mn.scorer(mentions, name="mentions paris", threshold=1)
    ids = ["completeness-scorer", "judge-answers-question", "answer-length"]
    view = client.agent("dynamic").stream("What is Paris?", scorers=[*ids, words, paris])
    result = view.wait(60)
    assert result.status == "finished"
    assert [s.scorer for s in result.scores] == [*ids, "words", "mentions paris"]

    rows = httpx.get(f"{mastra_url}/api/scores/run/{result.run_id}").json()["scores"]
    assert sorted(row["scorerId"] for row in rows) == sorted(
        ids
    )  # the request's scorers replaced the agent's
    for row in rows:
        score = result.score(row["scorerId"])
        assert (score.score, score.reason, score.source) == (row["score"], row.get("reason"), "mastra")
    assert result.score("answer-length").reason == "14 words; score 0.7"

    assert result.score("words") == mn.Score(scorer="words", score=words(result), source="notebook")
    assert result.score("mentions paris") == mn.Score(
        scorer="mentions paris", score=1.0, passed=True, threshold=1, source="notebook"
    )
    assert view.run.state.node.fields.get("scoring") is None  # the view no longer says "scoring…"
    assert [s["scorer"] for s in view.run.state.node.fields["scores"]] == [s.scorer for s in result.scores]


def test_a_run_with_client_tool_rounds_is_scored_on_its_last_round(
    client: mn.MastraClient, mastra_url: str
) -> None:
    """Mastra scores each request as a run of its own: the answer is the last round's."""

    def lookup(city: str) -> str:
        """Look up a city."""
        return f"{city}: 18 C"

    view = client.agent("toolUser").stream(
        'call lookup with {"city": "Oslo"}', tools=[lookup], scorers=["answer-length"]
    )
    result = view.wait(60)
    last = last_run_id(view.recording)
    assert last is not None
    assert last != result.run_id  # the continuation is a run of its own on the server
    [row] = httpx.get(f"{mastra_url}/api/scores/run/{last}").json()["scores"]
    assert result.scores == [
        mn.Score(scorer="answer-length", score=row["score"], reason=row["reason"], source="mastra")
    ]
    assert row["score"] > 0  # the answer's words (the first round, a tool call, has none)


def test_an_unknown_scorer_id_is_refused_before_posting_with_the_ids_there(client: mn.MastraClient) -> None:
    result = client.agent("dynamic").stream("What is Paris?", scorers=["completeness", words]).wait(30)
    assert result.status == "error"
    assert result.error is not None
    message = result.error.message
    assert message.startswith("unknown Mastra scorer 'completeness': this server's scorers are ")
    assert all(scorer_id in message for scorer_id in SCORERS)
    assert result.chunk_count == 0  # nothing was posted
    assert result.scores == []


def test_python_scorers_alone_leave_the_agents_own_scorers(client: mn.MastraClient) -> None:
    view = client.agent("dynamic").stream("What is Paris?", scorers=[words])
    result = view.wait(30)
    assert [s.scorer for s in result.scores] == ["words"]
    assert result.score("words").score == words(result)
    # no ``scorers`` in the body: the agent's own scorers scored the run on the server
    own = Scoring(client.transport, client.known_scorers, ["answer-length", "completeness-scorer"], [])
    asyncio.run(own.collect(view.run))
    assert [s.scorer for s in view.result.scores] == ["words", "answer-length", "completeness-scorer"]


def test_a_scorer_that_does_not_report_in_time_is_named_in_a_warning(client: mn.MastraClient) -> None:
    """A scorer whose rows never come (the run is asked for one id, its rows read for another): the
    polling stops at its bound, and says which scorer did not report."""
    pauses: list[float] = []
    now = [0.0]

    async def sleep(seconds: float) -> None:  # a fake clock: no real waiting
        pauses.append(seconds)
        now[0] += seconds

    view = client.agent("plainText").stream("What is Paris?")  # an agent with no scorers of its own
    view.wait(30)
    scoring = Scoring(
        client.transport, KnownScorers(client.transport), ["tone-scorer"], [], timeout=5, sleep=sleep,
        clock=lambda: now[0],
    )  # fmt: skip
    asyncio.run(scoring.collect(view.run))
    assert pauses[:5] == [0.1, 0.2, 0.4, 0.8, 1.6]
    assert sum(pauses) <= 5
    assert view.result.scores == []
    [warning] = [p for p in view.result.parts if p.kind == "banner" and "did not report" in (p.text or "")]
    assert warning.text is not None
    assert warning.text.startswith("Mastra's scorer tone-scorer did not report within 5 s")


def test_client_scorers_lists_them_as_a_table(client: mn.MastraClient) -> None:
    listed = client.scorers()
    assert set(listed) >= SCORERS
    html = listed._repr_html_()
    assert "Answer length" in html
    assert "dynamic" in html  # the agents it is attached to
    assert client.known_scorers.ids is not None
    assert client.known_scorers.ids >= SCORERS
