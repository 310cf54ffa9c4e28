/**
 * The kernel's tables and panels (js/src/views/): typed inline content, a table view, mn.compare and a
 * chat turn's memory, drawn with the renderers' own helpers. Every string here may be hostile: it is
 * drawn as text (no element, no attribute of its own) and each label is isolated (`<bdi dir=auto>`).
 */
import { describe, expect, it } from "vitest";
import { drawCompare, drawCompareSteps, type CompareInput, type CompareSteps } from "../src/views/compare";
import { drawInline, drawTable, type Inline } from "../src/views/inline";
import { drawMemory, drawUserTurn } from "../src/views/memory";
import { drawTableView } from "../src/views/table";

const HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)"></td></tr>\u202e';

function box(nodes: (Node | string)[]): HTMLElement {
  const el = document.createElement("div");
  el.append(...nodes);
  return el;
}

/** No element a hostile string could have made. */
function inert(el: Element): void {
  expect(el.querySelector("script, img, iframe, svg, [onerror], [onload]")).toBeNull();
}

describe("inline content", () => {
  it("draws text as text and labels isolated, whatever they hold", () => {
    const el = box(drawInline([HOSTILE, { t: "label", text: HOSTILE, title: HOSTILE }, { t: "code", body: { t: "label", text: HOSTILE } }]));
    inert(el);
    expect(el.textContent).toBe(HOSTILE.repeat(3));
    const labels = el.querySelectorAll("bdi");
    expect(labels).toHaveLength(2);
    for (const label of labels) expect(label.getAttribute("dir")).toBe("auto");
    expect(labels[0]?.getAttribute("title")).toBe(HOSTILE);
    expect(el.querySelector("code > bdi")?.textContent).toBe(HOSTILE);
  });

  it("draws diff segments, muted notes, lines with a count, badges and a progress bar", () => {
    const el = box(
      drawInline([
        "The sky is ",
        { t: "del", body: "blue" },
        { t: "ins", body: "grey" },
        { t: "muted", body: "… 12 unchanged characters …" },
        { t: "lines", lines: ["a", { t: "code", body: "b" }], more: "+3 more" },
        { t: "badge", text: "running…", status: "running" },
        { t: "progress", done: 1, total: 4 },
      ]),
    );
    expect(el.querySelector("del.mn-del")?.textContent).toBe("blue");
    expect(el.querySelector("ins.mn-ins")?.textContent).toBe("grey");
    expect(el.querySelector(".mn-muted")?.textContent).toBe("… 12 unchanged characters …");
    const lines = el.querySelector(".mn-lines");
    expect(lines?.querySelectorAll("br")).toHaveLength(2);
    expect(lines?.lastElementChild?.textContent).toBe("+3 more");
    const badge = el.querySelector(".mn-status");
    expect(badge?.getAttribute("data-status")).toBe("running");
    expect(badge?.classList.contains("mn-tone-active")).toBe(true);
    expect(badge?.textContent).toBe("running…");
    const bar = el.querySelector<HTMLElement>(".mn-progress");
    expect(bar?.getAttribute("aria-valuenow")).toBe("1");
    expect(bar?.getAttribute("aria-valuemax")).toBe("4");
    expect(bar?.querySelector<HTMLElement>(".mn-progress-fill")?.style.width).toBe("25%");
  });

  it("links only to an absolute http(s) or mailto address", () => {
    const el = box(drawInline([{ t: "link", text: "docs", href: "https://mastra.ai/docs" }, { t: "link", text: "bad", href: "javascript:alert(1)" }]));
    const links = el.querySelectorAll("a");
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute("href")).toBe("https://mastra.ai/docs");
    expect(links[0]?.getAttribute("rel")).toContain("noopener");
    expect(el.textContent).toBe("docsbad");
  });

  it("keeps a span's data attributes to plain names", () => {
    const el = box(drawInline({ t: "span", cls: "mn-score", body: "0.5", title: HOSTILE, data: { status: HOSTILE, 'x" onclick="y': "z" } }));
    const span = el.querySelector(".mn-score");
    expect(span?.getAttribute("data-status")).toBe(HOSTILE);
    expect(span?.getAttribute("title")).toBe(HOSTILE);
    expect([...(span?.attributes ?? [])].map((a) => a.name).sort()).toEqual(["class", "data-status", "title"]);
  });
});

