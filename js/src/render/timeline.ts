/**
 * The run as a timeline (a waterfall): one bar for the run, each step, text and reasoning span, tool
 * call (its phases drawn apart: arguments streaming, executing, waiting for a person), sub-agent and
 * workflow step, nested as the tree is and placed by the chunks' arrival times (a replay's are the
 * recorded ones). Behind the header's "Timeline" toggle, drawn live while the run streams; hovering
 * a bar outlines the part it covers, a click scrolls the run to it under the panel, which stays in
 * view (it sticks with the header).
 *
 * Once `view.trace()` fetched Mastra's trace (the root's `trace` field, core/trace.py `lane`), a lane
 * under the run draws its spans on the same axis: agent runs, model generations and steps, memory
 * recall and save, processors, tool calls. A click on a span shows its input, output and attributes
 * (inert text, JSON folded); a trace the server could not give says why, and what to turn on.
 *
 * `layoutTimeline` is the layout, shared in its rules with render/timeline.py (the static transcript).
 */
import { controls, h } from "../dom";
import { formatDuration, list, num, obj, str } from "../format";
import { scrollTopFor } from "../inspector";
import { type Change, ROOT_ID, type Store } from "../store";
import { nodeOf, type NodeData, type RunNode, type ToolNode } from "../types";
import { badge, errorBox } from "./common";
import { jsonTree } from "./json";

export type Phase =
  | "run"
  | "step"
  | "text"
  | "reasoning"
  | "args"
  | "exec"
  | "wait"
  | "workflow-step"
  | "model"
  | "memory"
  | "processor"
  | "tool";

export interface Segment {
  phase: Phase;
  start: number; // ms from the run's start
  end: number;
}

export interface Bar {
  id: string; // the node it stands for
  kind: string;
  label: string;
  depth: number;
  start: number;
  end: number;
  open: boolean; // still under way: it ends at "now"
  segments: Segment[];
  covers: string[]; // the node ids it highlights (a step: its parts too)
  title?: string; // what measured it (a node's `duration_title`): Mastra's trace, or the chunks' arrival
}

export interface TimelineLayout {
  bars: Bar[];
  total: number; // ms from the run's start to its end (or now)
  more: number; // bars left out past MAX_BARS
  trace: TraceLane | null; // Mastra's trace, once fetched: its spans are the bars of kind "span"
}

/** Mastra's trace as the kernel sends it (the root's `trace` field): what the lane draws. */
export interface TraceLane {
  message: string | null; // why it is incomplete or empty, and what to turn on
  complete: boolean;
  hidden: number; // spans not drawn (chunk and event spans, past the limit)
  spans: Map<string, Record<string, unknown>>; // by id: a click shows one's input, output, attributes
}

/** The nodes a layout reads: the store, or a plain map in tests. */
export interface TreeSource {
  get(id: string): NodeData | undefined;
  childrenOf(id: string): readonly string[];
}

export const MAX_BARS = 400;
const PHASE_LABELS: Record<Phase, string> = {
  run: "run",
  step: "step",
  text: "text",
  reasoning: "reasoning",
  args: "arguments streaming",
  exec: "executing",
  wait: "waiting for a person",
  "workflow-step": "workflow step",
  model: "model",
  memory: "memory",
  processor: "processor",
  tool: "tool call",
};
/** A span's type, as the lane colours it. */
const SPAN_PHASES: Record<string, Phase> = {
  agent_run: "run",
  workflow_run: "run",
  model_generation: "model",
  model_step: "model",
  model_inference: "model",
  memory_operation: "memory",
  processor_run: "processor",
  tool_call: "tool",
  mcp_tool_call: "tool",
};
/** Further apart than this, the server's clock is not the notebook's: the trace's first span is set at the run's start. */
const SKEW_MS = 5000;

function runLabel(run: RunNode): string {
  const agent = str(run.agent_id);
  const workflow = str(obj(run.workflow)?.workflow_id);
  const name = agent ?? workflow ?? "run";
  if (run.id === ROOT_ID) return name;
  return workflow && !agent ? `workflow ${name}` : `sub-agent ${name}`;
}

