"""Issue 31 against the bundled real Mastra server: an experiment of the ``dynamic`` agent (3 inputs,
2 variants) judged pairwise by a position-biased judge, a Python function and a Mastra agent (the
``structured`` agent, whose scripted model answers a JSON schema with each enum's first value:
``first``, every time). Both yield only ties and a position bias of 1.0; the experiment saved and
loaded is judged and rescored with no server. The ``counter`` agent's repeats, differing only in
wording, have no step that separates the passing one from the failing ones."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server

INPUTS = ["Where is NASA based?", "Who founded IBM?", "What is Paris known for?"]
VARIANTS: dict[str, dict[str, Any]] = {"plain": {}, "upper": {"instructions": "Answer in uppercase."}}


def test_a_position_biased_judge_gives_only_ties_on_a_real_experiment(
    client: mn.MastraClient, tmp_path: Path
) -> None:
    exp = client.agent("dynamic").experiment(INPUTS, VARIANTS, concurrency=6, view=False)
    exp.wait(180)
    assert {o.status for o in exp.outcomes()} == {"finished"}
    asked: list[tuple[str, str]] = []

    def first_always(input: Any, first: str, second: str, *, expected: Any = None) -> str:
        asked.append((first, second))
        return "first"

    judged = exp.pairwise("plain", "upper", judge=first_always)
    assert (judged.wins, judged.losses, judged.ties) == (0, 0, 3)
    assert judged.position_bias == 1.0
    plain_answer = exp.runs(0, "plain")[0].text
    assert any(first == plain_answer for first, _ in asked)  # the real answers, in both orders
    assert any(second == plain_answer for _, second in asked)

    by_agent = exp.pairwise("plain", "upper", judge="structured")  # an agent id, through the client
    assert (by_agent.wins, by_agent.losses, by_agent.ties) == (0, 0, 3)
    assert by_agent.position_bias == 1.0
    assert set(by_agent.to_dataframe()["plain_first"]) == {"first"}  # read from structured output

    exp.save(tmp_path / "judged")
    loaded = mn.load_experiment(tmp_path / "judged")
    again = loaded.pairwise("plain", "upper", judge=first_always)
    assert again.position_bias == 1.0
    with pytest.raises(ValueError, match="no client"):
        loaded.pairwise("plain", "upper", judge="structured")
    upper = mn.scorer(lambda result: result.text == result.text.upper(), name="upper", threshold=1)
    rescored = loaded.rescore([upper])
    assert rescored.summary()["upper_mean"].to_dict() == {"plain": 0.0, "upper": 1.0}


def test_repeats_that_differ_only_in_wording_have_no_separating_step(client: mn.MastraClient) -> None:
    """The ``counter`` agent says which run of its prompt this is: three repeats, the same (empty)
    trajectory, answers that differ in one word; a scorer passes the first only."""
    prompt = f"count me {uuid.uuid4()}"  # a prompt of this test's own: the agent counts per prompt
    first = mn.scorer(lambda result: result.text.startswith("Run 1 "), name="first", threshold=1)
    exp = client.agent("counter").experiment([prompt], scorers=[first], repeats=3, concurrency=1, view=False)
    exp.wait(120)
    assert sorted(o.result.text for o in exp.outcomes()) == [f"Run {n} for this prompt." for n in (1, 2, 3)]
    forked = exp.forks(0)
    assert sorted(forked.passed, key=bool) == [False, False, True]
    assert forked.separating is None
    assert forked.sentence() == "no step separates them"
    summary = exp.summary()
    assert summary.loc["baseline", "first_pass^3"] == 0.0
    assert summary.loc["baseline", "first_pass@3"] == 1.0
    assert summary.loc["baseline", "first_disagree"] == 1.0
    assert exp.by_input().loc[(0, "baseline"), "sequences"] == 1


def test_repeats_that_take_different_tool_paths_are_separated_at_their_tool_call(
    client: mn.MastraClient,
) -> None:
    """The ``wanderer`` agent looks the weather up in the asked city, except every third run of a
    prompt, which looks it up in Lyon: three repeats, two tool paths, the first step separates them."""
    prompt = f"Weather in Paris? ({uuid.uuid4()})"  # a prompt of this test's own: the agent counts per prompt
    names = mn.scorer(lambda result: "Paris" in result.text, name="names_city", threshold=1)
    exp = client.agent("wanderer").experiment([prompt], scorers=[names], repeats=3, concurrency=1, view=False)
    exp.wait(120)
    assert [o.result.tool_calls[0].args for o in exp.outcomes()] == [{"city": "Paris"}] * 2 + [
        {"city": "Lyon"}
    ]
    forked = exp.forks(0)
    assert forked.passed == [True, True, False]
    assert forked.separating == 0
    assert forked.sentence() == (
        'step 1 separates them: repeat 1 (passed): getWeather({"city":"Paris"}); '
        'repeat 2 (passed): getWeather({"city":"Paris"}); repeat 3 (failed): getWeather({"city":"Lyon"})'
    )
    summary = exp.summary()
    assert summary.loc["baseline", "names_city_pass^3"] == 0.0
    assert summary.loc["baseline", "names_city_pass@3"] == 1.0
    assert exp.by_input().loc[(0, "baseline"), "sequences"] == 2
