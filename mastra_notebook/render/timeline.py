"""The run as a timeline (a waterfall) in static, script-free HTML: for the transcript (saved notebooks,
``RunResult._repr_html_``) and ``mn.compare`` (runs on one time axis).

The layout follows the rules of js/src/render/timeline.ts (its vitest tests are the reference): one
bar for the run, each step, text and reasoning span, tool call (arguments streaming, executing and
waiting for a person drawn apart), sub-agent and workflow step, nested as the node tree is and
placed by the chunks' arrival times; under it, once ``view.trace()`` fetched it, Mastra's trace as a
lane of spans (or the sentence that says why there is none). Inline styles only, translucent colours
for light and dark.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Protocol

NodeFields = Mapping[str, Any]
ROOT_ID = "root"
MAX_BARS = 400
OPEN_UP_TO = 40  # bars: a transcript's timeline with more starts folded
MOST_TICKS = 6

PHASE_LABELS = {
    "run": "run",
    "step": "step",
    "text": "text",
    "reasoning": "reasoning",
    "args": "arguments streaming",
    "exec": "executing",
    "wait": "waiting for a person",
    "workflow-step": "workflow step",
    "model": "model",
    "memory": "memory",
    "processor": "processor",
    "tool": "tool call",
}
SPAN_PHASES = {  # a trace span's type, as the lane colours it (timeline.ts SPAN_PHASES)
    "agent_run": "run",
    "workflow_run": "run",
    "model_generation": "model",
    "model_step": "model",
    "model_inference": "model",
    "memory_operation": "memory",
    "processor_run": "processor",
    "tool_call": "tool",
    "mcp_tool_call": "tool",
}
SKEW_MS = 5000  # further apart, the server's clock is not the notebook's: the trace starts with the run
# The widget's colours (widget.css, timeline section), fixed for pages without its stylesheet.
_COLORS = {
    "run": "rgba(128,128,128,0.28)",
    "step": "rgba(128,128,128,0.45)",
    "text": "rgba(31,111,191,0.8)",
    "reasoning": "rgba(163,113,247,0.8)",
    "args": "rgba(46,160,67,0.45)",
    "exec": "rgba(46,160,67,0.9)",
    "workflow-step": "rgba(46,160,67,0.9)",
    "wait": "repeating-linear-gradient(135deg,rgba(212,150,30,0.9) 0 4px,rgba(212,150,30,0.35) 4px 8px)",
    "model": "rgba(31,111,191,0.7)",
    "memory": "rgba(0,150,160,0.8)",
    "processor": "rgba(128,128,128,0.6)",
    "tool": "rgba(46,160,67,0.9)",
}


@dataclass(slots=True)
class Segment:
    phase: str
    start: float  # ms from the run's start
    end: float


@dataclass(slots=True)
class Bar:
    id: str  # the node it stands for
    kind: str
    label: str
    depth: int
    start: float
    end: float
    open: bool  # still under way: it ends at "now"
    segments: list[Segment] = field(default_factory=list)
    covers: list[str] = field(default_factory=list)  # node ids it highlights (a step: its parts too)


@dataclass(slots=True)
class Lane:
    """Mastra's trace under the run: its spans are the layout's bars of kind "span"."""

    message: str | None  # why it is incomplete or empty, and what to turn on
    hidden: int  # spans not drawn (chunk and event spans, past the limit)


@dataclass(slots=True)
class Layout:
    bars: list[Bar]
    total: float  # ms from the run's start to its end
    more: int = 0  # bars left out past MAX_BARS
    trace: Lane | None = None


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _run_label(run: NodeFields) -> str:
    agent = _str(run.get("agent_id"))
    workflow = _str(_obj(run.get("workflow")).get("workflow_id"))
    name = agent or workflow or "run"
    if run.get("id") == ROOT_ID:
        return name
    return f"workflow {name}" if workflow and not agent else f"sub-agent {name}"


class _Placer:
    """Times relative to the run's start; what is still open ends at ``now``."""

    def __init__(self, t0: float, now: float) -> None:
        self.t0 = t0
        self.now = max(now - t0, 0.0)

    def at(self, value: Any) -> float | None:
        ms = _num(value)
        return None if ms is None else ms - self.t0

    def bar(self, node: NodeFields, kind: str, label: str, depth: int, span: tuple[Any, Any]) -> Bar:
        """A bar from ``span`` (its start and end fields); an unknown end is now."""
        begin, end = self.at(span[0]), self.at(span[1])
        begin = self.now if begin is None else begin
        stop = max(self.now if end is None else end, begin)
        return Bar(str(node["id"]), kind, label, depth, begin, stop, end is None, [], [str(node["id"])])

    def tool_segments(
        self, node: NodeFields, start: float, end: float, run_phase: str = "exec"
    ) -> list[Segment]:
        """Arguments until the call, then executing, apart from the time a person took to decide."""
        called = self.at(node.get("called_at"))
        exec_from = (
            called if called is not None else (end if node.get("status") == "streaming-args" else start)
        )
        segments = []
        if exec_from > start:
            segments.append(Segment("args", start, min(exec_from, end)))
        since = self.at(node.get("waiting_since"))
        decided = self.at(_obj(node.get("decision")).get("at"))
        if since is not None and since >= exec_from:
            wait_end = end if decided is None else decided
            if since > exec_from:
                segments.append(Segment(run_phase, exec_from, since))
            segments.append(Segment("wait", since, max(since, min(wait_end, end))))
            if wait_end < end:
                segments.append(Segment(run_phase, wait_end, end))
        elif end > exec_from or not segments:
            segments.append(Segment(run_phase, exec_from, end))
        return segments


