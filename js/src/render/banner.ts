import { append, h } from "../dom";
import { prettyJson, str } from "../format";
import type { NodeRenderer } from "./context";

const LEVELS = new Set(["error", "abort", "tripwire", "suspended", "warning"]);

/** An error / abort / tripwire / suspended / warning banner. */
export const renderBanner: NodeRenderer = () => {
  const el = h("div", "mn-banner");
  return {
    el,
    update(node) {
      const level = str(node.level) ?? "";
      el.className = `mn-banner mn-banner-${LEVELS.has(level) ? level : "warning"}`;
      const detail = node.detail;
      el.replaceChildren();
      append(el, [
        h("div", "mn-banner-message", [str(node.message) ?? level]),
        detail === null || detail === undefined
          ? null
          : h("details", "mn-banner-detail", [h("summary", "", ["Details"]), h("pre", "mn-json", [prettyJson(detail)])]),
      ]);
    },
  };
};
