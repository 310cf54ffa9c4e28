/** The timeline's bar layout (nesting, phases, open bars, the cap), its toggle, highlights and costs. */
import { describe, expect, it, vi } from "vitest";
import { type Bar, describeBar, layoutTimeline, MAX_BARS, ticksFor, type TreeSource } from "../src/render/timeline";
import type { NodeData } from "../src/types";
import { add, FakeModel, liveOnFakeTimers, mount, nodeEl, opsMsg, root, show, snapshot } from "./helpers";

/** A tree from [parent, node] pairs, in order. */
function tree(pairs: [string | null, NodeData][]): TreeSource {
  const nodes = new Map<string, NodeData>();
  const children = new Map<string, string[]>();
  for (const [parent, node] of pairs) {
    nodes.set(node.id, node);
    children.set(node.id, []);
    if (parent !== null) children.get(parent)?.push(node.id);
  }
  return { get: (id) => nodes.get(id), childrenOf: (id) => children.get(id) ?? [] };
}

const T0 = 1_000_000;
const n = (id: string, kind: string, fields: Record<string, unknown> = {}): NodeData => ({ id, kind, ...fields });

/** A supervisor: step 1 says something and calls a sub-agent that waited 2 s for approval; step 2 answers. */
const SUPERVISOR = tree([
  [null, n("root", "run", { agent_id: "supervisor", started_at: T0, finished_at: T0 + 9000, status: "finished" })],
  ["root", n("s1", "step", { index: 1, started_at: T0 + 100, ended_at: T0 + 7000 })],
  ["root", n("t1", "text", { started_at: T0 + 200, ended_at: T0 + 600 })],
  [
    "root",
    n("c1", "tool", {
      tool_name: "agent-researcher",
      started_at: T0 + 600,
      called_at: T0 + 1000,
      waiting_since: T0 + 1000,
      decision: { action: "approve", by: "view", at: T0 + 3000, waited_ms: 2000 },
      ended_at: T0 + 6500,
    }),
  ],
  ["c1", n("r1", "run", { agent_id: "researcher", nested: true, started_at: T0 + 3100, finished_at: T0 + 6400 })],
  ["r1", n("s1a", "step", { index: 1, started_at: T0 + 3100, ended_at: T0 + 6400 })],
  ["r1", n("t1a", "reasoning", { started_at: T0 + 3200, ended_at: T0 + 5000 })],
  ["root", n("s2", "step", { index: 2, started_at: T0 + 7000, ended_at: T0 + 8900 })],
  ["root", n("t2", "text", { started_at: T0 + 7100, ended_at: T0 + 8800 })],
]);

/** The bar of node `id` (a test fails loudly when it is missing). */
function barOf(bars: Bar[], id: string): Bar {
  const found = bars.find((b) => b.id === id);
  if (!found) throw new Error(`no bar for ${id}`);
  return found;
}

