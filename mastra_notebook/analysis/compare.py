"""Compare runs side by side, for prompt iteration: status, usage, timings and scores; the runs' steps and
tool calls aligned (analysis/align.py), with their argument, request and cost deltas, the step where the
runs part marked; and the text diff."""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypedDict

from ..core.captions import rows_caption
from ..core.cost import format_usd
from ..core.ingest import collect
from ..core.numbers import format_duration
from ..core.result import RunResult, Step, ToolCall, view_snapshot
from ..core.result_nodes import result_ops
from ..core.status_words import status_word
from ..render import views
from ..render.engine import engine
from ..render.views import Inline
from .align import (
    ArgChange,
    Key,
    RequestDiff,
    Row,
    align,
    arg_diff,
    call_likeness,
    request_diff,
    step_key,
    step_likeness,
)

_WORDS = re.compile(r"\s+|\w+|[^\w\s]")  # words, runs of whitespace, single punctuation marks
NONE = "—"  # a cell with nothing to say
_KEEP = 300  # an unchanged stretch longer than twice this shows its two ends only


def as_result(item: Any) -> RunResult:
    """A RunResult from a RunResult, a view (its result so far), or a recording (path, bytes...)."""
    if isinstance(item, RunResult):
        return item
    result = getattr(item, "result", None)
    if isinstance(result, RunResult):
        return result
    return collect(item)


def _label(item: Any, index: int) -> str:
    if isinstance(item, (str, Path)):  # a recording: its file name (a str's .title is a method)
        return Path(item).name
    title = getattr(item, "title", "") or getattr(item, "prompt", "")
    return title if isinstance(title, str) and title else f"run {index + 1}"


def _lines(text: str) -> list[str]:
    """Lines that each end with a newline, so a diff never glues a last line onto the next."""
    return [line if line.endswith("\n") else line + "\n" for line in text.splitlines(keepends=True)]


def _unchanged(text: str) -> Inline:
    if len(text) <= 2 * _KEEP:
        return text
    skipped = f"… {len(text) - 2 * _KEEP:,} unchanged characters …"
    return [text[:_KEEP], views.muted(skipped), text[-_KEEP:]]


def word_diff(before: str, after: str) -> list[Inline]:
    """``after`` against ``before`` word by word: the unchanged words, removed ones as ``del`` pieces,
    added ones as ``ins`` pieces (render/views.py)."""
    old, new = _WORDS.findall(before), _WORDS.findall(after)
    out: list[Inline] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(_unchanged("".join(old[i1:i2])))
            continue
        if i2 > i1:
            out.append(views.deleted("".join(old[i1:i2])))
        if j2 > j1:
            out.append(views.inserted("".join(new[j1:j2])))
    return out


def word_diff_html(before: str, after: str) -> str:
    """``after`` against ``before`` word by word: removed words in ``<del>``, added ones in ``<ins>``,
    everything drawn as text, newlines kept (``white-space: pre-wrap``)."""
    return views.draw(word_diff(before, after), "mn-word-diff")


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)


def _short(value: Any, limit: int = 300) -> str:
    text = _as_text(value)
    return text if len(text) <= limit else text[:limit] + "…"


_CLIP = 400  # an argument or result longer than this is cut, with a note
_MAX_STEP_ROWS = 60  # the step table's rows beyond this are counted, not drawn
_MAX_LINES = 20  # a step's call rows, a call's arguments, a system prompt's changed lines: the rest counted


def _clip(value: Any, limit: int = _CLIP) -> Inline:
    """``value`` as text, cut at ``limit`` characters with a note of what was left out."""
    text = _as_text(value)
    if len(text) <= limit:
        return text
    return [text[:limit], views.muted(f"… {len(text) - limit:,} more characters")]


def _more(count: int, what: str) -> str:
    """A note of the ``count - _MAX_LINES`` items not drawn ("" when all are)."""
    hidden = count - _MAX_LINES
    return f"… {hidden:,} more {what}" if hidden > 0 else ""


