import { describe, expect, it } from "vitest";
import { Store } from "../src/store";
import type { Op } from "../src/types";
import { View } from "../src/view";
import { add, mount, nodeEl, opsMsg, set } from "./helpers";

function tool(id: string, fields: Record<string, unknown> = {}, parent = "root"): Op {
  return add(parent, id, "tool", { tool_call_id: `call_${id}`, tool_name: "getWeather", status: "running", ...fields });
}

function live(ops: Op[]): { host: HTMLElement; store: Store; seq: { n: number }; send: (ops: Op[]) => void } {
  const store = new Store();
  const host = document.createElement("div");
  document.body.append(host);
  const view = new View(host, store, () => {});
  store.subscribe((c) => view.apply(c));
  const seq = { n: 1 };
  store.receive(opsMsg(seq.n, [add(null, "root", "run", {}), ...ops]));
  return { host, store, seq, send: (more) => store.receive(opsMsg(++seq.n, more)) };
}

const head = (card: HTMLElement) => card.querySelector<HTMLElement>(":scope > .mn-card-head") as HTMLElement;
const body = (card: HTMLElement) => card.querySelector<HTMLElement>(":scope > .mn-card-body") as HTMLElement;
const key = (el: HTMLElement, k: string) => {
  const event = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
  el.dispatchEvent(event);
  return event;
};

