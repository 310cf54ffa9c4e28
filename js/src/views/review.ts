/**
 * A review queue (mastra_notebook/widget/review.py `ReviewView`): one item at a time, its input and
 * expected answer, its run (or two runs side by side for a pairwise review) drawn by the run view,
 * folded; the rubric's controls, progress ("12 of 60"), the reviewer, where the labels go. The kernel
 * sends the item's data (`ReviewState`), never HTML; this draws it and sends back what the reviewer
 * did (`ReviewMessage`).
 *
 * Keyboard first: n / → / Enter next (labelling the item with what was given, if anything), p / ←
 * previous, digits a score, Shift+digit a category, u / d thumbs, a / b / t a pairwise choice, s skip,
 * c the comment box. Keys typed in the comment box go to it (Escape leaves it). Every key the view
 * takes stops there: JupyterLab's own shortcuts (a, b, d d, digits in command mode) never see it.
 *
 * Every string from the kernel goes in as text (dom.ts `h`), never as HTML.
 */
import { h, isolated } from "../dom";
import { thumbIcon } from "../render/feedback";

export interface ReviewRubric {
  thumbs: boolean;
  /** The score's lowest and highest whole numbers (each one digit key), or null: no score. */
  scale: [number, number] | null;
  categories: string[];
  comment: boolean;
}

/** What a reviewer gives one item (null: not given). */
export interface ReviewValues {
  thumbs: "up" | "down" | null;
  score: number | null;
  category: string | null;
  comment: string | null;
  choice: "a" | "b" | "tie" | null;
}

/** A run as the run view draws it (render/transcript.py `transcript_input`). */
export interface ReviewRun {
  /** The variant's name ("a · concise" in a pairwise review). */
  name: string;
  ops: unknown[];
  title: string;
  subtitle: string;
  requests: Record<string, unknown>;
}

export interface ReviewState {
  /** The item shown, from 0 (`total` when the queue is done). */
  position: number;
  total: number;
  /** "12 of 60", or "done: 60 of 60 labelled". */
  progress: string;
  reviewer: string;
  /** One sentence: where the labels go (Mastra's feedback, or kept here and why). */
  note: string;
  pairwise: boolean;
  done: boolean;
  /** Which run: "#3 · concise · repeat 2". */
  place: string;
  input: string;
  expected: string;
  rubric: ReviewRubric;
  /** The item's label as kept (null: none yet), whether it was skipped, and its state in words. */
  given: ReviewValues | null;
  skipped: boolean;
  status: string;
  runs: ReviewRun[];
  /** What the kernel refused last (a value off the rubric), or "". */
  error: string;
}

export type ReviewMessage = { label: ReviewValues } | { skip: true } | { go: "next" | "previous" };

const EMPTY: ReviewValues = { thumbs: null, score: null, category: null, comment: null, choice: null };

/** The kernel's data as a ReviewState (anything else as an empty, done queue). */
export function readReview(value: unknown): ReviewState {
  const state = (value ?? {}) as Partial<ReviewState>;
  const rubric = (state.rubric ?? {}) as Partial<ReviewRubric>;
  return {
    position: Number(state.position ?? 0),
    total: Number(state.total ?? 0),
    progress: String(state.progress ?? ""),
    reviewer: String(state.reviewer ?? ""),
    note: String(state.note ?? ""),
    pairwise: Boolean(state.pairwise),
    done: state.done === undefined ? true : Boolean(state.done),
    place: String(state.place ?? ""),
    input: String(state.input ?? ""),
    expected: String(state.expected ?? ""),
    rubric: {
      thumbs: Boolean(rubric.thumbs),
      scale: Array.isArray(rubric.scale) ? [Number(rubric.scale[0]), Number(rubric.scale[1])] : null,
      categories: Array.isArray(rubric.categories) ? rubric.categories.map(String) : [],
      comment: Boolean(rubric.comment),
    },
    given: state.given ? { ...EMPTY, ...state.given } : null,
    skipped: Boolean(state.skipped),
    status: String(state.status ?? ""),
    runs: Array.isArray(state.runs) ? state.runs : [],
    error: String(state.error ?? ""),
  };
}

