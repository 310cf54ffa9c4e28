/**
 * The static form of a drawn view: script-free HTML that reads where nothing runs (GitHub, nbviewer,
 * nbconvert, a notebook reopened without a kernel). It is the live view's DOM, written out with the
 * few changes a page without scripts needs:
 * - a card the widget folds (a `.mn-fold-head` and its body) is a `<details>` whose summary is the
 *   head, open where the widget has it open; what the widget shows only folded (`.mn-fold-only`)
 *   stays only in a folded card;
 * - a disclosure (a button with `aria-controls`: a step's "Request", the "Timeline") is a
 *   `<details>` whose summary is the button's words and whose body is its panel, drawn open; it is
 *   folded unless its panel asks to start open (`data-mn-open`, set by the transcript entry);
 * - controls (buttons, inputs) and what the view hides are left out;
 * - each element gets its inline style from the palette (palette.ts);
 * - raw HTML (markdown, a tool's HTML display) becomes an island, `<mn-island n="i">`, that the
 *   kernel replaces with the island sanitised by nh3 (render/engine.py).
 */
import { SHORT_LINES } from "../render/json";
import { styleOf } from "./palette";
import { SElement, type SNode, SParent, SRaw, SText } from "./string-dom";

const CONTROLS = new Set(["BUTTON", "INPUT", "TEXTAREA", "SELECT"]);
const VOID = new Set(["BR", "HR", "IMG", "WBR", "COL", "AREA", "SOURCE", "TRACK"]);
/** An attribute name a browser's setAttribute takes and that cannot close the tag around it. */
const ATTR_NAME = /^[a-z][a-z0-9:_.-]*$/;
/** Attributes that make a live view work, not say anything: left out of the static form. */
const LIVE_ATTRS = new Set(["tabindex", "role", "aria-expanded", "aria-controls", "hidden", "id", "data-mn-open"]);

export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;");
}

/**
 * A run with structured output draws its object as a tree; its text part, the same JSON streamed,
 * is hidden by widget.css (`.mn-run[data-structured] > .mn-parts > .mn-text[data-json]`).
 */
function structuredText(el: SElement): boolean {
  if (!el.classList.contains("mn-text") || !el.hasAttribute("data-json")) return false;
  const run = el.parentElement?.parentElement;
  return run?.classList.contains("mn-run") === true && run.hasAttribute("data-structured");
}

export interface StaticHtml {
  html: string;
  /** Raw HTML, by island number: the kernel sanitises each and puts it where its island stands. */
  islands: string[];
}

export interface SerializeOptions {
  /**
   * The palette's inline styles (true, the default); false: only an element's own declarations
   * (a host that sanitises every inline declaration of a big output pays for each: the experiment's
   * static grid).
   */
  styled?: boolean;
  /** Buttons kept (a live page's parts whose buttons its script acts on); else controls are left out. */
  controls?: boolean;
}

export function serialize(root: SElement, options: SerializeOptions = {}): StaticHtml {
  const palette = options.styled !== false;
  const dropped = options.controls === true ? new Set(["INPUT", "TEXTAREA", "SELECT"]) : CONTROLS;
  const islands: string[] = [];
  // a disclosure's panel -> the words of the button that opens it
  const disclosures = new Map<string, string>();
  for (const button of root.querySelectorAll("button[aria-controls]")) {
    const panel = button.getAttribute("aria-controls");
    if (panel && !button.hidden) disclosures.set(panel, button.textContent);
  }
  const STARTS_OPEN = "data-mn-open";

  const children = (parent: SParent, folded: boolean | null): string =>
    parent.childNodes.map((child) => node(child, folded)).join("");

  const open = (el: SElement, tag = el.localName, add: readonly string[] = [], extra = ""): string => {
    const classes = [...el.classNames(), ...add];
    let attrs = "";
    if (classes.length > 0) attrs += ` class="${escapeAttr(classes.join(" "))}"`;
    for (const [name, value] of el.attributes) {
      if (name === "class" || LIVE_ATTRS.has(name) || name.startsWith("on") || !ATTR_NAME.test(name)) continue;
      attrs += value === "" ? ` ${name}` : ` ${name}="${escapeAttr(value)}"`;
    }
    const style = [palette ? styleOf(tag, classes) : "", el.style.cssText].filter(Boolean).join(";");
    if (style) attrs += ` style="${escapeAttr(style)}"`;
    return `<${tag}${attrs}${extra}>`;
  };

  /** `folded`: inside a fold card's head, whether that card is folded (null elsewhere). */
  const node = (child: SNode, folded: boolean | null): string => {
    if (child instanceof SText) return escapeText(child.data);
    if (child instanceof SRaw) {
      islands.push(child.html);
      return `<mn-island n="${islands.length - 1}"></mn-island>`;
    }
    if (child instanceof SElement) return element(child, folded);
    return child instanceof SParent ? children(child, folded) : "";
  };

  /** `shown`: drawn even where the live view hides it (a folded card's body, a closed panel). */
  const element = (el: SElement, folded: boolean | null, shown = false): string => {
    if (dropped.has(el.tagName)) return "";
    const panel = el.getAttribute("id");
    const disclosure = shown || panel === null ? undefined : disclosures.get(panel);
    if (disclosure !== undefined) {
      // the twin of the live toggle button: a control, as that button is (data-mn-control, dom.ts)
      const summary = `<summary data-mn-control style="${escapeAttr(styleOf("summary", []))}">${escapeText(disclosure)}</summary>`;
      const style = escapeAttr(styleOf("details", ["mn-disclosure"]));
      const opened = el.hasAttribute(STARTS_OPEN) ? " open" : "";
      return `<details class="mn-disclosure" style="${style}"${opened}>${summary}${element(el, null, true)}</details>`;
    }
    if (!shown && el.hidden) return "";
    if (el.getAttribute("aria-hidden") === "true" && el.childNodes.length === 0) return ""; // a spacer
    if (folded === false && el.classList.contains("mn-fold-only")) return "";
    if (structuredText(el)) return "";
    const head = el.children.find((c) => c.classList.contains("mn-fold-head"));
    if (head) {
      const isOpen = head.getAttribute("aria-expanded") !== "false";
      const body = el.childNodes
        .filter((c) => c !== head)
        .map((c) => (c instanceof SElement ? element(c, null, true) : node(c, null)))
        .join("");
      return `${open(el, "details", [], isOpen ? " open" : "")}${open(head, "summary")}${children(head, !isOpen)}</summary>${body}</details>`;
    }
    if (el.classList.contains("mn-json-cut")) return cutJson(el);
    if (VOID.has(el.tagName)) return open(el);
    return `${open(el)}${children(el, folded)}</${el.localName}>`;
  };

  /**
   * Long JSON, which widget.css cuts to its first lines behind "show all" (json.ts): those lines,
   * then the rest in a folded `<details>`, its summary the twin of the button.
   */
  const cutJson = (pre: SElement): string => {
    const lines = pre.textContent.split("\n");
    const styled = (extra: string) => open(pre, "pre", [], "").replace(/ style="/, ` style="${extra};`);
    const summary = `<summary data-mn-control style="${escapeAttr(styleOf("summary", []))}">show all ${lines.length} lines</summary>`;
    return (
      `${styled("margin-bottom:0")}${escapeText(lines.slice(0, SHORT_LINES).join("\n"))}</pre>` +
      `<details data-mn-show-all>${summary}${styled("margin-top:0")}${escapeText(lines.slice(SHORT_LINES).join("\n"))}</pre></details>`
    );
  };

  return { html: element(root, null), islands };
}
