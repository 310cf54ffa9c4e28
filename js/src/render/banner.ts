import { h } from "../dom";
import { prettyJson, str } from "../format";
import type { BannerNode } from "../types";
import { redrawn } from "./whole";

const LEVELS = new Set(["error", "abort", "tripwire", "suspended", "warning"]);

/** An error / abort / tripwire / suspended / warning banner. */
export const renderBanner = redrawn<BannerNode>("mn-banner", (node, el) => {
  const level = str(node.level) ?? "";
  el.className = `mn-banner mn-banner-${LEVELS.has(level) ? level : "warning"}`;
  const detail = node.detail;
  return [
    h("div", "mn-banner-message", [str(node.message) ?? level]),
    detail === null || detail === undefined
      ? null
      : h("details", "mn-banner-detail", [h("summary", "", ["Details"]), h("pre", "mn-json", [prettyJson(detail)])]),
  ];
});
