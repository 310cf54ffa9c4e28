/**
 * One status vocabulary: every place the widget shows a status (the header's badge, the footer, the
 * badges of runs, workflows, tools, steps and tasks, a task's history, the status banner) says the
 * word of the one table (mastra_notebook/core/status_words.json), never a key of its own.
 */
import { describe, expect, it } from "vitest";
import table from "../../mastra_notebook/core/status_words.json";
import { BANNERS, DECISIONS, STATUSES, statusWord } from "../src/status-words";
import type { Op, ToolNode } from "../src/types";
import { decisionSummary, decisionText } from "../src/render/human";
import { add, mount } from "./helpers";

const KEYS = Object.keys(STATUSES);
const WORDS = new Set(Object.values(STATUSES).map((entry) => entry.word));

/** Every status word the element shows, where it shows one. */
function shownWords(el: ParentNode): string[] {
  const words: string[] = [];
  for (const badge of el.querySelectorAll(".mn-badge")) words.push(badge.textContent ?? "");
  for (const value of el.querySelectorAll('[data-stat="status"] .mn-stat-value')) words.push(value.textContent ?? "");
  for (const history of el.querySelectorAll(".mn-history")) words.push(...(history.textContent ?? "").split(" → "));
  return words;
}

describe("the one table of status words", () => {
  it("is the JSON file, bundled as it is", () => {
    expect(STATUSES).toEqual(table.statuses);
    expect(DECISIONS).toEqual(table.decisions);
    expect(BANNERS).toEqual(table.banners);
  });

  it("never shows a key whose word is another (aborted is stopped everywhere, denied declined)", () => {
    for (const word of WORDS) if (word in STATUSES) expect(statusWord(word)).toBe(word);
  });

  it("every badge, footer and task history of every status says the table's word", () => {
    const ops: Op[] = [];
    KEYS.forEach((status, i) => {
      ops.push(add("root", `tool${i}`, "tool", { tool_call_id: `c${i}`, tool_name: "t", status }));
      ops.push(add("root", `step${i}`, "workflow-step", { step_name: `s${i}`, status }));
      ops.push(add("root", `task${i}`, "background-task", { task_id: `k${i}`, status, history: ["started", status] }));
      ops.push(add(`tool${i}`, `run${i}`, "run", { nested: true, agent_id: "a", status, workflow: { workflow_id: "w", status } }));
    });
    const { el } = mount(ops);
    const shown = shownWords(el);
    expect(shown.length).toBeGreaterThan(KEYS.length * 5);
    for (const word of shown) expect(WORDS, `"${word}" is not a word of the table`).toContain(word);
    KEYS.forEach((status, i) => {
      const badge = el.querySelector(`[data-node-id="tool${i}"] > .mn-card-head .mn-badge`);
      expect(badge?.textContent).toBe(statusWord(status));
    });
  }, 30_000); // a hundred cards and nested runs: seconds in jsdom on a busy host

  it("the header's badge and the footer say each run status in its word, and its banner the table's", () => {
    for (const status of ["running", "finished", "error", "aborted", "tripwire", "suspended", "incomplete"]) {
      const { el } = mount([], { status });
      expect(el.querySelector(".mn-header .mn-state")?.textContent).toBe(statusWord(status));
      expect(el.querySelector('[data-stat="status"] .mn-stat-value')?.textContent).toBe(statusWord(status));
      expect(el.querySelector(".mn-status-banner")?.textContent ?? "").toBe(BANNERS[status] ?? "");
    }
  });

  it("a suspended run's banner says the call that continues it", () => {
    const call = 'view.resume({"approved": True}, step="request")';
    const { el } = mount([], { status: "suspended", continue_with: call });
    expect(el.querySelector(".mn-status-banner")?.textContent).toBe(`${BANNERS.suspended}: continue with ${call}`);
  });

  it("a decision is said in the table's past tense", () => {
    const node: ToolNode = { id: "t", kind: "tool", status: "done", decision: { action: "decline", by: "view", waited_ms: 1200, waited: "1.2 s" } };
    expect(decisionText(node)).toBe("Declined in the view · waited 1.2 s for a person");
    expect(decisionSummary(node)).toBe("declined in the view after 1.2 s");
  });
});
