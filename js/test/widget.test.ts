import { describe, expect, it } from "vitest";
import widget, { mountStatic } from "../src/widget";
import { FakeModel, add, append, nextFrame, opsMsg, root, set, snapshot, nextUpdate } from "./helpers";

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

  it("batches DOM updates (one per frame, at most one per 100 ms) and sets data-status / data-seq", async () => {
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
    await nextFrame();
    expect(rootEl()?.dataset.status).toBe("running"); // too soon after the last update
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
