/** JSON display: compact text cut to its first lines (with "show all") and a collapsible live tree. Text only. */
import { h } from "../dom";
import { compactJson } from "../format";

/** Lines of JSON shown before "show all". */
export const SHORT_LINES = 12;

/**
 * The value as compact JSON in a <pre>. Longer than 12 lines it is cut to its first 12 (by CSS:
 * the whole text stays in the page, for find and copy) behind a "show all" button.
 */
export function jsonPre(value: unknown): HTMLElement {
  const text = compactJson(value);
  const pre = h("pre", "mn-json", [text]);
  const lines = text.split("\n").length;
  if (lines <= SHORT_LINES) return pre;
  pre.classList.add("mn-json-cut");
  const label = `show all ${lines} lines`;
  const toggle = h("button", "mn-link-btn mn-show-all", [label], { type: "button", "aria-expanded": "false" });
  toggle.addEventListener("click", () => {
    const all = pre.classList.toggle("mn-json-cut") === false;
    toggle.textContent = all ? "show less" : label;
    toggle.setAttribute("aria-expanded", String(all));
  });
  return h("div", "mn-json-long", [pre, toggle]);
}

/** A labelled value (`Result`, `Input`) as jsonPre. */
export function jsonBlock(label: string, value: unknown, cls = ""): HTMLElement {
  return h("div", `mn-field ${cls}`.trim(), [h("div", "mn-label", [label]), jsonPre(value)]);
}

const MAX_ENTRIES = 500;

/**
 * A collapsible tree of `value`. `collapsed` holds the paths the user folded, so a re-render
 * (live structured output) keeps them folded.
 */
export function jsonTree(value: unknown, collapsed: Set<string>, path = "$"): HTMLElement {
  if (typeof value !== "object" || value === null) return jsonLeaf(value);
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const n = entries.length;
  const summary = isArray ? `[ ${n} item${n === 1 ? "" : "s"} ]` : `{ ${n} key${n === 1 ? "" : "s"} }`;
  const details = h("details", "mn-tree", [h("summary", "mn-tree-summary", [summary])]);
  details.open = !collapsed.has(path);
  details.addEventListener("toggle", () => {
    if (details.open) collapsed.delete(path);
    else collapsed.add(path);
  });
  for (const [key, child] of entries.slice(0, MAX_ENTRIES)) {
    details.append(
      h("div", "mn-tree-row", [h("span", "mn-tree-key", [`${key}: `]), jsonTree(child, collapsed, `${path}.${key}`)]),
    );
  }
  if (entries.length > MAX_ENTRIES) {
    details.append(h("div", "mn-tree-more", [`… ${entries.length - MAX_ENTRIES} more`]));
  }
  return details;
}

function jsonLeaf(value: unknown): HTMLElement {
  const type = value === null ? "null" : typeof value;
  return h("span", `mn-json-${type}`, [value === undefined ? "undefined" : JSON.stringify(value)]);
}
