/** The words a rich result's card says (issue 21's follow-ups): a failed display by its source, a table's folded outcome as the kernel wrote it. */
import { describe, expect, it } from "vitest";
import { displayError } from "../src/render/rich";
import { add, mount, nodeEl } from "./helpers";

function failed(source: string): HTMLElement {
  const { el } = mount([
    add("root", "t", "tool", { tool_call_id: "call_t", tool_name: "query", status: "done", result: { rows: 3 }, display: { error: "ValueError: no", source } }),
  ]);
  const card = nodeEl(el, "t");
  card.querySelector<HTMLElement>(".mn-fold-head[aria-expanded='false']")?.click();
  return card;
}

describe("a rich result's words", () => {
  it("says a failed display by where it came from", () => {
    expect(failed("value").querySelector(".mn-rich-error")?.textContent).toBe("The tool's value could not be drawn: ValueError: no");
    expect(failed("renderer").querySelector(".mn-rich-error")?.textContent).toBe("The renderer failed: ValueError: no");
    expect(displayError(null, "x")).toBe("The renderer failed: x");
  });

  it("shows a table's folded outcome as the kernel wrote it", () => {
    const { el } = mount([add("root", "t", "tool", { tool_call_id: "c", tool_name: "q", status: "done", result: [{ a: 1 }], outcome: "→ 57 rows" })]);
    expect(nodeEl(el, "t").querySelector(".mn-fold-outcome")?.textContent).toBe("→ 57 rows");
  });
});
