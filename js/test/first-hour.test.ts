/**
 * The first hour's stumbles inside a view (issue 17): the inspector's rows say what they open and
 * cut nothing; after Stop the focus stays on the view and the end of the run shows whole; the
 * replay bar stays under the header with the timeline below it, both sticking as one block.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ChunkEntry, cellsOf, columnTemplate } from "../src/inspector";
import { add, append, fakeScrollBox, liveOnFakeTimers, opsMsg, root, set, snapshot } from "./helpers";

const entry = (fields: Partial<ChunkEntry>): ChunkEntry => ({
  i: 17,
  ms: null,
  type: "start",
  from: "AGENT",
  path: ["agent-researcher"],
  nodes: [],
  ...fields,
});

describe("inspector rows", () => {
  it("an envelope's row names the chunk its JSON shows first, then the one it carries", () => {
    const cells = cellsOf(entry({ outer: { type: "tool-output", from: "USER" } }));
    expect(cells.type).toBe("tool-output › start");
    expect(cells.from).toBe("USER › AGENT");
    expect(cells.path).toBe("agent-researcher");
    // a plain chunk: its own type and from, as before
    expect(cellsOf(entry({ path: [] }))).toMatchObject({ type: "start", from: "AGENT", path: "" });
  });

  it("sizes `from` to its longest value and gives the type the rest (no path column)", () => {
    expect(columnTemplate(12)).toBe("3em 5.5em minmax(0, 1fr) 12ch");
    expect(columnTemplate(0)).toBe("3em 5.5em minmax(0, 1fr) 4ch"); // its heading
  });

  it("draws rows whose cells are whole, the path on a line of its own, from the kernel's outer fields", () => {
    const { model, el } = liveOnFakeTimers();
    el.querySelector<HTMLButtonElement>("button.mn-inspect")?.click();
    model.receive({
      t: "chunks",
      start: 0,
      entries: [
        { i: 0, ms: 0, type: "start", from: "AGENT", path: [], nodes: [] },
        { i: 1, ms: 40, type: "start", from: "AGENT", path: ["agent-researcher"], nodes: [], outer: { type: "tool-output", from: "USER" } },
      ],
    });
    const rows = el.querySelectorAll(".mn-chunks .mn-chunk");
    expect(rows[1]?.querySelector(".mn-chunk-type")?.textContent).toBe("tool-output › start");
    expect(rows[1]?.querySelector(".mn-chunk-from")?.textContent).toBe("USER › AGENT");
    expect(rows[1]?.querySelector(".mn-chunk-path")?.textContent).toBe("agent-researcher");
    const panel = el.querySelector<HTMLElement>(".mn-inspector");
    expect(panel?.style.getPropertyValue("--mn-chunk-columns")).toBe("3em 5.5em minmax(0, 1fr) 12ch");
    vi.useRealTimers();
  });
});

describe("after Stop", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the focus stays on the view, not on whatever JupyterLab or the browser picks next", () => {
    const { model, el, rootEl } = liveOnFakeTimers({ streaming: true, max_height: "400px" });
    const stop = el.querySelector<HTMLButtonElement>("button.mn-stop") as HTMLButtonElement;
    stop.focus();
    stop.click();
    expect(model.sent).toContainEqual({ t: "stop" });
    expect(document.activeElement).toBe(rootEl);
    model.set("streaming", false);
    expect(stop.hidden).toBe(true);
    expect(document.activeElement).toBe(rootEl);
    expect(el.querySelector(".mn-timeline-toggle")?.classList.contains("mn-active")).toBe(false);
  });

  it("a view that followed the tail shows the end (the stopped banner, the footer) whole", () => {
    const { model, rootEl, frame } = liveOnFakeTimers({ streaming: true, max_height: "400px" });
    const size = { content: 400, client: 400 };
    const box = fakeScrollBox(rootEl, size);
    model.receive(snapshot(1, [root(), add("root", "t1", "text", { text: "" })]));
    frame();
    size.content = 1000;
    model.receive(opsMsg(2, [append("t1", "text", "more")]));
    frame();
    expect(rootEl.scrollTop).toBe(600);
    model.set("streaming", false); // the trait comes before the last ops
    size.content = 1100; // the banner and the footer
    model.receive(opsMsg(3, [set("root", "status", "aborted"), add("root", "b1", "banner", { level: "abort", message: "stopped by the user" })]));
    frame();
    expect(rootEl.scrollTop).toBe(700);
    // the reader scrolls: the view stays where they put it
    box.scrollTo(100);
    size.content = 1200;
    model.receive(opsMsg(4, [set("root", "finished_at", 2)]));
    frame();
    expect(rootEl.scrollTop).toBe(100);
  });
});

describe("bars under the header", () => {
  it("the replay bar stays right under the header; the timeline opens below it; one sticky block", () => {
    const { model, el } = liveOnFakeTimers({ replay: { total: 10, position: 3, playing: false, speed: 1 } });
    model.receive(snapshot(1, [root({ started_at: 0, finished_at: 100 })]));
    const top = el.querySelector(".mn-root > .mn-top") as HTMLElement;
    const order = [...top.children].map((child) => child.className.split(" ")[0]);
    expect(order).toEqual(["mn-header", "mn-replay", "mn-timeline"]);
    vi.useRealTimers();
  });
});

describe("one word per state", () => {
  it("a replay held short of its end says paused, not running; playing or at its end it does not", () => {
    const { model, el, frame } = liveOnFakeTimers({ replay: { total: 10, position: 3, playing: false, speed: 1 } });
    model.receive(snapshot(1, [root({ status: "running", started_at: 0 })]));
    frame();
    const badge = () => el.querySelector(".mn-header .mn-state")?.textContent;
    expect(badge()).toBe("paused");
    model.set("replay", { total: 10, position: 4, playing: true, speed: 1 });
    expect(badge()).toBe("running");
    model.set("replay", { total: 10, position: 10, playing: false, speed: 1 });
    model.receive(opsMsg(2, [set("root", "status", "finished")]));
    frame();
    expect(badge()).toBe("finished");
    vi.useRealTimers();
  });
});