/** Draws a run into `host` (the run view, folded); returns what ends it. */
export type RunDrawer = (host: HTMLElement, run: ReviewRun) => () => void;

function button(
  cls: string,
  content: string | (string | Element)[],
  title: string,
  on: boolean,
  data: Record<string, string>,
): HTMLButtonElement {
  const attrs: Record<string, string | boolean> = { type: "button", title, "aria-pressed": on ? "true" : "false" };
  for (const [name, value] of Object.entries(data)) attrs[`data-${name}`] = value;
  const children = typeof content === "string" ? [content] : content;
  return h("button", `mn-review-button ${cls}${on ? " mn-review-on" : ""}`, children, attrs);
}

/** The rubric's controls for `draft` (a click is the same as its key). */
function drawControls(state: ReviewState, draft: ReviewValues): HTMLElement {
  const rubric = state.rubric;
  const rows: HTMLElement[] = [];
  if (state.pairwise) {
    rows.push(
      h("div", "mn-review-row", [
        h("span", "mn-review-what", ["better"]),
        button("mn-review-choice", "a", "a is better (key a)", draft.choice === "a", { choice: "a" }),
        button("mn-review-choice", "tie", "a tie (key t)", draft.choice === "tie", { choice: "tie" }),
        button("mn-review-choice", "b", "b is better (key b)", draft.choice === "b", { choice: "b" }),
      ]),
    );
  }
  if (rubric.thumbs) {
    rows.push(
      h("div", "mn-review-row", [
        h("span", "mn-review-what", ["thumbs"]),
        button("mn-review-thumb", [thumbIcon("up"), " up"], "thumbs up (key u)", draft.thumbs === "up", { thumbs: "up" }),
        button("mn-review-thumb", [thumbIcon("down"), " down"], "thumbs down (key d)", draft.thumbs === "down", {
          thumbs: "down",
        }),
      ]),
    );
  }
  if (rubric.scale) {
    const [low, high] = rubric.scale;
    const scores: HTMLElement[] = [];
    for (let score = low; score <= high; score++) {
      scores.push(button("mn-review-score", String(score), `score ${score} (key ${score})`, draft.score === score, { score: String(score) }));
    }
    rows.push(h("div", "mn-review-row", [h("span", "mn-review-what", ["score"]), ...scores]));
  }
  if (rubric.categories.length) {
    const chosen = rubric.categories.map((name, index) =>
      button("mn-review-category", name, `${name} (Shift+${index + 1})`, draft.category === name, { category: name }),
    );
    rows.push(h("div", "mn-review-row", [h("span", "mn-review-what", ["category"]), ...chosen]));
  }
  if (rubric.comment) {
    const box = h("textarea", "mn-review-comment", [], {
      rows: "2",
      placeholder: "comment (c to write, Escape to leave)",
      "aria-label": "comment",
    });
    box.value = draft.comment ?? "";
    rows.push(h("div", "mn-review-row", [h("span", "mn-review-what", ["comment"]), box]));
  }
  return h("div", "mn-review-controls", rows);
}

function block(cls: string, label: string, text: string): HTMLElement {
  return h("div", `mn-review-block ${cls}`, [h("div", "mn-review-what", [label]), isolated("mn-review-text", text)]);
}

