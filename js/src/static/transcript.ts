/**
 * The static views, drawn in the kernel: the live view's own renderers (one function per node kind)
 * run on a string DOM inside an embedded JS engine (mastra_notebook/render/engine.py), every
 * disclosure opened, then written out as script-free HTML (serialize.ts). The kernel sanitises the
 * raw-HTML islands with nh3 and puts them in.
 *
 * Built by build.mjs as one script that defines `globalThis.mastraNotebookStatic`. Each entry takes
 * and returns one JSON string: the engine's cheapest crossing.
 */
import { staticDocument } from "./install";
import { h } from "../dom";
import { useSanitizer } from "../markdown";
import { richResult } from "../render/rich";
import { drawTimeline, latestTime, layoutTimeline } from "../render/timeline";
import { ROOT_ID, Store } from "../store";
import type { SnapshotMsg } from "../types";
import { mountStatic } from "../widget";
import { TAG_STYLES } from "./palette";
import { type StaticHtml, serialize } from "./serialize";
import { type SElement, StaticEvent } from "./string-dom";

/** Bars up to which a transcript's timeline starts open. */
const OPEN_UP_TO_BARS = 40;

useSanitizer((html) => staticDocument.rawFragment(html) as unknown as DocumentFragment);

export interface TranscriptInput {
  ops: SnapshotMsg["ops"];
  title?: string;
  subtitle?: string;
  /** Each step node's request, as the kernel bounds it (core/request_bounded.py). */
  requests?: Record<string, unknown>;
  /** Classes of the transcript's root (render/transcript.py: which live views it stands for). */
  classes?: string[];
}

/** A run's view (header, timeline, the node tree) as its static transcript. */
export function renderTranscript(input: TranscriptInput): StaticHtml {
  const host = staticDocument.createElement("div");
  staticDocument.body.append(host);
  const snapshot: SnapshotMsg = { t: "snapshot", seq: 0, ops: input.ops };
  const view = mountStatic(host as unknown as HTMLElement, snapshot, {
    title: input.title ?? "",
    subtitle: input.subtitle ?? "",
    requests: input.requests ?? {},
    budgetMs: Infinity,
  });
  const root = view.root as unknown as SElement;
  try {
    for (const toggle of root.querySelectorAll("button[aria-controls]")) if (!toggle.hidden) toggle.click();
    drawFoldedBodies(root);
    // a transcript, not a live view: the widget's stylesheet and the tests know `.mn-root` as the latter
    root.classList.remove("mn-root");
    root.classList.add(...(input.classes ?? []));
    root.removeAttribute("data-seq");
    // a run with no timed chunk (a recording read at once) has no timeline to show; a short one
    // starts open, as the page's first answer to "where did the time go"
    for (const timeline of root.querySelectorAll("div[data-bars]")) {
      const bars = Number(timeline.getAttribute("data-bars"));
      if (bars === 0) timeline.remove();
      else if (bars <= OPEN_UP_TO_BARS) timeline.setAttribute("data-mn-open", "");
    }
    return serialize(root);
  } finally {
    view.destroy();
    host.remove();
  }
}

/** A closed `<details>` whose body is drawn when it opens (raw JSON) gets it drawn, and stays closed. */
function drawFoldedBodies(root: SElement): void {
  for (const details of root.querySelectorAll("details")) {
    if (details.open) continue;
    details.open = true;
    details.dispatchEvent(new StaticEvent("toggle"));
    details.open = false;
  }
}

/** A tool's result drawn as data (rich.ts), or null when it is drawn as JSON: `mn.compare`'s cells. */
export function renderRich(input: { display: unknown; result: unknown }): StaticHtml | null {
  const drawn = richResult(input.display, input.result);
  return drawn === null ? null : serialize(drawn as unknown as SElement);
}

/** Runs' timelines on one axis, each under its label: `mn.compare` sets runs side by side. */
export function renderTimelines(input: { runs: { label: string; ops: SnapshotMsg["ops"] }[] }): StaticHtml {
  const laid = input.runs.map(({ label, ops }) => {
    const store = new Store();
    store.applySnapshot({ t: "snapshot", seq: 0, ops });
    return { label, layout: layoutTimeline(store, ROOT_ID, latestTime(store, ROOT_ID)) };
  });
  const span = Math.max(0, ...laid.map(({ layout }) => layout.total));
  const drawn = laid
    .filter(({ layout }) => layout.bars.length > 0)
    .flatMap(({ label, layout }) => [h("div", "mn-label", [`${label}: timeline`]), drawTimeline(layout, span)]);
  return serialize(h("div", "mn-compare-timelines", drawn) as unknown as SElement);
}

/** `name(JSON) -> JSON`, for the engine. */
function json<T>(draw: (input: T) => unknown): (input: string) => string {
  return (input) => JSON.stringify(draw(JSON.parse(input) as T));
}

export const transcript = json(renderTranscript);
export const rich = json(renderRich);
export const timelines = json(renderTimelines);
export const tagStyles = TAG_STYLES;
export { SANITIZE_POLICY as sanitizePolicy } from "../sanitize-policy";