def layout(
    nodes: Mapping[str, NodeFields], children: Mapping[str, Sequence[str]], now: float | None = None
) -> Layout:
    """The bars of the run at the root of a node tree (``nodes`` by id, ``children`` ids in order),
    in the tree's order (an explicit stack, no recursion). ``now``: where open bars end (default: the
    latest time in the tree)."""
    root = nodes.get(ROOT_ID)
    t0 = _num(root.get("started_at")) if root else None
    if root is None or t0 is None:
        return Layout([], 0.0)
    place = _Placer(t0, latest_time(nodes) if now is None else now)
    bars: list[Bar] = []
    more = 0

    def push(bar: Bar) -> Bar | None:
        nonlocal more
        if len(bars) >= MAX_BARS:
            more += 1
            return None
        bars.append(bar)
        return bar

    def run_bar(run: NodeFields, depth: int) -> Bar:
        bar = place.bar(run, "run", _run_label(run), depth, (run.get("started_at"), run.get("finished_at")))
        bar.segments = [Segment("run", bar.start, bar.end)]
        return bar

    # a frame: the run, its depth, its children, the next child, the step its parts belong to, drawn
    stack: list[list[Any]] = [[root, 0, list(children.get(ROOT_ID, ())), 0, None, False]]
    while stack:
        frame = stack[-1]
        run, depth, kids, index, step, drawn = frame
        if not drawn:
            frame[5] = True
            push(run_bar(run, depth))
        if index >= len(kids):
            stack.pop()
            continue
        frame[3] = index + 1
        node = nodes.get(kids[index])
        if node is None:
            continue
        kind = node.get("kind")
        inner = depth + (2 if step is not None else 1)
        if kind == "step":
            number = _num(node.get("index"))
            label = "step" if number is None else f"step {number:g}"
            bar = place.bar(node, "step", label, depth + 1, (node.get("started_at"), node.get("ended_at")))
            bar.segments = [Segment("step", bar.start, bar.end)]
            frame[4] = push(bar)
        elif kind in ("text", "reasoning"):
            bar = place.bar(node, kind, kind, inner, (node.get("started_at"), node.get("ended_at")))
            bar.segments = [Segment(kind, bar.start, bar.end)]
            if push(bar) is not None and step is not None:
                step.covers.append(bar.id)
        elif kind in ("tool", "workflow-step"):
            name = _str(node.get("tool_name" if kind == "tool" else "step_name")) or kind
            bar = place.bar(node, kind, name, inner, (node.get("started_at"), node.get("ended_at")))
            if kind == "tool":
                bar.segments = place.tool_segments(node, bar.start, bar.end)
            else:
                as_called = {**node, "called_at": node.get("started_at")}
                bar.segments = place.tool_segments(as_called, bar.start, bar.end, "workflow-step")
            if push(bar) is not None and step is not None:
                step.covers.append(bar.id)
            nested = [
                kid for kid in children.get(str(node["id"]), ()) if _obj(nodes.get(kid)).get("kind") == "run"
            ]
            for kid in reversed(nested):
                stack.append([nodes[kid], inner + 1, list(children.get(kid, ())), 0, None, False])
    trace = _lane(root.get("trace"), t0, place.now, push)
    end = place.at(root.get("finished_at"))
    total = max([place.now if end is None else end, *(bar.end for bar in bars), 0.0])
    return Layout(bars, total, more, trace)


