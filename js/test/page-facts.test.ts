/**
 * What a reader reads on a page, drawn by the widget in jsdom from the snapshots the kernel dumped
 * (issue 30): tests/parity/pages/ (written by tests/test_page_facts.py, which checks the same pages'
 * node fields and static transcript) and the parity snapshots of two recordings. These checks opened
 * JupyterLab before (the e2e tests test_figures, test_overrides_header, test_status_words, test_scores).
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { SnapshotMsg } from "../src/types";
import { mountStatic, type StaticHandle } from "../src/widget";

// this file's folder, from its file: URL (jsdom's URL, global here, resolves file: URLs oddly)
const HERE = decodeURIComponent(import.meta.url.replace(/^file:\/\//, "").replace(/\/[^/]*$/, ""));
const PARITY = `${HERE}/../../tests/parity/`;
const PAGES = readdirSync(`${PARITY}pages`, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".json"));

let handle: StaticHandle | null = null;

/** The page `path` (under tests/parity/) mounted as a saved view is; its root element. */
async function page(path: string): Promise<HTMLElement> {
  const data = JSON.parse(readFileSync(`${PARITY}${path}`, "utf8")) as { title: string; snapshot: SnapshotMsg };
  const el = document.createElement("div");
  document.body.append(el);
  handle = mountStatic(el, data.snapshot, { title: data.title, budgetMs: Infinity });
  await new Promise<void>((resolve) => setTimeout(resolve, 0)); // what the first frame left over
  return handle.root;
}

const text = (root: Element, selector: string): string | null | undefined =>
  root.querySelector(selector)?.textContent;
const texts = (root: Element, selector: string): (string | null)[] =>
  [...root.querySelectorAll(selector)].map((el) => el.textContent);
/** The root run's footer stat `key`: its value as shown. */
const footer = (root: Element, key: string) =>
  text(root, `.mn-run-root > .mn-footer [data-stat="${key}"] .mn-stat-value`);

afterEach(() => {
  handle?.destroy();
  handle = null;
  document.body.replaceChildren();
});

describe("the pages the kernel dumped", () => {
  it("reads every page tests/test_page_facts.py writes", () => {
    expect(PAGES.sort()).toEqual(
      ["figures-supervisor", "header-overridden", "scores-scored", "scores-scoring", "status-stopped"].map(
        (name) => `${name}.json`,
      ),
    );
  });

  it("shows the kernel's figures in the header and the footer", async () => {
    const root = await page("pages/figures-supervisor.json");
    expect(text(root, '.mn-header [data-stat="tokens"]')).toBe("453 tokens · 1,378 with sub-agents");
    expect(text(root, '.mn-header [data-stat="ttft"]')).toBe("first token 410 ms"); // from the request
    expect(footer(root, "tokens_with_nested")).toBe("1,378");
    expect(footer(root, "tokens_per_s")).toBe("80.4");
    expect(footer(root, "duration")).toBe("3.4 s");
  });

  it("says in the header that the request replaced the instructions", async () => {
    const root = await page("pages/header-overridden.json");
    const badge = root.querySelector<HTMLElement>(".mn-header .mn-overridden");
    expect(badge?.textContent).toBe("instructions overridden");
    expect(badge?.hidden).toBe(false);
  });

  it("says a run the reader stopped is stopped, in its header and footer alike", async () => {
    const root = await page("pages/status-stopped.json");
    expect(text(root, ".mn-header .mn-state")).toBe("stopped");
    expect(footer(root, "status")).toBe("stopped");
  });

  it('says "scoring…" while the scores are awaited', async () => {
    const root = await page("pages/scores-scoring.json");
    expect(texts(root, ".mn-header .mn-head-scores .mn-badge")).toEqual(["scoring…"]);
  });

  it("shows a badge per score in the header and a row per score in the footer", async () => {
    const root = await page("pages/scores-scored.json");
    const badges = [...root.querySelectorAll<HTMLElement>(".mn-header .mn-head-scores .mn-badge")];
    expect(badges.map((b) => b.textContent)).toEqual([
      "answer-length 0.7",
      "completeness-scorer 1",
      "judge-answers-question 1",
      "mentions Paris 1 ✓",
    ]);
    expect(badges[0]?.title).toBe("answer-length (Mastra scorer): 14 words; score 0.7");
    const row = ".mn-footer .mn-score-row .mn-score";
    expect(texts(root, `${row} .mn-stat-label`)).toEqual([
      "answer-length",
      "completeness-scorer",
      "judge-answers-question",
      "mentions Paris",
    ]);
    expect(texts(root, `${row} .mn-stat-value`).at(-1)).toBe("1 ✓");
    expect(root.querySelector<HTMLElement>(`${row} .mn-score-reason`)?.title).toBe("14 words; score 0.7");
  });

  it("says a call waits for approval, in the header and on its card", async () => {
    const root = await page("snapshots/tool-approval.json");
    expect(text(root, ".mn-header .mn-state")).toBe("waiting for approval");
    expect(text(root, ".mn-tool > .mn-card-head .mn-badge")).toBe("waiting for approval");
  });

  it("says a declined call is declined on its card", async () => {
    const root = await page("snapshots/tool-approval-declined.json");
    expect(text(root, ".mn-header .mn-state")).toBe("finished");
    expect(text(root, ".mn-tool > .mn-card-head .mn-badge")).toBe("declined");
  });
});
