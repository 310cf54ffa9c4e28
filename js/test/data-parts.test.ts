import { describe, expect, it } from "vitest";
import { add, mount, nodeEl } from "./helpers";

// Mastra's own data parts as `@mastra/core` writes them: {type, data, transient}
const HOSTILE = '<img src=x onerror="globalThis.pwned=1"><script>globalThis.pwned=1</script>\u202Eevil';

describe("Mastra's named data parts", () => {
  const { el } = mount([
    add("root", "out", "data", { type: "data-sandbox-stdout", data: { output: `ok\n${HOSTILE}`, toolCallId: "c" } }),
    add("root", "err", "data", { type: "data-sandbox-stderr", data: { output: HOSTILE, toolCallId: "c" } }),
    add("root", "ex0", "data", { type: "data-sandbox-exit", data: { exitCode: 0, success: true, executionTimeMs: 12.4 } }),
    add("root", "ex1", "data", { type: "data-sandbox-exit", data: { exitCode: 2, success: false } }),
    add("root", "sig", "data", { type: "data-signal", data: { id: "tasks", type: "state", tagName: HOSTILE } }),
    add("root", "tw", "data", { type: "data-tripwire", data: { reason: HOSTILE, processorId: "guard" } }),
    add("root", "so", "data", { type: "data-structured-output", data: { object: { answer: HOSTILE } } }),
    add("root", "tl", "data", { type: "data-token-limit-reached", data: { processorId: "tl", limit: 50, tokens: 53 } }),
    add("root", "own", "data", { type: "data-progress", data: { pct: 10 } }),
  ]);
  const said = (id: string) => [".mn-kind-label", ".mn-name"].map((s) => nodeEl(el, id).querySelector(s)?.textContent);

  it("each say what they are", () => {
    expect(said("out")).toEqual(["Sandbox", "stdout"]);
    expect(said("err")).toEqual(["Sandbox", "stderr"]);
    expect(said("ex0")).toEqual(["Sandbox", "exited in 12 ms"]);
    expect(said("sig")).toEqual(["Signal", `state ${HOSTILE}`]);
    expect(said("tw")).toEqual(["Tripwire", `blocked by guard: ${HOSTILE}`]);
    expect(said("so")).toEqual(["Structured output", "the final object"]);
    expect(said("tl")).toEqual(["Token limit", "output withheld past 50 tokens (53 counted)"]);
    expect(said("own")).toEqual(["Data", "data-progress"]); // a part of the user's own stays as it was
  });

  it("draw the sandbox's output as a terminal, stderr apart, the exit code as a badge", () => {
    const out = nodeEl(el, "out").querySelector("pre.mn-term");
    expect(out?.classList.contains("mn-term-stdout")).toBe(true);
    expect(out?.textContent).toBe(`ok\n${HOSTILE}`);
    expect(nodeEl(el, "err").querySelector("pre.mn-term")?.classList.contains("mn-term-stderr")).toBe(true);
    const badge = (id: string) => nodeEl(el, id).querySelector(".mn-data-exit .mn-badge");
    expect([badge("ex0")?.textContent, badge("ex0")?.classList.contains("mn-tone-ok")]).toEqual(["exit 0", true]);
    expect([badge("ex1")?.textContent, badge("ex1")?.classList.contains("mn-tone-error")]).toEqual(["exit 2", true]);
    expect(badge("out")).toBeNull();
    expect(nodeEl(el, "so").textContent).toContain("Object");
  });

  it("keep every untrusted string inert", () => {
    expect(el.querySelector("img, script")).toBeNull();
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    expect(nodeEl(el, "tw").querySelector("pre")?.textContent).toContain("<script>");
  });
});
