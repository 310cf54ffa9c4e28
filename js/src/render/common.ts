/** Pieces shared by several renderers: status badges, labelled fields, errors, output lists. */
import { h, isolated, slot } from "../dom";
import { list, obj, prettyJson, str } from "../format";
import { statusTone, statusWord } from "../status-words";
import type { ToolNode, WorkflowStepNode } from "../types";
import { jsonBlock, jsonPre } from "./json";

/** A status badge: the status's word and tone from the one table (status-words.ts). */
export function badge(status: unknown): HTMLElement {
  const key = str(status) ?? "pending";
  return h("span", `mn-badge mn-tone-${statusTone(key)}`, [statusWord(key)]);
}

/** The message of an `{message, name?}` error, or the value itself as text. */
export function errorMessage(error: unknown): string | null {
  if (error === null || error === undefined) return null;
  const o = obj(error);
  const message = o ? str(o.message) : null;
  if (o && message !== null) {
    const name = str(o.name);
    return name && name !== "Error" ? `${name}: ${message}` : message;
  }
  return prettyJson(error);
}

export function errorBox(error: unknown): HTMLElement | null {
  const message = errorMessage(error);
  return message === null ? null : h("div", "mn-error", [message]);
}

/** A tool call or a workflow step: the nodes that run, may wait for a person and may hold a run. */
export type CallNode = ToolNode | WorkflowStepNode;

/** How long a tool call or step took, without a person's wait: `1.2 s` as the kernel wrote it
 * (core/captions.py), or "" while unknown. */
export function nodeDuration(node: CallNode): string {
  return str(node.duration) ?? "";
}

/**
 * The head a tool card and a workflow-step card share (static common.py `call_head`): kind label,
 * name, the outcome a folded card shows, status badge and duration, with a card's own pieces where
 * they go (the tool's folded arguments by its name, its origin after the status, who decided last).
 */
export function callHead(
  kind: string,
  own: { around?: (name: HTMLElement) => HTMLElement; afterStatus?: HTMLElement[]; last?: HTMLElement[] } = {},
): { el: HTMLElement; update(node: CallNode, name: string, status: unknown): void } {
  const name = isolated("mn-name");
  const outcome = isolated("mn-fold-outcome mn-fold-only");
  const status = slot("mn-status", "span");
  const duration = h("span", "mn-duration mn-muted");
  const el = h("div", "mn-card-head", [
    h("span", "mn-kind-label", [kind]),
    own.around?.(name) ?? name,
    outcome,
    status.el,
    ...(own.afterStatus ?? []),
    duration,
    ...(own.last ?? []),
  ]);
  return {
    el,
    update(node, nodeName, nodeStatus) {
      name.textContent = nodeName;
      status.update(nodeStatus, badge);
      duration.textContent = nodeDuration(node);
      duration.title = str(node.duration_title) ?? ""; // by Mastra's trace, or by arrival (core/captions.py)
      if (node.duration_source) duration.dataset.source = node.duration_source;
      else delete duration.dataset.source;
      outcome.textContent = str(node.outcome) ?? ""; // the kernel wrote it (core/captions.py)
    },
  };
}

const MAX_OUTPUTS = 200;

/**
 * The custom values a tool or step wrote (a list the store grows in place): new items are
 * appended, only the last 200 are kept, and the fold state survives updates.
 */
export class OutputsView {
  readonly el: HTMLDetailsElement;
  private readonly summary = h("summary", "mn-label");
  private readonly ol = h("ol", "mn-outputs");
  private shown = 0;
  private source: unknown[] | null = null;

  constructor(private readonly label = "Outputs") {
    this.el = h("details", "mn-field mn-outputs-field", [this.summary, this.ol], { open: true });
    this.el.hidden = true;
  }