/** A tool call's phases: arguments until the call, then executing, apart from the person's wait. */
function toolSegments(
  node: Pick<ToolNode, "called_at" | "status" | "waiting_since" | "decision">,
  start: number,
  end: number,
  at: (v: unknown) => number | null,
): Segment[] {
  const called = at(node.called_at);
  const segments: Segment[] = [];
  const execFrom = called ?? (node.status === "streaming-args" ? end : start);
  if (execFrom > start) segments.push({ phase: "args", start, end: Math.min(execFrom, end) });
  const since = at(node.waiting_since);
  const decided = at(obj(node.decision)?.at);
  if (since !== null && since >= execFrom) {
    const waitEnd = decided ?? end;
    if (since > execFrom) segments.push({ phase: "exec", start: execFrom, end: since });
    segments.push({ phase: "wait", start: since, end: Math.max(since, Math.min(waitEnd, end)) });
    if (waitEnd < end) segments.push({ phase: "exec", start: waitEnd, end });
  } else if (end > execFrom || segments.length === 0) {
    segments.push({ phase: "exec", start: execFrom, end });
  }
  return segments;
}

interface Frame {
  run: RunNode;
  depth: number;
  children: readonly string[];
  next: number;
  step: Bar | null; // the step the parts now arriving belong to
  drawn: boolean; // its own bar is placed
}

/**
 * The bars of the run at `rootId`, in the tree's order (an explicit stack, no recursion). `now` (epoch
 * ms) ends what is still open; times are made relative to the run's start.
 */
export function layoutTimeline(tree: TreeSource, rootId: string, now: number): TimelineLayout {
  const root = nodeOf(tree.get(rootId), "run");
  const t0 = num(root?.started_at);
  if (!root || t0 === null) return { bars: [], total: 0, more: 0, trace: null };
  const at = (value: unknown): number | null => {
    const ms = num(value);
    return ms === null ? null : ms - t0;
  };
  const nowRel = Math.max(now - t0, 0);
  const bars: Bar[] = [];
  let more = 0;
  const push = (bar: Bar): Bar | null => {
    if (bars.length >= MAX_BARS) {
      more++;
      return null;
    }
    bars.push(bar);
    return bar;
  };
  // Mastra's trace, once known, on the run's axis: its first request at the run's start when the
  // server's clock is not the notebook's (a replay of another day's run, a server far away)
  const shift = traceShift(root, t0);
  type Spanned = { id: string; trace_start?: number | null; trace_end?: number | null; duration_title?: string | null };
  const traced = (node: Spanned): [number, number] | null => {
    const from = num(node.trace_start);
    const to = num(node.trace_end);
    return from === null || to === null ? null : [from - t0 - shift, Math.max(to, from) - t0 - shift];
  };
  const bar = (node: Spanned, kind: string, label: string, depth: number, from: unknown, to: unknown): Bar => {
    const title = str(node.duration_title) ?? undefined;
    // a step's, a tool call's, a sub-agent's: the server's span (the run's own: as the kernel saw it)
    const span = node.id === rootId ? null : traced(node);
    if (span) return { id: node.id, kind, label, depth, start: span[0], end: span[1], open: false, segments: [], covers: [node.id], title };
    const start = at(from) ?? nowRel;
    const stop = at(to);
    const end = Math.max(stop ?? nowRel, start);
    return { id: node.id, kind, label, depth, start, end, open: stop === null, segments: [], covers: [node.id], title };
  };
  const runBar = (run: RunNode, depth: number): Bar => {
    const b = bar(run, "run", runLabel(run), depth, run.started_at, run.finished_at);
    b.segments = [{ phase: "run", start: b.start, end: b.end }];
    return b;
  };

  const stack: Frame[] = [{ run: root, depth: 0, children: tree.childrenOf(rootId), next: 0, step: null, drawn: false }];
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    if (!frame.drawn) {
      frame.drawn = true;
      push(runBar(frame.run, frame.depth));
    }
    if (frame.next >= frame.children.length) {
      stack.pop();
      continue;
    }
    const stored = tree.get(frame.children[frame.next++] ?? "");
    const depth = frame.depth + (frame.step ? 2 : 1);
    const stepNode = nodeOf(stored, "step");
    const part = nodeOf(stored, "text") ?? nodeOf(stored, "reasoning");
    const call = nodeOf(stored, "tool") ?? nodeOf(stored, "workflow-step");
    if (stepNode) {
      const index = num(stepNode.index);
      const step = bar(stepNode, "step", index === null ? "step" : `step ${index}`, frame.depth + 1, stepNode.started_at, stepNode.ended_at);
      step.segments = [{ phase: "step", start: step.start, end: step.end }];
      frame.step = push(step);
    } else if (part) {
      const partBar = bar(part, part.kind, part.kind, depth, part.started_at, part.ended_at);
      partBar.segments = [{ phase: part.kind, start: partBar.start, end: partBar.end }];
      if (push(partBar)) frame.step?.covers.push(part.id);
    } else if (call) {
      const name = call.kind === "tool" ? str(call.tool_name) : str(call.step_name);
      const item = bar(call, call.kind, name || call.kind, depth, call.started_at, call.ended_at);
      item.segments =
        call.kind === "tool" && traced(call)
          ? [{ phase: "exec", start: item.start, end: item.end }] // the server's span: it ran
          : call.kind === "tool"
          ? toolSegments(call, item.start, item.end, at)
          : toolSegments({ ...call, called_at: call.started_at }, item.start, item.end, at).map((s) =>
              s.phase === "exec" ? { ...s, phase: "workflow-step" } : s,
            );
      if (push(item)) frame.step?.covers.push(call.id);
      const nested = tree.childrenOf(call.id).filter((id) => tree.get(id)?.kind === "run");
      for (const id of [...nested].reverse()) {
        const run = nodeOf(tree.get(id), "run");
        if (run) stack.push({ run, depth: depth + 1, children: tree.childrenOf(id), next: 0, step: null, drawn: false });
      }
    }
  }
  const trace = traceLane(root.trace, t0 + shift, nowRel, push);
  const total = Math.max(at(root.finished_at) ?? nowRel, ...bars.map((b) => b.end), 0);
  return { bars, total, more, trace };
}

