// @vitest-environment node
/** The grid as the kernel draws it for a saved notebook (static/transcript.ts `grid`): the live grid's drawing, no control. */
import { beforeAll, describe, expect, it } from "vitest";
import type * as Entry from "../src/static/transcript";
import { HOSTILE, batchPage, experimentPage, run, tile } from "./grid-fixtures";

let staticViews: typeof Entry;

beforeAll(async () => {
  await import("../src/static/install");
  staticViews = await import("../src/static/transcript");
});

describe("the saved grid", () => {
  it("keeps the tiles and the pager's words, and leaves out every control", () => {
    const { html, islands } = staticViews.renderGrid({ page: batchPage() });
    expect(islands).toEqual([]);
    for (const said of ["prompt 1", "#2 · agent test", "exact 1 ✓", "answer 0", "1–3 of 9"]) expect(html).toContain(said);
    for (const control of ["<button", "<select", "<input", "<option"]) expect(html).not.toContain(control);
    expect(html).not.toMatch(/style="/); // own declarations only, and the grid has none: cheap to sanitise
  });

  it("carries the classes it is given on its top element (a grid widget's saved copy: transcripts.ts)", () => {
    const classes = ["mastra-notebook-transcript", "mn-transcript-of-0123456789abcdef0123456789abcdef"];
    const { html } = staticViews.renderGrid({ page: batchPage(), classes });
    expect(html.startsWith(`<div class="mn-grid-static ${classes.join(" ")}">`)).toBe(true);
    expect(staticViews.renderGrid({ page: batchPage() }).html.startsWith('<div class="mn-grid-static">')).toBe(true);
  });

  it("draws an experiment as a table of inputs by variants", () => {
    const { html } = staticViews.renderGrid({ page: experimentPage() });
    expect(html).toContain("<table");
    expect(html).toContain('<span class="mn-grid-number">#1</span>');
    expect(html).toContain('<span class="mn-grid-repeat">#2</span>');
  });

  it("writes hostile strings as text", () => {
    const hostile = tile(0, { title: HOSTILE, runs: [run(0, { answer: HOSTILE, comment: HOSTILE })] });
    const { html } = staticViews.renderGrid({ page: batchPage({ tiles: [hostile] }) });
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain("&lt;img src=x onerror=");
  });
});
