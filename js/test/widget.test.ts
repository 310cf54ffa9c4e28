import { afterEach, describe, expect, it, vi } from "vitest";
import widget, { mountStatic } from "../src/widget";
import { FakeModel, add, append, fakeScrollBox, liveOnFakeTimers, nextFrame, opsMsg, root, set, snapshot, nextUpdate } from "./helpers";

function setup(traits: Record<string, unknown> = {}) {
  const model = new FakeModel(traits);
  const el = document.createElement("div");
  document.body.append(el);
  const cleanup = widget.render({ model, el });
  const rootEl = () => el.querySelector<HTMLElement>(".mn-root");
  return { model, el, cleanup, rootEl };
}

const finalSnapshot = snapshot(7, [root({ status: "finished" }), add("root", "t1", "text", { text: "Saved answer" })]);

describe("widget render", () => {
  it("applies _final first, then says hello", () => {
    const { model, el, rootEl } = setup({ _final: JSON.stringify(finalSnapshot) });
    expect(el.textContent).toContain("Saved answer");
    expect(rootEl()?.dataset.status).toBe("finished");
    expect(rootEl()?.dataset.seq).toBe("7");
    expect(model.sent).toEqual([{ t: "hello" }]);
  });

  it("keeps a card the reader opened when the kernel answers hello with the same run, and forgets it for another run", async () => {
    const doneTool = (id: string) => add("root", id, "tool", { tool_call_id: `call_${id}`, tool_name: "lookup", status: "done", args: {}, result: "ok" });
    const reasoning = add("root", "r1", "reasoning", { text: "thinking", done: true });
    const shown = snapshot(7, [root({ status: "finished" }), reasoning, doneTool("n2")], true);
    const { model, el } = setup({ _final: JSON.stringify(shown) });
    const head = () => el.querySelector<HTMLElement>('[data-node-id="n2"] > .mn-card-head') as HTMLElement;
    const thought = () => el.querySelector<HTMLDetailsElement>('[data-node-id="r1"]') as HTMLDetailsElement;
    expect(head().getAttribute("aria-expanded")).toBe("false"); // a finished tool starts folded
    expect(thought().open).toBe(false); // finished reasoning too
    head().click(); // the reader opens both before the kernel's answer to hello arrives (a busy kernel)
    thought().querySelector("summary")?.click();
    await new Promise((resolve) => setTimeout(resolve, 0)); // <details> says "toggle" in a task
    model.receive(snapshot(7, [root({ status: "finished" }), reasoning, doneTool("n2")])); // hello's answer
    await nextFrame();
    expect(head().getAttribute("aria-expanded")).toBe("true"); // redrawn, still open
    expect(thought().open).toBe(true);
    model.set("_final", JSON.stringify(snapshot(8, [root({ status: "finished" }), reasoning, doneTool("n2")], true))); // a grid's next run
    await nextFrame();
    expect(head().getAttribute("aria-expanded")).toBe("false"); // its own card, folded as drawn
    expect(thought().open).toBe(false);
  });

  it("merges the messages of a frame into one DOM update and sets data-status / data-seq", async () => {
    const { model, el, rootEl } = setup();
    model.receive(snapshot(0, [root()]));
    model.receive(opsMsg(1, [add("root", "t1", "text", { text: "" })]));
    for (let i = 0; i < 200; i++) model.receive(opsMsg(2 + i, [append("t1", "text", `w${i} `)]));
    expect(el.querySelector('[data-node-id="t1"]')).toBeNull(); // nothing before the frame
    await nextFrame();
    expect(el.querySelector('[data-node-id="t1"]')?.textContent).toContain("w199");
    expect(rootEl()?.dataset.seq).toBe("201");
    expect(rootEl()?.dataset.status).toBe("running");
    model.receive(opsMsg(202, [set("root", "status", "finished")]));
    await nextUpdate();
    expect(rootEl()?.dataset.status).toBe("finished");
  });

  it("asks for a resync on a gap and recovers", async () => {
    const { model, el } = setup();
    model.receive(snapshot(3, [root(), add("root", "t1", "text", { text: "a" })]));
    model.receive(opsMsg(5, [append("t1", "text", "lost")]));
    model.receive(opsMsg(6, [append("t1", "text", "lost")]));
    expect(model.sent).toEqual([{ t: "hello" }, { t: "resync", seq: 3 }]);
    model.receive(snapshot(6, [root(), add("root", "t1", "text", { text: "abc" })]));
    await nextFrame();
    expect(el.querySelector('[data-node-id="t1"]')?.textContent?.trim()).toBe("abc");
  });

  it("shows the title and the Stop button while streaming; Stop sends stop", () => {
    const { model, el } = setup({ title: "weather-agent", streaming: true });
    expect(el.querySelector(".mn-title")?.textContent).toBe("weather-agent");
    const stop = el.querySelector<HTMLButtonElement>("button.mn-stop");
    expect(stop?.hidden).toBe(false);
    stop?.click();
    expect(model.sent).toContainEqual({ t: "stop" });
    model.set("streaming", false);
    expect(stop?.hidden).toBe(true);
    model.set("title", "other");
    expect(el.querySelector(".mn-title")?.textContent).toBe("other");
  });

  it("Approve / Decline on a tool awaiting approval when can_approve", async () => {
    const { model, el } = setup({ can_approve: false });
    model.receive(
      snapshot(1, [
        root(),
        add("root", "a", "tool", { tool_call_id: "call_a", tool_name: "pay", status: "awaiting-approval" }),
        add("root", "b", "tool", { tool_call_id: "call_b", tool_name: "pay", status: "awaiting-approval" }),
        add("root", "c", "tool", { tool_call_id: "call_c", tool_name: "pay", status: "awaiting-approval" }),
      ]),
    );
    await nextFrame();
    expect(el.querySelector("button.mn-approve")).toBeNull();
    model.set("can_approve", true);
    const card = (id: string) => el.querySelector(`[data-node-id="${id}"]`) as HTMLElement;
    const button = (id: string, cls: string) => card(id).querySelector<HTMLButtonElement>(`button.${cls}`);

    button("a", "mn-approve")?.click();
    expect(model.sent).toContainEqual({ t: "approve", tool_call_id: "call_a" });
    expect(button("a", "mn-decline")?.disabled).toBe(true);

    button("b", "mn-decline")?.click();
    const reason = card("b").querySelector<HTMLInputElement>("input.mn-decline-reason");
    expect(reason?.closest<HTMLElement>(".mn-decline-form")?.hidden).toBe(false);
    if (reason) reason.value = "  too expensive ";
    button("b", "mn-decline-confirm")?.click();
    expect(model.sent).toContainEqual({ t: "decline", tool_call_id: "call_b", reason: "too expensive" });

    button("c", "mn-decline")?.click();
    card("c").querySelector("input")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    expect(model.sent).toContainEqual({ t: "decline", tool_call_id: "call_c", reason: null });

    model.receive(opsMsg(2, [set("a", "status", "running")]));
    await nextUpdate();
    expect(button("a", "mn-approve")).toBeNull();
  });

  it("cleanup removes its listeners and its DOM", () => {
    const { model, el, cleanup } = setup();
    expect(model.listenerCount()).toBeGreaterThan(0);
    cleanup();
    expect(model.listenerCount()).toBe(0);
    expect(el.querySelector(".mn-root")).toBeNull();
  });

  it("ignores messages that are not protocol messages", async () => {
    const { model, el } = setup();
    model.receive({ t: "something" });
    model.receive("text");
    model.receive(snapshot(1, [root()]));
    await nextFrame();
    expect(el.querySelector(".mn-root")?.getAttribute("data-seq")).toBe("1");
  });
});

