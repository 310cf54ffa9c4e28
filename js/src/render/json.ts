/** JSON display: a pretty <pre> (folded when long) and a collapsible live tree. Text only. */
import { h } from "../dom";
import { prettyJson } from "../format";

export const LONG_LINES = 40;

/** A labelled pretty-printed value; folded in a <details> when longer than 40 lines. */
export function jsonBlock(label: string, value: unknown, cls = ""): HTMLElement {
  const text = prettyJson(value);
  const pre = h("pre", "mn-json", [text]);
  const lines = text.split("\n").length;
  if (lines <= LONG_LINES) {
    return h("div", `mn-field ${cls}`.trim(), [h("div", "mn-label", [label]), pre]);
  }
  return h("details", `mn-field mn-long ${cls}`.trim(), [
    h("summary", "mn-label", [`${label} (${lines} lines)`]),
    pre,
  ]);
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