/**
 * How far Mastra's clock is from the run's (ms): 0 when they agree (a live run), else the difference
 * between the trace's first request (the root's `trace_start`, else the lane's first span) and the run's start.
 */
export function traceShift(root: RunNode, t0: number): number {
  const spans = list(obj(root.trace)?.spans);
  const first = num(root.trace_start) ?? spans.map((s) => num(obj(s)?.start)).find((ms) => ms !== null) ?? null;
  return first !== null && Math.abs(first - t0) > SKEW_MS ? first - t0 : 0;
}

/**
 * The trace's spans as bars (kind "span", in the lane's tree order, each a phase by its type), on the
 * run's axis: times less `t0` (the run's start on Mastra's clock); an unended span ends at `now`.
 * `push` places them after the run's.
 */
function traceLane(value: unknown, t0: number, now: number, push: (bar: Bar) => Bar | null): TraceLane | null {
  const given = obj(value);
  if (!given) return null;
  const spans = list(given.spans).flatMap((s): Record<string, unknown>[] => {
    const found = obj(s);
    return found ? [found] : [];
  });
  const byId = new Map<string, Record<string, unknown>>();
  for (const span of spans) {
    const id = str(span.id);
    const from = num(span.start);
    if (id === null || from === null) continue;
    byId.set(id, span);
    const start = from - t0;
    const stop = num(span.end);
    const end = Math.max(stop === null ? now : stop - t0, start);
    const phase = SPAN_PHASES[str(span.type) ?? ""] ?? "step";
    const label = str(span.name) || str(span.type) || "span";
    const depth = num(span.depth) ?? 0;
    push({ id, kind: "span", label, depth, start, end, open: stop === null, segments: [{ phase, start, end }], covers: [] });
  }
  return { message: str(given.message), complete: given.complete === true, hidden: num(given.hidden) ?? 0, spans: byId };
}

