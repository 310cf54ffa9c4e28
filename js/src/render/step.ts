import { h } from "../dom";
import { formatInt, num, obj, str } from "../format";
import type { NodeRenderer } from "./context";

/** A divider between model steps: `Step 2 · tool-calls · 120 in · 30 out`. */
export const renderStep: NodeRenderer = () => {
  const label = h("span", "mn-step-label");
  const el = h("div", "mn-step", [label]);
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
    },
  };
};
