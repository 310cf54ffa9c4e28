/**
 * The run footer: status, tokens, time to first token, tokens/s, duration, steps, cost, then a row of
 * the run's scores and, on the root run, the label control (feedback.ts). Every figure is the kernel's (the run node's `figures`, formatted in Python:
 * core/figures.py; each score's `score_badges` entry: core/score.py); the footer shows them and
 * computes none.
 */
import { h } from "../dom";
import { runFigures } from "../format";
import { statusWord } from "../status-words";
import type { RunNode } from "../types";
import type { RenderCtx } from "./context";
import { FeedbackControl } from "./feedback";

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
  /** The scores row: each score's scorer, value with its passed/failed mark, and reason (folded). */
  private readonly scores = h("div", "mn-score-row");
  private scoresShown = "";
  /** The root run's label control: made at its first update, when the view's traits are known. */
  private feedback: FeedbackControl | null = null;

  /** `ctx`: the root run's (it has the label control); null for a nested run. */
  constructor(private readonly ctx: RenderCtx | null = null) {
    for (const [key, label] of [["status", ""] as const, ...STATS]) {
      const value = h("span", "mn-stat-value");
      const item = h("span", "mn-stat", [label ? h("span", "mn-stat-label", [label]) : null, value], {
        "data-stat": key,
      });
      item.hidden = true;
      this.values.set(key, [item, value]);
      this.el.append(item);
    }
    this.scores.hidden = true;
    this.el.append(this.scores);
  }

  update(run: RunNode): void {
    const figures = runFigures(run);
    this.show("status", typeof run.status === "string" ? statusWord(run.status) : null);
    for (const [key, , figure] of STATS) this.show(key, figures[figure] ?? null);
    const cost = this.values.get("cost");
    if (cost) cost[0].title = figures.cost_title ?? "";
    const tokens = this.values.get("tokens_with_nested");
    if (tokens) tokens[0].title = figures.tokens_title ?? "";
    this.showScores(run);
    if (this.ctx !== null) {
      if (this.feedback === null) {
        this.feedback = new FeedbackControl(this.ctx.traits().canLabel === true ? this.ctx.send : null);
        this.el.append(this.feedback.el);
      }
      this.feedback.update(run);
    }
  }

  private showScores(run: RunNode): void {
    const badges = Array.isArray(run.score_badges) ? run.score_badges : [];
    const shown = JSON.stringify(badges);
    if (shown === this.scoresShown) return;
    this.scoresShown = shown;
    this.scores.replaceChildren(
      ...badges.map((b) =>
        h(
          "span",
          "mn-score",
          [
            h("span", "mn-stat-label", [b.scorer ?? b.text]),
            b.value ? h("span", "mn-stat-value", [b.value]) : null,
            b.reason ? h("span", "mn-score-reason", [b.reason], { title: b.reason }) : null,
          ],
          { "data-score": b.scorer ?? b.text, "data-tone": b.tone, title: b.title },
        ),
      ),
    );
    this.scores.hidden = badges.length === 0;
  }

  private show(key: string, text: string | null): void {
    const entry = this.values.get(key);
    if (!entry) return;
    entry[0].hidden = text === null;
    if (text !== null && entry[1].textContent !== text) entry[1].textContent = text;
  }
}
