/**
 * Browserless parity, the widget's half: every fixture's final snapshot (tests/parity/snapshots/,
 * written by tests/test_parity.py) drawn by the widget's renderer in jsdom says the golden text
 * (tests/parity/golden/), which the static renderer says too (tests/test_parity.py). The rule that
 * reads the visible text is tests/parity/README.md's, the same on both sides.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { SnapshotMsg } from "../src/types";
import { mountStatic, type StaticHandle } from "../src/widget";

// this file's folder, from its file: URL (jsdom's URL, global here, resolves file: URLs oddly)
const HERE = decodeURIComponent(import.meta.url.replace(/^file:\/\//, "").replace(/\/[^/]*$/, ""));
const PARITY = `${HERE}/../../tests/parity/`;

/** The files under tests/parity/<dir>/ by fixture name (`providers/anthropic-text`), with their text. */
function read(dir: string, suffix: string): Map<string, string> {
  const base = `${PARITY}${dir}/`;
  const files = readdirSync(base, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(suffix));
  return new Map(files.sort().map((path) => [path.slice(0, -suffix.length), readFileSync(base + path, "utf8")]));
}

const HOW = "MN_UPDATE_PARITY=1 .venv/bin/python -m pytest tests/test_parity.py";

/** Known differences between the two renderers, by fixture: none today (tests/parity/README.md). */
const EXPECTED_DIFFERENCES: Record<string, string> = {};

// What the text skips (tests/test_parity.py has the same rule): controls, the one-line summaries of
// folded cards (their opened body says it again), what is hidden, code and styles.
const SKIPPED = "[data-mn-control], .mn-fold-only, [hidden], script, style, template";
const BLOCKS = new Set(
  ("address article aside blockquote br dd details div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 " +
    "header hr li main nav ol p pre section summary table tr ul").split(" "),
);

/**
 * The selectors of the widget's stylesheet that hide (`display: none`): innerText skips what they
 * match in a browser. Read once; jsdom's getComputedStyle on every element would say the same, at
 * a minute for all fixtures, and with the sheet in the page it slows every style read of a mount.
 */
function hidingSelectors(css: string): string[] {
  const style = document.createElement("style");
  style.textContent = css;
  document.head.append(style);
  const selectors: string[] = [];
  const collect = (list: CSSRuleList): void => {
    for (const rule of list) {
      if (rule instanceof CSSStyleRule && rule.style.display === "none") selectors.push(rule.selectorText);
      else if (rule instanceof CSSGroupingRule) collect(rule.cssRules);
    }
  };
  if (style.sheet) collect(style.sheet.cssRules);
  style.remove();
  return selectors;
}

const HIDING = hidingSelectors(readFileSync(`${HERE}/../src/widget.css`, "utf8"));

function hiddenByStyle(root: Element): Element[] {
  return HIDING.flatMap((selector) => {
    try {
      return [...root.querySelectorAll(selector)];
    } catch {
      return []; // a selector jsdom cannot match (a pseudo-class of its own): it hides nothing here
    }
  });
}

/** The visible text of `root`, a line per block (whitespace is not compared). */
function visibleText(root: Element): string {
  for (const el of hiddenByStyle(root)) el.setAttribute("hidden", "");
  const copy = root.cloneNode(true) as Element;
  for (const skipped of copy.querySelectorAll(SKIPPED)) skipped.remove();
  const lines = [""];
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      lines[lines.length - 1] += node.textContent ?? "";
      return;
    }
    if (!(node instanceof Element)) return;
    const block = BLOCKS.has(node.tagName.toLowerCase());
    if (block) lines.push("");
    for (const child of node.childNodes) walk(child);
    if (block) lines.push("");
  };
  walk(copy);
  const shown = lines.map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line);
  return shown.join("\n") + "\n";
}

const cut = (part: string) => (part.length <= 300 ? part : `${part.slice(0, 300)}…`);

/** Where `text` parts from `golden` (whitespace left out), or null when it says the golden. */
function difference(golden: string, text: string, what: string): string | null {
  const a = golden.replace(/\s+/g, "");
  const b = text.replace(/\s+/g, "");
  if (a === b) return null;
  let start = 0;
  while (start < Math.min(a.length, b.length) && a[start] === b[start]) start++;
  let end = 0;
  while (end < Math.min(a.length, b.length) - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return (
    `${what} differs from the golden at character ${start} (whitespace left out):\n` +
    `  before: …${a.slice(Math.max(0, start - 80), start)}\n` +
    `  golden: «${cut(a.slice(start, a.length - end))}»\n` +
    `  ${what}: «${cut(b.slice(start, b.length - end))}»\n` +
    `  after:  ${a.slice(a.length - end, a.length - end + 80)}…\n` +
    `If the change is meant, regenerate: ${HOW}`
  );
}

const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Opens the header's panels and every folded card and <details>, until nothing is left to open. */
async function unfold(root: HTMLElement): Promise<void> {
  for (const toggle of root.querySelectorAll<HTMLElement>(".mn-header button[aria-expanded='false']")) toggle.click();
  for (let round = 0; round < 50; round++) {
    const closed = [...root.querySelectorAll<HTMLDetailsElement>("details:not([open])")];
    const folded = [...root.querySelectorAll<HTMLElement>(".mn-fold-head[aria-expanded='false']")];
    if (!closed.length && !folded.length) break;
    for (const details of closed) details.open = true;
    for (const head of folded) head.click();
    await settled(); // bodies drawn on their toggle event
  }
}

// hand-made snapshots (tests/parity/hand/): what only the kernel writes, e.g. issue 21's display bundles
const hand = (files: Map<string, string>): [string, string][] => [...files].map(([name, text]) => [`hand/${name}`, text]);
const SNAPSHOTS = [...read("snapshots", ".json"), ...hand(read("hand", ".json"))];
const GOLDEN = new Map([...read("golden", ".txt"), ...hand(read("hand", ".txt"))]);

describe("the widget says what the static renderer says", () => {
  let handle: StaticHandle | null = null;
  afterEach(() => {
    handle?.destroy();
    handle = null;
    document.body.replaceChildren();
  });

  it("reads every fixture's snapshot", () => {
    expect(SNAPSHOTS.length).toBeGreaterThan(30);
    expect(new Set(GOLDEN.keys())).toEqual(new Set(SNAPSHOTS.map(([fixture]) => fixture)));
  });

  it.each(SNAPSHOTS)("%s", async (fixture, json) => {
    const data = JSON.parse(json) as { title: string; snapshot: SnapshotMsg };
    const el = document.createElement("div");
    document.body.append(el);
    handle = mountStatic(el, data.snapshot, { title: data.title, budgetMs: Infinity });
    await settled();
    await unfold(handle.root);
    const report = difference(GOLDEN.get(fixture) ?? "", visibleText(handle.root), "the widget");
    const expected = EXPECTED_DIFFERENCES[fixture];
    if (expected === undefined) expect(report, report ?? "").toBeNull();
    else expect(report, `${fixture} is listed as differing (${expected}) but now agrees: drop it`).not.toBeNull();
  });
});
