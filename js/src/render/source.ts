import { append, h } from "../dom";
import { str } from "../format";
import { hardenLink, safeHref } from "../url";
import type { SourceNode } from "../types";
import type { NodeRenderer } from "./context";

/** A cited source: a link when the url is http(s), else plain text. */
export const renderSource: NodeRenderer<SourceNode> = () => {
  const el = h("div", "mn-source");
  return {
    el,
    update(node) {
      const url = str(node.url);
      const label = str(node.title) || url || str(node.filename) || str(node.source_id) || "source";
      const href = safeHref(url, false);
      let target: HTMLElement;
      if (href) {
        const a = h("a", "mn-link", [label], { href });
        hardenLink(a);
        target = a;
      } else {
        target = h("span", "mn-source-title", [label]);
      }
      const meta = [str(node.source_type), str(node.media_type), node.title ? str(node.filename) : null]
        .filter((part): part is string => !!part)
        .join(" · ");
      el.replaceChildren();
      append(el, [h("span", "mn-kind-label", ["Source"]), target, meta && h("span", "mn-muted", [meta])]);
    },
  };
};