describe("timeline layout", () => {
  it("nests bars as the tree does: run, steps, their parts, a sub-agent under its tool call", () => {
    const { bars, total } = layoutTimeline(SUPERVISOR, "root", T0 + 20_000);
    expect(bars.map((b) => [b.id, b.depth, b.label])).toEqual([
      ["root", 0, "supervisor"],
      ["s1", 1, "step 1"],
      ["t1", 2, "text"],
      ["c1", 2, "agent-researcher"],
      ["r1", 3, "sub-agent researcher"],
      ["s1a", 4, "step 1"],
      ["t1a", 5, "reasoning"],
      ["s2", 1, "step 2"],
      ["t2", 2, "text"],
    ]);
    expect(total).toBe(9000); // the run ended: "now" plays no part
    expect(barOf(bars, "t2")).toMatchObject({ start: 7100, end: 8800, open: false });
    expect(barOf(bars, "s1").covers).toEqual(["s1", "t1", "c1"]); // hovering a step outlines its parts
  });

  it("draws a tool call's phases apart: arguments, executing, the person's wait, executing again", () => {
    const tool = barOf(layoutTimeline(SUPERVISOR, "root", T0).bars, "c1");
    expect(tool.segments).toEqual([
      { phase: "args", start: 600, end: 1000 },
      { phase: "wait", start: 1000, end: 3000 },
      { phase: "exec", start: 3000, end: 6500 },
    ]);
  });

  it("ends what is still open at now, and the run with it", () => {
    const live = tree([
      [null, n("root", "run", { started_at: T0, status: "running" })],
      ["root", n("s1", "step", { index: 1, started_at: T0 + 10 })],
      ["root", n("c1", "tool", { tool_name: "search", status: "streaming-args", started_at: T0 + 50 })],
    ]);
    const { bars, total } = layoutTimeline(live, "root", T0 + 400);
    expect(total).toBe(400);
    const tool = barOf(bars, "c1");
    expect(tool).toMatchObject({ start: 50, end: 400, open: true });
    expect(tool.segments).toEqual([{ phase: "args", start: 50, end: 400 }]); // its arguments still stream
  });

  it("keeps a workflow step's wait for a person apart from its run", () => {
    const flow = tree([
      [null, n("root", "run", { started_at: T0, finished_at: T0 + 5000, workflow: { workflow_id: "plan" } })],
      ["root", n("w1", "workflow-step", { step_name: "ask", started_at: T0, waiting_since: T0 + 100, decision: { at: T0 + 4000 }, ended_at: T0 + 4500 })],
    ]);
    const { bars } = layoutTimeline(flow, "root", T0 + 5000);
    expect(barOf(bars, "root").label).toBe("plan");
    expect(barOf(bars, "w1").segments.map((s) => s.phase)).toEqual(["workflow-step", "wait", "workflow-step"]);
  });

  it("draws no bar without a start time, and at most MAX_BARS", () => {
    expect(layoutTimeline(tree([[null, n("root", "run")]]), "root", T0).bars).toEqual([]);
    const many: [string | null, NodeData][] = [[null, n("root", "run", { started_at: T0 })]];
    for (let i = 0; i < MAX_BARS + 10; i++) many.push(["root", n(`t${i}`, "text", { started_at: T0 + i, ended_at: T0 + i + 1 })]);
    const layout = layoutTimeline(tree(many), "root", T0 + 1000);
    expect(layout.bars).toHaveLength(MAX_BARS);
    expect(layout.more).toBe(11);
  });
});

describe("the timeline panel", () => {
  const ops = [
    add("root", "s1", "step", { index: 1, started_at: T0 + 10, ended_at: T0 + 900 }),
    add("root", "t1", "text", { text: "Hello", started_at: T0 + 20, ended_at: T0 + 500 }),
  ];

  it("opens from the header's toggle with a bar per node, and a hover outlines what the bar covers", () => {
    const { el } = mount(ops, { status: "finished", started_at: T0, finished_at: T0 + 1000 });
    const toggle = el.querySelector<HTMLButtonElement>(".mn-timeline-toggle");
    const panel = el.querySelector<HTMLElement>(".mn-timeline");
    expect(toggle?.textContent).toBe("Timeline");
    expect(panel?.hidden).toBe(true);
    toggle?.click();
    expect(panel?.hidden).toBe(false);
    expect(toggle?.getAttribute("aria-expanded")).toBe("true");
    const rows = [...(panel?.querySelectorAll<HTMLElement>(".mn-tl-row:not(.mn-tl-axis)") ?? [])];
    expect(rows.map((r) => r.dataset.nodeRef)).toEqual(["root", "s1", "t1"]);
    const [, stepRow, textRow] = rows;
    if (!stepRow || !textRow) throw new Error("rows missing");
    const textBar = textRow.querySelector<HTMLElement>(".mn-tl-bar");
    expect(textBar?.style.left).toBe("2%");
    expect(textBar?.style.width).toBe("48%");
    stepRow.querySelector(".mn-tl-bar")?.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    expect(nodeEl(el, "t1").classList.contains("mn-outlined")).toBe(true); // the step covers its text
    panel?.dispatchEvent(new MouseEvent("mouseleave"));
    expect(nodeEl(el, "t1").classList.contains("mn-outlined")).toBe(false);
    textRow.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(nodeEl(el, "t1").classList.contains("mn-inspected")).toBe(true);
  });

  it("says so when nothing is timed yet", () => {
    const { el } = mount([], { status: "running" });
    el.querySelector<HTMLButtonElement>(".mn-timeline-toggle")?.click();
    expect(el.querySelector(".mn-timeline")?.textContent).toBe("No timed chunks yet.");
  });
});

