/** The inspector's columns, highlight, scroll target and kernel handshake; the replay bar's keys. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ChunkEntry, cellsOf, hitsOf, NO_KERNEL_MS, scrollTopFor } from "../src/inspector";
import { keyTarget } from "../src/replay-bar";
import { add, click, FakeModel, nextFrame, opsMsg, append, root, show, snapshot } from "./helpers";

const entry = (i: number, fields: Partial<ChunkEntry> = {}): ChunkEntry => ({
  i,
  ms: null,
  type: "text-delta",
  from: "AGENT",
  path: [],
  nodes: [],
  ...fields,
});

describe("inspector logic", () => {
  it("gives each column its text: seconds with three decimals, the path joined", () => {
    expect(cellsOf(entry(7, { ms: 1234.5, path: ["agent-researcher", "workflow-plan"] }))).toEqual({
      i: "7",
      time: "1.234 s",
      type: "text-delta",
      from: "AGENT",
      path: "agent-researcher › workflow-plan",
    });
    expect(cellsOf(entry(0, { type: null, from: null }))).toMatchObject({ time: "", type: "?", from: "" });
  });

  it("finds the chunks that changed a node", () => {
    const entries = [entry(0, { nodes: ["root"] }), entry(1, { nodes: ["n1", "n2"] }), entry(2, { nodes: ["n2"] })];
    expect(hitsOf(entries, "n2")).toEqual([1, 2]);
    expect(hitsOf(entries, "n9")).toEqual([]);
  });

  it("scrolls the box only when the row is out of view, centring it below the sticky head", () => {
    const box = { scrollTop: 100, height: 300, head: 40 };
    expect(scrollTopFor(box, { top: 200, height: 20 })).toBe(100); // visible
    expect(scrollTopFor(box, { top: 120, height: 20 })).toBe(0); // under the head: centred, at most to 0
    expect(scrollTopFor(box, { top: 420, height: 20 })).toBe(420 - 40 - 120); // just below the bottom
    expect(scrollTopFor(box, { top: 1000, height: 20 })).toBe(1000 - 40 - 120);
    expect(scrollTopFor({ scrollTop: 500, height: 300, head: 40 }, { top: 10, height: 20 })).toBe(0);
  });
});

describe("replay keys", () => {
  it("steps by one, ten, or to the ends, within 0..total", () => {
    expect(keyTarget("ArrowRight", 5, 30)).toBe(6);
    expect(keyTarget("ArrowUp", 5, 30)).toBe(6);
    expect(keyTarget("ArrowLeft", 5, 30)).toBe(4);
    expect(keyTarget("ArrowDown", 0, 30)).toBe(0);
    expect(keyTarget("PageUp", 25, 30)).toBe(30);
    expect(keyTarget("PageDown", 5, 30)).toBe(0);
    expect(keyTarget("Home", 5, 30)).toBe(0);
    expect(keyTarget("End", 5, 30)).toBe(30);
    expect(keyTarget("a", 5, 30)).toBeNull();
  });

  it("seeks on arrow keys on the scrubber and the buttons, and the notebook never sees them", () => {
    const model = new FakeModel({ replay: { total: 30, position: 5, playing: false, speed: 1 } });
    const el = show(model);
    const seen: string[] = [];
    const spy = (event: KeyboardEvent) => seen.push(event.key);
    document.addEventListener("keydown", spy);
    const press = (target: Element | null, key: string) => {
      const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
      target?.dispatchEvent(event);
      return event;
    };
    const scrubber = el.querySelector(".mn-scrubber");
    const first = press(scrubber, "ArrowRight");
    press(scrubber, "ArrowRight"); // steps on from the wished position, before Python answers
    press(el.querySelector(".mn-play"), "ArrowLeft");
    press(el.querySelector(".mn-play"), "Enter");
    press(scrubber, "x"); // not ours: the notebook gets it
    document.removeEventListener("keydown", spy);
    expect(first.defaultPrevented).toBe(true);
    expect(model.sent.filter((m) => (m as { t: string }).t === "seek")).toEqual([
      { t: "seek", position: 6 },
      { t: "seek", position: 7 },
      { t: "seek", position: 6 },
    ]);
    expect(seen).toEqual(["x"]);
    expect(el.querySelector(".mn-replay-position")?.textContent).toContain("chunk 6 / 30");
  });
});

describe("inspector view", () => {
  afterEach(() => vi.useRealTimers());

  it("puts each value in its own column, whole in the cell's title", () => {
    const model = new FakeModel();
    const el = show(model);
    click(el.querySelector(".mn-inspect"));
    const path = ["agent-researcher", "workflow-plan", "step-fetch"];
    model.receive({ t: "chunks", start: 0, entries: [{ ...entry(3, { ms: 12.5, path }), error: "bad" }] });
    const row = el.querySelector<HTMLElement>(".mn-chunk");
    const cells = [...(row?.children ?? [])].map((c) => [c.className, c.textContent, c.getAttribute("title")]);
    expect(cells).toEqual([
      ["mn-chunk-i", "3", "3"],
      ["mn-chunk-time", "0.013 s", "0.013 s"],
      ["mn-chunk-type", "text-delta", "text-delta: a piece of the model's text, as it streams\nbad"],
      ["mn-chunk-from", "AGENT", "AGENT: sent by an agent's own stream (its model, its tools, its steps)"],
      ["mn-chunk-path", path.join(" › "), path.join(" › ")],
    ]);
    const head = el.querySelector<HTMLElement>(".mn-chunk-head");
    expect(head?.hidden).toBe(false);
    expect([...(head?.children ?? [])].map((c) => c.textContent)).toEqual(["#", "time", "type", "from", "path"]);
  });

  it("says when no kernel answers, and says there are no chunks instead of an empty table", () => {
    vi.useFakeTimers();
    const model = new FakeModel();
    const el = show(model);
    const panel = () => el.querySelector<HTMLElement>(".mn-inspector");
    click(el.querySelector(".mn-inspect"));
    expect(panel()?.dataset.state).toBe("waiting");
    expect(panel()?.textContent).toContain("Asking the kernel");
    vi.advanceTimersByTime(NO_KERNEL_MS);
    expect(panel()?.dataset.state).toBe("no-kernel");
    expect(panel()?.textContent).toContain("No kernel answers");
    expect(el.querySelector<HTMLElement>(".mn-chunk-head")?.hidden).toBe(true);
    click(el.querySelector(".mn-inspect")); // closed, then opened again: it asks again
    click(el.querySelector(".mn-inspect"));
    expect(model.sent.filter((m) => (m as { t: string }).t === "inspect")).toEqual([
      { t: "inspect", open: true },
      { t: "inspect", open: false },
      { t: "inspect", open: true },
    ]);
    model.receive({ t: "chunks", start: 0, entries: [] });
    vi.advanceTimersByTime(NO_KERNEL_MS);
    expect(panel()?.dataset.state).toBe("ready");
    expect(panel()?.textContent).toContain("No chunks yet.");
  });

  it("ignores chunk lists while closed and starts over from the kernel's list when opened", () => {
    const model = new FakeModel();
    const el = show(model);
    model.receive({ t: "chunks", start: 0, entries: [entry(0), entry(1)] }); // for another view
    expect(el.querySelectorAll(".mn-chunk")).toHaveLength(0);
    click(el.querySelector(".mn-inspect"));
    model.receive({ t: "chunks", start: 0, entries: [entry(0), entry(1), entry(2)] });
    model.receive({ t: "chunks", start: 3, entries: [entry(3)] });
    expect([...el.querySelectorAll<HTMLElement>(".mn-chunk")].map((r) => r.dataset.i)).toEqual([
      "0",
      "1",
      "2",
      "3",
    ]);
  });

  it("highlights the chunks of a clicked part, marks the part, and scrolls the panel (not the page) to the first", async () => {
    const model = new FakeModel();
    const el = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "text", { text: "" })]));
    model.receive(opsMsg(1, [append("n1", "text", "Hello")]));
    await nextFrame();
    click(el.querySelector(".mn-inspect"));
    const entries = Array.from({ length: 40 }, (_, i) => entry(i, { nodes: i >= 30 ? ["n1"] : ["root"] }));
    model.receive({ t: "chunks", start: 0, entries });
    const panel = el.querySelector<HTMLElement>(".mn-inspector");
    if (!panel) throw new Error("no panel");
    // jsdom lays nothing out: give the panel and its rows a geometry (rows 20 px tall, panel 200 px)
    Object.defineProperty(panel, "clientHeight", { value: 200 });
    panel.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 300, height: 200 });
    el.querySelector<HTMLElement>(".mn-inspector-top")!.getBoundingClientRect = () =>
      DOMRect.fromRect({ x: 0, y: 0, width: 300, height: 40 });
    for (const row of panel.querySelectorAll<HTMLElement>(".mn-chunk")) {
      const i = Number(row.dataset.i);
      row.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 40 + i * 20 - panel.scrollTop, width: 300, height: 20 });
    }
    const pageScroll = vi.fn();
    window.scrollTo = pageScroll;
    click(el.querySelector('[data-node-id="n1"]'));
    const hits = [...el.querySelectorAll<HTMLElement>(".mn-chunk.mn-hit")].map((row) => Number(row.dataset.i));
    expect(hits).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
    expect(panel.scrollTop).toBe(40 + 30 * 20 - 40 - (200 - 40 - 20) / 2); // row 30 centred under the head
    expect(pageScroll).not.toHaveBeenCalled();
    expect(el.querySelector('[data-node-id="n1"]')?.classList.contains("mn-inspected")).toBe(true);
    expect(panel.textContent).toContain("10 of 40 chunks built the selected part.");
  });
});
