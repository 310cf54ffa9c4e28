"""Compare runs side by side, for prompt iteration: status, usage, timings, tool calls, text diff."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from ..core.ingest import collect
from ..core.numbers import format_duration
from ..core.result import RunResult, view_snapshot
from ..core.result_nodes import result_ops
from ..core.status_words import status_word
from ..render import timeline

_CELL = (
    "border:1px solid rgba(128,128,128,0.35);padding:4px 8px;vertical-align:top;text-align:left;"
    "white-space:pre-wrap"
)
# Translucent backgrounds over the inherited text colour: readable on light and dark themes alike.
_DEL = "background:rgba(248,81,73,0.28);text-decoration:line-through;text-decoration-thickness:1px"
_INS = "background:rgba(46,160,67,0.28);text-decoration:none"
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


def _unchanged(text: str) -> str:
    if len(text) <= 2 * _KEEP:
        return escape(text)
    skipped = f"… {len(text) - 2 * _KEEP:,} unchanged characters …"
    return f'{escape(text[:_KEEP])}<span style="opacity:0.6">{skipped}</span>{escape(text[-_KEEP:])}'


def word_diff_html(before: str, after: str) -> str:
    """``after`` against ``before`` word by word: removed words in ``<del>``, added ones in ``<ins>``,
    everything escaped, newlines kept (``white-space: pre-wrap``)."""
    old, new = _WORDS.findall(before), _WORDS.findall(after)
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(_unchanged("".join(old[i1:i2])))
            continue
        if i2 > i1:
            out.append(f'<del style="{_DEL}">{escape("".join(old[i1:i2]))}</del>')
        if j2 > j1:
            out.append(f'<ins style="{_INS}">{escape("".join(new[j1:j2]))}</ins>')
    return f'<div class="mn-word-diff" style="white-space:pre-wrap;text-align:left">{"".join(out)}</div>'


def _short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass
class Comparison:
    """Runs side by side. Shown as an HTML table; ``text_diff()`` gives a unified diff to print."""

    results: list[RunResult]
    labels: list[str]

    def rows(self) -> list[tuple[str, list[str]]]:
        """(what, one plain-text cell per run): the facts compared."""

        def seconds(value: float | None) -> str:
            return NONE if value is None else format_duration(value * 1000)  # as the view writes it

        shown = [r.figures for r in self.results]  # the view's own strings (core/figures.py)

        def figure(key: str) -> list[str]:
            return [figures.get(key, NONE) for figures in shown]

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
            (
                "tool time",
                [seconds(r.timing.tool_time if r.timing.untimed is None else None) for r in self.results],
            ),
            ("waited for people", [seconds(r.timing.human_wait or None) for r in self.results]),
            ("cost", [cost(r, f) for r, f in zip(self.results, shown, strict=True)]),
            ("text length", [f"{len(r.text):,} characters" for r in self.results]),
            ("error", [r.error.message if r.error else NONE for r in self.results]),
        ]
        most_calls = max((len(r.tool_calls) for r in self.results), default=0)
        for index in range(most_calls):
            cells = []
            for result in self.results:
                if index >= len(result.tool_calls):
                    cells.append(NONE)
                    continue
                call = result.tool_calls[index]
                outcome = call.error.message if call.error else _short(call.result, 200)
                status = status_word(call.status)
                cells.append(f"{call.tool_name}({_short(call.args, 200)}) [{status}] → {outcome}")
            table.append((f"tool call {index + 1}", cells))
        return table

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

    def timelines(self) -> list[timeline.Layout]:
        """Each run's timeline (its bars, in ms from its own start)."""
        return [timeline.layout(*timeline.index(view_snapshot(r) or result_ops(r))) for r in self.results]

    def timelines_html(self) -> str:
        """The runs' timelines on one time axis: the longer run spans it, the shorter ends early."""
        plans = self.timelines()
        span = max((plan.total for plan in plans), default=0.0)
        drawn = [
            timeline.layout_html(plan, span, heading=f"{label}: timeline")
            for plan, label in zip(plans, self.labels, strict=True)
        ]
        return f'<div class="mn-compare-timelines">{"".join(drawn)}</div>' if any(drawn) else ""

    def _repr_html_(self) -> str:
        head = "".join(f'<th style="{_CELL}">{escape(label)}</th>' for label in self.labels)
        body = "".join(
            f'<tr><th style="{_CELL};white-space:nowrap">{escape(what)}</th>'
            + "".join(f'<td style="{_CELL}">{escape(cell)}</td>' for cell in cells)
            + "</tr>"
            for what, cells in self.rows()
        )
        first = self.results[0].text
        diffs = "".join(
            f"<details open><summary>text: {escape(self.labels[0])} → {escape(self.labels[i])} "
            f'(<del style="{_DEL}">removed</del> <ins style="{_INS}">added</ins>)</summary>'
            + (
                word_diff_html(first, self.results[i].text)
                if first != self.results[i].text
                else "<div>the same text</div>"
            )
            + "</details>"
            for i in range(1, len(self.results))
        )
        table = (
            f'<table style="border-collapse:collapse"><tr><th style="{_CELL}"></th>{head}</tr>{body}</table>'
        )
        return f'<div class="mastra-notebook-compare">{table}{self.timelines_html()}{diffs}</div>'

    def __repr__(self) -> str:
        width = max(len(label) for label in self.labels)
        rows = self.rows()
        first = max(len(what) for what, _ in rows) + 2
        lines = [" " * first + "  ".join(label.ljust(width) for label in self.labels)]
        lines += [
            what.ljust(first) + "  ".join(c[:width].ljust(width) for c in cells) for what, cells in rows
        ]
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