def _lane(value: Any, t0: float, now: float, push: Any) -> Lane | None:
    """The trace's spans as bars of kind "span" on the run's axis (an unended one ends at ``now``)."""
    if not isinstance(value, Mapping):
        return None
    spans = [span for span in value.get("spans") or () if isinstance(span, Mapping)]
    first = next((ms for span in spans if (ms := _num(span.get("start"))) is not None), None)
    shift = first - t0 if first is not None and abs(first - t0) > SKEW_MS else 0.0
    for span in spans:
        begin = _num(span.get("start"))
        if not isinstance(span.get("id"), str) or begin is None:
            continue
        start = begin - t0 - shift
        stop = _num(span.get("end"))
        end = max(now if stop is None else stop - t0 - shift, start)
        phase = SPAN_PHASES.get(str(span.get("type")), "step")
        label = _str(span.get("name")) or _str(span.get("type")) or "span"
        depth = int(_num(span.get("depth")) or 0)
        segments = [Segment(phase, start, end)]
        push(Bar(span["id"], "span", label, depth, start, end, stop is None, segments, []))
    hidden = _num(value.get("hidden"))
    return Lane(_str(value.get("message")), int(hidden or 0))


def latest_time(nodes: Mapping[str, NodeFields]) -> float:
    """The latest time the tree knows: what is still open in a run no longer fed ends there."""
    keys = ("started_at", "ended_at", "finished_at", "called_at", "waiting_since", "first_token_at")
    times = [ms for node in nodes.values() for key in keys if (ms := _num(node.get(key))) is not None]
    return max(times, default=0.0)


def index(ops: Iterable[Any]) -> tuple[dict[str, NodeFields], dict[str, list[str]]]:
    """Nodes by id and children in order, from a view's snapshot ops (``add`` ops; others skipped)."""
    nodes: dict[str, NodeFields] = {}
    children: dict[str, list[str]] = {}
    for op in ops:
        if not isinstance(op, (list, tuple)) or len(op) < 3 or op[0] != "add" or not isinstance(op[2], dict):
            continue
        parent, node = op[1], op[2]
        if not isinstance(node.get("id"), str):
            continue
        if node["id"] not in nodes:
            children[node["id"]] = []
            if parent in children:
                children[parent].append(node["id"])
        nodes[node["id"]] = node
    return nodes, children


# ---- drawing --------------------------------------------------------------------------------


def format_ms(ms: float) -> str:
    """A duration as the widget writes it (format.ts): ``340 ms``, ``3.2 s``, ``2 m 5 s``."""
    from ..core.numbers import format_duration

    return format_duration(ms)