describe("folding cards", () => {
  it("folds a finished tool to one line: name(args) → result, and keeps live ones open", () => {
    const { el } = mount([
      // the folded line's labels are the kernel's (core/captions.py; their words: tests/test_captions.py)
      tool("ok", {
        status: "done", args: { city: "Paris", days: 3 }, result: { temp: 21, sky: "clear" }, started_at: 0, ended_at: 38,
        args_summary: 'city="Paris", days=3', outcome: '→ {temp: 21, sky: "clear"}', duration: "38 ms",
      }),
      tool("bad", { status: "error", args: { symbol: "ACME" }, error: { message: "Stock API down\nstack…" }, outcome: "→ error: Stock API down…" }),
      tool("no", { status: "denied", args: {}, denied_reason: "not today", outcome: "→ declined: not today" }),
      tool("run", { status: "running", args: { city: "Rome" } }),
      tool("ask", { status: "awaiting-approval", args: { id: 1 } }),
      tool("sus", { status: "suspended", args: { id: 2 } }),
    ]);
    const ok = nodeEl(el, "ok");
    expect(ok.classList.contains("mn-folded")).toBe(true);
    expect(body(ok).hidden).toBe(true);
    expect(head(ok).getAttribute("aria-expanded")).toBe("false");
    expect(head(ok).querySelector(".mn-call")?.textContent).toBe('getWeather(city="Paris", days=3)');
    expect(head(ok).querySelector(".mn-fold-outcome")?.textContent).toBe('→ {temp: 21, sky: "clear"}');
    expect(head(ok).querySelector(".mn-duration")?.textContent).toBe("38 ms");
    expect(head(nodeEl(el, "bad")).querySelector(".mn-fold-outcome")?.textContent).toBe("→ error: Stock API down…");
    expect(head(nodeEl(el, "no")).querySelector(".mn-fold-outcome")?.textContent).toBe("→ declined: not today");
    for (const id of ["run", "ask", "sus"]) {
      expect(nodeEl(el, id).classList.contains("mn-folded")).toBe(false);
      expect(body(nodeEl(el, id)).hidden).toBe(false);
      expect(head(nodeEl(el, id)).getAttribute("aria-expanded")).toBe("true");
    }
  });

  it("opens and closes on a head click, Enter and Space; a click on a control does not fold", () => {
    const { el } = mount([tool("t", { status: "done", args: { a: 1 }, result: "ok" })]);
    const card = nodeEl(el, "t");
    const h = head(card);
    expect(h.getAttribute("role")).toBe("button");
    expect(h.tabIndex).toBe(0);
    h.click();
    expect(body(card).hidden).toBe(false);
    expect(h.getAttribute("aria-expanded")).toBe("true");
    const enter = key(h, "Enter");
    expect(enter.defaultPrevented).toBe(true);
    expect(body(card).hidden).toBe(true);
    key(h, " ");
    expect(body(card).hidden).toBe(false);
    key(h, "a");
    expect(body(card).hidden).toBe(false);
    const button = document.createElement("button");
    h.append(button);
    button.click();
    expect(body(card).hidden).toBe(false);
  });

  it("keeps the user's choice across updates: folded while running stays folded, opened stays open", () => {
    const { host, send } = live([tool("a", { status: "running" }), tool("b", { status: "running" })]);
    const a = nodeEl(host, "a");
    const b = nodeEl(host, "b");
    head(a).click(); // the user folds a live card
    expect(body(a).hidden).toBe(true);
    send([set("a", "outputs", [{ p: 1 }])]);
    expect(body(a).hidden).toBe(true);
    head(b).click(); // folds b, then opens it again: an explicit "open"
    head(b).click();
    send([set("a", "status", "done"), set("b", "status", "done"), set("b", "result", { x: 1 })]);
    expect(body(a).hidden).toBe(true);
    expect(body(b).hidden).toBe(false);
  });

  it("folds a live tool once it is done", () => {
    const { host, send } = live([tool("t", { status: "running", args: { city: "Paris" } })]);
    expect(body(nodeEl(host, "t")).hidden).toBe(false);
    send([set("t", "status", "done"), set("t", "result", 21), set("t", "outcome", "→ 21")]);
    expect(body(nodeEl(host, "t")).hidden).toBe(true);
    expect(nodeEl(host, "t").querySelector(".mn-fold-outcome")?.textContent).toBe("→ 21");
  });

  it("keeps a sub-agent card open and its raw result under a folded toggle", () => {
    const raw = { text: "Forecast", subAgentThreadId: "thread-1", subAgentToolResults: [] };
    const { el } = mount([
      tool("t", { tool_name: "agent-researcher", status: "done", args: { prompt: "Go" }, result: raw, outcome: '→ "Forecast"' }),
      add("t", "r", "run", { nested: true, agent_id: "researcher", status: "finished" }),
      add("r", "x", "text", { text: "Forecast" }),
      tool("plain", { status: "done", result: raw }),
    ]);
    const card = nodeEl(el, "t");
    expect(body(card).hidden).toBe(false);
    const rawToggle = body(card).querySelector<HTMLDetailsElement>(":scope > .mn-raw-result details.mn-raw");
    expect(rawToggle?.open).toBe(false);
    expect(rawToggle?.querySelector("summary")?.textContent).toBe("Raw result");
    expect(rawToggle?.textContent).toContain("subAgentThreadId");
    expect(body(card).querySelector(":scope > .mn-result:not(.mn-raw-result)")?.hasChildNodes()).toBe(false);
    // folded by hand, its line says what the sub-agent answered, not its raw result
    head(card).click();
    expect(head(card).querySelector(".mn-fold-outcome")?.textContent).toBe('→ "Forecast"');
    // without a nested run, the result is shown as it is
    expect(nodeEl(el, "plain").querySelector(".mn-result:not(.mn-raw-result) pre")?.textContent).toContain("subAgentThreadId");
  });

  it("folds a workflow step on its head and folds an input that repeats the previous output", () => {
    const forecast = { city: "Berlin", days: [1, 2, 3] };
    const { el } = mount([
      add("root", "s1", "workflow-step", { step_name: "fetch-forecast", status: "success", input: { city: "Berlin" }, output: forecast, outcome: '→ {city: "Berlin", days: [3]}' }),
      add("root", "s2", "workflow-step", { step_name: "write-report", status: "running", input: { ...forecast } }),
      add("root", "s3", "workflow-step", { step_name: "other", status: "running", input: { city: "Rome" } }),
    ]);
    const s1 = nodeEl(el, "s1");
    expect(body(s1).hidden).toBe(true);
    expect(head(s1).querySelector(".mn-fold-outcome")?.textContent).toBe('→ {city: "Berlin", days: [3]}');
    key(head(s1), "Enter");
    expect(body(s1).hidden).toBe(false);
    expect(s1.querySelector(".mn-input pre")?.textContent).toBe('{"city": "Berlin"}');
    const s2 = nodeEl(el, "s2");
    expect(body(s2).hidden).toBe(false);
    const same = s2.querySelector<HTMLDetailsElement>(".mn-input-same details");
    expect(same?.open).toBe(false);
    expect(same?.querySelector("summary")?.textContent).toBe("Input: same as fetch-forecast's output");
    expect(same?.querySelector("summary bdi")?.getAttribute("dir")).toBe("auto");
    expect(s2.querySelector(".mn-input:not(.mn-input-same)")?.hasChildNodes()).toBe(false);
    expect(nodeEl(el, "s3").querySelector(".mn-input-same")?.hasChildNodes()).toBe(false);
  });

  it("reasoning the user opened while thinking stays open once done", () => {
    const { host, send } = live([add("root", "r", "reasoning", { text: "Hmm", started_at: 0, ended_at: null })]);
    const details = nodeEl(host, "r") as HTMLDetailsElement;
    const summary = details.querySelector("summary") as HTMLElement;
    summary.click(); // fold (jsdom toggles details on a summary click)
    summary.click(); // and open again
    expect(details.open).toBe(true);
    send([set("r", "ended_at", 100)]);
    expect(details.open).toBe(true);
  });
});

