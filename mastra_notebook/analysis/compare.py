"""Compare runs side by side, for prompt iteration: status, usage, timings, tool calls, text diff."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from html import escape
from typing import Any

from ..core import timeline
from ..core.cost import format_usd
from ..core.ingest import collect
from ..core.result import RunResult, view_snapshot
from ..core.static.from_result import result_ops

_CELL = (
    "border:1px solid rgba(128,128,128,0.35);padding:4px 8px;vertical-align:top;text-align:left;"
    "white-space:pre-wrap"
)
# Translucent backgrounds over the inherited text colour: readable on light and dark themes alike.
_DEL = "background:rgba(248,81,73,0.28);text-decoration:line-through;text-decoration-thickness:1px"
_INS = "background:rgba(46,160,67,0.28);text-decoration:none"
_WORDS = re.compile(r"\s+|\w+|[^\w\s]")  # words, runs of whitespace, single punctuation marks
MIN_RATE_SPAN = 0.25  # seconds of streaming below which no tokens/s is shown (footer.ts)
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
    title = getattr(item, "title", "") or getattr(item, "prompt", "")
    return str(title) if title else f"run {index + 1}"


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
            return "" if value is None else f"{value:.2f} s"

        def rate(r: RunResult) -> str:
            streamed = sum(step.streaming or 0.0 for step in r.timing.steps)
            value = r.timing.tokens_per_second
            # over a few hundred ms a rate says nothing (a recording read at once), as in the footer
            return "" if value is None or streamed < MIN_RATE_SPAN else f"{value:,.1f}"

        def cost(r: RunResult) -> str:
            return (
                format_usd(r.cost.total_usd) if r.cost.total_usd is not None else f"unknown: {r.cost.reason}"
            )

        table: list[tuple[str, list[str]]] = [
            ("status", [r.status for r in self.results]),
            ("finish reason", [r.finish_reason or "" for r in self.results]),
            (
                "tokens in / out",
                [f"{r.usage.input_tokens:,} / {r.usage.output_tokens:,}" for r in self.results],
            ),
            ("reasoning tokens", [f"{r.usage.reasoning_tokens:,}" for r in self.results]),
            ("steps", [str(len(r.steps)) for r in self.results]),
            ("duration", [seconds(r.timing.total) for r in self.results]),
            ("time to first token", [seconds(r.timing.time_to_first_token) for r in self.results]),
            ("tokens/s (streaming)", [rate(r) for r in self.results]),
            ("tool time", [seconds(r.timing.tool_time) for r in self.results]),
            ("waited for people", [seconds(r.timing.human_wait or None) for r in self.results]),
            ("cost", [cost(r) for r in self.results]),
            ("text length", [f"{len(r.text):,} characters" for r in self.results]),
            ("error", [r.error.message if r.error else "" for r in self.results]),
        ]
        most_calls = max((len(r.tool_calls) for r in self.results), default=0)
        for index in range(most_calls):
            cells = []
            for result in self.results:
                if index >= len(result.tool_calls):
                    cells.append("")
                    continue
                call = result.tool_calls[index]
                outcome = call.error.message if call.error else _short(call.result, 200)
                cells.append(f"{call.tool_name}({_short(call.args, 200)}) [{call.status}] → {outcome}")
            table.append((f"tool call {index + 1}", cells))
        return table

    def text_diff(self, other: int = 1) -> str:
        """A unified diff of the first run's text against run ``other``."""
        first, second = self.results[0].text, self.results[other].text
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
            timeline.render_html(plan, span, heading=f"{label}: timeline")
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
        lines = [" " * 20 + "  ".join(label.ljust(width) for label in self.labels)]
        lines += [
            what.ljust(20) + "  ".join(c[:width].ljust(width) for c in cells) for what, cells in self.rows()
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
