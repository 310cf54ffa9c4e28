"""Issue 31 against the bundled real Mastra server: an experiment of the ``dynamic`` agent (3 inputs,
2 variants) judged pairwise by a position-biased judge, a Python function and a Mastra agent (the
``structured`` agent, whose scripted model answers a JSON schema with each enum's first value:
``first``, every time). Both yield only ties and a position bias of 1.0; the experiment saved and
loaded is judged and rescored with no server."""

from __future__ import annotations

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