describe("a table view", () => {
  const rows: Inline[][] = [
    [{ t: "code", body: { t: "label", text: "evil" } }, { t: "label", text: HOSTILE }, { t: "muted", body: "—" }],
    ["b", { t: "details", summary: "schema", body: { t: "pre", text: '{"a": 1}' } }, ""],
  ];

  it("draws heads, rows and cells, a hostile cell opening no row", () => {
    const el = drawTableView({ cls: "mn-dataset", body: [{ t: "block", cls: "mn-caption", body: "2 agents" }, { t: "table", cls: "mn-catalogue", kind: "agents", heads: ["id", "name", "model"], rows }] });
    inert(el);
    expect(el.className).toBe("mn-dataset");
    const table = el.querySelector("table.mn-catalogue");
    expect(table?.getAttribute("data-kind")).toBe("agents");
    expect([...(table?.querySelectorAll("thead th") ?? [])].map((th) => th.textContent)).toEqual(["id", "name", "model"]);
    expect(table?.querySelectorAll("tbody tr")).toHaveLength(2);
    expect(table?.querySelector("tbody tr td:nth-child(2) bdi")?.textContent).toBe(HOSTILE);
    const schema = table?.querySelector("details");
    expect(schema?.open).toBe(false);
    expect(schema?.querySelector("pre")?.textContent).toBe('{"a": 1}');
  });

  it("draws rows of facts, each headed by its first cell", () => {
    const table = drawTable({ t: "table", rows: [["status", "done"]], rowHeads: true });
    expect(table.querySelector("thead")).toBeNull();
    expect(table.querySelector("tbody tr th")?.textContent).toBe("status");
    expect(table.querySelector("tbody tr td")?.textContent).toBe("done");
  });
});

describe("mn.compare", () => {
  const steps: CompareSteps = {
    labels: ["A", HOSTILE],
    sentence: "runs part at step 2: A answers, B calls searchWeb",
    parts: true,
    rows: [
      { label: "step 1", parts: false, cells: [[{ t: "strong", body: "step 1" }], [{ t: "strong", body: "step 1" }]], calls: [] },
      {
        label: "step — / 2",
        parts: true,
        cells: [null, "answers"],
        calls: [
          [
            null,
            {
              head: [{ t: "code", body: { t: "label", text: HOSTILE } }],
              args: { t: "block", cls: "mn-arg-changed", body: ["q: ", { t: "del", body: "a" }, " → ", { t: "ins", body: HOSTILE }] },
              result: HOSTILE,
              brief: "3 rows",
              rich: { display: null, result: [{ a: 1 }, { a: 2 }, { a: 3 }] },
            },
          ],
        ],
        moreCalls: "… 2 more tool calls in this step",
      },
    ],
    moreSteps: null,
  };

  it("marks where the runs part, leaves gaps empty and draws hostile names as text", () => {
    const el = drawCompareSteps(steps);
    inert(el);
    expect(el.querySelector(".mn-compare-parting")?.textContent).toBe(steps.sentence);
    expect(el.querySelector(".mn-compare-parted")).not.toBeNull();
    const rows = el.querySelectorAll("table.mn-compare-steps tr");
    expect([...(rows[0]?.querySelectorAll("th") ?? [])].map((th) => th.textContent)).toEqual(["", "A", HOSTILE]);
    const parts = el.querySelectorAll("tr.mn-compare-parts");
    expect(parts).toHaveLength(1);
    expect(parts[0]?.querySelector("th")?.textContent).toBe("step — / 2◆ runs part here");
    const gap = parts[0]?.querySelector("td");
    expect(gap?.classList.contains("mn-compare-gap")).toBe(true);
    expect(gap?.textContent).toBe("");
    const call = el.querySelector(".mn-compare-call");
    expect(call?.querySelector("code bdi")?.textContent).toBe(HOSTILE);
    expect(call?.querySelector(".mn-arg-changed ins")?.textContent).toBe(HOSTILE);
    // a result drawn as data (the transcript's own table) is said briefly beside it
    expect(call?.querySelector(".mn-compare-result")?.textContent).toBe("→ 3 rows");
    expect(call?.querySelector(".mn-compare-rich table.mn-table")).not.toBeNull();
    expect(el.textContent).toContain("… 2 more tool calls in this step");
  });

  it("shows a failed call's error, tinted, in place of its result", () => {
    const failed: CompareSteps = {
      ...steps,
      rows: [{ label: "step 1", parts: false, cells: ["x"], calls: [[{ head: "lookup", args: [], error: HOSTILE, result: "null", brief: "null", rich: null }]] }],
    };
    const el = drawCompareSteps(failed);
    inert(el);
    expect(el.querySelector(".mn-compare-error")?.textContent).toBe(`error: ${HOSTILE}`);
    expect(el.querySelector(".mn-compare-rich")).toBeNull();
  });

  it("draws the facts table, the steps and each text's word diff", () => {
    const input: CompareInput = {
      labels: ["A", "B"],
      facts: [["status", ["done", HOSTILE]]],
      steps: { ...steps, labels: ["A", "B"], rows: [] },
      timelines: [],
      texts: [
        { summary: ["text: ", { t: "label", text: "A" }, " → ", { t: "label", text: "B" }], diff: ["The sky is ", { t: "del", body: "blue" }, { t: "ins", body: "grey" }] },
        { summary: "text: A → C", diff: null },
      ],
    };
    const el = drawCompare(input);
    inert(el);
    const facts = el.querySelector("table.mn-compare-facts");
    expect([...(facts?.querySelectorAll("tr") ?? [])].map((tr) => [...tr.children].map((c) => c.textContent))).toEqual([
      ["", "A", "B"],
      ["status", "done", HOSTILE],
    ]);
    const [first, second] = el.querySelectorAll<HTMLDetailsElement>("details.mn-compare-text");
    expect(first?.open).toBe(true);
    expect(first?.querySelector(".mn-word-diff del")?.textContent).toBe("blue");
    expect(first?.querySelector(".mn-word-diff ins")?.textContent).toBe("grey");
    expect(second?.textContent).toContain("the same text");
    expect(el.querySelector(".mn-compare-timelines")).toBeNull(); // no timed run: no timeline
  });
});