describe("mountStatic", () => {
  it("renders a snapshot without a kernel, and another on demand", () => {
    const el = document.createElement("div");
    const handle = mountStatic(el, finalSnapshot, { title: "weather" });
    expect(el.textContent).toContain("Saved answer");
    expect(el.querySelector(".mn-title")?.textContent).toBe("weather");
    expect(el.querySelector<HTMLElement>("button.mn-stop")?.hidden).toBe(true);
    expect(handle.root.dataset.seq).toBe("7");
    handle.show(snapshot(3, [root(), add("root", "t1", "text", { text: "Earlier" })]));
    expect(el.textContent).toContain("Earlier");
    expect(handle.root.dataset.seq).toBe("3");
    handle.destroy();
    expect(el.childElementCount).toBe(0);
  });
});

/** A live view on fake timers (helpers.ts), and its header's stats. */
function fakeSetup(traits: Record<string, unknown> = {}) {
  const view = liveOnFakeTimers(traits);
  const header = view.rootEl.querySelector<HTMLElement>(".mn-header") as HTMLElement;
  const stat = (key: string) => header.querySelector<HTMLElement>(`[data-stat="${key}"]`) as HTMLElement;
  return { ...view, header, stat };
}

describe("live updates", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("after a quiet moment each change is drawn in the next frame (no fixed wait)", () => {
    const { model, el, frame } = fakeSetup();
    model.receive(snapshot(1, [root(), add("root", "t1", "text", { text: "" })]));
    frame();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(50); // 20 chunks a second
      model.receive(opsMsg(2 + i, [append("t1", "text", `w${i} `)]));
      frame();
      expect(el.querySelector('[data-node-id="t1"]')?.textContent).toContain(`w${i}`);
    }
  });
});

