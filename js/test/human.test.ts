import { describe, expect, it } from "vitest";
import { add, mount, nodeEl, root, snapshot } from "./helpers";
import { continueWith, decisionText, humanWaitWithin } from "../src/render/human";
import type { RunNode, ToolNode } from "../src/types";

describe("human waits", () => {
  it("measures the time a person took within a span", () => {
    const run: RunNode = {
      id: "root", kind: "run", started_at: 0, first_token_at: 1000, finished_at: 11_000,
      usage: { output_tokens: 100 }, human_waits: [[2000, 10_000], [500, 1500]],
    };
    expect(humanWaitWithin(run, 1000, 11_000)).toBe(8500); // the second wait only from the first token
  });

  it("says who decided and how long they took", () => {
    const tool: ToolNode = { id: "t", kind: "tool", status: "done", decision: { action: "approve", by: "view", at: 5, waited_ms: 8700, waited: "8.7 s" } };
    expect(decisionText(tool)).toBe("Approved in the view · waited 8.7 s for a person");
    expect(decisionText({ id: "t", kind: "tool" })).toBeNull();
  });

  it("shows the call that continues a waiting tool, until someone decides", () => {
    const call = 'view.resume({"answer": ...}, tool_call_id="c1")';
    const fields = { tool_call_id: "c1", tool_name: "askUser", status: "suspended",
      suspend_payload: { question: "<b>Which city?</b>" }, continue_with: call };
    const { el, show } = mount([add("root", "t", "tool", fields)]);
    const card = nodeEl(el, "t");
    expect(card.querySelector(".mn-continue-code")?.textContent).toBe(call);
    expect(card.querySelector(".mn-suspended")?.textContent).toContain("<b>Which city?</b>"); // as text
    expect(card.querySelector("b")).toBeNull();
    expect(continueWith({ id: "t", kind: "tool", status: "done", continue_with: call })).toBeNull();
    const decision = { action: "resume", by: "python", at: 1, waited_ms: 2000, waited: "2.0 s" }; // waited: the kernel's
    show(snapshot(2, [root(), add("root", "t", "tool", { ...fields, decision })]));
    const after = nodeEl(el, "t");
    expect((after.querySelector(".mn-continue") as HTMLElement).hidden).toBe(true);
    expect(after.querySelector(".mn-decision")?.textContent).toBe("Resumed from Python · waited 2.0 s for a person");
  });
});
