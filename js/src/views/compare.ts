/**
 * `mn.compare`: runs side by side (analysis/compare.py). The kernel aligns the runs and words every
 * fact; this draws them: the facts table, where the runs part, the step-by-step table (a row per
 * step and per tool call, a column per run, a gap where a run has none), the runs' timelines on one
 * axis (the transcript's own timeline), and each run's text as a word diff against the first.
 * A tool call's result drawn as data (a table, an image) is the transcript's own drawing (rich.ts).
 */
import { h } from "../dom";
import { richResult } from "../render/rich";
import { drawTimeline, latestTime, layoutTimeline } from "../render/timeline";
import { ROOT_ID, Store } from "../store";
import type { SnapshotMsg } from "../types";
import { type Inline, drawInline, drawTable } from "./inline";

/** One run's tool call in a row: its head (name, status) and arguments, and what it returned. */
export interface CompareCall {
  head: Inline;
  args: Inline;
  /** The call's error, when it failed (then `result` is not shown). */
  error?: Inline | null;
  /** The result as text, and briefly (its rows, or a short cut) for when it is drawn as data. */
  result: Inline;
  brief: Inline;
  /** What the transcript draws the result as data from (a tool's display, its result). */
  rich?: { display: unknown; result: unknown } | null;
}

export interface CompareStepRow {
  label: string;
  /** The row where the runs part (marked). */
  parts: boolean;
  /** Each run's step (its figures, answer, request difference); null where it has none. */
  cells: readonly (Inline | null)[];
  /** The step's tool calls, aligned: a row each, a cell per run. */
  calls: readonly (readonly (CompareCall | null)[])[];
  /** The calls not drawn, said. */
  moreCalls?: string | null;
}

export interface CompareSteps {
  labels: readonly string[];
  /** Where the runs part, or that they take the same steps. */
  sentence: string;
  parts: boolean;
  rows: readonly CompareStepRow[];
  moreSteps?: string | null;
}

export interface TimelineRun {
  label: string;
  ops: SnapshotMsg["ops"];
}

export interface CompareText {
  /** The summary's words (which runs, the legend). */
  summary: Inline;
  /** The word diff, or null when the texts are the same. */
  diff: Inline | null;
}

export interface CompareInput {
  labels: readonly string[];
  /** (what, one cell per run). */
  facts: readonly (readonly [string, readonly string[]])[];
  steps: CompareSteps;
  timelines: readonly TimelineRun[];
  texts: readonly CompareText[];
}

/** The whole comparison. */
export function drawCompare(input: CompareInput): HTMLElement {
  const facts = drawTable({
    t: "table",
    cls: "mn-compare-facts",
    heads: ["", ...input.labels],
    rows: input.facts.map(([what, cells]) => [what, ...cells]),
    rowHeads: true,
  });
  const texts = input.texts.map(({ summary, diff }) =>
    h("details", "mn-compare-text", [
      h("summary", "", drawInline(summary)),
      diff === null ? h("div", "", ["the same text"]) : wordDiff(diff),
    ], { open: true }),
  );
  return h("div", "mastra-notebook-compare", [facts, drawCompareSteps(input.steps), drawTimelines(input.timelines), ...texts]);
}

/** A text against another, word by word: `ins` and `del` pieces among the unchanged words. */
export function wordDiff(diff: Inline): HTMLElement {
  return h("div", "mn-word-diff", drawInline(diff));
}

/** The aligned steps: a row per step and per tool call, a column per run; where the runs part marked. */
export function drawCompareSteps(steps: CompareSteps): HTMLElement {
  const head = h("tr", "", [h("th"), ...steps.labels.map((label) => h("th", "", [label]))]);
  const rows: HTMLElement[] = [head];
  for (const row of steps.rows) {
    const marker = row.parts ? h("div", "mn-compare-marker", ["◆ runs part here"]) : null;
    rows.push(
      h("tr", row.parts ? "mn-compare-step mn-compare-parts" : "mn-compare-step", [
        h("th", "mn-compare-row-head", [row.label, marker]),
        ...row.cells.map((cell) => gapOr(cell === null ? null : drawInline(cell))),
      ]),
    );
    for (const calls of row.calls) {
      rows.push(
        h("tr", "mn-compare-call-row", [
          h("th", "mn-compare-row-head mn-muted", ["tool call"]),
          ...calls.map((call) => gapOr(call === null ? null : [drawCall(call)])),
        ]),
      );
    }
    if (row.moreCalls) {
      const note = h("td", "", [h("div", "mn-muted", [row.moreCalls])], { colspan: String(steps.labels.length + 1) });
      rows.push(h("tr", "", [note]));
    }
  }
  return h("div", "mn-compare-step-by-step", [
    h("div", steps.parts ? "mn-compare-parting mn-compare-parted" : "mn-compare-parting", [steps.sentence]),
    h("table", "mn-view-table mn-compare-steps", [h("tbody", "", rows)]),
    steps.moreSteps ? h("div", "mn-muted", [steps.moreSteps]) : null,
  ]);
}

/** A run's cell, or an empty gap where it has no step or call in this row. */
function gapOr(content: (Node | string)[] | null): HTMLElement {
  return content === null ? h("td", "mn-compare-gap") : h("td", "mn-compare-cell", content);
}

function drawCall(call: CompareCall): HTMLElement {
  const error = call.error ?? null;
  const drawn = error === null && call.rich ? richResult(call.rich.display, call.rich.result) : null;
  const outcome =
    error !== null
      ? [h("span", "mn-compare-error", ["error: ", ...drawInline(error)])]
      : drawInline(drawn === null ? call.result : call.brief);
  return h("div", "mn-compare-call", [
    ...drawInline(call.head),
    h("div", "mn-compare-args", drawInline(call.args)),
    h("div", "mn-compare-result", ["→ ", ...outcome]),
    drawn === null ? null : h("div", "mn-compare-rich", [drawn]),
  ]);
}

/** Runs' timelines on one axis, each under its label (the longer run spans it); null when no run has
 * a timed bar. */
export function drawTimelines(runs: readonly TimelineRun[]): HTMLElement | null {
  const laid = runs.map(({ label, ops }) => {
    const store = new Store();
    store.applySnapshot({ t: "snapshot", seq: 0, ops });
    return { label, layout: layoutTimeline(store, ROOT_ID, latestTime(store, ROOT_ID)) };
  });
  const span = Math.max(0, ...laid.map(({ layout }) => layout.total));
  const drawn = laid
    .filter(({ layout }) => layout.bars.length > 0)
    .flatMap(({ label, layout }) => [h("div", "mn-label", [`${label}: timeline`]), drawTimeline(layout, span)]);
  return drawn.length === 0 ? null : h("div", "mn-compare-timelines", drawn);
}
