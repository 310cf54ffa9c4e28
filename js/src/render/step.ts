import { h } from "../dom";
import { formatInt, num, obj, str } from "../format";
import type { StepNode } from "../types";
import type { NodeRenderer } from "./context";
import { RequestToggle } from "./request";

/**
 * A divider between model steps: `Step 2 · tool-calls · 120 in · 30 out` (the token counts a span of
 * their own: present mode hides them), with the "Request" toggle (request.ts) when the kernel
 * labelled the step's request; its panel opens under the divider, and a teacher's note (the node's
 * `note`, set as text) under that.
 */
export const renderStep: NodeRenderer<StepNode> = (ctx, node) => {
  const name = h("span", "mn-step-name");
  const tokens = h("span", "mn-step-tokens");
  const label = h("span", "mn-step-label", [name, tokens]);
  const toggle = ctx.requests ? new RequestToggle(node.id, ctx.requests, num(node.index)) : null;
  const line = h("div", "mn-step", [label, toggle?.button]);
  const note = h("div", "mn-step-note");
  note.hidden = true;
  const el = h("div", "mn-step-block", [line, toggle?.panel, note]);
  return {
    el,
    update(node) {
      const usage = obj(node.usage);
      const input = num(usage?.input_tokens);
      const output = num(usage?.output_tokens);
      const index = num(node.index);
      name.textContent = [index === null ? "Step" : `Step ${index}`, str(node.finish_reason)].filter(Boolean).join(" · ");
      tokens.textContent = [input === null ? null : `${formatInt(input)} in`, output === null ? null : `${formatInt(output)} out`]
        .filter(Boolean)
        .map((part) => ` · ${part}`)
        .join("");
      const text = str(node.note);
      note.hidden = !text;
      note.textContent = text ?? ""; // text, never HTML: a note is whatever the teacher typed
      toggle?.update(node);
    },
  };
};