describe("a chat turn's memory", () => {
  it("draws recalled messages folded, the working memory's lines marked, and a note, all as text", () => {
    const el = drawMemory({
      recalled: [["user", HOSTILE], ["assistant", "Noted."]],
      working: [[" ", "# User"], ["-", "- Location:"], ["+", `- Likes: ${HOSTILE}`]],
      note: HOSTILE,
    });
    expect(el).not.toBeNull();
    if (el === null) return;
    inert(el);
    expect(el.getAttribute("data-role")).toBe("memory");
    const recalled = el.querySelector<HTMLDetailsElement>("details.mn-memory-recalled");
    expect(recalled?.open).toBe(false);
    expect(recalled?.querySelector("summary")?.textContent).toBe("Recalled 2 messages");
    const first = recalled?.querySelector("li");
    expect(first?.getAttribute("data-role")).toBe("user");
    expect(first?.textContent).toBe(`user${HOSTILE}`);
    for (const label of first?.querySelectorAll("bdi") ?? []) expect(label.getAttribute("dir")).toBe("auto");
    const working = el.querySelector<HTMLDetailsElement>("details.mn-memory-working");
    expect(working?.open).toBe(true);
    expect(working?.querySelector("summary")?.textContent).toBe("Working memory: +1 -1 lines");
    expect([...el.querySelectorAll(".mn-diff-line")].map((line) => line.getAttribute("data-mark"))).toEqual(["kept", "removed", "added"]);
    expect(el.querySelector('[data-mark="added"]')?.textContent).toBe(`+- Likes: ${HOSTILE}`);
    expect(el.querySelector('[data-mark="removed"]')?.textContent).toBe("\u2212- Location:");
    expect(el.querySelector(".mn-memory-note")?.textContent).toBe(HOSTILE);
  });

  it("draws nothing when there is nothing to show, and unchanged working memory folded", () => {
    expect(drawMemory({ recalled: [], working: null, note: null })).toBeNull();
    const unchanged = drawMemory({ recalled: [], working: [[" ", "same"]] });
    expect(unchanged?.querySelector<HTMLDetailsElement>("details.mn-memory-working")?.open).toBe(false);
    expect(unchanged?.querySelector("summary")?.textContent).toBe("Working memory: unchanged");
    expect(unchanged?.querySelector(".mn-memory-recalled")).toBeNull();
  });

  it("draws a prompt as a user turn, as typed", () => {
    const turn = drawUserTurn(HOSTILE);
    inert(turn);
    expect(turn.className).toBe("mn-user-turn");
    expect(turn.getAttribute("data-role")).toBe("user");
    expect(turn.textContent).toBe(HOSTILE);
  });
});