/** What a bar's tooltip says: its name, its length, and each phase's. */
export function describeBar(bar: Bar): string {
  const lines = [`${bar.label} · ${formatDuration(bar.end - bar.start)}${bar.open ? " so far" : ""}`];
  if (bar.title) lines.push(bar.title);
  lines.push(`from ${formatDuration(bar.start)} to ${formatDuration(bar.end)}`);
  if (bar.segments.length > 1) {
    for (const s of bar.segments) lines.push(`${PHASE_LABELS[s.phase]} ${formatDuration(s.end - s.start)}`);
  }
  return lines.join("\n");
}

const MOST_TICKS = 6;

/** Tick times at a round step (1, 2 or 5 × 10ⁿ ms), from 0 up to `span`, at most MOST_TICKS of them. */
export function ticksFor(span: number): number[] {
  if (!(span > 0)) return [0];
  const raw = span / (MOST_TICKS - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  // at least a millisecond: durations are written in whole ms below a second
  const step = Math.max([1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? 10 * power, 1);
  const ticks: number[] = [];
  for (let i = 0; i * step <= span * (1 + 1e-9); i++) ticks.push(i * step);
  return ticks;
}
/** Redraws while the panel is open and the run streams: often enough to look live. */
const LIVE_REDRAW_MS = 250;
/** A start time further back than this is a recording's clock: open bars end at the latest time known. */
const DAY_MS = 86_400_000;

function percent(ms: number, total: number): string {
  return `${total > 0 ? Math.min(Math.max((ms / total) * 100, 0), 100) : 0}%`;
}

/** The latest time the tree knows (for a run that is no longer fed: what is open ends there). */
export function latestTime(tree: TreeSource, rootId: string): number {
  let latest = -Infinity;
  const stack = [rootId];
  while (stack.length > 0) {
    const node = tree.get(stack.pop() ?? "");
    if (!node) continue;
    for (const key of ["started_at", "ended_at", "finished_at", "called_at", "waiting_since", "first_token_at"]) {
      const ms = num(node[key]);
      if (ms !== null && ms > latest) latest = ms;
    }
    stack.push(...tree.childrenOf(node.id));
  }
  return latest;
}

/** The "Timeline" toggle and its panel, under the header of a view. */
export class Timeline {
  readonly toggle = h("button", "mn-btn mn-timeline-toggle", ["Timeline"], {
    type: "button",
    title: "Where the time went: a bar for each step, part, tool call and sub-run",
    "aria-expanded": "false",
  });
  readonly el = h("div", "mn-timeline");
  private open = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly unsubscribe: () => void;
  private outlined: string[] = [];
  private openSpan: string | null = null; // the span whose details show, under its row
  private readonly folds = new Map<string, FoldedBelow>(); // per span: the JSON a reader unfolded
  private hadTrace = false;

  /**
   * `scrollBox` is the view's root (its own scroll box when bounded, else the page scrolls it);
   * `stickyTop` the block that sticks over it (header, bars, this panel): a scrolled-to part goes below.
   */
  constructor(
    private readonly store: Store,
    private readonly content: HTMLElement,
    private readonly scrollBox: HTMLElement,
    private readonly stickyTop: HTMLElement | null = null,
  ) {
    this.el.hidden = true;
    controls(this.toggle, this.el);
    this.toggle.addEventListener("click", () => this.setOpen(!this.open));
    this.unsubscribe = store.subscribe((change) => {
      this.traceArrived(change);
      this.schedule();
    });
    this.el.addEventListener("mouseover", this.onHover);
    this.el.addEventListener("mouseleave", () => this.outline([]));
    this.el.addEventListener("click", this.onClick);
    this.el.addEventListener("keydown", (event) => {
      const row = event.target instanceof HTMLElement && event.target.dataset.spanRef !== undefined;
      if (row && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.onClick(event);
      }
    });
  }

  setOpen(open: boolean): void {
    this.open = open;
    this.el.hidden = !open;
    this.toggle.classList.toggle("mn-active", open);
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) this.draw();
    else this.outline([]);
  }

  destroy(): void {
    this.unsubscribe();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (!this.open || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.draw();
    }, LIVE_REDRAW_MS);
  }

  draw(): void {
    const root = nodeOf(this.store.get(ROOT_ID), "run");
    const live = str(root?.status) === "running";
    const started = num(root?.started_at);
    const clock = Date.now();
    const recent = started !== null && Math.abs(clock - started) < DAY_MS;
    // a replay's "so far" is its latest recorded moment, paused or playing: never the wall clock
    const recorded = str(root?.clock) === "recorded";
    const now = live && recent && !recorded ? clock : latestTime(this.store, ROOT_ID);
    const layout = layoutTimeline(this.store, ROOT_ID, now);
    this.el.dataset.bars = String(layout.bars.length);
    this.el.dataset.live = String(live);
    if (layout.bars.length === 0) {
      this.el.replaceChildren(h("div", "mn-timeline-empty", ["No timed chunks yet."]));
      return;
    }
    const span = this.openSpan === null ? undefined : layout.trace?.spans.get(this.openSpan);
    const detail = span ? spanDetail(span, this.foldsOf(this.openSpan ?? "")) : null;
    this.el.replaceChildren(drawTimeline(layout, layout.total, this.openSpan, detail));
    this.el.classList.toggle("mn-tl-has-detail", detail !== null); // the panel grows to show it
    if (live && !recorded) this.schedule(); // open bars grow with the clock
  }

  private readonly onHover = (event: Event): void => {
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>(".mn-tl-row") : null;
    this.outline(row?.dataset.covers?.split(" ") ?? []);
  };

  /** The lane's heading at the panel's top when the opened span's row is then in its upper half
   * (the lane in view above its details), else that row at the top. */
  private scrollToOpenSpan(): void {
    const opened = this.el.querySelector(".mn-tl-row.mn-tl-open");
    if (!opened) return;
    const from = this.el.getBoundingClientRect().top - this.el.scrollTop;
    const row = opened.getBoundingClientRect().top - from;
    const lane = this.el.querySelector(".mn-tl-lane")?.getBoundingClientRect().top;
    const heading = lane === undefined ? row : lane - from;
    this.el.scrollTop = (row - heading < this.el.clientHeight / 2 ? heading : row) - 4;
  }

  /**
   * The trace arrived while the view is shown (`view.trace()` in a cell: ops, not a snapshot): the
   * panel opens on its lane. A view drawn again from a state that has it opens as it was (closed).
   */
  private traceArrived(change: Change): void {
    const has = obj(nodeOf(this.store.get(ROOT_ID), "run")?.trace) !== null;
    const arrived = has && !this.hadTrace && !change.reset;
    this.hadTrace = has;
    if (!arrived || this.open) return;
    this.setOpen(true);
    const lane = this.el.querySelector(".mn-tl-lane")?.getBoundingClientRect().top;
    if (lane !== undefined) this.el.scrollTop += lane - this.el.getBoundingClientRect().top - 4;
  }

  private foldsOf(id: string): FoldedBelow {
    let folds = this.folds.get(id);
    if (!folds) this.folds.set(id, (folds = new FoldedBelow(1)));
    return folds;
  }

  private readonly onClick = (event: Event): void => {
    const clicked = event.target instanceof Element ? event.target : null;
    if (clicked?.closest(".mn-tl-span-close")) {
      this.openSpan = null;
      this.draw();
      return;
    }
    const row = clicked?.closest<HTMLElement>(".mn-tl-row") ?? null;
    const spanId = row?.dataset.spanRef;
    if (spanId !== undefined) {
      this.openSpan = spanId === this.openSpan ? null : spanId; // a second click closes it
      this.draw();
      this.scrollToOpenSpan();
      return;
    }
    const id = row?.dataset.nodeRef;
    if (!id || !/^[\w-]+$/.test(id)) return;
    const target = this.content.querySelector<HTMLElement>(`[data-node-id="${id}"]`);
    for (const el of this.content.querySelectorAll(".mn-inspected")) el.classList.remove("mn-inspected");
    if (!target) return;
    target.classList.add("mn-inspected");
    const scroller = scrollerOf(this.scrollBox);
    if (!scroller) return;
    const box = scroller.getBoundingClientRect();
    const rect = target.getBoundingClientRect();
    // the sticky block (this panel in it) stays where it is and covers the top of the box
    const head = this.stickyTop?.offsetHeight ?? 0;
    scroller.scrollTop = scrollTopFor(
      { scrollTop: scroller.scrollTop, height: scroller.clientHeight, head },
      { top: rect.top - box.top + scroller.scrollTop, height: rect.height },
    );
  };

  /** Outlines the parts a bar covers, as the inspector outlines the parts a chunk built. */
  private outline(ids: string[]): void {
    for (const id of this.outlined) {
      for (const el of this.content.querySelectorAll(`[data-node-id="${id}"]`)) el.classList.remove("mn-outlined");
    }
    this.outlined = ids.filter((id) => /^[\w-]+$/.test(id)); // our own ids ("root", "n12") only
    for (const id of this.outlined) {
      for (const el of this.content.querySelectorAll(`[data-node-id="${id}"]`)) el.classList.add("mn-outlined");
    }
  }
}