/** The item's head, input, expected answer, controls and words, without its runs (`runs` is where they go). */
export function drawReview(state: ReviewState, draft: ReviewValues = state.given ?? EMPTY, live = true): HTMLElement {
  const head = h("div", "mn-review-head", [
    h("strong", "mn-review-progress", [state.progress]),
    state.reviewer ? isolated("mn-review-reviewer", `reviewer ${state.reviewer}`) : null,
    state.place ? isolated("mn-review-place", state.place) : null,
  ]);
  const parts: HTMLElement[] = [head, h("div", "mn-review-note", [state.note])];
  if (state.done) {
    parts.push(h("div", "mn-review-done", ["Every item has a label. p goes back to one."]));
  } else {
    parts.push(block("mn-review-input", "input", state.input));
    parts.push(block("mn-review-expected", "expected", state.expected || "—"));
    if (live) {
      parts.push(h("div", `mn-review-runs${state.pairwise ? " mn-review-pair" : ""}`, []));
      parts.push(drawControls(state, draft));
    }
    const status = state.skipped ? "skipped" : state.status;
    if (status) parts.push(h("div", "mn-review-status", [status]));
  }
  if (state.error) parts.push(h("div", "mn-review-error", [state.error]));
  if (!live) return h("div", "mn-review mn-review-static", parts);
  parts.push(
    h("div", "mn-review-row mn-review-nav", [
      button("mn-review-go", "← previous", "previous (p or ←)", false, { go: "previous" }),
      button("mn-review-go", "skip", "skip (s)", false, { skip: "1" }),
      button("mn-review-go", "next →", "label and next (n, → or Enter)", false, { go: "next" }),
    ]),
  );
  parts.push(h("div", "mn-review-keys", [`keys: ${keyHints(state).join(" · ")}`]));
  return h("div", "mn-review", parts, { tabindex: "0", "data-lm-suppress-shortcuts": "true" });
}

/** The keys this item takes, as the line under it says them. */
function keyHints(state: ReviewState): string[] {
  const { rubric } = state;
  const count = rubric.categories.length;
  return [
    "n/p next/previous",
    rubric.scale ? `${rubric.scale[0]}–${rubric.scale[1]} score` : "",
    count ? `Shift+1${count > 1 ? `–${count}` : ""} category` : "",
    rubric.thumbs ? "u/d thumbs" : "",
    state.pairwise ? "a/b/t choice" : "",
    "s skip",
    rubric.comment ? "c comment (Escape leaves it)" : "",
  ].filter(Boolean);
}

function given(values: ReviewValues): boolean {
  return Object.values(values).some((value) => value !== null && value !== "");
}

function same(a: ReviewValues, b: ReviewValues): boolean {
  return (Object.keys(EMPTY) as (keyof ReviewValues)[]).every((key) => (a[key] ?? null) === (b[key] ?? null));
}

export interface MountedReview {
  show(state: ReviewState): void;
  /** The values given to the item shown so far (not yet sent). */
  draft(): ReviewValues;
  close(): void;
}

