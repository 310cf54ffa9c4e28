"""Python scorers and a run's scores: the scorer wrapper, what a scorer may return, failures, thresholds."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.core.score import Scorer


def answered(text: str = "Paris is the capital of France.") -> mn.RunResult:
    return mn.collect(
        [
            {"type": "start", "runId": "r1", "payload": {}},
            {"type": "text-delta", "runId": "r1", "payload": {"id": "t", "text": text}},
            {"type": "finish", "runId": "r1", "payload": {"stepResult": {"reason": "stop"}}},
        ]
    )


def mentions_paris(result: mn.RunResult, *, input: Any = None, expected: Any = None) -> bool:
    return "Paris" in result.text


def test_a_function_is_named_after_itself_and_a_name_or_threshold_can_be_given() -> None:
    assert mn.scorer(mentions_paris).name == "mentions_paris"
    named = mn.scorer(mentions_paris, name="paris", threshold=1)
    assert (named.name, named.threshold) == ("paris", 1)
    again = mn.scorer(named, threshold=0.5)  # a scorer renamed or re-thresholded keeps its function
    assert (again.name, again.threshold, again.function) == ("paris", 0.5, mentions_paris)

    @mn.scorer(threshold=0.5)
    def length(result: mn.RunResult, **_: Any) -> float:
        return len(result.text) / 100

    assert isinstance(length, Scorer)
    assert (length.name, length.threshold) == ("length", 0.5)
    with pytest.raises(TypeError, match="function of the result"):
        mn.scorer(42)  # type: ignore[call-overload]


def test_a_float_a_bool_or_a_score_is_a_score_from_the_notebook() -> None:
    result = answered()
    assert mn.scorer(lambda r, **_: len(r.text) / 100, name="len")(result) == mn.Score(
        scorer="len", score=0.31, source="notebook"
    )
    assert mn.scorer(mentions_paris)(result) == mn.Score(scorer="mentions_paris", score=1.0, passed=True)
    returned = mn.Score(scorer="own", score=0.2, reason="why", source="mastra")
    assert mn.scorer(lambda r, **_: returned, name="own", threshold=0.5)(result) == mn.Score(
        scorer="own", score=0.2, reason="why", source="notebook", passed=False, threshold=0.5
    )


def test_the_threshold_says_whether_it_passed() -> None:
    result = answered()
    half = mn.scorer(lambda r, **_: 0.5, name="half", threshold=0.5)(result)
    assert (half.passed, half.threshold) == (True, 0.5)
    assert mn.scorer(lambda r, **_: 0.4, name="low", threshold=0.5)(result).passed is False
    assert mn.scorer(lambda r, **_: 0.4, name="none")(result).passed is None


def test_input_and_expected_reach_the_function() -> None:
    seen: list[Any] = []

    def exact(result: mn.RunResult, *, input: Any = None, expected: Any = None) -> bool:
        seen.append((input, expected))
        return bool(result.text == expected)

    score = mn.scorer(exact)(answered("4"), input="2 + 2?", expected="4")
    assert (score.score, seen) == (1.0, [("2 + 2?", "4")])


def test_an_exception_or_a_wrong_return_is_a_failed_score_never_raised() -> None:
    def broken(result: mn.RunResult, **_: Any) -> float:
        raise ValueError("no idea")

    failed = mn.scorer(broken, threshold=0.5)(answered())
    assert failed == mn.Score(scorer="broken", reason="ValueError: no idea", threshold=0.5)
    wrong = mn.scorer(lambda r, **_: "great", name="words")(answered())
    assert wrong.score is None
    assert wrong.reason == "returned str 'great', not a number, a bool or a Score"
    assert mn.scorer(lambda r, **_: float("nan"), name="nan")(answered()).score is None
    # a function that takes no input= nor expected= is given only what it takes
    assert mn.scorer(lambda r: 1.0, name="bare")(answered(), input="q").score == 1.0
    assert (
        mn.scorer(lambda r, *, expected: r.text == expected, name="eq")(answered("4"), expected="4").score
        == 1
    )


def test_sync_and_async_scorers_run_off_the_loop() -> None:
    threads: list[str] = []

    def sync(result: mn.RunResult, **_: Any) -> float:
        import threading

        threads.append(threading.current_thread().name)
        return 0.25

    async def asynchronous(result: mn.RunResult, *, input: Any = None, expected: Any = None) -> mn.Score:
        await asyncio.sleep(0)
        return mn.Score(scorer="ignored", score=0.75, reason=f"for {input}")

    async def broken(result: mn.RunResult, **_: Any) -> float:
        raise RuntimeError("down")

    async def main() -> list[mn.Score]:
        result = answered()
        return [
            await mn.scorer(sync).ascore(result),
            await mn.scorer(asynchronous, name="async").ascore(result, input="q"),
            await mn.scorer(broken).ascore(result),
        ]

    sync_score, async_score, broken_score = asyncio.run(main())
    assert sync_score.score == 0.25
    assert threads == ["asyncio_0"]  # a plain function runs in a thread, off the loop
    assert (async_score.scorer, async_score.score, async_score.reason) == ("ignored", 0.75, "for q")
    assert broken_score == mn.Score(scorer="broken", reason="RuntimeError: down")
    # called outside a loop, an async scorer runs on a loop of its own
    assert mn.scorer(asynchronous)(answered(), input="q").score == 0.75


def test_result_score_by_name_and_a_missing_one_names_those_there() -> None:
    result = answered()
    result.scores = [
        mn.Score(scorer="completeness-scorer", score=1.0, reason="all there", source="mastra"),
        mn.scorer(mentions_paris)(result),
    ]
    assert result.score("completeness-scorer").source == "mastra"
    assert result.score("mentions_paris").score == 1.0
    with pytest.raises(KeyError, match="'completeness-scorer', 'mentions_paris'"):
        result.score("tone-scorer")
    with pytest.raises(KeyError, match=r"scores: none"):
        answered().score("x")
    assert mn.RunResult.model_validate_json(result.model_dump_json()).scores == result.scores


def test_a_run_keeps_its_scores_on_its_result_and_its_node_and_ending_clears_scoring() -> None:
    run = mn.Run()
    for chunk in [
        {"type": "start", "runId": "r1", "payload": {}},
        {"type": "finish", "runId": "r1", "payload": {"stepResult": {"reason": "stop"}}},
    ]:
        run.feed(chunk)
    run.scoring(True)
    assert run.state.node.fields["scoring"] is True
    mastra = mn.Score(scorer="completeness-scorer", score=1.0, source="mastra")
    run.add_scores([mastra])
    run.add_scores([mn.Score(scorer="mine", score=0.5, threshold=0.4, passed=True)])
    assert [s.scorer for s in run.result.scores] == ["completeness-scorer", "mine"]
    assert run.result.score("completeness-scorer") == mastra
    assert run.state.node.fields["scores"][1]["passed"] is True  # the view draws it
    run.end()  # stopped while scoring: nothing more is awaited
    assert run.state.node.fields.get("scoring") is None


def test_to_dataframe_has_a_column_per_score() -> None:
    pytest.importorskip("pandas")
    scored, other = answered(), answered("Lyon")
    scored.scores = [mn.Score(scorer="completeness-scorer", score=1.0, source="mastra")]
    other.scores = [mn.scorer(mentions_paris)(other)]
    frame = mn.to_dataframe([scored, other])
    assert list(frame.columns[-2:]) == ["score_completeness-scorer", "score_mentions_paris"]
    assert frame["score_completeness-scorer"].tolist()[0] == 1.0
    assert frame["score_mentions_paris"].tolist()[1] == 0.0
    assert frame["score_mentions_paris"].isna().tolist() == [True, False]  # a run without that score


def test_a_badge_says_the_score_its_tone_and_reason() -> None:
    from mastra_notebook.core.score import badge

    mastra = mn.Score(scorer="answer-length", score=0.7, reason="14 words; score 0.7", source="mastra")
    assert badge(mastra) == {
        "text": "answer-length 0.7",
        "tone": "neutral",
        "title": "answer-length (Mastra scorer): 14 words; score 0.7",
        "scorer": "answer-length",  # the footer's scores row: scorer, value and mark, reason
        "value": "0.7",
        "reason": "14 words; score 0.7",
    }
    assert badge(mn.Score(scorer="exact", score=1.0, passed=True, threshold=1)) == {
        "text": "exact 1 ✓",
        "tone": "ok",
        "title": "exact (Python scorer)",
        "scorer": "exact",
        "value": "1 ✓",
        "reason": "",
    }
    assert badge(mn.Score(scorer="exact", score=0.123456, passed=False))["text"] == "exact 0.123 ✗"
    assert badge(mn.Score(scorer="judge", reason="ValueError: x"))["tone"] == "warn"


def test_the_static_header_shows_scoring_then_the_badges() -> None:
    from mastra_notebook.render.transcript import render_html

    run = mn.Run()
    run.feed({"type": "start", "runId": "r1", "payload": {}})
    run.feed({"type": "finish", "runId": "r1", "payload": {"stepResult": {"reason": "stop"}}})
    run.scoring(True)
    assert "scoring…" in render_html(run.result)
    run.add_scores([mn.Score(scorer="answer-length", score=0.7, source="mastra")])
    run.scoring(False)
    page = render_html(run.result)
    assert "answer-length 0.7" in page
    assert "scoring…" not in page
    assert run.state.node.fields["score_badges"][0]["text"] == "answer-length 0.7"