/** The box that scrolls `el` into view: itself when it scrolls (a bounded view), else the nearest
 * ancestor that does (the notebook's panel). */
function scrollerOf(el: HTMLElement): HTMLElement | null {
  for (let e: HTMLElement | null = el; e; e = e.parentElement) {
    const overflow = getComputedStyle(e).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && e.scrollHeight > e.clientHeight) return e;
  }
  return null;
}

/**
 * The rows of a layout on an axis of `span` ms (compare draws two runs on one axis): the run's bars,
 * then the trace's lane (its spans; `openSpan` marked, its `detail` under its row).
 */
export function drawTimeline(
  layout: TimelineLayout,
  span: number,
  openSpan: string | null = null,
  detail: HTMLElement | null = null,
): HTMLElement {
  const ticks = ticksFor(span).map((ms) => {
    const tick = h("span", "mn-tl-tick", [formatDuration(ms)]);
    tick.style.left = percent(ms, span);
    if (ms > span * 0.92) tick.classList.add("mn-tl-tick-end"); // its label ends at the axis' end
    return tick;
  });
  const row = (b: Bar): HTMLElement => {
    const track = h("span", "mn-tl-track");
    const barEl = h("span", `mn-tl-bar mn-tl-${b.kind}`, [], { "data-open": String(b.open) });
    barEl.style.left = percent(b.start, span);
    barEl.style.width = percent(b.end - b.start, span);
    for (const s of b.segments) {
      const seg = h("span", `mn-tl-seg mn-tl-${s.phase}`, [], { "data-phase": s.phase });
      seg.style.left = percent(s.start - b.start, b.end - b.start);
      seg.style.width = percent(s.end - s.start, b.end - b.start);
      barEl.append(seg);
    }
    track.append(barEl);
    const label = h("span", "mn-tl-label", [b.label]);
    label.style.paddingLeft = `${b.depth * 12}px`;
    const time = h("span", "mn-tl-time", [formatDuration(b.end - b.start)]);
    const refs: Record<string, string> =
      b.kind === "span"
        ? { "data-span-ref": b.id, "aria-expanded": String(b.id === openSpan), role: "button", tabindex: "0" }
        : { "data-node-ref": b.id, "data-covers": b.covers.join(" ") };
    const el = h("div", "mn-tl-row", [label, track, time], { ...refs, "data-bar": b.kind, title: describeBar(b) });
    if (b.id === openSpan && b.kind === "span") el.classList.add("mn-tl-open");
    return el;
  };
  const rows = layout.bars.filter((b) => b.kind !== "span").map(row);
  const axis = h("div", "mn-tl-row mn-tl-axis", [h("span", "mn-tl-label"), h("span", "mn-tl-track", ticks), h("span", "mn-tl-time")]);
  const legend = h(
    "div",
    "mn-tl-legend",
    (["text", "reasoning", "args", "exec", "wait"] as Phase[]).map((p) =>
      h("span", "mn-tl-key", [h("span", `mn-tl-swatch mn-tl-${p}`), PHASE_LABELS[p]]),
    ),
  );
  const note = layout.more > 0 ? h("div", "mn-tl-more", [`… ${layout.more} more bars not drawn`]) : null;
  return h("div", "mn-tl", [legend, axis, ...rows, ...traceRows(layout, row, detail), note]);
}

