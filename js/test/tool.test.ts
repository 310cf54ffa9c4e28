import { describe, expect, it } from "vitest";
import type { Op } from "../src/types";
import { statusWord } from "../src/status-words";
import { Store } from "../src/store";
import { View } from "../src/view";
import { add, append, mount, nodeEl, opsMsg, set } from "./helpers";

const STATUSES = ["streaming-args", "running", "done", "error", "awaiting-approval", "suspended", "denied"];

function tool(id: string, fields: Record<string, unknown> = {}, parent = "root"): Op {
  return add(parent, id, "tool", { tool_call_id: `call_${id}`, tool_name: "getWeather", status: "running", ...fields });
}

describe("tool card", () => {
  it("says when the provider ran the tool, or when the call was not in the stream", () => {
    const { el } = mount([tool("web", { provider_executed: true, status: "done" }), tool("lost", { orphan: true })]);
    expect(nodeEl(el, "web").querySelector(".mn-origin")?.textContent).toBe("run by the provider");
    expect(nodeEl(el, "lost").querySelector(".mn-origin")?.textContent).toBe("call not in this stream");
    expect(nodeEl(el, "web").querySelector<HTMLElement>(".mn-hidden-levels")?.hidden).toBe(true);
  });

  it("says how many levels of nesting it does not draw", () => {
    const { el } = mount([tool("deep", { hidden_levels: 936 })]);
    const note = nodeEl(el, "deep").querySelector<HTMLElement>(".mn-hidden-levels");
    expect(note?.hidden).toBe(false);
    expect(note?.textContent).toContain("936 more levels of nested runs");
  });

  it("says when its result is shown cut for its size, and where the whole value is", () => {
    const note = "Cut for the view: 48 MB of JSON in all, about 16 KB shown here. The whole value stays in the kernel, in";
    const where = "result.tool_call('call_big').result";
    const { el } = mount([tool("big", { status: "done", result: { rows: [1, "… 4,992 more items"] }, result_cut: { note, where } }), tool("small", { status: "done", result: { ok: 1 } })]);
    const cut = nodeEl(el, "big").querySelector(".mn-value-cut");
    expect(cut?.textContent).toBe(`${note} ${where}`);
    expect(cut?.querySelector("code")?.textContent).toBe(where); // the Python to type, as code
    expect(nodeEl(el, "small").querySelector(".mn-value-cut")).toBeNull();
  });

  it("draws a records list cut for the view as a table, the rows it was not sent counted", () => {
    const rows = [{ id: 1, name: "a" }, { id: 2, name: "b" }, { id: 3, "…": "1 more keys" }, "… 1,200 more items"];
    const { el } = mount([tool("rows", { status: "done", result: rows })]);
    const card = nodeEl(el, "rows");
    expect(card.querySelectorAll(".mn-table tbody tr").length).toBe(2); // the row cut short is left out
    expect(card.querySelector(".mn-table-more")?.textContent).toBe("1,201 more rows (in the kernel)");
  });

  it.each(STATUSES)("shows status %s as a badge and data-tool-status", (status) => {
    const { el } = mount([tool("t", { status })]);
    const card = nodeEl(el, "t");
    expect(card.dataset.kind).toBe("tool");
    expect(card.dataset.toolStatus).toBe(status);
    expect(card.querySelector(".mn-badge")?.textContent).toBe(statusWord(status)); // the one table's word
    expect(card.querySelector(".mn-name")?.textContent).toBe("getWeather");
  });

  it("shows args live: raw text while streaming, compact JSON once parsed", () => {
    const store = new Store();
    const host = document.createElement("div");
    const view = new View(host, store, () => {});
    store.subscribe((c) => view.apply(c));
    store.receive(opsMsg(1, [add(null, "root", "run", {}), tool("t", { status: "streaming-args", args_text: "", args: null })]));
    store.receive(opsMsg(2, [append("t", "args_text", '{"ci')]));
    const args = () => nodeEl(host, "t").querySelector(".mn-args pre")?.textContent;
    expect(args()).toBe('{"ci');
    store.receive(opsMsg(3, [append("t", "args_text", 'ty":"Paris"}'), set("t", "args", { city: "Paris" })]));
    expect(args()).toBe('{"city": "Paris"}');
  });

  it("shows result, error, outputs, duration, suspended payload and denied reason", () => {
    const longResult = Array.from({ length: 60 }, (_, i) => i);
    const { el } = mount([
      tool("ok", { status: "done", result: { temp: 21 }, started_at: 1000, ended_at: 2500, duration: "1.5 s", outputs: [{ step: 1 }, "two"] }),
      tool("long", { status: "done", result: longResult }),
      tool("bad", { status: "error", error: { message: "Stock API down", name: "Error" } }),
      tool("sus", { status: "suspended", suspend_payload: { why: "needs input" } }),
      tool("no", { status: "denied", denied_reason: "not today" }),
    ]);
    const ok = nodeEl(el, "ok");
    expect(ok.querySelector(".mn-result pre")?.textContent).toBe('{"temp": 21}');
    expect(ok.querySelector(".mn-result .mn-show-all")).toBeNull();
    expect(ok.querySelector(".mn-duration")?.textContent).toBe("1.5 s");
    expect([...ok.querySelectorAll(".mn-outputs li")].map((li) => li.textContent)).toEqual(['{"step": 1}', "two"]);
    // 60 numbers fit on one line: compact, not one per line
    expect(nodeEl(el, "long").querySelector(".mn-result pre")?.textContent?.split("\n").length).toBeLessThan(12);
    expect(nodeEl(el, "bad").querySelector(".mn-error")?.textContent).toBe("Stock API down");
    expect(nodeEl(el, "sus").querySelector(".mn-suspended pre")?.textContent).toContain("needs input");
    expect(nodeEl(el, "no").querySelector(".mn-denied")?.textContent).toBe("Declined: not today");
  });

  it("nests sub-runs 3 deep as foldable details", () => {
    const { el } = mount([
      tool("t1", { tool_name: "agent-researcher" }),
      add("t1", "r1", "run", { nested: true, agent_id: "researcher", status: "running" }),
      tool("t2", { tool_name: "workflow-report" }, "r1"),
      add("t2", "r2", "run", { nested: true, agent_id: "reporter", status: "running" }),
      tool("t3", { tool_name: "getForecast", status: "done", result: "sunny" }, "r2"),
      add("t3", "r3", "run", { nested: true, agent_id: "deepest", status: "finished" }),
      add("r3", "x3", "text", { text: "deep text" }),
    ]);
    const r1 = nodeEl(el, "r1");
    expect(r1.tagName).toBe("DETAILS");
    expect(r1.closest('[data-node-id="t1"]')).not.toBeNull();
    const r3 = nodeEl(el, "r3");
    expect(r3.querySelector(".mn-run-summary")?.textContent).toContain("deepest");
    const chain: string[] = [];
    for (let e: Element | null = nodeEl(el, "x3"); e; e = e.parentElement?.closest("[data-node-id]") ?? null) {
      chain.push(e.getAttribute("data-node-id") ?? "");
    }
    expect(chain).toEqual(["x3", "r3", "t3", "r2", "t2", "r1", "t1", "root"]);
    expect(nodeEl(el, "x3").textContent).toContain("deep text");
  });
});

