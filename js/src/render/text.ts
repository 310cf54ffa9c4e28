import { h } from "../dom";
import { str } from "../format";
import type { NodeRenderer } from "./context";
import { MarkdownView } from "./markdown-view";

export const renderText: NodeRenderer = (ctx) => {
  const md = new MarkdownView();
  const el = h("div", "mn-text", [md.el]);
  return { el, update: (node) => md.update(str(node.text) ?? "", ctx.deadline()) };
};
