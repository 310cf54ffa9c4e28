"""Issue 20, item 2: an experiment of 5 inputs, 3 variants and 2 repeats run from fake runs (views fed
with chunks, scored as a client would score them): 30 rows, the summary's means and intervals against
a hand computation, "differs" keeping exactly the inputs whose scores or trajectories differ, the
comparison per differing input, and the experiment saved and reloaded equal."""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas as pd
import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import Item, items_of, mean_interval, percentile, t_quantile
from mastra_notebook.widget.experiment_view import Experiment, static_html
from mastra_notebook.widget.grid import TICK_S, run_data

from .compare_runs import PARIS, run
from .fake_clock import on_fake_clock
from .helpers import execute

INPUTS = pd.DataFrame(
    {
        "input": ["capital of France?", "capital of Italy?", "capital of Spain?", "capital of Peru?", "capital of Chad?"],
        "expected": ["Paris", "Rome", "Madrid", "Lima", "N'Djamena"],
    }
)  # fmt: skip
VARIANTS = {"terse": {"instructions": "Answer in one word."}, "chatty": {"model_settings": {"temperature": 1}},
            "tooled": {"tools": ["lookup"]}}  # fmt: skip

exact = mn.scorer(lambda result, *, expected=None: expected in result.text, name="exact", threshold=0.5)


def answer(item: int, variant: str, repeat: int, expected: str) -> list[Any]:
    """The fake run's chunks: ``chatty`` misses inputs 3 and 4, and input 2 on its second repeat;
    ``tooled`` answers input 1 after a tool call (its trajectory differs, its score does not)."""
    wrong = variant == "chatty" and (item in (3, 4) or (item == 2 and repeat == 1))
    text = "I do not know." if wrong else f"It is {expected}."
    steps: list[Any] = [[PARIS], text] if variant == "tooled" and item == 1 else [text]
    return run(*steps)


def fake_start(item: Item, variant: str, repeat: int) -> tuple[mn.StreamView, Callable[[], Awaitable[None]]]:
    view = mn.StreamView(title="agent fake")
    index = list(INPUTS["input"]).index(item.input)

    async def work() -> None:
        await asyncio.sleep(0)
        for chunk in answer(index, variant, repeat, item.expected):
            view.feed(chunk)
        view.run.add_scores([await exact.ascore(view.result, input=item.input, expected=item.expected)])

    return view, work


async def experiment() -> Experiment:
    exp = Experiment(items_of(INPUTS), VARIANTS, start=fake_start, repeats=2, concurrency=4, name="capitals")
    return await exp


def test_student_t_quantiles_match_the_tables() -> None:
    for df, t in [(1, 12.7062047), (2, 4.3026527), (4, 2.7764451), (9, 2.2621572), (29, 2.0452296)]:
        assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-6)
    assert math.isnan(mean_interval([0.3])[1])


def test_an_interval_and_percentiles_as_computed_by_hand() -> None:
    # 0.2, 0.4, 0.4, 0.9, 1.0: mean 2.9 / 5 = 0.58; squared deviations .1444 + .0324 + .0324 + .1024
    # + .1764 = .488, s = sqrt(.488 / 4) = 0.3492850; t(0.975, 4) = 2.7764451 (a table's);
    # half width = 2.7764451 * 0.3492850 / sqrt(5) = 0.4336946
    mean, low, high = mean_interval([0.2, 0.4, 0.4, 0.9, 1.0])
    assert mean == pytest.approx(0.58)
    assert (low, high) == (
        pytest.approx(0.58 - 0.4336946, abs=1e-6),
        pytest.approx(0.58 + 0.4336946, abs=1e-6),
    )
    # 1, 2, 3, 4, 10 (numpy's linear rule): p50 the third, 3; p95 at rank 4 * 0.95 = 3.8, 4 + 0.8 * 6
    assert (percentile([10, 2, 4, 1, 3], 50), percentile([10, 2, 4, 1, 3], 95)) == (3, pytest.approx(8.8))
    assert percentile([7.0], 95) == 7.0
    assert math.isnan(percentile([], 50))