const TRACE_PHASES: Phase[] = ["run", "model", "memory", "processor", "tool"];

/** The lane: its heading (with its own legend), what it says when incomplete or empty, its spans. */
function traceRows(layout: TimelineLayout, row: (b: Bar) => HTMLElement, detail: HTMLElement | null): HTMLElement[] {
  const trace = layout.trace;
  if (!trace) return [];
  const spans = layout.bars.filter((b) => b.kind === "span");
  const count = spans.length === 1 ? "1 span" : `${spans.length} spans`;
  const hidden = trace.hidden > 0 ? ` (${trace.hidden} chunk and event spans not drawn)` : "";
  const keys = TRACE_PHASES.map((p) => h("span", "mn-tl-key", [h("span", `mn-tl-swatch mn-tl-${p}`), PHASE_LABELS[p]]));
  const heading = h("div", "mn-tl-lane", [
    h("span", "mn-tl-lane-title", ["Mastra's trace"]),
    h("span", "mn-tl-lane-count", [spans.length > 0 ? `${count}${hidden} · click a span for its input and output` : ""]),
    h("span", "mn-tl-legend mn-tl-lane-legend", spans.length > 0 ? keys : []),
  ]);
  const message = trace.message ? h("div", `mn-tl-trace-note${spans.length > 0 ? "" : " mn-tl-trace-none"}`, [trace.message]) : null;
  const drawn = spans.flatMap((b) => (detail && b.id === detail.dataset.spanId ? [row(b), detail] : [row(b)]));
  return [heading, ...(message ? [message] : []), ...drawn];
}

