import { h } from "../dom";
import { str } from "../format";
import { errorMessage } from "./common";
import type { NodeRenderer } from "./context";

/** A line of the stream that could not be parsed: folded, raw text and the error. */
export const renderInvalid: NodeRenderer = () => {
  const summary = h("summary", "mn-muted");
  const raw = h("pre", "mn-json");
  const el = h("details", "mn-invalid", [summary, raw]);
  return {
    el,
    update(node) {
      summary.textContent = `Invalid chunk: ${errorMessage(node.error) ?? "unreadable"}`;
      raw.textContent = str(node.raw) ?? "";
    },
  };
};
