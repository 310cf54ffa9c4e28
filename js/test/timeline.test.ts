/** The timeline's bar layout (nesting, phases, open bars, the cap), its toggle, highlights and costs. */
import { describe, expect, it } from "vitest";
import { type Bar, layoutTimeline, MAX_BARS, ticksFor, type TreeSource } from "../src/render/timeline";
import type { NodeData } from "../src/types";
import { add, mount, nodeEl } from "./helpers";

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
