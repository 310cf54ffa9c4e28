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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..core.files import write_atomically
from ..core.recording import Recording
from ..core.result import TRANSPORT_ERROR, RunResult
from ..core.score import scored_lines
from .align import call_key
from .compare import Comparison, compare
from .dataframe import row

LEVEL = 0.95  # the confidence of the summary's intervals
FORMAT = "mastra-notebook experiment 2"  # experiment.json's "format": what save() writes
FORMAT_1 = "mastra-notebook experiment 1"  # the earlier one (its runs listed in experiment.json): read too
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

    @property
    def never_started(self) -> bool:
        """Stopped before its turn (a budget, ``stop()``): aborted with nothing received. Not an
        error of the agent's, nor a run the figures cover."""
        return self.status == "aborted" and self.result.timing.started_at is None and not self.result.steps

    @property
    def failure(self) -> Failure | None:
        """Why it did not finish, when it ended so (:func:`failure`)."""
        return failure(self.status, self.result)


Failure = Literal["transport", "agent", "stopped"]
RETRIED = ("transport",)  # the failures exp.retry() runs again
RERUN = ("transport", "agent", "stopped")  # and exp.resume(): every run that did not end its own way


def failure(status: str, result: RunResult) -> Failure | None:
    """Who failed a run that ended without its answer: ``transport`` (the request never reached the
    agent or its answer was cut: refused, reset, timed out, HTTP 5xx from the server, or a stream
    that stopped before its end, ``incomplete``), ``agent`` (the agent or its model said so: an
    error in the stream, or the server refused the request with a 4xx), ``stopped`` (a person
    stopped it); None for a run that ended its own way (finished, a guardrail's tripwire) or has
    not ended."""
    if status == "incomplete":
        return "transport"
    if status == "aborted":
        return "stopped"
    if status != "error":
        return None
    error = result.error
    if error is not None and error.name == TRANSPORT_ERROR:
        code = error.status_code
        return "transport" if code is None or code >= 500 else "agent"
    return "agent"


# ---- rows -----------------------------------------------------------------------------------------


def rows(outcomes: Sequence[Outcome], items: Sequence[Item]) -> list[dict[str, Any]]:
    """One row per run: the input's index, input, expected answer, variant and repeat, then
    ``to_dataframe``'s facts of the run (a ``score_<name>`` column per score)."""
    listed = []
    for outcome in outcomes:
        item = items[outcome.item]
        facts = row(outcome.result, item.input)
        facts["status"] = outcome.status
        facts["failure"] = outcome.failure
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


def unsaved(value: Any) -> list[str]:
    """What :func:`described` kept only by name in ``value`` (a function, a tool, an object): it
    cannot be run again from a folder."""
    if isinstance(value, Mapping):
        return [found for part in value.values() for found in unsaved(part)]
    if isinstance(value, (list, tuple)):
        return [found for part in value for found in unsaved(part)]
    if isinstance(value, str) and value.startswith("<") and value.endswith(">") and " " in value:
        return [value]
    return []


@dataclass
class Saved:
    """What an experiment's folder holds: ``experiment.json`` (name, agent, inputs, variants and
    scorers as described, repeats, pairwise verdicts) and ``runs/`` (per run, ``NNNN.json``: its
    place, status and result with its scores, and ``NNNN.jsonl``: its recording, a valid Mastra
    stream), NNNN its cell's number in the grid (input by input, variant by variant, repeat by
    repeat). Each run's files are written as it ends (an experiment given a folder), so
    ``outcomes`` and ``recordings`` are the runs there are, not always the whole grid."""

    name: str | None
    agent: str | None
    items: list[Item]
    variants: dict[str, Any]
    repeats: int
    outcomes: list[Outcome]
    recordings: list[Recording]
    scorers: list[Any] = field(default_factory=list)  # as described: ids, and Python scorers by name
    verdicts: list[dict[str, Any]] = field(default_factory=list)  # Pairwise.saved() of each pair


