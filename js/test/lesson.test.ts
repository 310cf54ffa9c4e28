/**
 * A lesson (issue 32, items 4 and 5): the replay bar's moments (previous and next step, next tool
 * call), its speed control and Reveal; a teacher's note on a step, set as text; present mode, set
 * from Python; the export page's replay, played by the same bar with no kernel.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { nextMark, previousMark } from "../src/replay-bar";
import { gapMs, mountReplay, type RecordedReplay } from "../src/widget";
import { add, append, click, drawn, FakeModel, mount, nextFrame, root, set, show, snapshot } from "./helpers";

const MARKS = { step: [1, 13, 31], "tool-call": [5, 17, 20], "sub-agent": [] };
const state = (fields: Record<string, unknown> = {}) => ({ total: 39, position: 0, playing: false, speed: 1, marks: MARKS, ...fields });
const sent = (model: FakeModel, t: string) => model.sent.filter((m) => (m as { t: string }).t === t);

describe("the replay bar's moments", () => {
  it("goes to just after a moment begins, or back to the step before", () => {
    expect(nextMark([1, 13, 31], 0)).toBe(2);
    expect(nextMark([1, 13, 31], 2)).toBe(14);
    expect(nextMark([1, 13, 31], 32)).toBeNull();
    expect(previousMark([1, 13, 31], 14)).toBe(2); // step 2 just begun: back to step 1
    expect(previousMark([1, 13, 31], 20)).toBe(14); // inside step 2: back to its start
    expect(previousMark([1, 13, 31], 2)).toBe(0);
  });

  it("sends seeks for next step, next tool call and previous step, and the speed chosen", () => {
    const model = new FakeModel({ replay: state({ position: 6 }) });
    const el = show(model);
    click(el.querySelector(".mn-next-step"));
    model.set("replay", state({ position: 14 }));
    click(el.querySelector(".mn-next-tool"));
    model.set("replay", state({ position: 18 }));
    click(el.querySelector(".mn-prev-step"));
    model.set("replay", state({ position: 14 }));
    click(el.querySelector(".mn-prev-step"));
    expect(sent(model, "seek")).toEqual([
      { t: "seek", position: 14 },
      { t: "seek", position: 18 },
      { t: "seek", position: 14 },
      { t: "seek", position: 2 },
    ]);
    model.set("replay", state({ position: 2 })); // answered
    model.set("replay", state({ position: 32 }));
    expect(el.querySelector<HTMLButtonElement>(".mn-next-step")?.disabled).toBe(true); // no step after the last
    expect(el.querySelector<HTMLButtonElement>(".mn-next-tool")?.disabled).toBe(true);
    const speed = el.querySelector<HTMLSelectElement>(".mn-speed");
    if (!speed) throw new Error("no speed control");
    speed.value = "4";
    speed.dispatchEvent(new Event("change"));
    expect(sent(model, "speed")).toEqual([{ t: "speed", speed: 4 }]);
    model.set("replay", state({ position: 32, speed: 0.25 }));
    expect(speed.value).toBe("0.25");
  });

  it("held before a tool call: says so, hides what comes next, and Reveal (a click or r) shows it", () => {
    const model = new FakeModel({ replay: state({ position: 5, held: "tool-call", pause_at: "tool-call" }) });
    const el = show(model);
    const held = el.querySelector<HTMLElement>(".mn-held");
    expect(held?.hidden).toBe(false);
    expect(held?.textContent).toContain("Paused before a tool call");
    expect(el.querySelector<HTMLElement>(".mn-replay")?.dataset.held).toBe("tool-call");
    for (const forward of [".mn-step-forward", ".mn-next-step", ".mn-next-tool"]) {
      expect(el.querySelector<HTMLButtonElement>(forward)?.disabled).toBe(true);
    }
    el.querySelector(".mn-scrubber")?.dispatchEvent(new KeyboardEvent("keydown", { key: "n", bubbles: true }));
    expect(sent(model, "seek")).toEqual([]); // next step would show what is hidden
    click(el.querySelector(".mn-reveal"));
    el.querySelector(".mn-scrubber")?.dispatchEvent(new KeyboardEvent("keydown", { key: "r", bubbles: true }));
    expect(sent(model, "reveal")).toEqual([{ t: "reveal" }, { t: "reveal" }]);
    model.set("replay", state({ position: 9, playing: true, pause_at: "tool-call" }));
    expect(held?.hidden).toBe(true);
    expect(el.querySelector<HTMLElement>(".mn-replay")?.dataset.held).toBeUndefined();
  });
});

describe("a teacher's note", () => {
  it("shows under its step as text, never as markup", async () => {
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const { el } = mount([add("root", "s1", "step", { index: 1, note: hostile, usage: { input_tokens: 120, output_tokens: 30 } })]);
    const note = (await drawn(el, ".mn-step-note")) as HTMLElement;
    expect(note.textContent).toBe(hostile);
    expect(note.hidden).toBe(false);
    expect(el.querySelector("img, script")).toBeNull();
    expect(el.querySelector(".mn-step-tokens")?.textContent).toBe(" · 120 in · 30 out");
  });
});

describe("present mode", () => {
  it("is the class mn-present on the root, following the trait set from Python", () => {
    const model = new FakeModel({ _present: true });
    const el = show(model);
    const rootEl = el.querySelector(".mn-root");
    expect(rootEl?.classList.contains("mn-present")).toBe(true);
    model.set("_present", false);
    expect(rootEl?.classList.contains("mn-present")).toBe(false);
  });
});

describe("the export page's replay", () => {
  afterEach(() => vi.useRealTimers());

  const recorded: RecordedReplay = {
    start: [root()],
    chunks: [
      [add("root", "s1", "step", { index: 1 })],
      [add("root", "t1", "text", { text: "Hel" })],
      [append("t1", "text", "lo")],
      [set("root", "status", "finished")],
    ],
    times: [0, 10, 30, null],
    marks: { step: [0], "tool-call": [], "sub-agent": [] },
  };
  const exported = snapshot(0, [root({ status: "finished" }), add("root", "s1", "step", { index: 1 }), add("root", "t1", "text", { text: "Hello" })]);

  it("paces by the recorded times, untimed chunks at 40 ms", () => {
    expect(gapMs(recorded.times, 0)).toBe(40);
    expect(gapMs(recorded.times, 2)).toBe(20);
    expect(gapMs(recorded.times, 3)).toBe(40);
    expect(gapMs([0, 99_000], 1)).toBe(2000);
  });

  it("opens at the end, and plays, pauses, steps and scrubs with the widget's own bar", async () => {
    vi.useFakeTimers();
    const el = document.createElement("div");
    document.body.append(el);
    const page = mountReplay(el, exported, recorded, { budgetMs: Infinity });
    const text = () => (el.querySelector(".mn-text")?.textContent ?? "").trim();
    const bar = el.querySelector<HTMLElement>(".mn-replay");
    expect(bar?.hidden).toBe(false);
    expect(page.position()).toBe(4);
    expect(text()).toContain("Hello");
    const scrubber = el.querySelector<HTMLInputElement>(".mn-scrubber");
    if (!scrubber) throw new Error("no scrubber");
    scrubber.value = "2";
    scrubber.dispatchEvent(new Event("input"));
    vi.advanceTimersByTime(100); // the scrubber asks for the newest position only
    expect(page.position()).toBe(2);
    expect(bar?.dataset.position).toBe("2");
    expect(text()).toBe("Hel");
    click(el.querySelector(".mn-step-forward"));
    expect(text()).toContain("Hello");
    click(el.querySelector(".mn-step-back"));
    click(el.querySelector(".mn-step-back"));
    expect(page.position()).toBe(1);
    expect(el.querySelector(".mn-text")).toBeNull();
    click(el.querySelector(".mn-play"));
    expect(el.querySelector(".mn-play")?.textContent).toBe("Pause");
    vi.advanceTimersByTime(10); // chunk 1 came 10 ms after chunk 0
    expect(page.position()).toBe(2);
    click(el.querySelector(".mn-play")); // pause
    vi.advanceTimersByTime(1000);
    expect(page.position()).toBe(2);
    click(el.querySelector(".mn-play"));
    vi.advanceTimersByTime(20 + 40);
    expect(page.position()).toBe(4);
    expect(el.querySelector(".mn-play")?.textContent).toBe("Replay");
    vi.useRealTimers();
    await nextFrame();
    expect(text()).toContain("Hello");
    page.destroy();
  });
});
