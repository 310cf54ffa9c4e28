import { append, h } from "../dom";
import type { NodeRenderer } from "./context";

type Children = Parameters<typeof append>[1];

/** A node drawn whole at each update: `draw` gives its element's children (and may set its class). */
export function redrawn<N>(cls: string, draw: (node: N, el: HTMLDivElement) => Children): NodeRenderer<N> {
  return () => {
    const el = h("div", cls);
    return {
      el,
      update(node) {
        el.replaceChildren();
        append(el, draw(node, el));
      },
    };
  };
}

/** A node shown folded: a muted summary line, and its raw text (a line, a chunk's JSON) under it. */
export function foldedRaw<N>(cls: string, texts: (node: N) => [summary: string, raw: string]): NodeRenderer<N> {
  return () => {
    const summary = h("summary", "mn-muted");
    const raw = h("pre", "mn-json");
    const el = h("details", cls, [summary, raw]);
    return {
      el,
      update(node) {
        [summary.textContent, raw.textContent] = texts(node);
      },
    };
  };
}