def _signed(value: float, text: str) -> str:
    return f"+{text}" if value > 0 else f"\N{MINUS SIGN}{text}"


@dataclass
class StepRow:
    """One row of the aligned trajectories: the index of each run's step (``None``: that run has no step
    here), and the rows of its aligned tool calls (an index into each step's ``tool_calls``)."""

    steps: Row
    calls: list[Row] = field(default_factory=list)


@dataclass
class Parting:
    """The first aligned row where the runs do not all do the same thing."""

    row: int
    """Its index in ``Comparison.alignment``."""
    step: int
    """The step (from 1) where it happens, in the runs that reach it."""
    sentence: str
    """What each run does there: ``"runs part at step 2: A answers, B calls searchWeb"``."""


def _does(step: Step | None, result: RunResult) -> str:
    """What a run does at a step, in a few words."""
    if step is None:
        return "stops"
    if not step.tool_calls:
        ended = result.status != "finished" and step is result.steps[-1]  # an error, a stop, a guardrail...
        return ("answers" if step.text else "ends") + (f" ({status_word(result.status)})" if ended else "")
    counts = Counter(call.tool_name for call in step.tool_calls)
    named = (name if n == 1 else f"{name} \N{MULTIPLICATION SIGN}{n}" for name, n in counts.items())
    return "calls " + ", ".join(named)


def _scores(result: RunResult) -> list[Any]:
    """The run's scores, when results carry them (``RunResult.scores``)."""
    return list(getattr(result, "scores", None) or [])


def _score_text(score: Any) -> str:
    value = getattr(score, "score", None)
    if value is None:  # the scorer failed: its reason says why
        return "no score"
    text = str(value).lower() if isinstance(value, bool) else f"{value:.3g}"
    passed = getattr(score, "passed", None)
    return text if passed is None else f"{text} ({'passed' if passed else 'failed'})"


def _figure(kind: str, value: float, *, unit: bool = True) -> str:
    """A step's tokens, seconds or USD as the views write them (a difference of tokens without the word)."""
    if kind == "tokens":
        return f"{value:,.0f} tokens" if unit else f"{value:,.0f}"
    if kind == "time":
        return format_duration(value * 1000)
    return format_usd(value) or NONE


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def _arg_line(change: ArgChange, *, plain: bool = False) -> Inline:
    """One argument against the row's first call (``plain``: the first call's own, drawn as it is)."""
    key = f"{change.key}: " if change.key else ""
    kind = f"mn-arg-{change.kind}"
    if plain:
        return views.block([key, _clip(change.after)])
    if change.kind == "same":
        return views.block(views.muted([key, _clip(change.after)]), kind)
    if change.kind == "added":
        return views.block(views.inserted(["+ ", key, _clip(change.after)]), kind)
    if change.kind == "removed":
        return views.block(views.deleted([key, _clip(change.before)]), kind)
    before, after = _clip(change.before), _clip(change.after)
    return views.block([key, views.deleted(before), " → ", views.inserted(after)], kind)


class _Rich(TypedDict):
    display: Any
    result: Any


class _Call(TypedDict):
    """One run's tool call in a row of the step table (js/src/views/compare.ts ``CompareCall``)."""

    head: Inline
    args: Inline
    error: Inline | None
    result: Inline
    brief: Inline
    rich: _Rich | None


class _StepRow(TypedDict):
    """A row of the step table (``CompareStepRow``): each run's step, then its aligned calls."""

    label: str
    parts: bool
    cells: list[Inline | None]
    calls: list[list[_Call | None]]
    moreCalls: str


class _Text(TypedDict):
    """A run's text against the first run's (``CompareText``): None when they are the same."""

    summary: Inline
    diff: Inline | None


class _Steps(TypedDict):
    """The step table (``CompareSteps``)."""

    labels: list[str]
    sentence: str
    parts: bool
    rows: list[_StepRow]
    moreSteps: str