def cell_number(variants: Sequence[str], repeats: int, outcome: Outcome) -> int:
    """The place of ``outcome``'s run in its experiment's grid (its files' number)."""
    return (outcome.item * len(variants) + list(variants).index(outcome.variant)) * repeats + outcome.repeat


def save_header(folder: str | Path, saved: Saved) -> Path:
    """Write ``experiment.json`` (all but the runs) into ``folder``, atomically."""
    folder = Path(folder)
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
        "scorers": described(saved.scorers),
        "repeats": saved.repeats,
        "verdicts": saved.verdicts,
    }
    write_atomically(folder / "experiment.json", json.dumps(document, ensure_ascii=False, indent=1))
    return folder


def _run_name(number: int, cells: int) -> str:
    return f"runs/{number:0{max(4, len(str(cells)))}d}"


def save_run(
    folder: str | Path, number: int, cells: int, outcome: Outcome, recording: Recording | None
) -> None:
    """Write run ``number`` (of ``cells``) into ``folder``: its recording (ended by a line of its
    scores: Mastra's come after the stream, no chunk says them), then its row (place, status,
    result whole), each atomically, the row last (a row names a recording that is there). Without a
    ``recording``: a run that started, written ``incomplete`` until it ends."""
    folder = Path(folder)
    name = _run_name(number, cells)
    if recording is not None:
        recording.save(folder / f"{name}.jsonl", scored_lines(outcome.result))
    row = {
        "item": outcome.item, "variant": outcome.variant, "repeat": outcome.repeat,
        "status": outcome.status, "recording": f"{name}.jsonl" if recording is not None else None,
        "scores": [score.model_dump(mode="json") for score in outcome.result.scores],
        "result": json.loads(outcome.result.model_dump_json()),
    }  # fmt: skip
    write_atomically(folder / f"{name}.json", json.dumps(row, ensure_ascii=False, indent=1))


def save(folder: str | Path, saved: Saved) -> Path:
    """Write ``saved`` into ``folder`` (made if missing): ``experiment.json`` and each run's files
    (:func:`save_run`)."""
    folder = Path(folder)
    cells = len(saved.items) * len(saved.variants) * saved.repeats
    for outcome, recording in zip(saved.outcomes, saved.recordings, strict=True):
        number = cell_number(list(saved.variants), saved.repeats, outcome)
        save_run(folder, number, cells, outcome, recording)
    return save_header(folder, saved)


def load(folder: str | Path) -> Saved:
    """Read an experiment saved by :func:`save` (or written run by run as it ran): no server needed.
    A run that started and never ended (a kernel killed mid-stream) reads as ``incomplete``; a run
    with no files is not among ``outcomes``. Reads the earlier format (its runs listed in
    ``experiment.json``) too."""
    folder = Path(folder)
    document = json.loads((folder / "experiment.json").read_text(encoding="utf-8"))
    if document.get("format") not in (FORMAT, FORMAT_1):
        raise ValueError(
            f"{folder} holds no experiment this version reads (format {document.get('format')!r})"
        )
    listed = document["runs"] if document.get("format") == FORMAT_1 else [
        json.loads(path.read_text(encoding="utf-8")) for path in sorted((folder / "runs").glob("*.json"))
    ]  # fmt: skip
    outcomes, recordings = [], []
    for run in listed:
        result = RunResult.model_validate(run["result"])
        status = run["status"]
        if status in ("queued", "running") or run["recording"] is None:  # it never ended here
            status = "incomplete"
            result = result.model_copy(update={"status": "incomplete"})
        outcomes.append(Outcome(run["item"], run["variant"], run["repeat"], status, result))
        recordings.append(Recording.load(folder / run["recording"]) if run["recording"] else Recording())
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
        scorers=list(document.get("scorers") or []),
        verdicts=list(document.get("verdicts") or []),
    )