  update(values: unknown): void {
    const items = list(values);
    if (items !== this.source || items.length < this.shown) {
      this.ol.replaceChildren();
      this.shown = 0;
      this.source = items;
    }
    const start = Math.max(this.shown, items.length - MAX_OUTPUTS);
    for (let i = start; i < items.length; i++) {
      this.ol.append(h("li", "", [jsonPre(items[i])]));
    }
    while (this.ol.childElementCount > MAX_OUTPUTS) this.ol.firstElementChild?.remove();
    this.ol.start = Math.max(1, items.length - this.ol.childElementCount + 1);
    this.shown = items.length;
    this.summary.textContent = `${this.label} (${items.length})`;
    this.el.hidden = items.length === 0;
  }
}

/** jsonBlock, or nothing when the value is missing. */
export function maybeJson(label: string, value: unknown, cls = ""): HTMLElement | null {
  return value === null || value === undefined ? null : jsonBlock(label, value, cls);
}

/** Elements inside a card head that act by themselves; a click on them does not fold the card. */
const CONTROLS = "button, a, input, select, textarea, summary";

/** What the reader opened or folded by hand, by node id. */
export type FoldChoice = { get(): boolean | undefined; set(open: boolean): void };

/**
 * The reader's folding of a view's cards and sections, by node id: it outlives the DOM, so a redraw
 * of the same run (the kernel's answer to a view that said hello, a resync, a replay's seek back)
 * keeps what they opened. Forgotten when the view shows another run (its node ids mean other nodes).
 */
export class FoldChoices {
  private readonly chosen = new Map<string, boolean>();

  of(id: string): FoldChoice {
    return { get: () => this.chosen.get(id), set: (open) => this.chosen.set(id, open) };
  }

  forget(): void {
    this.chosen.clear();
  }
}

/** No memory beyond the element (a card drawn outside a view). */
const UNREMEMBERED: FoldChoice = { get: () => undefined, set: () => {} };

/**
 * Folding of a card: a click on its head, or Enter / Space on it (the head is a focusable
 * role=button with aria-expanded), shows or hides its body. The renderer gives a default
 * (`setDefault`, e.g. folded once a tool is done); once the user has toggled the card, their
 * choice (kept in `choice`, so a redraw keeps it) wins over every later default.
 */
export class Fold {
  private defaultOpen = true;

  constructor(
    private readonly card: HTMLElement,
    readonly head: HTMLElement,
    private readonly body: HTMLElement,
    private readonly choice: FoldChoice = UNREMEMBERED,
  ) {
    head.classList.add("mn-fold-head");
    head.setAttribute("role", "button");
    head.tabIndex = 0;
    head.addEventListener("click", (event) => {
      if (event.target instanceof Element && event.target.closest(CONTROLS)) return;
      this.toggle();
    });
    head.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      if (event.target !== head) return;
      event.preventDefault(); // no page scroll on Space
      event.stopPropagation(); // nor a notebook shortcut (Enter edits the cell)
      this.toggle();
    });
    this.apply();
  }

  get open(): boolean {
    return this.choice.get() ?? this.defaultOpen;
  }

  /** What the card shows unless the user chose otherwise. */
  setDefault(open: boolean): void {
    this.defaultOpen = open;
    this.apply();
  }

  toggle(): void {
    this.choice.set(!this.open);
    this.apply();
  }

  private apply(): void {
    const open = this.open;
    this.body.hidden = !open;
    this.card.classList.toggle("mn-folded", !open);
    this.head.setAttribute("aria-expanded", String(open));
  }
}

/**
 * The user's own folding of a `<details>` (reasoning, a nested run): `touched` once they toggled
 * it (or did before a redraw: `choice`), so an automatic fold does not undo it; aria-expanded
 * follows, and Enter on the summary is kept from the notebook's shortcuts.
 */
export function trackDetails(
  details: HTMLDetailsElement,
  summary: HTMLElement,
  choice: FoldChoice = UNREMEMBERED,
): { touched(): boolean } {
  let clicked = false;
  const chosen = choice.get();
  if (chosen !== undefined) details.open = chosen;
  summary.addEventListener("click", () => {
    clicked = true;
  });
  summary.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") event.stopPropagation();
  });
  const sync = () => {
    summary.setAttribute("aria-expanded", String(details.open));
    if (clicked) choice.set(details.open);
  };
  details.addEventListener("toggle", sync);
  sync();
  return { touched: () => clicked || choice.get() !== undefined };
}
