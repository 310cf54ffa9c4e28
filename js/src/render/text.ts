import { h } from "../dom";
import { str } from "../format";
import type { TextNode } from "../types";
import type { NodeRenderer } from "./context";
import { MarkdownView } from "./markdown-view";

/** Text that is a JSON value (or a ```json fence): structured output streamed as text. */
const JSON_TEXT = /^\s*(?:```(?:json)?\s*)?[[{]/i;

/**
 * A text part as incremental markdown. A part that is JSON is marked `data-json`: in a run with
 * structured output (`data-structured`) it is the object's text, which the run draws once, as a
 * tree (widget.css hides the text there).
 */
export const renderText: NodeRenderer<TextNode> = (ctx) => {
  const md = new MarkdownView();
  const el = h("div", "mn-text", [md.el]);
  return {
    el,
    update(node) {
      const text = str(node.text) ?? "";
      el.toggleAttribute("data-json", JSON_TEXT.test(text.slice(0, 64)));
      return md.update(text, ctx.deadline());
    },
  };
};