def test_without_scipy_no_interval_rather_than_a_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy.stats", None)  # the stats extra not installed
    mean, low, high = mean_interval([0.2, 0.4, 0.4, 0.9, 1.0])
    assert mean == pytest.approx(0.58)
    assert math.isnan(low)
    assert math.isnan(high)


async def test_mn_to_dataframe_of_an_experiment_is_its_own(recording_comm: object) -> None:
    exp = await experiment()  # issue 29, item 7: it raised "'Experiment' object is not iterable"
    assert mn.to_dataframe(exp).equals(exp.to_dataframe())


def test_inputs_from_a_list_a_dataframe_and_a_dataset() -> None:
    assert items_of(["a", "b"]) == [Item("a"), Item("b")]
    assert items_of(INPUTS)[1] == Item("capital of Italy?", "Rome")
    dataset = SimpleNamespace(
        items=[SimpleNamespace(input="q", expected="a"), {"input": "r", "groundTruth": "b"}]
    )
    assert items_of(dataset) == [Item("q", "a"), Item("r", "b")]


async def test_thirty_rows_a_column_per_score(recording_comm: object) -> None:
    exp = await experiment()
    frame = exp.to_dataframe()
    assert len(frame) == 30
    assert list(frame.columns[:5]) == ["input_index", "input", "expected", "variant", "repeat"]
    assert set(frame["status"]) == {"finished"}
    assert frame.groupby(["input_index", "variant", "repeat"]).size().eq(1).all()
    chatty = frame[frame["variant"] == "chatty"].sort_values(["input_index", "repeat"])
    assert list(chatty["score_exact"]) == [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]


async def test_summary_means_and_intervals_as_computed_by_hand(recording_comm: object) -> None:
    summary = (await experiment()).summary()
    assert list(summary.index) == ["terse", "chatty", "tooled"]
    assert list(summary["n"]) == [10, 10, 10]
    assert list(summary["errors"]) == [0, 0, 0]
    # chatty, over inputs (each its 2 repeats' mean): 1, 1, 0.5, 0, 0. mean 0.5; s = sqrt(1 / 4) = 0.5;
    # t(0.975, 4) = 2.7764451; half width = 2.7764451 * 0.5 / sqrt(5) = 0.6208320 (over its 10 runs as
    # if independent it would have been 0.3770262: too narrow)
    chatty = summary.loc["chatty"]
    assert chatty["exact_mean"] == pytest.approx(0.5)
    assert chatty["exact_ci_low"] == pytest.approx(-0.1208320, abs=1e-6)
    assert chatty["exact_ci_high"] == pytest.approx(1.1208320, abs=1e-6)
    assert chatty["exact_inputs"] == 5
    assert chatty["exact_pass_rate"] == pytest.approx(0.5)
    terse = summary.loc["terse"]  # ten 1s: no spread, the interval is the mean
    assert (terse["exact_mean"], terse["exact_ci_low"], terse["exact_ci_high"]) == (1.0, 1.0, 1.0)
    # tokens: 15 a step; tooled's input 1 takes two steps in both repeats
    assert list(summary["tokens"]) == [150, 150, 180]
    assert summary["latency_p50_s"].notna().all()


async def test_differs_keeps_the_inputs_whose_scores_or_trajectories_differ(recording_comm: object) -> None:
    exp = await experiment()
    assert exp.differs() == [1, 2, 3, 4]  # 1: tooled's trajectory; 2, 3, 4: chatty's scores
    assert exp.differs("terse", "tooled") == [1]
    assert exp.differs("terse", "chatty") == [2, 3, 4]
    comparisons = exp.compare("terse", "chatty")
    assert sorted(comparisons) == [2, 3, 4]
    assert comparisons[3].labels == ["terse #1", "terse #2", "chatty #1", "chatty #2"]  # every repeat
    # input 2: chatty misses it on its second repeat only (its first repeat alone would read alike)
    assert [r.text for r in comparisons[2].results] == ["It is Madrid.", "It is Madrid.", "It is Madrid.",
                                                         "I do not know."]  # fmt: skip
    assert "capital of Peru?" in comparisons._repr_html_()
    with pytest.raises(KeyError, match="no variant 'nope'"):
        exp.compare("terse", "nope")