def ticks_for(span: float) -> list[float]:
    """Tick times at a round step (1, 2 or 5 times a power of ten, in ms), from 0 up to ``span``."""
    if not span > 0:
        return [0.0]
    raw = span / (MOST_TICKS - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next((f * power for f in (1, 2, 5, 10) if f * power >= raw), 10 * power)
    step = max(step, 1)  # at least a millisecond: durations are written in whole ms below a second
    count = int(span * (1 + 1e-9) // step)
    return [i * step for i in range(count + 1)]


def _pct(ms: float, span: float) -> str:
    return f"{min(max(ms / span * 100, 0.0), 100.0) if span > 0 else 0.0:.3f}%"


def describe(bar: Bar) -> str:
    lines = [f"{bar.label} · {format_ms(bar.end - bar.start)}{' so far' if bar.open else ''}"]
    lines.append(f"from {format_ms(bar.start)} to {format_ms(bar.end)}")
    if len(bar.segments) > 1:
        lines += [f"{PHASE_LABELS[s.phase]} {format_ms(s.end - s.start)}" for s in bar.segments]
    return "\n".join(lines)


_ROW = "display:flex;align-items:center;gap:8px;min-height:18px;font-size:12px;line-height:16px"
_LABEL = "flex:0 0 13em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;unicode-bidi:isolate"
_TRACK = "position:relative;flex:1 1 auto;height:12px;min-width:120px"
_TIME = "flex:0 0 4.5em;text-align:right;opacity:0.75;font-variant-numeric:tabular-nums"


def _row(label: str, track: str, time: str, depth: int = 0, attrs: str = "") -> str:
    pad = f";padding-left:{depth * 12}px" if depth else ""
    return (
        f'<div style="{_ROW}"{attrs}><span style="{_LABEL}{pad}">{label}</span>'
        f'<span style="{_TRACK}">{track}</span><span style="{_TIME}">{time}</span></div>'
    )


def _bar(bar: Bar, span: float) -> str:
    width = bar.end - bar.start
    segments = "".join(
        f'<span data-phase="{s.phase}" style="position:absolute;top:0;bottom:0;'
        f"left:{_pct(s.start - bar.start, width)};width:{_pct(s.end - s.start, width)};"
        f'min-width:1px;background:{_COLORS[s.phase]}"></span>'
        for s in bar.segments
    )
    return (
        f'<span style="position:absolute;top:1px;bottom:1px;left:{_pct(bar.start, span)};'
        f'width:{_pct(width, span)};min-width:2px;border-radius:2px;overflow:hidden">{segments}</span>'
    )


def _legend(phases: Iterable[str]) -> str:
    return " ".join(
        f'<span style="white-space:nowrap"><span style="display:inline-block;width:12px;height:8px;'
        f'border-radius:2px;background:{_COLORS[phase]}"></span> {PHASE_LABELS[phase]}</span>'
        for phase in phases
    )


def _bar_row(bar: Bar, span: float) -> str:
    ref = "data-span-ref" if bar.kind == "span" else "data-node-ref"
    attrs = f' data-bar="{bar.kind}" {ref}="{escape(bar.id)}" title="{escape(describe(bar))}"'
    return _row(escape(bar.label), _bar(bar, span), format_ms(bar.end - bar.start), bar.depth, attrs)


def _lane_rows(plan: Layout, span: float) -> list[str]:
    """The trace's lane: a heading, what it says when incomplete or empty, then its spans."""
    if plan.trace is None:
        return []
    spans = [bar for bar in plan.bars if bar.kind == "span"]
    count = "1 span" if len(spans) == 1 else f"{len(spans)} spans"
    hidden = f" ({plan.trace.hidden} chunk and event spans not drawn)" if plan.trace.hidden else ""
    legend = _legend(("run", "model", "memory", "processor", "tool")) if spans else ""
    rows = [
        '<div data-trace-lane="" style="margin-top:6px;padding-top:4px;border-top:1px solid '
        f"rgba(128,128,128,0.35);font-size:12px\"><b>Mastra's trace</b> "
        f'<span style="opacity:0.75">{count if spans else ""}{hidden if spans else ""}</span> {legend}</div>'
    ]
    if plan.trace.message:
        rows.append(
            f'<div data-trace-note="" style="font-size:12px;color:#b26a00;white-space:pre-wrap">'
            f"{escape(plan.trace.message)}</div>"
        )
    return rows + [_bar_row(bar, span) for bar in spans]


def layout_html(plan: Layout, span: float | None = None, heading: str = "Timeline") -> str:
    """A layout as script-free HTML on an axis of ``span`` ms (default its own total)."""
    if not plan.bars:
        return ""  # a lane alone (no timed chunk) has no axis to stand on
    span = plan.total if span is None else span
    ticks = "".join(
        f'<span style="position:absolute;top:0;left:{_pct(ms, span)};white-space:nowrap;'
        f'transform:translateX({"0" if ms == 0 else "-100%" if ms > span * 0.92 else "-50%"})">'
        f"{format_ms(ms)}</span>"
        for ms in ticks_for(span)
    )
    legend = _legend(("text", "reasoning", "args", "exec", "wait"))
    rows = [_row("", ticks, "", attrs=' data-axis=""')]
    rows += [_bar_row(bar, span) for bar in plan.bars if bar.kind != "span"]
    rows += _lane_rows(plan, span)
    if plan.more:
        rows.append(f'<div style="opacity:0.75">… {plan.more} more bars not drawn</div>')
    opened = " open" if len(plan.bars) <= OPEN_UP_TO else ""  # a long one folds: the transcript stays short
    return (
        f'<details{opened} class="mn-static-timeline" style="margin:6px 0">'
        f'<summary style="cursor:pointer">{escape(heading)} · {format_ms(plan.total)}</summary>'
        f'<div style="opacity:0.8;font-size:12px;margin:2px 0 4px">{legend}</div>{"".join(rows)}</details>'
    )


def timeline_html(nodes: Mapping[str, NodeFields], children: Mapping[str, Sequence[str]]) -> str:
    """The timeline section of a transcript: the run at the tree's root, drawn on its own axis."""
    return layout_html(layout(nodes, children))


class _Tree(Protocol):  # render/static's SnapshotTree
    @property
    def nodes(self) -> Mapping[str, NodeFields]: ...

    @property
    def children(self) -> Mapping[str, Sequence[str]]: ...


def run_section(tree: _Tree, run: NodeFields) -> str:
    """The transcript's timeline section (render/static RUN_SECTIONS): below the root run only, whose
    timeline holds the nested runs' bars too."""
    return timeline_html(tree.nodes, tree.children) if run.get("id") == ROOT_ID else ""
