import { h } from "../dom";
import { formatInt, num, obj, str } from "../format";
import type { StepNode } from "../types";
import type { NodeRenderer } from "./context";
import { RequestToggle } from "./request";

/**
 * A divider between model steps: `Step 2 · tool-calls · 120 in · 30 out`, with the "Request" toggle
 * (request.ts) when the kernel labelled the step's request; its panel opens under the divider.
 */
export const renderStep: NodeRenderer<StepNode> = (ctx, node) => {
  const label = h("span", "mn-step-label");
  const toggle = ctx.requests ? new RequestToggle(node.id, ctx.requests, num(node.index)) : null;
  const line = h("div", "mn-step", [label, toggle?.button]);
  const el = h("div", "mn-step-block", [line, toggle?.panel]);
  return {
    el,
    update(node) {
      const usage = obj(node.usage);
      const input = num(usage?.input_tokens);
      const output = num(usage?.output_tokens);
      const index = num(node.index);
      label.textContent = [
        index === null ? "Step" : `Step ${index}`,
        str(node.finish_reason),
        input === null ? null : `${formatInt(input)} in`,
        output === null ? null : `${formatInt(output)} out`,
      ]
        .filter(Boolean)
        .join(" · ");
      toggle?.update(node);
    },
  };
};