describe("header", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows the id, the prompt's first line, and a badge for each state", () => {
    const { model, header, frame } = fakeSetup({ title: "agent weather", subtitle: "What is the weather?", queued: true, streaming: true });
    const badge = () => header.querySelector<HTMLElement>(".mn-state") as HTMLElement;
    expect(header.querySelector(".mn-title")?.textContent).toBe("agent weather");
    expect(header.querySelector(".mn-subtitle")?.textContent).toBe("What is the weather?");
    expect(badge().textContent).toBe("queued");
    model.set("queued", false);
    expect(badge().textContent).toBe("starting");
    model.receive(snapshot(1, [root()]));
    frame();
    expect(badge().textContent).toBe("streaming");
    expect(header.dataset.state).toBe("streaming");
    const states: [string, boolean, string][] = [
      ["suspended", true, "waiting for approval"],
      ["suspended", false, "suspended"],
      ["finished", false, "finished"],
      ["error", false, "error"],
      ["aborted", false, "stopped"],
      ["tripwire", false, "blocked"],
    ];
    let seq = 1;
    for (const [status, approval, label] of states) {
      seq += 1;
      const tool = add("root", "c1", "tool", { tool_name: "pay", status: approval ? "awaiting-approval" : "done" });
      model.receive(snapshot(seq, [root({ status }), tool]));
      frame();
      expect(badge().textContent).toBe(label);
    }
  });

  it("counts the elapsed time while streaming, then shows tokens, time to first token and the duration", () => {
    const { model, stat, frame } = fakeSetup({ streaming: true });
    const start = Date.now();
    model.receive(snapshot(1, [root({ started_at: start })]));
    frame();
    expect(stat("elapsed").textContent).toBe("0 s");
    expect(stat("tokens").hidden).toBe(true);
    expect(stat("cost").hidden).toBe(true); // a slot until costs exist
    vi.advanceTimersByTime(3000); // no message: the counter ticks by itself
    expect(stat("elapsed").textContent).toBe("3 s");
    const figures = { first_token: "800 ms", tokens: "1,234 tokens · 1,500 with sub-agents" }; // the kernel's
    model.receive(opsMsg(2, [set("root", "first_token_at", start + 800), set("root", "figures", figures)]));
    frame();
    expect(stat("ttft").textContent).toBe("first token 800 ms");
    expect(stat("tokens").textContent).toBe("1,234 tokens · 1,500 with sub-agents");
    const done = { ...figures, duration: "4.5 s" };
    model.receive(opsMsg(3, [set("root", "status", "finished"), set("root", "finished_at", start + 4500), set("root", "figures", done)]));
    model.set("streaming", false);
    frame();
    expect(stat("elapsed").textContent).toBe("4.5 s");
    vi.advanceTimersByTime(5000);
    expect(stat("elapsed").textContent).toBe("4.5 s"); // stopped ticking
    expect(vi.getTimerCount()).toBe(0);
  });

  it("shows the cost when it is known, and nothing when it is not (the footer says why)", () => {
    const { model, stat, frame } = fakeSetup();
    const unknown = { cost: "unknown", cost_title: "no price for mock-weather" }; // the kernel's figures
    model.receive(snapshot(1, [root({ status: "finished", figures: unknown })]));
    frame();
    expect(stat("cost").hidden).toBe(true);
    model.receive(opsMsg(2, [set("root", "figures", { cost: "$0.0021", cost_title: "USD, from genai-prices" })]));
    frame();
    expect(stat("cost").hidden).toBe(false);
    expect(stat("cost").textContent).toBe("$0.0021");
  });

  it("keeps Stop in the header while streaming", () => {
    const { model, header } = fakeSetup({ streaming: true });
    const stop = header.querySelector<HTMLButtonElement>("button.mn-stop");
    expect(stop?.hidden).toBe(false);
    stop?.click();
    expect(model.sent).toContainEqual({ t: "stop" });
    expect(stop?.textContent).toBe("Stopping…");
  });
});

/** A streaming view in a 400 px box, one text part; `grow()` adds 300 px of text and draws a frame. */
function streamingInABox() {
  const { model, rootEl, frame } = fakeSetup({ max_height: "400px", streaming: true });
  const size = { content: 400, client: 400 };
  const box = fakeScrollBox(rootEl, size);
  model.receive(snapshot(1, [root(), add("root", "t1", "text", { text: "" })]));
  frame();
  let seq = 1;
  const grow = () => {
    size.content += 300;
    seq += 1;
    model.receive(opsMsg(seq, [append("t1", "text", "more ")]));
    frame();
  };
  return { model, rootEl, size, box, grow };
}

