"""An experiment's outcomes and their numbers: its inputs (``Item``), each run's ``Outcome``, the
runs as rows, the summary per variant, where the variants differ, and the folder it is saved in.
Pure functions over finished or running results: no widget, no HTTP (the live experiment is
widget/experiment_view.py; what starts its runs, client/variants.py).
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.recording import Recording
from ..core.result import RunResult
from ..core.score import scored_lines
from .align import call_key
from .compare import Comparison, compare
from .dataframe import row

LEVEL = 0.95  # the confidence of the summary's intervals
FORMAT = "mastra-notebook experiment 1"  # experiment.json's "format": what load() reads
BASELINE = "baseline"  # the one variant of an experiment given none


@dataclass(frozen=True, slots=True)
class Item:
    """One input of an experiment: what is asked, and the answer expected (None when not given);
    an item of a Mastra dataset has its ``id`` and dataset ``version`` there too."""

    input: Any
    expected: Any = None
    id: str | None = None
    version: int | None = None


def items_of(inputs: Any) -> list[Item]:
    """An experiment's inputs as items: a list of prompts; a DataFrame with an ``input`` column (and
    ``expected`` when present); or any object with ``.items`` whose elements have ``.input`` and
    ``.expected`` (a Mastra dataset). A mapping element gives its ``input`` and ``expected`` (or
    ``groundTruth``, Mastra's name) keys."""
    columns = getattr(inputs, "columns", None)
    if columns is not None and callable(getattr(inputs, "to_dict", None)):  # a DataFrame
        if "input" not in columns:
            raise ValueError(f"a DataFrame of inputs needs an 'input' column (it has {list(columns)})")
        records = inputs.to_dict("records")
        return [Item(record["input"], record.get("expected")) for record in records]
    listed = getattr(inputs, "items", None)
    if listed is not None and not callable(listed):  # a dataset (a dict's items is a method)
        inputs = listed
    if isinstance(inputs, (str, bytes)) or not isinstance(inputs, Iterable):
        raise TypeError(
            f"inputs are a list of prompts, a DataFrame or a dataset, not {type(inputs).__name__}"
        )
    return [_item(element) for element in inputs]


def _item(element: Any) -> Item:
    if isinstance(element, Item):
        return element
    if isinstance(element, Mapping) and "input" in element:
        return Item(element["input"], element.get("expected", element.get("groundTruth")))
    if hasattr(element, "input") and not isinstance(element, str):
        expected = getattr(element, "expected", None)
        return Item(
            element.input, expected if expected is not None else getattr(element, "ground_truth", None)
        )
    return Item(element)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One run of an experiment as far as it got: which input, variant and repeat, its status
    (``queued``, ``running``, or the run's own) and its RunResult."""

    item: int
    variant: str
    repeat: int
    status: str
    result: RunResult

    @property
    def ended(self) -> bool:
        """Neither queued nor running (a run waiting for a person has not ended either)."""
        return self.status not in ("queued", "running", "suspended")


# ---- rows -----------------------------------------------------------------------------------------


def rows(outcomes: Sequence[Outcome], items: Sequence[Item]) -> list[dict[str, Any]]:
    """One row per run: the input's index, input, expected answer, variant and repeat, then
    ``to_dataframe``'s facts of the run (a ``score_<name>`` column per score)."""
    listed = []
    for outcome in outcomes:
        item = items[outcome.item]
        facts = row(outcome.result, item.input)
        facts["status"] = outcome.status
        where = {"input_index": outcome.item, "input": item.input, "expected": item.expected,
                 "variant": outcome.variant, "repeat": outcome.repeat}  # fmt: skip
        facts.pop("prompt", None)
        listed.append({**where, **facts})
    return listed


def scorer_names(outcomes: Iterable[Outcome]) -> list[str]:
    """The scorers the runs have scores of, in the order first seen."""
    names: dict[str, None] = {}
    for outcome in outcomes:
        for score in outcome.result.scores:
            names.setdefault(score.scorer, None)
    return list(names)


# ---- the summary ----------------------------------------------------------------------------------


def t_quantile(p: float, df: int) -> float:
    """Student's t distribution's quantile ``p`` with ``df`` degrees of freedom (``scipy.stats.t``:
    the ``stats`` extra, ``pip install 'mastra-notebook[stats]'``); NaN without scipy."""
    if df < 1 or not 0 < p < 1:
        raise ValueError("t_quantile takes df >= 1 and 0 < p < 1")
    try:
        from scipy.stats import t
    except ImportError:  # no interval rather than a guess: a normal quantile is far too narrow at small n
        return math.nan
    return float(t.ppf(p, df))


def intervals_available() -> bool:
    """Whether the summary can give intervals (scipy, the ``stats`` extra, is installed)."""
    import importlib.util

    return importlib.util.find_spec("scipy") is not None


def mean_interval(values: Sequence[float], level: float = LEVEL) -> tuple[float, float, float]:
    """The mean of ``values`` and its ``level`` confidence interval, by Student's t:
    ``mean ± t(1 - (1 - level) / 2, n - 1) · s / √n``, with ``s`` the sample standard deviation
    (n - 1 in its denominator). NaN for no values; the interval is NaN for one value, and without
    scipy (:func:`t_quantile`)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = statistics.fmean(values)
    if n == 1:
        return mean, math.nan, math.nan
    half = t_quantile(1 - (1 - level) / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], percent: int) -> float:
    """The ``percent``-th percentile (1 to 99), interpolated linearly between the closest ranks (numpy's
    default; ``statistics.quantiles``' inclusive method); NaN for no values."""
    if not values:
        return math.nan
    if len(values) == 1:  # statistics.quantiles wants two before Python 3.13
        return float(values[0])
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


# ---- where the variants differ --------------------------------------------------------------------


def trajectory(result: RunResult) -> tuple[tuple[str, str], ...]:
    """The run's tool calls in order, each its tool's name and canonical arguments (align.call_key)."""
    return tuple(call_key(call) for call in result.tool_calls)


def _signature(runs: Sequence[Outcome], scorers: Sequence[str]) -> tuple[Any, ...]:
    """What a variant did with one input: each scorer's mean score over its repeats (rounded: sums of
    floats), and the set of its repeats' trajectories."""
    means = []
    for name in scorers:
        values = [s.score for o in runs for s in o.result.scores if s.scorer == name and s.score is not None]
        means.append(round(statistics.fmean(values), 9) if values else None)
    return tuple(means), frozenset(trajectory(outcome.result) for outcome in runs)


def differing(
    outcomes: Sequence[Outcome], variants: Sequence[str] | None = None, scorers: Sequence[str] | None = None
) -> list[int]:
    """The inputs (their indices) where the variants disagree: on a scorer's mean score over their
    repeats (a scorer one variant has a score of and another has not counts), or on the set of
    trajectories their repeats took (tool names and canonical arguments, in order). Only ended runs
    count, only ``variants`` and only ``scorers`` (all by default)."""
    chosen = set(variants) if variants is not None else None
    ended = [o for o in outcomes if o.ended and (chosen is None or o.variant in chosen)]
    scorers = scorer_names(ended) if scorers is None else list(scorers)
    by_item: dict[int, dict[str, list[Outcome]]] = {}
    for outcome in ended:
        by_item.setdefault(outcome.item, {}).setdefault(outcome.variant, []).append(outcome)
    found = []
    for item, by_variant in sorted(by_item.items()):
        signatures = {_signature(runs, scorers) for runs in by_variant.values()}
        if len(signatures) > 1:
            found.append(item)
    return found


def failing(outcomes: Sequence[Outcome], scorer: str, variants: Sequence[str] | None = None) -> list[int]:
    """The inputs (their indices) where ``scorer`` failed an ended run: its score missed the scorer's
    threshold, or the scorer raised (no score). Only ``variants`` (all by default)."""
    found = {
        o.item
        for o in outcomes
        if o.ended and (variants is None or o.variant in variants)
        for s in o.result.scores
        if s.scorer == scorer and (s.passed is False or s.score is None)
    }
    return sorted(found)


def known_cost(result: RunResult) -> float | None:
    """The run's cost (USD), or None when unknown: not priced, or a run that did not finish and has
    no priced step (it ended before any step said its usage: its cost is not known to be 0)."""
    cost = result.cost
    if cost.total_usd is None:
        return None
    if result.status != "finished" and not any(usd is not None for usd in cost.steps_usd):
        return None
    return cost.total_usd


class Comparisons(dict[int, Comparison]):
    """``exp.compare(a, b)``: for each input where the two variants differ (by its index), their runs
    (every repeat) compared step by step (``mn.compare``); shown one after the other under their
    inputs, each saying why it is listed (``why``: scores, tool calls, or only the answers' words)."""

    def __init__(
        self,
        comparisons: Mapping[int, Comparison],
        items: Sequence[Item],
        labels: tuple[str, str],
        why: Mapping[int, str] | None = None,
    ):
        super().__init__(comparisons)
        self.inputs = items
        self.labels = labels
        self.why = dict(why or {})

    def _repr_html_(self) -> str:
        from html import escape

        if not self:
            return f"<p>{escape(self.labels[0])} and {escape(self.labels[1])} differ on no input.</p>"
        parts = []
        for index, comparison in self.items_in_order():
            why = self.why.get(index)
            said = f" <small>({escape(why)})</small>" if why else ""
            parts.append(
                f"<h4>#{index} · {escape(str(self.inputs[index].input))}{said}</h4>{comparison._repr_html_()}"
            )
        return "".join(parts)

    def items_in_order(self) -> list[tuple[int, Comparison]]:
        """The comparisons in input order."""
        return sorted(super().items())

    def __repr__(self) -> str:
        return f"<Comparisons of {self.labels[0]!r} and {self.labels[1]!r} on inputs {sorted(self)}>"


def comparisons(outcomes: Sequence[Outcome], items: Sequence[Item], a: str, b: str) -> Comparisons:
    """For each input where variants ``a`` and ``b`` differ (``differing``: scores or tool calls), or
    where only their answers' words differ (the scores tie), every ended repeat of both compared step
    by step, labelled by variant (and repeat, from 1, when there are several)."""
    known = {outcome.variant for outcome in outcomes}
    for name in (a, b):
        if name not in known:
            raise KeyError(f"no variant {name!r} (variants: {', '.join(sorted(known))})")
    runs: dict[tuple[int, str], list[Outcome]] = {}
    for outcome in sorted(outcomes, key=lambda o: o.repeat):
        if outcome.ended and outcome.variant in (a, b):
            runs.setdefault((outcome.item, outcome.variant), []).append(outcome)
    both = sorted({item for item, _ in runs if (item, a) in runs and (item, b) in runs})
    scored = set(differing(outcomes, [a, b]))
    found: dict[int, Comparison] = {}
    why: dict[int, str] = {}
    for item in both:
        texts = [{o.result.text for o in runs[item, name]} for name in (a, b)]
        if item in scored:
            why[item] = "scores or tool calls differ"
        elif texts[0] != texts[1]:
            why[item] = "the scores tie; the answers differ"
        else:
            continue
        listed = [*runs[item, a], *runs[item, b]]
        many = any(len(runs[item, name]) > 1 for name in (a, b))
        labels = [f"{o.variant} #{o.repeat + 1}" if many else o.variant for o in listed]
        found[item] = compare(*(o.result for o in listed), labels=labels)
    return Comparisons(found, items, (a, b), why)


# ---- saved ----------------------------------------------------------------------------------------


def described(value: Any) -> Any:
    """``value`` as JSON can keep it: a function or a tool by its name, anything else unknown to JSON
    by its repr (a saved experiment says what its variants were; it cannot run them again)."""
    if isinstance(value, Mapping):
        return {str(key): described(part) for key, part in value.items()}
    if isinstance(value, (list, tuple)):
        return [described(part) for part in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    name = getattr(value, "name", None) or getattr(value, "__name__", None)
    if isinstance(name, str):
        return f"<{type(value).__name__} {name}>"
    return repr(value)


@dataclass
class Saved:
    """What an experiment's folder holds: ``experiment.json`` (name, agent, inputs, variants as
    described, repeats, and per run its place, status, result and recording's file) and ``runs/``
    (each run's recording as JSONL, a valid Mastra stream)."""

    name: str | None
    agent: str | None
    items: list[Item]
    variants: dict[str, Any]
    repeats: int
    outcomes: list[Outcome]
    recordings: list[Recording]


def save(folder: str | Path, saved: Saved) -> Path:
    """Write ``saved`` into ``folder`` (made if missing): ``experiment.json`` and ``runs/NNNN.jsonl``.
    Each run's recording ends with a line of its scores (Mastra's come after the stream: no chunk
    says them), and its result is kept whole beside it."""
    folder = Path(folder)
    (folder / "runs").mkdir(parents=True, exist_ok=True)
    runs = []
    width = max(4, len(str(len(saved.outcomes))))
    for index, (outcome, recording) in enumerate(zip(saved.outcomes, saved.recordings, strict=True)):
        name = f"runs/{index:0{width}d}.jsonl"
        recording.save(folder / name, scored_lines(outcome.result))  # its scores end it
        runs.append({
            "item": outcome.item, "variant": outcome.variant, "repeat": outcome.repeat,
            "status": outcome.status, "recording": name,
            "scores": [score.model_dump(mode="json") for score in outcome.result.scores],
            "result": json.loads(outcome.result.model_dump_json()),
        })  # fmt: skip
    document = {
        "format": FORMAT,
        "name": saved.name,
        "agent": saved.agent,
        "inputs": [
            {"input": described(i.input), "expected": described(i.expected)}
            | ({"id": i.id, "version": i.version} if i.id is not None else {})
            for i in saved.items
        ],
        "variants": described(saved.variants),
        "repeats": saved.repeats,
        "runs": runs,
    }
    path = folder / "experiment.json"
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    return folder


def load(folder: str | Path) -> Saved:
    """Read an experiment saved by :func:`save`: no server needed."""
    folder = Path(folder)
    document = json.loads((folder / "experiment.json").read_text(encoding="utf-8"))
    if document.get("format") != FORMAT:
        raise ValueError(
            f"{folder} holds no experiment this version reads (format {document.get('format')!r})"
        )
    outcomes, recordings = [], []
    for run in document["runs"]:
        result = RunResult.model_validate(run["result"])
        outcomes.append(Outcome(run["item"], run["variant"], run["repeat"], run["status"], result))
        recordings.append(Recording.load(folder / run["recording"]))
    return Saved(
        name=document.get("name"),
        agent=document.get("agent"),
        items=[
            Item(i["input"], i.get("expected"), i.get("id"), i.get("version")) for i in document["inputs"]
        ],
        variants=document["variants"],
        repeats=document["repeats"],
        outcomes=outcomes,
        recordings=recordings,
    )
