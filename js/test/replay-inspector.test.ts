import { afterEach, describe, expect, it, vi } from "vitest";
import widget from "../src/widget";
import { add, append, drawn, FakeModel, nextFrame, opsMsg, root, snapshot } from "./helpers";

function show(model: FakeModel): { el: HTMLElement; cleanup: () => void } {
  const el = document.createElement("div");
  document.body.append(el);
  const cleanup = widget.render({ model, el });
  return { el, cleanup };
}

function click(el: Element | null): void {
  if (!el) throw new Error("nothing to click");
  el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

describe("replay bar", () => {
  afterEach(() => vi.useRealTimers());

  it("is hidden for a live view", () => {
    const { el } = show(new FakeModel());
    expect(el.querySelector<HTMLElement>(".mn-replay")?.hidden).toBe(true);
  });

  it("shows the position and sends play, pause, step and seek", () => {
    const model = new FakeModel({ replay: { total: 30, position: 5, playing: false, speed: 1 } });
    const { el } = show(model);
    const bar = el.querySelector<HTMLElement>(".mn-replay");
    expect(bar?.hidden).toBe(false);
    expect(bar?.textContent).toContain("chunk 5 / 30");
    click(el.querySelector(".mn-play"));
    click(el.querySelector(".mn-step-forward"));
    click(el.querySelector(".mn-step-back"));
    // the back click steps from the position just asked for (6), not from the kernel's 5 of before
    expect(model.sent.slice(-3)).toEqual([{ t: "play" }, { t: "seek", position: 6 }, { t: "seek", position: 5 }]);
    model.set("replay", { total: 30, position: 9, playing: true, speed: 2 });
    expect(el.querySelector(".mn-play")?.textContent).toBe("Pause");
    expect(el.querySelector<HTMLInputElement>(".mn-scrubber")?.value).toBe("9");
    click(el.querySelector(".mn-play"));
    expect(model.sent.at(-1)).toEqual({ t: "pause" });
  });

  it("steps on from the position asked for while the kernel has not answered yet", () => {
    const model = new FakeModel({ replay: { total: 30, position: 7, playing: false, speed: 1 } });
    const { el } = show(model);
    const seeks = () => model.sent.filter((m) => (m as { t: string }).t === "seek");
    click(el.querySelector(".mn-step-back"));
    click(el.querySelector(".mn-step-back")); // before the kernel answers the first
    expect(seeks()).toEqual([{ t: "seek", position: 6 }, { t: "seek", position: 5 }]);
    model.set("replay", { total: 30, position: 6, playing: false, speed: 1 }); // the first answer
    expect(el.querySelector<HTMLInputElement>(".mn-scrubber")?.value).toBe("5"); // still where it was asked
    click(el.querySelector(".mn-step-back"));
    expect(seeks().at(-1)).toEqual({ t: "seek", position: 4 });
    model.set("replay", { total: 30, position: 4, playing: false, speed: 1 });
    click(el.querySelector(".mn-step-forward")); // reached: steps go on from the kernel's position
    expect(seeks().at(-1)).toEqual({ t: "seek", position: 5 });
    model.set("replay", { total: 30, position: 5, playing: false, speed: 1 });
    model.set("replay", { total: 30, position: 12, playing: true, speed: 1 }); // playing on by itself
    expect(el.querySelector<HTMLInputElement>(".mn-scrubber")?.value).toBe("12");
  });

  it("asks for the last scrubber position only while dragging", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // the drag's debounce, not the frames
    const model = new FakeModel({ replay: { total: 30, position: 0, playing: false, speed: 1 } });
    const { el } = show(model);
    const scrubber = el.querySelector<HTMLInputElement>(".mn-scrubber");
    if (!scrubber) throw new Error("no scrubber");
    for (const value of ["3", "8", "12"]) {
      scrubber.value = value;
      scrubber.dispatchEvent(new Event("input"));
    }
    const seeks = () => model.sent.filter((m) => (m as { t: string }).t === "seek");
    expect(seeks()).toEqual([]); // still dragging
    vi.runOnlyPendingTimers(); // the drag pauses
    expect(seeks()).toEqual([{ t: "seek", position: 12 }]);
  });
});

describe("inspector", () => {
  const entries = [
    { i: 0, ms: 0, type: "start", from: "AGENT", path: [], nodes: ["root"] },
    { i: 1, ms: 12.5, type: "text-delta", from: "AGENT", path: ["agent-researcher"], nodes: ["n1"] },
    { i: 2, ms: null, type: "invalid", from: null, path: [], nodes: [], error: "not JSON" },
  ];

  it("opens, lists chunks, shows a chunk's JSON as text, and closes", async () => {
    const model = new FakeModel();
    const { el } = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "text", { text: "" })]));
    click(el.querySelector(".mn-inspect"));
    expect(model.sent.at(-1)).toEqual({ t: "inspect", open: true });
    model.receive({ t: "chunks", start: 0, entries });
    const rows = el.querySelectorAll<HTMLElement>(".mn-chunk");
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain("text-delta");
    expect(rows[1]?.textContent).toContain("agent-researcher");
    expect(rows[2]?.classList.contains("mn-chunk-invalid")).toBe(true);
    click(rows[1] ?? null);
    expect(model.sent.at(-1)).toEqual({ t: "chunk-json", i: 1 });
    model.receive({ t: "chunk-json", i: 1, json: { type: "text-delta", payload: { text: "<img src=x onerror=alert(1)>" } } });
    const pre = rows[1]?.querySelector("pre");
    expect(pre?.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(el.querySelector("img")).toBeNull();
    model.receive({ t: "chunks", start: 3, entries: [{ i: 3, ms: 20, type: "finish", from: "AGENT", path: [], nodes: [] }] });
    expect(el.querySelectorAll(".mn-chunk")).toHaveLength(4);
    click(el.querySelector(".mn-inspect"));
    expect(model.sent.at(-1)).toEqual({ t: "inspect", open: false });
    expect(el.querySelector<HTMLElement>(".mn-inspector")?.hidden).toBe(true);
  });

  it("a click on a rendered part highlights the chunks that built it", async () => {
    const model = new FakeModel();
    const { el } = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "text", { text: "" })]));
    model.receive(opsMsg(1, [append("n1", "text", "Hello")]));
    const part = await drawn(el, '[data-node-id="n1"]');
    click(el.querySelector(".mn-inspect"));
    model.receive({ t: "chunks", start: 0, entries });
    click(part);
    const hits = [...el.querySelectorAll<HTMLElement>(".mn-chunk.mn-hit")].map((row) => row.dataset.i);
    expect(hits).toEqual(["1"]);
  });
});