describe("bounded height", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes max_height as the root's max-height; an empty one leaves the view unbounded", () => {
    const { model, rootEl } = fakeSetup({ max_height: "70vh" });
    expect(rootEl.style.maxHeight).toBe("70vh");
    expect(rootEl.classList.contains("mn-bounded")).toBe(true);
    model.set("max_height", "480px");
    expect(rootEl.style.maxHeight).toBe("480px");
    model.set("max_height", "");
    expect(rootEl.style.maxHeight).toBe("");
    expect(rootEl.classList.contains("mn-bounded")).toBe(false);
  });

  it("follows the newest content while streaming, stops when the reader scrolls up, jumps back", () => {
    const { model, rootEl, size, box, grow } = streamingInABox();
    const jumpBar = rootEl.querySelector<HTMLElement>(".mn-jump-bar") as HTMLElement;
    grow();
    expect(rootEl.scrollTop).toBe(300); // at the end
    grow();
    expect(rootEl.scrollTop).toBe(600);
    expect(jumpBar.hidden).toBe(true);

    box.moved(300); // moved up, not by the reader: still following
    grow();
    expect(rootEl.scrollTop).toBe(size.content - size.client);

    vi.advanceTimersByTime(2000);
    box.scrollTo(200); // the reader scrolls up
    grow();
    expect(rootEl.scrollTop).toBe(200); // left where the reader is
    expect(jumpBar.hidden).toBe(false);

    jumpBar.querySelector<HTMLButtonElement>("button.mn-jump")?.click();
    expect(rootEl.scrollTop).toBe(size.content - size.client);
    expect(jumpBar.hidden).toBe(true);
    grow();
    expect(rootEl.scrollTop).toBe(size.content - size.client); // following again

    box.scrollTo(100);
    box.scrollTo(size.content - size.client); // scrolling back down to the end follows again
    grow();
    expect(rootEl.scrollTop).toBe(size.content - size.client);
    expect(jumpBar.hidden).toBe(true);

    box.scrollTo(0);
    model.set("streaming", false); // the run ended: no more following, no button
    expect(jumpBar.hidden).toBe(true);
  });

  it("a wheel turned up stops following at once, though a frame comes before its scroll event", () => {
    const { rootEl, grow } = streamingInABox();
    grow();
    grow();
    expect(rootEl.scrollTop).toBe(600);
    vi.advanceTimersByTime(2000);
    rootEl.dispatchEvent(new WheelEvent("wheel", { deltaY: -800 }));
    rootEl.scrollTop = 200; // the browser scrolls...
    grow(); // ...a frame follows before the scroll event is dispatched
    rootEl.dispatchEvent(new Event("scroll"));
    grow();
    expect(rootEl.scrollTop).toBe(200); // left where the reader went

    rootEl.dispatchEvent(new WheelEvent("wheel", { deltaY: 800 })); // down: no change by itself
    grow();
    expect(rootEl.scrollTop).toBe(200);
  });

  it("off screen, reads no height while it streams; follows the tail once it shows", () => {
    const observers: { callback: IntersectionObserverCallback; target?: Element; disconnected?: boolean }[] = [];
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        private readonly entry: { callback: IntersectionObserverCallback; target?: Element; disconnected?: boolean };
        constructor(callback: IntersectionObserverCallback) {
          this.entry = { callback };
          observers.push(this.entry);
        }
        observe(target: Element) {
          this.entry.target = target;
        }
        unobserve() {}
        disconnect() {
          this.entry.disconnected = true;
        }
      },
    );
    try {
      const { model, rootEl, frame } = fakeSetup({ max_height: "400px", streaming: true });
      const size = { content: 400, client: 400 };
      fakeScrollBox(rootEl, size);
      let heightReads = 0;
      Object.defineProperty(rootEl, "scrollHeight", {
        get: () => (heightReads++, size.content),
        configurable: true,
      });
      const watch = observers.find((o) => o.target === rootEl);
      expect(watch).toBeDefined();
      const show = (isIntersecting: boolean) =>
        watch?.callback([{ isIntersecting, target: rootEl } as unknown as IntersectionObserverEntry], {} as never);
      show(false); // below the fold
      model.receive(snapshot(1, [root(), add("root", "t1", "text", { text: "" })]));
      frame();
      for (let seq = 2; seq < 6; seq++) {
        size.content += 300;
        model.receive(opsMsg(seq, [append("t1", "text", "more ")]));
        frame();
      }
      expect(rootEl.querySelector(".mn-text")?.textContent).toContain("more more more more");
      expect(heightReads).toBe(0); // no layout forced for a view the page does not draw
      expect(rootEl.scrollTop).toBe(0);
      show(true); // scrolled into view: at the newest content at once
      expect(rootEl.scrollTop).toBe(size.content - size.client);
      model.set("streaming", false); // ended: no longer watched (an observer per view slowed scrolling)
      expect(watch?.disconnected).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
