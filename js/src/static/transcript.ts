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
import type { SnapshotMsg } from "../types";
import { type CompareInput, type CompareSteps, type TimelineRun, drawCompare, drawCompareSteps, drawTimelines } from "../views/compare";
import { type MemoryInput, drawMemory, drawUserTurn } from "../views/memory";
import { type Inline, drawInline } from "../views/inline";
import { type TableView, drawTableView } from "../views/table";
import { type GridPage, drawGrid, readPage } from "../views/grid";
import { drawReview, readReview } from "../views/review";
import { drawAgreement, readAgreement } from "../views/agreement";
import { mountStatic } from "../widget";
import { TAG_STYLES } from "./palette";
import { type SerializeOptions, type StaticHtml, serialize } from "./serialize";
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
  const drawn = drawTranscript(input);
  try {
    return serialize(drawn.root);
  } finally {
    drawn.done();
  }
}

/** A run's transcript as a tree to write out; `done()` once written (it ends the view it was drawn by). */
function drawTranscript(input: TranscriptInput): { root: SElement; done(): void } {
  const host = staticDocument.createElement("div");
  staticDocument.body.append(host);
  const snapshot: SnapshotMsg = { t: "snapshot", seq: 0, ops: input.ops };
  const view = mountStatic(host as unknown as HTMLElement, snapshot, {
    title: input.title ?? "",
    subtitle: input.subtitle ?? "",
    requests: input.requests ?? {},
    budgetMs: Infinity,
  });
  const done = () => {
    view.destroy();
    host.remove();
  };
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
    return { root, done };
  } catch (error) {
    done();
    throw error;
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

/** Runs' timelines on one axis, each under its label: `Comparison.timelines_html()`. */
export function renderTimelines(input: { runs: TimelineRun[] }): StaticHtml {
  return written(drawTimelines(input.runs) ?? h("div", "mn-compare-timelines"));
}

/** A kernel table (a catalogue, a dataset, an experiment's summary): views/table.ts. */
export function renderTable(input: TableView & SerializeOptions): StaticHtml {
  return serialize(drawTableView(input) as unknown as SElement, input);
}

/**
 * Inline pieces each written out on its own, one element each (a piece that is text, in a span): the
 * experiment grid's page parts, in one crossing.
 */
export function renderPieces(input: { pieces: Inline[] } & SerializeOptions): StaticHtml[] {
  return input.pieces.map((piece) => {
    const nodes = drawInline(piece);
    const el = nodes.length === 1 && typeof nodes[0] !== "string" ? nodes[0] : h("span", "", nodes);
    return serialize(el as unknown as SElement, input);
  });
}

/**
 * A grid of runs (views/grid.ts) as a saved notebook shows it: the live grid's own drawing, its
 * controls left out, with only its elements' own declarations (JupyterLab checks each inline
 * declaration of a `text/html` output: a page of styled tiles took it 170-300 ms in one task).
 */
export function renderGrid(input: { page: GridPage; head?: Inline; tail?: Inline }): StaticHtml {
  // what the widget shows around its grid (a batch's summary line; an experiment's progress and summary)
  const around = (content: Inline | undefined) => (content === undefined ? [] : drawInline(content));
  const el = h("div", "mn-grid-static", [...around(input.head), drawGrid(readPage(input.page)), ...around(input.tail)]);
  return serialize(el as unknown as SElement, { styled: false });
}

/** A review queue (views/review.ts) as a saved notebook shows it: the item shown, no controls, no runs. */
export function renderReview(input: { state: unknown }): StaticHtml {
  const state = readReview(input.state);
  return serialize(drawReview(state, state.given ?? undefined, false) as unknown as SElement, { styled: false });
}

/** An agreement (views/agreement.ts) as a saved notebook shows it: no buttons. */
export function renderAgreement(input: { state: unknown }): StaticHtml {
  return serialize(drawAgreement(readAgreement(input.state), false) as unknown as SElement, { styled: false });
}

/** `mn.compare`'s whole comparison (views/compare.ts). */
export function renderCompare(input: CompareInput): StaticHtml {
  return written(drawCompare(input));
}

/** `mn.compare`'s step-by-step table alone (`Comparison.steps_html()`). */
export function renderCompareSteps(input: CompareSteps): StaticHtml {
  return written(drawCompareSteps(input));
}

/** A chat turn's memory (views/memory.ts), or null when it has nothing to show. */
export function renderMemory(input: MemoryInput): StaticHtml | null {
  const drawn = drawMemory(input);
  return drawn === null ? null : written(drawn);
}

/** A person's prompt as a user turn. */
export function renderUserTurn(input: { text: string }): StaticHtml {
  return written(drawUserTurn(input.text));
}

export interface ConversationInput {
  title?: string;
  /** Classes of the whole (render/transcript.py `transcript_class`). */
  classes?: string[];
  turns: { prompt: string; transcript: TranscriptInput; memory?: MemoryInput | null }[];
}

/** A chat as one static transcript: its title, then each turn's prompt, run and memory. */
export function renderConversation(input: ConversationInput): StaticHtml {
  const drawn: { root: SElement; done(): void }[] = [];
  try {
    const turns = input.turns.flatMap(({ prompt, transcript, memory }) => {
      const run = drawTranscript(transcript);
      drawn.push(run);
      return [drawUserTurn(prompt), run.root as unknown as HTMLElement, memory ? drawMemory(memory) : null];
    });
    const title = input.title ? h("div", "mn-conversation-title", [h("strong", "", [input.title])]) : null;
    // the transcripts' classes (hidden where the turns' views draw), not their card: each turn's run has its own
    const classes = [...(input.classes ?? []), "mn-conversation-transcript"];
    return written(h("div", classes.join(" "), [title, ...turns]));
  } finally {
    for (const run of drawn) run.done();
  }
}

function written(el: HTMLElement): StaticHtml {
  return serialize(el as unknown as SElement);
}

/** `name(JSON) -> JSON`, for the engine. */
function json<T>(draw: (input: T) => unknown): (input: string) => string {
  return (input) => JSON.stringify(draw(JSON.parse(input) as T));
}

export const transcript = json(renderTranscript);
export const rich = json(renderRich);
export const timelines = json(renderTimelines);
export const table = json(renderTable);
export const pieces = json(renderPieces);
export const grid = json(renderGrid);
export const review = json(renderReview);
export const agreement = json(renderAgreement);
export const compare = json(renderCompare);
export const compareSteps = json(renderCompareSteps);
export const memory = json(renderMemory);
export const userTurn = json(renderUserTurn);
export const conversation = json(renderConversation);
export const tagStyles = TAG_STYLES;
export { SANITIZE_POLICY as sanitizePolicy } from "../sanitize-policy";
