/** The generated node types (src/contract.generated.ts, from mastra_notebook/core/nodes.py) and the renderers. */
import { describe, expect, it } from "vitest";
import { rendererFor } from "../src/render";
import { renderOtherKind } from "../src/render/unknown";
import { nodeOf, type NodeData, type NodeKind } from "../src/types";

// Every kind the schema declares: a kind added there and not here fails to compile.
const KINDS: Record<NodeKind, true> = {
  run: true,
  text: true,
  reasoning: true,
  tool: true,
  "workflow-step": true,
  source: true,
  file: true,
  step: true,
  "background-task": true,
  goal: true,
  banner: true,
  data: true,
  unknown: true,
  invalid: true,
};

describe("node kinds", () => {
  it("each kind of the schema has its own renderer", () => {
    const drawnAsUnknown = Object.keys(KINDS).filter((kind) => rendererFor(kind) === renderOtherKind);
    expect(drawnAsUnknown).toEqual([]);
  });

  it("nodeOf gives a node its kind's type, or null", () => {
    const node: NodeData = { id: "n1", kind: "tool", tool_name: "search", status: "done" };
    const tool = nodeOf(node, "tool");
    expect(tool?.tool_name).toBe("search");
    expect(nodeOf(node, "text")).toBeNull();
    expect(nodeOf(undefined, "tool")).toBeNull();
  });
});
