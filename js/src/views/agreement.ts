/**
 * How far two raters agree (mastra_notebook/analysis/agreement.py `Agreement.state`): the caption
 * (kappa or alpha, how many disagree), the confusion matrix, and the runs where they disagree. An
 * experiment's agreement, live, has a button on each of those runs that opens the review queue at
 * it, and one that reviews them all (`AgreementMessage`); a saved notebook's has none.
 *
 * Every string from the kernel goes in as text (dom.ts `h`), never as HTML.
 */
import { h } from "../dom";

export interface AgreementRow {
  /** The first rater's label. */
  label: string;
  /** How many runs the second rater gave each of `columns`. */
  counts: number[];
}

export interface Disagreement {
  /** Which run: "#3 · concise · repeat 2". */
  place: string;
  first: string;
  second: string;
}

export interface AgreementState {
  caption: string;
  /** The two raters' names: the matrix's rows are the first's labels, its columns the second's. */
  names: [string, string];
  columns: string[];
  rows: AgreementRow[];
  disagreements: Disagreement[];
  /** Disagreements not listed (the DataFrame has them). */
  more: number;
  /** Whether a click opens the review queue (an experiment's agreement, live). */
  reviewable: boolean;
}

/** A click: review the disagreement numbered `review` (its place in the list), or all of them (-1). */
export type AgreementMessage = { review: number };

/** The kernel's data as an AgreementState (anything else as an empty one). */
export function readAgreement(value: unknown): AgreementState {
  const state = (value ?? {}) as Partial<AgreementState>;
  const names = Array.isArray(state.names) ? state.names.map(String) : [];
  return {
    caption: String(state.caption ?? ""),
    names: [names[0] ?? "first", names[1] ?? "second"],
    columns: Array.isArray(state.columns) ? state.columns.map(String) : [],
    rows: Array.isArray(state.rows)
      ? state.rows.map((row) => ({
          label: String(row?.label ?? ""),
          counts: Array.isArray(row?.counts) ? row.counts.map(Number) : [],
        }))
      : [],
    disagreements: Array.isArray(state.disagreements)
      ? state.disagreements.map((d) => ({
          place: String(d?.place ?? ""),
          first: String(d?.first ?? ""),
          second: String(d?.second ?? ""),
        }))
      : [],
    more: Number(state.more ?? 0),
    reviewable: Boolean(state.reviewable),
  };
}

function reviewButton(label: string, title: string, review: number): HTMLButtonElement {
  return h("button", "mn-review-button mn-agreement-review", [label], {
    type: "button",
    title,
    "data-review": String(review),
  });
}

function matrix(state: AgreementState): HTMLElement {
  const [first, second] = state.names;
  const head = h("tr", "", [
    h("th", "mn-agreement-corner", [`${first} ↓ · ${second} →`]),
    ...state.columns.map((column) => h("th", "", [column])),
  ]);
  const rows = state.rows.map((row) =>
    h("tr", "", [h("th", "", [row.label]), ...row.counts.map((count) => h("td", "", [String(count)]))]),
  );
  return h("table", "mn-agreement-matrix", [h("thead", "", [head]), h("tbody", "", rows)]);
}

/** The agreement drawn; `live`: with its buttons when it is reviewable. */
export function drawAgreement(state: AgreementState, live = true): HTMLElement {
  const buttons = live && state.reviewable;
  const [first, second] = state.names;
  const parts: HTMLElement[] = [h("div", "mn-agreement-caption", [state.caption]), matrix(state)];
  if (state.disagreements.length) {
    const count = state.disagreements.length + state.more;
    parts.push(
      h("div", "mn-agreement-where", [
        "Where they disagree:",
        buttons ? reviewButton(`review all ${count}`, "the review queue of these runs", -1) : null,
      ]),
    );
    const items = state.disagreements.map((d, n) =>
      h("li", "mn-agreement-run", [
        h("span", "mn-agreement-place", [d.place]),
        `: ${first} ${d.first}, ${second} ${d.second}`,
        buttons ? reviewButton("review", `the review queue, at ${d.place}`, n) : null,
      ]),
    );
    if (state.more > 0) items.push(h("li", "mn-agreement-more", [`… and ${state.more} more (to_dataframe())`]));
    parts.push(h("ul", "mn-agreement-runs", items));
  }
  return h("div", `mn-agreement${buttons ? "" : " mn-agreement-static"}`, parts);
}

export interface MountedAgreement {
  show(state: AgreementState): void;
  close(): void;
}

/** The live agreement in `el`: drawn again on each state, a button's click sent to the kernel. */
export function mountAgreement(el: HTMLElement, send: (msg: AgreementMessage) => void): MountedAgreement {
  const click = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest("button[data-review]") : null;
    if (target) send({ review: Number(target.getAttribute("data-review")) });
  };
  el.addEventListener("click", click);
  return {
    show: (state) => el.replaceChildren(drawAgreement(state)),
    close: () => {
      el.removeEventListener("click", click);
      el.replaceChildren();
    },
  };
}