describe("tool card time", () => {
  // the kernel leaves the wait out of `duration` (core/captions.py, tests/test_captions.py); the card shows it
  it("shows the kernel's duration, the person's wait left out", () => {
    const { el } = mount([
      tool("approved", {
        status: "done", started_at: 1000, ended_at: 9000, duration: "500 ms",
        decision: { action: "approve", by: "view", at: 8500, waited_ms: 7500, waited: "7.5 s" },
      }),
    ]);
    expect(nodeEl(el, "approved").querySelector(".mn-duration")?.textContent).toBe("500 ms");
  });
});

describe("a folded, decided tool card's head", () => {
  const head = (el: HTMLElement, id: string) => nodeEl(el, id).querySelector<HTMLElement>(".mn-card-head");

  it("says who decided, and the person's wait apart from the tool's time", () => {
    const { el } = mount([
      tool("sent", {
        tool_name: "send_email", status: "done", args: { to: "ada@example.com" }, result: "sent",
        args_summary: 'to="ada@example.com"', outcome: '→ "sent"', duration: "38 ms", // the kernel's captions
        started_at: 1000, ended_at: 9738, decision: { action: "approve", by: "view", at: 9700, waited_ms: 8700, waited: "8.7 s" },
      }),
      tool("no", {
        status: "denied", denied_reason: "not today", started_at: 0, ended_at: 2100,
        decision: { action: "decline", by: "python", at: 2100, waited_ms: 2100, waited: "2.1 s" },
      }),
    ]);
    const card = nodeEl(el, "sent");
    expect(card.classList.contains("mn-folded")).toBe(true);
    expect(head(el, "sent")?.querySelector(".mn-call")?.textContent).toBe('send_email(to="ada@example.com")');
    expect(head(el, "sent")?.querySelector(".mn-fold-outcome")?.textContent).toBe('→ "sent"');
    expect(head(el, "sent")?.querySelector(".mn-duration")?.textContent).toBe("38 ms");
    const decided = head(el, "sent")?.querySelector<HTMLElement>(".mn-fold-decision");
    expect(decided?.textContent).toBe("approved in the view after 8.7 s");
    expect(decided?.title).toBe("Approved in the view · waited 8.7 s for a person");
    expect(head(el, "no")?.querySelector(".mn-fold-decision")?.textContent).toBe("declined from Python after 2.1 s");
  });

  it("says nothing of a decision nobody made", () => {
    const { el } = mount([tool("plain", { status: "done", result: 1, started_at: 0, ended_at: 5 })]);
    expect(head(el, "plain")?.querySelector(".mn-fold-decision")?.textContent).toBe("");
  });
});
