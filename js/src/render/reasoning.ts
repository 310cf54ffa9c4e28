import { h } from "../dom";
import { num, str } from "../format";
import { trackDetails } from "./common";
import type { ReasoningNode } from "../types";
import type { NodeRenderer } from "./context";
import { MarkdownView } from "./markdown-view";

/** A <details> open while the model thinks, folded once it is done ("Thought for 3.2 s"). */
export const renderReasoning: NodeRenderer<ReasoningNode> = (ctx, { id }) => {
  const summary = h("summary", "mn-reasoning-summary");
  const md = new MarkdownView();
  const el = h("details", "mn-reasoning", [summary, md.el], { open: true });
  const user = trackDetails(el, summary, ctx.folds.of(id));
  let wasDone = false;
  return {
    el,
    update(node) {
      // `done` is said apart from the time (an untimed run has none); older snapshots have only ended_at
      const done = node.done === true || num(node.ended_at) !== null;
      let more = false;
      if (node.redacted === true) {
        summary.textContent = "Reasoning redacted";
        md.el.hidden = true;
      } else {
        const took = str(node.duration); // the kernel's (core/captions.py)
        summary.textContent = !done ? "Thinking…" : took === null ? "Thought" : `Thought for ${took}`;
        md.el.hidden = false;
        more = md.update(str(node.text) ?? "", ctx.deadline());
      }
      // an empty block (encrypted reasoning, a bare signature) says nothing once it is done
      el.hidden = done && node.redacted !== true && !(str(node.text) ?? "");
      // fold once done, unless the user chose by hand; they may open it again
      if (done && !wasDone && !user.touched()) el.open = false;
      if (!done && wasDone && !user.touched()) el.open = true;
      wasDone = done;
      return more;
    },
  };
};
