import { h } from "../dom";
import { prettyJson, str } from "../format";
import type { NodeRenderer } from "./context";

/** A chunk the Python side did not know (or a node kind this view does not know): folded JSON. */
export const renderUnknown: NodeRenderer = () => {
  const summary = h("summary", "mn-muted");
  const pre = h("pre", "mn-json");
  const el = h("details", "mn-unknown", [summary, pre]);
  return {
    el,
    update(node) {
      const isUnknown = node.kind === "unknown";
      summary.textContent = `Unknown ${isUnknown ? "chunk" : "part"}: ${str(node.type) ?? node.kind}`;
      pre.textContent = prettyJson(isUnknown ? node.chunk : node);
    },
  };
};