describe("costs", () => {
  it("shows a run's cost as the kernel wrote it, or that it is unknown and why", () => {
    const priced = mount([], { status: "finished", figures: { cost: "$0.0021", cost_title: "USD, from genai-prices" } });
    const cost = priced.el.querySelector<HTMLElement>('.mn-footer [data-stat="cost"]');
    expect(cost?.textContent).toBe("cost$0.0021");
    expect(cost?.title).toBe("USD, from genai-prices");
    const unknown = mount([], { status: "finished", figures: { cost: "unknown", cost_title: "no price for mock-weather" } });
    expect(unknown.el.querySelector<HTMLElement>('.mn-footer [data-stat="cost"]')?.title).toBe("no price for mock-weather");
    expect(unknown.el.querySelector<HTMLElement>('.mn-header [data-stat="cost"]')?.hidden).toBe(true);
  });
});

describe("the time axis", () => {
  it("ticks at round times, as render/timeline.py does", () => {
    expect(ticksFor(4500)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(ticksFor(290)).toEqual([0, 100, 200]);
    expect(ticksFor(12_000)).toEqual([0, 5000, 10_000]);
    expect(ticksFor(0)).toEqual([0]);
    expect(ticksFor(2.2)).toEqual([0, 1, 2]); // never two ticks that read "1 ms"
  });
});

describe("Mastra's trace, a lane under the run", () => {
  const SPANS = [
    { id: "a", parent: null, depth: 0, name: "agent run: 'weather'", type: "agent_run", start: T0 + 5, end: T0 + 950, status: "success" },
    { id: "m", parent: "a", depth: 1, name: "memory: recall", type: "memory_operation", start: T0 + 10, end: T0 + 40, input: { threadId: "t1" } },
    {
      id: "g",
      parent: "a",
      depth: 1,
      name: "llm: 'mock'",
      type: "model_generation",
      start: T0 + 50,
      end: T0 + 800,
      input: { messages: [{ role: "system", content: "<img src=x onerror=alert(1)>" }] },
      output: { text: "Sunny" },
      attributes: { model: "mock", parameters: { temperature: 0 } },
      cut: true,
    },
    { id: "t", parent: "g", depth: 2, name: "tool: 'getWeather'", type: "tool_call", start: T0 + 300, end: null, error: "boom" },
  ];
  const lane = { trace_id: "f".repeat(32), complete: true, message: null, spans: SPANS, hidden: 7 };
  const ended = { status: "finished", started_at: T0, finished_at: T0 + 1000, trace: lane };

  it("places each span on the run's axis, in the lane's order and depth, coloured by its type", () => {
    const source = tree([[null, n("root", "run", ended)]]);
    const layout = layoutTimeline(source, "root", T0 + 1200);
    const spans = layout.bars.filter((b) => b.kind === "span");
    expect(spans.map((b) => [b.id, b.depth, b.segments[0]?.phase])).toEqual([
      ["a", 0, "run"],
      ["m", 1, "memory"],
      ["g", 1, "model"],
      ["t", 2, "tool"],
    ]);
    expect(barOf(spans, "g")).toMatchObject({ start: 50, end: 800, open: false, label: "llm: 'mock'" });
    expect(barOf(spans, "t")).toMatchObject({ start: 300, end: 1200, open: true }); // not ended: now
    expect(layout.total).toBe(1200);
    expect(layout.trace?.hidden).toBe(7);
  });

  it("sets a trace from a server whose clock is far off at the run's start", () => {
    const skewed = SPANS.map((s) => ({ ...s, start: s.start + 3_600_000, end: s.end === null ? null : s.end + 3_600_000 }));
    const source = tree([[null, n("root", "run", { ...ended, trace: { ...lane, spans: skewed } })]]);
    expect(barOf(layoutTimeline(source, "root", T0 + 1000).bars, "g")).toMatchObject({ start: 45, end: 795 });
  });

  it("shows a clicked span's input, output and attributes as inert text, its JSON folded", () => {
    const { el } = mount([], ended);
    el.querySelector<HTMLButtonElement>(".mn-timeline-toggle")?.click();
    const panel = el.querySelector<HTMLElement>(".mn-timeline");
    expect(panel?.querySelector(".mn-tl-lane")?.textContent).toContain("Mastra's trace4 spans (7 chunk and event spans not drawn)");
    const rows = [...(panel?.querySelectorAll<HTMLElement>(".mn-tl-row[data-span-ref]") ?? [])];
    expect(rows.map((r) => r.dataset.spanRef)).toEqual(["a", "m", "g", "t"]);
    rows[2]?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    const detail = panel?.querySelector<HTMLElement>(".mn-tl-span-detail");
    expect(detail?.querySelector(".mn-tl-span-name")?.textContent).toBe("llm: 'mock'");
    expect([...(detail?.querySelectorAll(".mn-label") ?? [])].map((l) => l.textContent)).toEqual(["Input", "Output", "Attributes"]);
    expect(detail?.querySelector("img")).toBeNull(); // the system prompt is text, never markup
    expect(detail?.textContent).toContain("Cut to fit the view");
    const trees = [...(detail?.querySelectorAll<HTMLDetailsElement>("details.mn-tree") ?? [])];
    expect(trees[0]?.open).toBe(true); // the input's first level shows
    expect(trees[1]?.open).toBe(false); // its messages are folded
    if (trees[1]) trees[1].open = true; // a reader unfolds the messages
    trees[1]?.dispatchEvent(new Event("toggle"));
    const row = (id: string) => panel?.querySelector<HTMLElement>(`[data-span-ref="${id}"]`);
    expect(row("g")?.getAttribute("aria-expanded")).toBe("true");
    row("m")?.dispatchEvent(new MouseEvent("click", { bubbles: true })); // another span, then back
    row("g")?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    const again = panel?.querySelectorAll<HTMLDetailsElement>(".mn-tl-span-detail details.mn-tree");
    expect(again?.[1]?.open).toBe(true); // still unfolded
    const failed = panel?.querySelector<HTMLElement>('[data-span-ref="t"]');
    failed?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(panel?.querySelector(".mn-tl-span-detail .mn-error")?.textContent).toBe("boom");
    panel?.querySelector<HTMLButtonElement>(".mn-tl-span-close")?.click();
    expect(panel?.querySelector(".mn-tl-span-detail")).toBeNull();
  });

  it("opens on the lane when the trace arrives while the view is shown, not when drawn again", () => {
    const model = new FakeModel();
    const el = show(model);
    const run = { status: "finished", started_at: T0, finished_at: T0 + 1000 };
    model.receive(snapshot(0, [root(run), add("root", "s1", "step", { index: 1, started_at: T0, ended_at: T0 + 900 })]));
    const panel = el.querySelector<HTMLElement>(".mn-timeline");
    expect(panel?.hidden).toBe(true);
    model.receive(opsMsg(1, [["set", "root", "trace", lane]])); // view.trace() in a later cell
    expect(panel?.hidden).toBe(false);
    expect(panel?.querySelectorAll(".mn-tl-row[data-span-ref]")).toHaveLength(4);

    const other = new FakeModel(); // a view drawn from a state that has the trace already
    const shown = show(other);
    other.receive(snapshot(0, [root({ ...run, trace: lane })]));
    expect(shown.querySelector<HTMLElement>(".mn-timeline")?.hidden).toBe(true);
  });

  it("says what to turn on when the server gives no trace, instead of an empty lane", () => {
    const sentence = "Mastra's server has no trace: serve Mastra with observability on storage";
    const none = { ...ended, trace: { trace_id: "f".repeat(32), complete: false, message: sentence, spans: [], hidden: 0 } };
    const { el } = mount([], none);
    el.querySelector<HTMLButtonElement>(".mn-timeline-toggle")?.click();
    expect(el.querySelector(".mn-tl-trace-none")?.textContent).toBe(sentence);
    expect(el.querySelectorAll(".mn-tl-row[data-span-ref]")).toHaveLength(0);
  });
});

describe("time that tells the truth (issue 32)", () => {
  const TRACED = "by Mastra's trace: its span on the server";
  const ARRIVAL = "by its chunks' arrival in the notebook";
  const DAY = 86_400_000; // the server's clock: a day off (a replay of another day's run)
  /** The weather agent: the kernel saw the tool's result 108 ms after its call; its span on the server is 81 ms. */
  const weather = (traced: boolean) =>
    tree([
      [null, n("root", "run", { agent_id: "weather", started_at: T0, finished_at: T0 + 600, ...(traced ? { trace_start: T0 + DAY, trace_end: T0 + DAY + 590 } : {}) })],
      ["root", n("s1", "step", { index: 1, started_at: T0 + 10, ended_at: T0 + 400, ...(traced ? { trace_start: T0 + DAY + 100, trace_end: T0 + DAY + 571, duration_title: TRACED } : { duration_title: ARRIVAL }) })],
      [
        "root",
        n("c1", "tool", {
          tool_name: "getWeather",
          started_at: T0 + 200,
          called_at: T0 + 250,
          ended_at: T0 + 358,
          ...(traced ? { trace_start: T0 + DAY + 300, trace_end: T0 + DAY + 381, duration_title: TRACED } : { duration_title: ARRIVAL }),
        }),
      ],
      ["c1", n("r1", "run", { agent_id: "analyst", nested: true, started_at: T0 + 260, finished_at: T0 + 263, ...(traced ? { trace_start: T0 + DAY + 310, trace_end: T0 + DAY + 334 } : {}) })],
    ]);

  it("takes a step's, a tool call's and a sub-agent's bar from the server's spans once the trace is known, and says so", () => {
    const { bars } = layoutTimeline(weather(true), "root", T0 + 600);
    expect(barOf(bars, "c1")).toMatchObject({ start: 300, end: 381, open: false });
    expect(barOf(bars, "c1").segments).toEqual([{ phase: "exec", start: 300, end: 381 }]);
    expect(barOf(bars, "s1")).toMatchObject({ start: 100, end: 571 });
    expect(barOf(bars, "r1")).toMatchObject({ start: 310, end: 334 }); // the sub-agent: 24 ms, not 3
    expect(barOf(bars, "root")).toMatchObject({ start: 0, end: 600 }); // the run: as the kernel saw it
    expect(describeBar(barOf(bars, "c1")).split("\n")).toEqual(["getWeather · 81 ms", TRACED, "from 300 ms to 381 ms"]);
  });

  it("without the trace, bars are the chunks' arrival, and their tooltip says so", () => {
    const { bars } = layoutTimeline(weather(false), "root", T0 + 600);
    expect(barOf(bars, "c1")).toMatchObject({ start: 200, end: 358 });
    expect(barOf(bars, "r1")).toMatchObject({ start: 260, end: 263 });
    expect(describeBar(barOf(bars, "c1"))).toContain(ARRIVAL);
  });

  it("draws a card's duration with what measured it", () => {
    const { el } = mount(
      [add("root", "c1", "tool", { tool_name: "getWeather", status: "done", duration: "81 ms", duration_source: "trace", duration_title: TRACED })],
      { status: "finished" },
    );
    const duration = nodeEl(el, "c1").querySelector<HTMLElement>(".mn-duration");
    expect(duration?.textContent).toBe("81 ms");
    expect(duration?.title).toBe(TRACED);
    expect(duration?.dataset.source).toBe("trace");
  });

  it("keeps a paused replay's figures the same while the clock moves on 10 s", () => {
    const { model, el, frame } = liveOnFakeTimers({ replay: { total: 30, position: 18, playing: false, speed: 1 } });
    const start = Date.now() - 200; // a replay's run is placed on today's clock
    model.receive(
      snapshot(1, [
        root({ status: "running", clock: "recorded", started_at: start }),
        add("root", "s1", "step", { index: 1, started_at: start + 10, ended_at: null }),
        add("root", "c1", "tool", { tool_name: "getWeather", started_at: start + 150, called_at: start + 180, ended_at: null }),
      ]),
    );
    frame();
    el.querySelector<HTMLButtonElement>(".mn-timeline-toggle")?.click();
    const seen = () => [
      el.querySelector(".mn-timeline")?.textContent,
      el.querySelector('.mn-header [data-stat="elapsed"]')?.textContent,
    ];
    const before = seen();
    expect(before[0]).toContain("180 ms"); // the axis ends at the latest recorded moment
    expect(before[1]).toBe("180 ms so far");
    for (let second = 0; second < 10; second++) {
      vi.advanceTimersByTime(1000);
      model.receive(opsMsg(2 + second, [])); // and the view is drawn again
      frame();
      expect(seen()).toEqual(before);
    }
    vi.useRealTimers();
  });
});