async def test_saved_and_reloaded_without_a_server_equal(recording_comm: object, tmp_path: Path) -> None:
    exp = await experiment()
    exp.save(tmp_path / "capitals")
    again = mn.load_experiment(tmp_path / "capitals")
    pd.testing.assert_frame_equal(again.to_dataframe(), exp.to_dataframe())
    pd.testing.assert_frame_equal(again.summary(), exp.summary())
    assert again.items == exp.items
    assert again.variants == exp.variants
    assert again.repeats == 2
    assert again.differs() == exp.differs()
    assert sorted(again.compare("terse", "tooled")) == [1]
    # every run's recording is kept, and reads back to the run it was (its scores beside it)
    cell = again.cells[7]
    kept = cell.keep()
    assert kept.run.result.text == exp.cells[7].result.text
    assert kept.run.result.scores == exp.cells[7].result.scores
    assert len(list((tmp_path / "capitals" / "runs").glob("*.jsonl"))) == 30


async def test_grid_tiles_and_static_transcript(recording_comm: object) -> None:
    exp = await experiment()
    grid = exp.grid
    assert grid.rows_per_page == 16
    assert grid.page == [0, 1, 2, 3, 4]
    grid.show_differing(True)
    assert grid.page == [1, 2, 3, 4]
    # the page's data: input 4 (numbered from 1, as its repeats are), a tile per variant, a run per repeat
    data = grid.page_data()
    assert data["kind"] == "experiment"
    assert [c["name"] for c in data["columns"]] == ["terse", "chatty", "tooled"]
    assert data["where"] == "inputs 1–4 of 4 (differing)"
    assert data["filter"] == "differs"
    row = data["rows"][2]
    assert (row["number"], row["input"], row["expected"]) == (4, "capital of Peru?", "Lima")
    chatty = row["tiles"][1]["runs"]
    assert [run["repeat"] for run in chatty] == [1, 2]
    assert chatty[0]["badges"] == [{"text": "exact 0 ✗", "tone": "error", "title": "exact (Python scorer)"}]
    assert chatty[0]["answer"] == "I do not know."
    assert (chatty[0]["word"], chatty[0]["tone"], chatty[0]["openable"]) == ("finished", "ok", True)
    page = static_html(exp)
    assert "chatty" in page
    assert "0.5 [-0.121, 1.12] · 50% pass" in page  # the summary's figures: 3 significant digits, over inputs
    assert "95% CI over inputs" in page
    assert "#1" in page
    assert "capital of France?" in page
    assert "<script" not in page
    assert "<button" not in page
    view = grid.open(exp.cells[0])
    assert view is not None
    assert view.result.text == "It is Paris."
    grid.jump("#1")  # input #1 (index 0) does not differ: every input is listed again
    assert grid.page == [0, 1, 2, 3, 4]
    assert not grid.only_differing
    grid.jump_to("#9")
    assert grid.view.grid.page["note"] == "no input #9: the inputs are #1 to #5"
    bundle = grid.bundle()
    assert "text/html" in bundle
    assert "application/vnd.jupyter.widget-view+json" in bundle


SAVED = """import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import items_of
from mastra_notebook.widget.experiment_view import Experiment

def start(item, variant, repeat):
    view = mn.StreamView()
    answer = item.input.upper() if variant == "loud" else item.input

    async def work():
        for chunk in [{"type": "start", "payload": {}}, {"type": "text-start", "payload": {"id": "t"}},
                      {"type": "text-delta", "payload": {"id": "t", "text": "said " + answer}},
                      {"type": "text-end", "payload": {"id": "t"}}, {"type": "finish", "payload": {}}]:
            view.feed(chunk)
        view.run.add_scores([mn.Score(scorer="loud", score=float(answer.isupper()))])

    return view, work

exp = Experiment(items_of(["first prompt", "second prompt"]), {"quiet": {}, "loud": {}}, start=start, name="saved")
exp"""