/** A live review: draws each state, takes the keys and clicks, sends what the reviewer did. */
export function mountReview(el: HTMLElement, send: (msg: ReviewMessage) => void, drawRun: RunDrawer): MountedReview {
  let state = readReview(undefined);
  let draft: ReviewValues = { ...EMPTY };
  let root: HTMLElement | null = null;
  let ends: (() => void)[] = [];
  let shownKey = "";

  const endRuns = () => {
    for (const end of ends) end();
    ends = [];
  };

  const comment = (): HTMLTextAreaElement | null => root?.querySelector("textarea.mn-review-comment") ?? null;

  const draw = (runs: boolean) => {
    const focused = root !== null && (root.contains(document.activeElement) || document.activeElement === root);
    const writing = focused && document.activeElement instanceof HTMLTextAreaElement;
    const old = root;
    const runsHost = old?.querySelector(".mn-review-runs");
    root = drawReview(state, draft);
    const place = root.querySelector(".mn-review-runs");
    if (place && runsHost && !runs) {
      place.replaceWith(runsHost); // the same runs: their views (and what was unfolded) stay
    } else if (place) {
      endRuns();
      for (const run of state.runs) {
        const host = h("div", "mn-review-run-view", [], { "data-name": run.name }); // the view's title names it
        place.append(host);
        ends.push(drawRun(host, run));
      }
    }
    root.addEventListener("keydown", onKey);
    root.addEventListener("click", onClick);
    root.addEventListener("input", onInput);
    if (old) old.replaceWith(root);
    else el.append(root);
    const box = comment();
    if (writing && box) {
      box.focus({ preventScroll: true });
      box.setSelectionRange(box.value.length, box.value.length);
    } else if (focused) root.focus({ preventScroll: true });
  };

  const set = (change: Partial<ReviewValues>) => {
    draft = { ...draft, ...change };
    const text = comment()?.value;
    if (text !== undefined) draft.comment = text || null;
    draw(false);
  };

  const forward = () => {
    const text = comment()?.value;
    if (text !== undefined) draft.comment = text || null;
    if (!state.done && given(draft) && !same(draft, state.given ?? EMPTY)) send({ label: { ...draft } });
    else send({ go: "next" });
  };

  function onInput(event: Event) {
    const target = event.target as HTMLElement;
    if (target instanceof HTMLTextAreaElement) draft.comment = target.value || null;
  }

  function onClick(event: Event) {
    const target = (event.target as HTMLElement).closest("button");
    if (!target || !root?.contains(target)) return;
    const data = target.dataset;
    if (data.go === "next") forward();
    else if (data.go === "previous") send({ go: "previous" });
    else if (data.skip) send({ skip: true });
    else if (data.choice) set({ choice: data.choice as ReviewValues["choice"] });
    else if (data.thumbs) set({ thumbs: draft.thumbs === data.thumbs ? null : (data.thumbs as ReviewValues["thumbs"]) });
    else if (data.score) set({ score: Number(data.score) });
    else if (data.category) set({ category: draft.category === data.category ? null : data.category });
  }

  function onKey(event: KeyboardEvent) {
    if (event.ctrlKey || event.metaKey || event.altKey || (event.shiftKey && event.key === "Enter")) return;
    event.stopPropagation(); // JupyterLab's shortcuts never see a key typed here
    const target = event.target as HTMLElement;
    if (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) {
      if (event.key === "Escape") {
        event.preventDefault();
        draft.comment = (target as HTMLTextAreaElement).value || null;
        root?.focus();
      }
      return; // typed into the comment: its own
    }
    const key = event.key;
    const digit = /^(Digit|Numpad)(\d)$/.exec(event.code)?.[2] ?? (/^\d$/.test(key) ? key : undefined);
    let handled = true;
    if (key === "n" || key === "ArrowRight" || key === "Enter") forward();
    else if (key === "p" || key === "ArrowLeft") send({ go: "previous" });
    else if (state.done) handled = false;
    else if (key === "s") send({ skip: true });
    else if (digit !== undefined && event.shiftKey && state.rubric.categories.length) {
      const name = state.rubric.categories[Number(digit) - 1];
      if (name !== undefined) set({ category: draft.category === name ? null : name });
    } else if (digit !== undefined && !event.shiftKey && state.rubric.scale) {
      const score = Number(digit);
      if (score >= state.rubric.scale[0] && score <= state.rubric.scale[1]) set({ score });
    } else if ((key === "u" || key === "d") && state.rubric.thumbs) {
      const thumbs = key === "u" ? "up" : "down";
      set({ thumbs: draft.thumbs === thumbs ? null : thumbs });
    } else if (state.pairwise && (key === "a" || key === "b" || key === "t")) {
      set({ choice: key === "t" ? "tie" : key });
    } else if (key === "c" && state.rubric.comment) comment()?.focus();
    else handled = false;
    if (handled) event.preventDefault();
  }

  return {
    show(next: ReviewState) {
      const key = `${next.position}|${next.place}|${next.done}`;
      const moved = key !== shownKey;
      shownKey = key;
      state = next;
      if (moved) draft = { ...(next.given ?? EMPTY) };
      draw(moved);
    },
    draft: () => ({ ...draft }),
    close() {
      endRuns();
      root?.remove();
      root = null;
    },
  };
}