describe("bounded details", () => {
  it("cuts JSON longer than 12 lines behind show all, keeping the whole text", () => {
    const long = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`key${i}`, `a value long enough to break the line ${i}`]));
    const { el } = mount([tool("t", { status: "running", args: long })]);
    const args = nodeEl(el, "t").querySelector(".mn-args") as HTMLElement;
    const pre = args.querySelector("pre") as HTMLElement;
    const button = args.querySelector<HTMLButtonElement>("button.mn-show-all") as HTMLButtonElement;
    expect(pre.classList.contains("mn-json-cut")).toBe(true);
    expect(pre.textContent).toContain("key29");
    expect(button.textContent).toBe("show all 32 lines");
    button.click();
    expect(pre.classList.contains("mn-json-cut")).toBe(false);
    expect(button.textContent).toBe("show less");
    expect(button.getAttribute("aria-expanded")).toBe("true");
  });

  it("draws structured output once: the tree, with a raw JSON toggle; the JSON text is marked", () => {
    const object = { city: "Paris", confidence: 0.87 };
    const { el } = mount([add("root", "t", "text", { text: JSON.stringify(object, null, 2) }), add("root", "p", "text", { text: "Prose" })], {
      object,
      object_final: true,
    });
    const run = el.querySelector(".mn-run-root") as HTMLElement;
    expect(run.hasAttribute("data-structured")).toBe(true);
    expect(nodeEl(el, "t").hasAttribute("data-json")).toBe(true);
    expect(nodeEl(el, "p").hasAttribute("data-json")).toBe(false);
    const raw = run.querySelector<HTMLDetailsElement>(".mn-object details.mn-raw") as HTMLDetailsElement;
    expect(raw.querySelector("summary")?.textContent).toBe("raw JSON");
    expect(raw.querySelector("pre")).toBeNull(); // drawn only when opened
    raw.open = true;
    raw.dispatchEvent(new Event("toggle"));
    expect(raw.querySelector("pre")?.textContent).toBe('{"city": "Paris", "confidence": 0.87}');
    const plain = mount([add("root", "t", "text", { text: '{"a": 1}' })]);
    expect(plain.el.querySelector(".mn-run-root")?.hasAttribute("data-structured")).toBe(false);
  });

  it("isolates untrusted labels so U+202E cannot reorder the text around them", () => {
    const evil = "x\u202eyrammus_weiv";
    const { el } = mount([
      tool("t", { tool_name: evil, status: "done", result: "ok" }),
      add("t", "r", "run", { nested: true, agent_id: evil, status: "finished" }),
      add("root", "s", "workflow-step", { step_name: evil, status: "success" }),
    ]);
    const labels = [
      nodeEl(el, "t").querySelector(".mn-card-head .mn-name"),
      nodeEl(el, "r").querySelector(".mn-run-label"),
      nodeEl(el, "s").querySelector(".mn-card-head .mn-name"),
    ];
    for (const label of labels) {
      expect(label?.tagName).toBe("BDI");
      expect(label?.getAttribute("dir")).toBe("auto");
      expect(label?.textContent).toBe(evil); // the name itself is kept as it came
    }
  });
});