@dataclass
class Comparison:
    """Runs side by side. Shown as HTML (drawn by the one renderer: js/src/views/compare.ts): the facts
    (``rows()``), the runs step by step (``alignment``, ``parting``, ``steps_html()``), their timelines
    and text diffs; ``text_diff()`` gives a unified diff."""

    results: list[RunResult]
    labels: list[str]

    def rows(self) -> list[tuple[str, list[str]]]:
        """(what, one plain-text cell per run): the facts compared."""

        def seconds(value: float | None) -> str:
            return NONE if value is None else format_duration(value * 1000)  # as the view writes it

        shown = [r.figures for r in self.results]  # the view's own strings (core/figures.py)

        def figure(key: str) -> list[str]:
            return [figures.get(key, NONE) for figures in shown]

        def tool_time(r: RunResult) -> str:
            """By the server's spans once the run's trace is known (said so), else by arrival."""
            traced = r.timing.source == "trace" and bool(r.tool_calls)
            took = seconds(r.timing.tool_time if traced or r.timing.untimed is None else None)
            return f"{took} (by Mastra's trace)" if traced and took != NONE else took

        def cost(r: RunResult, figures: dict[str, str]) -> str:
            text = figures.get("cost", NONE)
            return f"unknown: {r.cost.reason}" if text == "unknown" else text

        table: list[tuple[str, list[str]]] = [
            ("status", [status_word(r.status) for r in self.results]),  # the word the views show
            ("finish reason", [r.finish_reason or NONE for r in self.results]),
            (
                "tokens in / out",
                [
                    f"{f['input_tokens']} / {f['output_tokens']}" if "input_tokens" in f else NONE
                    for f in shown
                ],
            ),
        ]
        if any("tokens_with_nested" in f for f in shown):
            table.append(("tokens with sub-agents", figure("tokens_with_nested")))
        table += [
            ("reasoning tokens", [f"{r.usage.reasoning_tokens:,}" for r in self.results]),
            ("steps", [str(len(r.steps)) for r in self.results]),
            ("duration", figure("duration")),
            ("time to first token", figure("first_token")),
            ("tokens/s (streaming)", figure("tokens_per_second")),
            ("tool time", [tool_time(r) for r in self.results]),
            ("waited for people", [seconds(r.timing.human_wait or None) for r in self.results]),
            ("cost", [cost(r, f) for r, f in zip(self.results, shown, strict=True)]),
            ("text length", [f"{len(r.text):,} characters" for r in self.results]),
            ("error", [r.error.message if r.error else NONE for r in self.results]),
        ]
        number = 0
        for step_row in self.alignment:
            for call_row in step_row.calls:
                number += 1
                cells = []
                for run, call_index in enumerate(call_row):
                    call = self._call(run, step_row, call_index)
                    if call is None:
                        cells.append(NONE)
                        continue
                    outcome = call.error.message if call.error else _short(call.result, 200)
                    status = status_word(call.status)
                    cells.append(f"{call.tool_name}({_short(call.args, 200)}) [{status}] → {outcome}")
                table.append((f"tool call {number}", cells))
        for scorer in dict.fromkeys(
            str(getattr(score, "scorer", "")) for r in self.results for score in _scores(r)
        ):
            table.append((f"score: {scorer}", self._score_cells(scorer)))
        return table

    @cached_property
    def _keys(self) -> list[list[tuple[Key, ...]]]:
        """Each run's steps' keys (their calls' names and canonical arguments), made once: JSON text."""
        return [[step_key(step) for step in r.steps] for r in self.results]

    @cached_property
    def alignment(self) -> list[StepRow]:
        """The runs' steps aligned (a longest common subsequence over their tool calls' names and
        canonical arguments; see analysis/align.py), and in each row the steps' tool calls aligned too."""
        keys = self._keys
        rows = []
        for steps in align(keys, step_likeness):
            present = [(run, keys[run][i]) for run, i in enumerate(steps) if i is not None]
            calls: list[Row] = []
            for call_row in align([step for _, step in present], call_likeness):
                full: Row = [None] * len(self.results)
                for (run, _), call_index in zip(present, call_row, strict=True):
                    full[run] = call_index
                calls.append(full)
            rows.append(StepRow(steps=steps, calls=calls))
        return rows

    def _step(self, run: int, index: int | None) -> Step | None:
        return None if index is None else self.results[run].steps[index]

    @cached_property
    def _displays(self) -> list[dict[str, Any]]:
        """Each run's tool calls' displays (a table, a chart: issue 21) as its view drew them, by call id."""
        return [
            {
                node["tool_call_id"]: node["display"]
                for op in view_snapshot(r) or []
                if len(op) > 2 and op[0] == "add" and isinstance(node := op[2], dict)
                if node.get("kind") == "tool" and node.get("tool_call_id") and node.get("display")
            }
            for r in self.results
        ]

    def _rich(self, run: int, call: ToolCall) -> _Rich:
        """What the transcript draws a call's result as data from (a table, an image), in a bounded box
        so the runs stay side by side; the view draws it as JSON text when it is best read so."""
        return {"display": self._displays[run].get(call.tool_call_id), "result": call.result}

    def _call(self, run: int, row: StepRow, index: int | None) -> ToolCall | None:
        step = self._step(run, row.steps[run])
        return None if step is None or index is None else step.tool_calls[index]

    @cached_property
    def parting(self) -> Parting | None:
        """The first row where the runs' steps differ (a run without a step there, other tool calls or
        other arguments), and what each run does there; ``None`` when they all take the same steps."""
        runs = range(len(self.results))
        for at, row in enumerate(self.alignment):
            keys = {None if index is None else self._keys[run][index] for run, index in enumerate(row.steps)}
            if len(keys) == 1 and None not in keys:
                continue
            later = self.alignment[at:]
            nexts = [next((r.steps[run] for r in later if r.steps[run] is not None), None) for run in runs]
            upcoming = [self._step(run, index) for run, index in enumerate(nexts)]
            does = [_does(step, result) for step, result in zip(upcoming, self.results, strict=True)]
            lead = next(run for run in runs if nexts[run] is not None)  # a row has one
            lead_key = self._keys[lead][nexts[lead] or 0]
            doing = []
            for run in runs:
                index = nexts[run]
                # the same tools as the lead run, other arguments: said, else the sentence reads alike
                other = (
                    index is not None
                    and run != lead
                    and does[run] == does[lead]
                    and self._keys[run][index] != lead_key
                )
                doing.append(f"{self.labels[run]} {does[run]}" + (" with other arguments" if other else ""))
            number = min((index + 1 for index in nexts if index is not None), default=at + 1)
            return Parting(row=at, step=number, sentence=f"runs part at step {number}: " + ", ".join(doing))
        return None

    def _score_cells(self, scorer: str) -> list[str]:
        found = [
            next((s for s in _scores(r) if str(getattr(s, "scorer", "")) == scorer), None)
            for r in self.results
        ]
        base = _number(getattr(found[0], "score", None)) if found[0] is not None else None
        cells = []
        for index, score in enumerate(found):
            if score is None:
                cells.append(NONE)
                continue
            text, value = _score_text(score), _number(getattr(score, "score", None))
            if index and base is not None and value is not None and value != base:
                text += f" ({value - base:+.3g})"
            cells.append(text)
        return cells

    def _step_figures(self, run: int, index: int) -> tuple[float | None, float | None, float | None]:
        """(tokens, seconds, USD) of one step, each ``None`` when unknown."""
        result = self.results[run]
        step = result.steps[index]
        tokens = float(step.usage.total_tokens) if step.usage else None
        seconds = None
        if step.started_at and step.finished_at:
            seconds = (step.finished_at - step.started_at).total_seconds()
        elif index < len(result.timing.steps):
            seconds = result.timing.steps[index].streaming
        usd = result.cost.steps_usd[index] if index < len(result.cost.steps_usd) else None
        return tokens, seconds, usd

    def _step_cell(
        self, run: int, row: StepRow, reference: int, shown: dict[int, tuple[int, RequestDiff]]
    ) -> Inline | None:
        """One run's step in a row: its figures and their deltas against the row's first run, what it
        answers, and how its request differs (said once per run: a later step with the same difference
        names the step that showed it; ``shown`` keeps, per run, that step and its difference)."""
        index = row.steps[run]
        if index is None:
            return None
        step = self.results[run].steps[index]
        ours = self._step_figures(run, index)
        theirs = self._step_figures(reference, row.steps[reference] or 0) if reference != run else ours
        bits: list[Inline] = [views.strong(f"step {index + 1}")]
        for kind, value, base in zip(("tokens", "time", "cost"), ours, theirs, strict=True):
            if value is None:
                continue
            text: list[Inline] = [_figure(kind, value)]
            change = None if base is None else value - base
            size = "" if change is None else _figure(kind, abs(change), unit=False)
            if change is not None and size != _figure(kind, 0.0, unit=False):  # no "+0 ms"
                text += [" ", views.span("mn-compare-delta mn-muted", f"({_signed(change, size)})")]
            bits.append(text)
        cell: list[Inline] = [views.block(views.joined(bits, " · "), "mn-compare-figures")]
        if not step.tool_calls:
            cell.append(views.block(["answers: ", _clip(step.text, 240)], "mn-compare-answer"))
        other = self._step(reference, row.steps[reference])
        if reference != run and other is not None and other.request and step.request:
            diff = request_diff(other.request, step.request)
            if run in shown and shown[run][1] == diff:
                said = f"request differs as in step {shown[run][0]}"
                cell.append(views.block(views.muted(said), "mn-compare-request"))
            elif diff:
                shown[run] = (index + 1, diff)
                cell.append(self._request(diff))
        return cell

    @staticmethod
    def _request(diff: RequestDiff) -> Inline:
        lines: list[Inline] = []
        if diff.system:
            lines.append("system prompt:")
            lines += [
                views.deleted(_clip(line[1:], 200))
                if line.startswith("-")
                else views.inserted(_clip(line[1:], 200))
                for line in diff.system[:_MAX_LINES]
            ]
            if more := _more(len(diff.system), "changed lines"):
                lines.append(views.muted(more))
        if diff.tools_added or diff.tools_removed:
            tools: list[Inline] = [views.inserted(f"+ {name}") for name in diff.tools_added]
            tools += [views.deleted(name) for name in diff.tools_removed]
            lines.append(["tools offered: ", *views.joined(tools, " ")])
        for name, before, after in diff.settings:
            lines.append(
                [f"{name}: ", views.deleted(_clip(before, 80)), " → ", views.inserted(_clip(after, 80))]
            )
        body: list[Inline] = [views.block(line) for line in lines]
        return views.details("request differs", body, open=True, cls="mn-compare-request")

    def _call_cell(self, run: int, row: StepRow, call_row: Row) -> _Call | None:
        call = self._call(run, row, call_row[run])
        if call is None:
            return None
        reference = next(r for r, index in enumerate(call_row) if index is not None)
        head: Inline = [
            views.code(views.untrusted(call.tool_name)),
            " ",
            views.muted(status_word(call.status)),
        ]
        other = self._call(reference, row, call_row[reference])
        plain = reference == run or other is None
        changes = arg_diff(call.args if plain or other is None else other.args, call.args)
        if not plain:  # what changed first, when there are more than are drawn
            changes.sort(key=lambda change: change.kind == "same")
        args: list[Inline] = [_arg_line(change, plain=plain) for change in changes[:_MAX_LINES]]
        if more := _more(len(changes), "arguments"):
            args.append(views.block(views.muted(more)))
        return {
            "head": head,
            "args": args,
            "error": _clip(call.error.message) if call.error else None,
            "result": _clip(call.result, _CLIP),
            "brief": rows_caption(call.result) or _clip(call.result, 80),
            "rich": None if call.error else self._rich(run, call),
        }

    def _steps(self) -> _Steps:
        """The aligned steps, a row per step and per tool call, a column per run; the first row where
        the runs part marked."""
        parting = self.parting
        sentence = parting.sentence if parting else f"the runs take the same steps ({len(self.alignment)})"
        runs = range(len(self.results))
        shown: dict[int, tuple[int, RequestDiff]] = {}
        rows: list[_StepRow] = []
        for at, row in enumerate(self.alignment[:_MAX_STEP_ROWS]):
            reference = next(run for run, index in enumerate(row.steps) if index is not None)
            numbers = [NONE if index is None else str(index + 1) for index in row.steps]
            rows.append(
                {
                    "label": "step "
                    + (numbers[reference] if len(set(numbers)) == 1 else " / ".join(numbers)),
                    "parts": parting is not None and parting.row == at,
                    "cells": [self._step_cell(run, row, reference, shown) for run in runs],
                    "calls": [
                        [self._call_cell(run, row, call_row) for run in runs]
                        for call_row in row.calls[:_MAX_LINES]
                    ],
                    "moreCalls": _more(len(row.calls), "tool calls in this step"),
                }
            )
        hidden = len(self.alignment) - _MAX_STEP_ROWS
        return {
            "labels": self.labels,
            "sentence": sentence,
            "parts": parting is not None,
            "rows": rows,
            "moreSteps": f"… {hidden:,} more steps not shown" if hidden > 0 else "",
        }

    def steps_html(self) -> str:
        """The aligned steps, a row per step and per tool call, a column per run; the first row where
        the runs part marked."""
        return engine().draw("compareSteps", **self._steps()) or ""

    def text_diff(self, other: int = 1) -> str:
        """A unified diff of the first run's text against run ``other`` (or that they are the same)."""
        first, second = self.results[0].text, self.results[other].text
        if first == second:
            return f"the texts are the same ({self.labels[0]}, {self.labels[other]})\n"
        return "".join(
            difflib.unified_diff(
                _lines(first),
                _lines(second),
                fromfile=self.labels[0],
                tofile=self.labels[other],
            )
        )

    def _timeline_runs(self) -> list[dict[str, Any]]:
        return [
            {"label": label, "ops": view_snapshot(r) or result_ops(r)}
            for r, label in zip(self.results, self.labels, strict=True)
        ]

    def timelines_html(self) -> str:
        """The runs' timelines on one time axis: the longer run spans it, the shorter ends early."""
        drawn = engine().draw("timelines", runs=self._timeline_runs()) or ""
        return drawn if "mn-tl-row" in drawn else ""

    def _repr_html_(self) -> str:
        first = self.results[0].text
        texts: list[_Text] = [
            {
                "summary": [
                    "text: ",
                    views.untrusted(self.labels[0]),
                    " → ",
                    views.untrusted(self.labels[i]),
                    " (",
                    views.deleted("removed"),
                    " ",
                    views.inserted("added"),
                    ")",
                ],
                "diff": word_diff(first, self.results[i].text) if first != self.results[i].text else None,
            }
            for i in range(1, len(self.results))
        ]
        facts = [
            row for row in self.rows() if not row[0].startswith("tool call ")
        ]  # the step table draws them
        drawn = engine().draw(
            "compare",
            labels=self.labels,
            facts=facts,
            steps=self._steps(),
            timelines=self._timeline_runs(),
            texts=texts,
        )
        return drawn or ""

    def __repr__(self) -> str:
        width = max(len(label) for label in self.labels)
        rows = self.rows()
        first = max(len(what) for what, _ in rows) + 2
        lines = [" " * first + "  ".join(label.ljust(width) for label in self.labels)]
        lines += [
            what.ljust(first) + "  ".join(c[:width].ljust(width) for c in cells) for what, cells in rows
        ]
        lines.append(self.parting.sentence if self.parting else "the runs take the same steps")
        return "\n".join(lines)


def compare(*runs: Any, labels: list[str] | None = None) -> Comparison:
    """Compare two or more runs (views, RunResults or recordings) side by side."""
    if len(runs) < 2:
        raise ValueError("compare needs at least two runs")
    if labels is not None and len(labels) != len(runs):
        raise ValueError(f"{len(labels)} labels for {len(runs)} runs")
    return Comparison(
        results=[as_result(run) for run in runs],
        labels=labels or [_label(run, index) for index, run in enumerate(runs)],
    )
