/**
 * The run footer: status, tokens, time to first token, tokens/s, duration, steps, cost. Every figure
 * is the kernel's (the run node's `figures`, formatted in Python: core/figures.py); the footer shows
 * them and computes none.
 */
import { h } from "../dom";
import { runFigures } from "../format";
import { statusWord } from "../status-words";
import type { NodeData } from "../types";

/** The stats in order: `data-stat`, the label, and the key of the figure shown. */
const STATS: [key: string, label: string, figure: string][] = [
  ["input_tokens", "in", "input_tokens"],
  ["output_tokens", "out", "output_tokens"],
  ["reasoning_tokens", "reasoning", "reasoning_tokens"],
  ["cached_input_tokens", "cached", "cached_input_tokens"],
  ["tokens_with_nested", "with sub-agents", "tokens_with_nested"],
  ["ttft", "first token", "first_token"],
  ["tokens_per_s", "tok/s", "tokens_per_second"],
  ["duration", "duration", "duration"],
  ["steps", "steps", "steps"],
  ["cost", "cost", "cost"],
];

export class Footer {
  readonly el = h("div", "mn-footer");
  private readonly values = new Map<string, [HTMLElement, HTMLElement]>();

  constructor() {
    for (const [key, label] of [["status", ""] as const, ...STATS]) {
      const value = h("span", "mn-stat-value");
      const item = h("span", "mn-stat", [label ? h("span", "mn-stat-label", [label]) : null, value], {
        "data-stat": key,
      });
      item.hidden = true;
      this.values.set(key, [item, value]);
      this.el.append(item);
    }
  }

  update(run: NodeData): void {
    const figures = runFigures(run);
    this.show("status", typeof run.status === "string" ? statusWord(run.status) : null);
    for (const [key, , figure] of STATS) this.show(key, figures[figure] ?? null);
    const cost = this.values.get("cost");
    if (cost) cost[0].title = figures.cost_title ?? "";
    const tokens = this.values.get("tokens_with_nested");
    if (tokens) tokens[0].title = figures.tokens_title ?? "";
  }

  private show(key: string, text: string | null): void {
    const entry = this.values.get(key);
    if (!entry) return;
    entry[0].hidden = text === null;
    if (text !== null && entry[1].textContent !== text) entry[1].textContent = text;
  }
}
