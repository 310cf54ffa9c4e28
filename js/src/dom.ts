/** Small DOM helpers. Text always goes in through textContent, never innerHTML. */

type Attrs = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/** Creates `<tag class=...>` with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  children: Child[] = [],
  attrs: Attrs = {},
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  // A control works the view, it says nothing of the run: tests comparing the widget's text with the
  // static transcript's set aside what carries this (the transcript marks its "show all" so too).
  if (tag === "button") el.setAttribute("data-mn-control", "");
  for (const [name, value] of Object.entries(attrs)) {
    if (value === true) el.setAttribute(name, "");
    else if (typeof value === "string") el.setAttribute(name, value);
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
}

const UNSET = Symbol("unset");

/**
 * A placeholder element whose content is rebuilt only when its value changes.
 * Lists are grown in place by the store, so arrays also compare by length.
 */
export class Slot {
  private last: unknown = UNSET;
  private lastLen = -1;

  constructor(readonly el: HTMLElement) {}

  update<T>(value: T, render: (value: T) => Child | Child[]): void {
    const len = Array.isArray(value) ? value.length : -1;
    if (value === this.last && len === this.lastLen) return;
    this.last = value;
    this.lastLen = len;
    const out = render(value);
    const nodes = (Array.isArray(out) ? out : [out]).filter(
      (c): c is Node | string => c !== null && c !== undefined && c !== false,
    );
    this.el.replaceChildren(...nodes);
    this.el.hidden = nodes.length === 0;
  }
}

export function slot(cls: string, tag: "div" | "span" = "div"): Slot {
  return new Slot(h(tag, cls));
}

/**
 * An element for untrusted label text (a tool name, an agent id, a step name): a `<bdi dir=auto>`,
 * so direction controls inside it (U+202E) cannot reorder the text around it.
 */
export function isolated(cls: string, text = ""): HTMLElement {
  return h("bdi", cls, [text], { dir: "auto" });
}

let panels = 0;

/**
 * Ties a toggle button to the panel it shows and hides (`aria-controls`, for assistive technology
 * too): the static transcript draws each such pair as a folded `<details>` (static/serialize.ts).
 */
export function controls(button: HTMLElement, panel: HTMLElement): void {
  if (!panel.id) panel.id = `mn-panel-${++panels}`;
  button.setAttribute("aria-controls", panel.id);
}