@pytest.mark.timeout(120)
def test_a_saved_notebook_shows_the_grid_and_summary_as_they_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notebook = execute([SAVED, "exp.wait(60)\nprint('DONE')"], tmp_path, monkeypatch)
    (html,) = [o["data"]["text/html"] for o in notebook.cells[0].outputs if "text/html" in o.get("data", {})]
    assert "4 done" in html
    assert "queued" not in html
    assert "said SECOND PROMPT" in html
    assert "loud 1" in html
    assert 'class="mn-view-table mn-exp-summary"' in html


async def test_a_saved_recording_keeps_its_scores(recording_comm: object, tmp_path: Path) -> None:
    view = mn.StreamView()
    for chunk in run("It is Paris."):
        view.feed(chunk)
    view.end()
    view.run.add_scores([mn.Score(scorer="exact", score=1.0, passed=True, threshold=0.5)])
    view.save(tmp_path / "run.jsonl")
    again = mn.collect(tmp_path / "run.jsonl")
    assert again.scores == view.result.scores
    assert again.text == "It is Paris."
    again_view = mn.view(tmp_path / "run.jsonl")
    await again_view
    again_view.save(tmp_path / "again.jsonl")  # saved twice: the scores once, not doubled
    assert mn.collect(tmp_path / "again.jsonl").scores == view.result.scores


def test_a_tile_keeps_its_steps_texts_apart() -> None:
    result = mn.collect(run("I will look it up.", "57 orders came in."))
    assert result.text == "I will look it up.57 orders came in."  # Mastra's text: steps joined as they are
    assert run_data(0, "finished", result)["answer"] == "I will look it up. 57 orders came in."


def test_a_tile_shows_an_answers_words_not_its_markdown() -> None:
    answer = "## Paris\n\n**Paris** is the *capital* of France:\n\n- `population` 2.1 M\n- <b>museums</b>"
    said = run_data(0, "finished", mn.collect(run(answer)))["answer"]
    assert said == "Paris Paris is the capital of France: population 2.1 M <b>museums</b>"  # drawn as text


@on_fake_clock
async def test_a_label_given_in_the_opened_view_shows_on_its_tile(recording_comm: object) -> None:
    exp = await experiment()
    grid = exp.grid
    view = grid.open(exp.cells[2])  # input #1, chatty, repeat 1
    assert view is not None
    view.label(thumbs="down", comment="too chatty")
    await asyncio.sleep(TICK_S)  # the page is drawn again at most so often (a fake clock's seconds)
    shown = grid.view.grid.page["rows"][0]["tiles"][1]["runs"][0]  # sent to the browser, no redraw asked
    assert (shown["label"], shown["comment"]) == ("👎", "too chatty")
    again = grid.open(exp.cells[0])  # the same detail view shows another run: told once, not twice
    assert again is view
    assert len(view._changed) == 1


@on_fake_clock
async def test_a_label_given_in_a_loaded_runs_opened_view_reaches_its_tile_and_folder(
    recording_comm: object, tmp_path: Path
) -> None:
    (await experiment()).save(tmp_path / "capitals")
    loaded = mn.load_experiment(tmp_path / "capitals")
    grid = loaded.grid
    view = grid.open(loaded.cells[2])  # input #1, chatty, repeat 1: drawn from its saved recording
    assert view is not None
    view.label(thumbs="down", comment="too chatty")
    await asyncio.sleep(TICK_S)  # the page is drawn again at most so often (a fake clock's seconds)
    shown = grid.view.grid.page["rows"][0]["tiles"][1]["runs"][0]
    assert (shown["label"], shown["comment"]) == ("👎", "too chatty")
    assert loaded.result_of(0, "chatty", 0).feedback is not None
    again = mn.load_experiment(tmp_path / "capitals")  # written into its folder as it was given
    label = again.result_of(0, "chatty", 0).feedback
    assert label is not None
    assert label.comment == "too chatty"
    assert again.result_of(0, "terse", 0).feedback is None