/** What a span was given and gave: inert text, its JSON folded below the first level. */
export function spanDetail(span: Record<string, unknown>, folds: Set<string>): HTMLElement {
  const start = num(span.start);
  const end = num(span.end);
  const took = start !== null && end !== null ? formatDuration(end - start) : "not ended";
  const close = h("button", "mn-link-btn mn-tl-span-close", ["close"], { type: "button" });
  const head = h("div", "mn-tl-span-head", [
    h("span", "mn-tl-span-name", [str(span.name) ?? "span"]),
    h("span", "mn-muted", [`${str(span.type) ?? ""} · ${took}`]),
    str(span.status) === null ? null : badge(span.status),
    close,
  ]);
  const field = (label: string, key: string): HTMLElement | null => {
    const value = span[key];
    if (value === null || value === undefined) return null;
    const empty = typeof value === "object" && Object.keys(value).length === 0;
    if (empty) return null;
    return h("div", "mn-field", [h("div", "mn-label", [label]), jsonTree(value, folds, `$${key}`)]);
  };
  const cut =
    span.cut === true
      ? h("div", "mn-muted mn-tl-span-cut", ["Cut to fit the view: view.trace() returns the whole span."])
      : null;
  const id = str(span.id) ?? "";
  return h("div", "mn-tl-span-detail", [
    head,
    errorBox(span.error),
    field("Input", "input"),
    field("Output", "output"),
    field("Attributes", "attributes"),
    cut,
  ], { "data-span-id": id });
}

/**
 * Folds for jsonTree: whatever lies deeper than `depth` levels starts folded, and what a reader
 * unfolds (or folds) stays so when the panel draws again.
 */
export class FoldedBelow extends Set<string> {
  private readonly opened = new Set<string>();

  constructor(private readonly depth: number) {
    super();
  }

  override has(path: string): boolean {
    if (this.opened.has(path)) return false;
    return super.has(path) || path.split(".").length > this.depth;
  }

  override add(path: string): this {
    this.opened.delete(path);
    return super.add(path);
  }

  override delete(path: string): boolean {
    this.opened.add(path);
    return super.delete(path);
  }
}
