"""An experiment against the bundled Mastra server (issue 20 item 2's acceptance): 5 inputs, 3 variants
of the ``dynamic`` agent (whose answers follow its instructions and model), 2 repeats: 30 rows; the
summary's means and intervals against a hand computation; "differs" keeps exactly the inputs whose
scores differ; Python scorers get the input and the expected answer; saved and reloaded equal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server

# expected words: NASA and IBM stay themselves in upper case, the others do not
INPUTS = pd.DataFrame(
    {
        "input": ["Where is NASA based?", "Who founded IBM?", "What is Paris known for?",
                  "How tall is Everest?", "Why is the sky blue?"],
        "expected": ["NASA", "IBM", "Paris", "Everest", "blue"],
    }
)  # fmt: skip
VARIANTS: dict[str, dict[str, Any]] = {
    "plain": {"prompt": "Question: {input}"},
    "upper": {"instructions": "Answer in uppercase."},
    "detailed": {"request_context": {"model": "mock-dynamic-detailed"}},
}


def test_five_inputs_three_variants_two_repeats(client: mn.MastraClient, tmp_path: Path) -> None:
    seen: list[tuple[Any, Any]] = []

    def says(result: mn.RunResult, *, input: Any = None, expected: Any = None) -> bool:
        seen.append((input, expected))
        return str(expected) in result.text

    exact = mn.scorer(says, name="exact", threshold=1)
    exp = client.agent("dynamic").experiment(
        INPUTS, VARIANTS, scorers=[exact, "answer-length"], repeats=2, concurrency=8, name="styles"
    )
    exp.wait(180)

    frame = exp.to_dataframe()
    assert len(frame) == 30
    assert set(frame["status"]) == {"finished"}, frame[["variant", "status", "error"]]
    assert frame["score_answer-length"].notna().all()  # Mastra's scorer, read after each run
    # the Python scorer got each run's own input (not the templated prompt) and expected answer
    pairs = list(zip(INPUTS["input"], INPUTS["expected"], strict=True))
    assert sorted(seen) == sorted(pairs * 6)
    plain = frame[frame["variant"] == "plain"]
    assert plain["text"].str.contains('You asked: "Question: ').all()  # prompt= reached the agent
    upper = frame[frame["variant"] == "upper"]
    assert (upper["text"] == upper["text"].str.upper()).all()  # instructions= reached the model

    summary = exp.summary()
    assert list(summary.index) == ["plain", "upper", "detailed"]
    assert summary.loc["plain", "exact_mean"] == 1.0
    # upper: 4 of 10 runs keep their word (NASA, IBM; 2 repeats each): over the 5 inputs, means
    # 1, 1, 0, 0, 0: mean 0.4; s = sqrt((2 * 0.6² + 3 * 0.4²) / 4) = sqrt(0.3) = 0.5477226; half width
    # t(0.975, 4) * s / sqrt(5) = 2.7764451 * 0.5477226 / 2.2360680 = 0.6800874
    assert summary.loc["upper", "exact_mean"] == pytest.approx(0.4)
    assert summary.loc["upper", "exact_ci_low"] == pytest.approx(-0.2800874, abs=1e-6)
    assert summary.loc["upper", "exact_ci_high"] == pytest.approx(1.0800874, abs=1e-6)
    assert summary.loc["upper", "exact_inputs"] == 5
    assert summary.loc["upper", "exact_pass_rate"] == pytest.approx(0.4)
    assert (summary["tokens"] > 0).all()
    assert (summary["latency_p95_s"] >= summary["latency_p50_s"]).all()

    assert exp.differs("plain", "upper", scorers=["exact"]) == [2, 3, 4]  # the words upper case changes
    assert exp.differs("plain", "detailed", scorers=["exact"]) == []  # both keep every word
    # answer-length: the answers' lengths differ between the variants for every input
    assert exp.differs() == [0, 1, 2, 3, 4]
    comparisons = exp.compare("plain", "upper")
    assert sorted(comparisons) == [0, 1, 2, 3, 4]
    assert comparisons[2].labels == ["plain #1", "plain #2", "upper #1", "upper #2"]  # every repeat

    exp.save(tmp_path / "styles")
    again = mn.load_experiment(tmp_path / "styles")
    pd.testing.assert_frame_equal(again.to_dataframe(), frame)
    pd.testing.assert_frame_equal(again.summary(), summary)
    assert again.differs() == exp.differs()
    assert again.variants == {
        "plain": {"prompt": "Question: {input}"},
        **{k: VARIANTS[k] for k in ("upper", "detailed")},
    }


def test_variants_on_other_agents_with_prompt_functions_differ_by_trajectory(client: mn.MastraClient) -> None:
    variants: dict[str, dict[str, Any]] = {
        "dynamic": {},
        "weather": {"agent": "weather", "prompt": lambda city: f"What is the weather in {city}?"},
        "weather again": {"agent": "weather", "prompt": "What is the weather in {input}?"},
    }
    exp = client.agent("dynamic").experiment(["Paris", "Lisbon"], variants, concurrency=3).wait(120)
    frame = exp.to_dataframe()
    assert set(frame["status"]) == {"finished"}
    assert [r.tool_calls[0].args for r in exp.runs(1, "weather")] == [{"city": "Lisbon"}]
    assert list(frame[frame["variant"] == "dynamic"]["tool_call_count"]) == [0, 0]
    assert exp.differs() == [0, 1]  # the weather agent calls getWeather; dynamic calls nothing
    assert exp.differs("weather", "weather again") == []  # the same calls with the same arguments
    comparisons = exp.compare("dynamic", "weather")
    assert sorted(comparisons) == [0, 1]
    assert comparisons[0].parting is not None


def test_two_versions_of_a_python_tool_as_variants(client: mn.MastraClient) -> None:
    def lookup_v1(city: str) -> dict[str, Any]:
        """Look a city up."""
        return {"city": city, "population": None}

    def lookup_v2(city: str) -> dict[str, Any]:
        """Look a city up."""
        return {"city": city, "population": {"Paris": 2_100_000}.get(city, 0)}

    found = mn.scorer(lambda result: "2100000" in result.text, name="found")
    variants = {"v1": {"tools": {"lookup": lookup_v1}}, "v2": {"tools": {"lookup": lookup_v2}}}
    exp = (
        client.agent("toolUser")
        .experiment(
            ['call lookup with {"city": "Paris"}', 'call lookup with {"city": "Oslo"}'],
            variants,
            scorers=[found],
        )
        .wait(120)
    )
    frame = exp.to_dataframe()
    assert set(frame["status"]) == {"finished"}
    assert list(frame["tool_calls"]) == [["lookup"]] * 4  # the same call in both versions
    assert list(frame["score_found"]) == [0.0, 1.0, 0.0, 0.0]  # v2 knows Paris
    assert exp.differs() == [0]  # Oslo: the same call, the same (unscored) outcome
