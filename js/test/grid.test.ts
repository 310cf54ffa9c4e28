/** The one grid (src/views/grid.ts, src/grid-widget.ts): tiles, the pager top and bottom, the filter, "open", redraws. */
import { describe, expect, it } from "vitest";
import { type GridModel, renderGrid } from "../src/grid-widget";
import { type GridPage, drawGrid, readPage } from "../src/views/grid";
import { HOSTILE, batchPage, experimentPage, judgedPage, run, tile, verdict } from "./grid-fixtures";

function fakeModel(page: unknown, viewKey = ""): GridModel & { sent: unknown[]; set(page: unknown): void } {
  let value = page;
  const listeners: (() => void)[] = [];
  const sent: unknown[] = [];
  return {
    sent,
    get: (name) => (name === "view_key" ? viewKey : value),
    on: (_event, callback) => void listeners.push(callback),
    off: (_event, callback) => void listeners.splice(listeners.indexOf(callback) >>> 0, 1),
    send: (msg) => void sent.push(msg),
    set(next) {
      value = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

function mounted(page: GridPage, viewKey = "") {
  const model = fakeModel(page, viewKey);
  const el = document.createElement("div");
  document.body.append(el);
  const close = renderGrid({ model, el });
  return { model, el, close };
}

const texts = (el: ParentNode, selector: string) => [...el.querySelectorAll(selector)].map((node) => node.textContent);

describe("the grid", () => {
  it("draws a batch's tiles: title, number, status and score badges, the answer's first lines", () => {
    const el = drawGrid(batchPage());
    expect(texts(el, ".mn-grid-tile .mn-grid-title")).toEqual(["prompt 1", "prompt 2", "prompt 3"]);
    expect(texts(el, ".mn-grid-subtitle")).toEqual(["#1 · agent test", "#2 · agent test", "#3 · agent test"]);
    const first = el.querySelector(".mn-grid-tile") as HTMLElement;
    expect(first.dataset.status).toBe("finished");
    expect(texts(first, "code.mn-grid-badge")).toEqual(["finished", "exact 1 ✓"]);
    expect(first.querySelector(".mn-grid-tone-ok[title='exact (Python scorer)']")).not.toBeNull();
    expect(first.querySelector(".mn-grid-answer")?.textContent).toBe("answer 0");
    const queued = el.querySelectorAll(".mn-grid-tile")[2] as HTMLElement;
    expect(queued.querySelector(".mn-grid-answer")).toBeNull();
    expect((queued.querySelector("button.mn-grid-open") as HTMLButtonElement).disabled).toBe(true);
  });

  it("draws the pager above the tiles and below them, the filter and the jump box above", () => {
    const el = drawGrid(batchPage());
    const [top, bottom] = [...el.children].filter((child) => child.classList.contains("mn-grid-pager"));
    expect(el.firstElementChild).toBe(top);
    expect(el.lastElementChild).toBe(bottom);
    for (const pager of [top, bottom]) {
      expect(pager?.querySelector(".mn-grid-where")?.textContent).toBe("1–3 of 9");
      expect((pager?.querySelector("button[data-turn=previous]") as HTMLButtonElement).disabled).toBe(true);
      expect((pager?.querySelector("button[data-turn=next]") as HTMLButtonElement).disabled).toBe(false);
    }
    expect((top?.querySelector("select.mn-grid-filter") as HTMLSelectElement).value).toBe("all");
    expect(top?.querySelector("input.mn-grid-jump")).not.toBeNull();
    expect(bottom?.querySelector("select, input")).toBeNull();
  });

  it("draws an experiment as a table: inputs numbered from 1, a column per variant, repeats from 1", () => {
    const el = drawGrid(experimentPage());
    expect(texts(el, "thead th")).toEqual(["input", "terse", "chatty"]);
    expect(el.querySelector("thead th[title='temperature 1']")).not.toBeNull();
    const rows = el.querySelectorAll("tbody > tr");
    expect(rows).toHaveLength(2);
    expect(rows[0]?.querySelector(".mn-grid-input")?.textContent).toBe("#1 capital of France?expected: Paris");
    expect(texts(rows[0] as Element, ".mn-grid-repeat")).toEqual(["#1", "#2", "#1", "#2"]);
    expect(texts(rows[0] as Element, "button.mn-grid-open")).toEqual(["open #1", "open #2", "open #1", "open #2"]);
    expect(rows[0]?.querySelectorAll("td")).toHaveLength(2);
  });

  it("shows a person's label and the whole comment", () => {
    const comment = "Too long: it lists every museum in Paris when asked for one, and it cites none of them. ".repeat(4);
    const el = drawGrid(batchPage({ tiles: [tile(0, { runs: [run(0, { label: "👎 score 2", comment })] })] }));
    expect(el.querySelector(".mn-grid-label")?.textContent).toBe("👎 score 2");
    expect(el.querySelector(".mn-grid-comment")?.textContent).toBe(comment);
  });

  it("draws hostile strings as text: no element, no handler", () => {
    const hostile = tile(0, { title: HOSTILE, subtitle: HOSTILE, hover: HOSTILE, runs: [run(0, { answer: HOSTILE, comment: HOSTILE, label: HOSTILE, word: HOSTILE, tone: "x onerror=1", badges: [{ text: HOSTILE, tone: HOSTILE, title: HOSTILE }] })] });
    const page = batchPage({ tiles: [hostile], where: HOSTILE, note: HOSTILE, filters: [[HOSTILE, HOSTILE]], jump: HOSTILE });
    const el = drawGrid(page);
    expect(el.querySelector("img, script")).toBeNull();
    expect([...el.querySelectorAll("*")].some((node) => [...node.attributes].some((a) => a.name.startsWith("on")))).toBe(false);
    expect(el.querySelector(".mn-grid-answer")?.textContent).toBe(HOSTILE);
    expect(el.querySelector("code.mn-grid-status")?.className).toContain("mn-grid-tone-neutral"); // an unknown tone
  });

  it("marks each failed run with who failed it (transport, agent, stopped), its meaning on hover; a finished run with none", () => {
    const failed = (open: number, failure: string, word = "error") => run(open, { status: "error", word, tone: "error", badges: [], failure });
    const page = batchPage({ tiles: [tile(0), tile(1, { runs: [failed(1, "transport")] }), tile(2, { runs: [failed(2, "agent")] }), tile(3, { runs: [failed(3, "stopped", "aborted")] }), tile(4, { runs: [failed(4, "stopped", "stopped")] })] });
    const el = drawGrid(page);
    expect(texts(el, "code.mn-grid-failure")).toEqual(["transport", "agent", "stopped"]);
    const runs = [...el.querySelectorAll(".mn-grid-run")] as HTMLElement[];
    expect(runs.map((node) => node.dataset.failure)).toEqual([undefined, "transport", "agent", "stopped", "stopped"]);
    expect(texts(runs[1] as Element, "code.mn-grid-badge")).toEqual(["error", "transport"]); // after the status
    expect(texts(runs[4] as Element, "code.mn-grid-badge")).toEqual(["stopped"]); // said once where the status says it
    expect(el.querySelector("code.mn-grid-failure")?.getAttribute("title")).toContain("exp.retry() runs it again");
    expect(runs[0]?.querySelector("code.mn-grid-failure")).toBeNull();
    const hostile = drawGrid(batchPage({ tiles: [tile(0, { runs: [failed(0, HOSTILE)] })] }));
    expect(hostile.querySelector("img, script")).toBeNull();
    expect(hostile.querySelector("code.mn-grid-failure")?.textContent).toBe(HOSTILE);
  });

  it("reads a page of the wrong shape as an empty one", () => {
    expect(readPage(null).tiles).toEqual([]);
    expect(readPage({ kind: "nope", tiles: "x", where: 3 })).toMatchObject({ kind: "batch", tiles: [], where: "" });
    const el = drawGrid(batchPage({ tiles: [], empty: "no tiles (queued)" }));
    expect(el.querySelector(".mn-grid-empty")?.textContent).toBe("no tiles (queued)");
  });
});

describe("the grid's widget", () => {
  it("hides its own saved grid once it draws, and no other (the outputs below grid widgets)", () => {
    // keys of this test's own: the rule that hides a drawn view's copy stays in the document (once per key)
    const key = () => crypto.randomUUID().replaceAll("-", "");
    const [own, other] = [key(), key()];
    const saved = (key: string) => {
      const copy = document.createElement("div");
      copy.className = `mn-grid-static mastra-notebook-transcript mn-transcript-of-${key}`;
      copy.textContent = "the grid as saved";
      document.body.append(copy);
      return copy;
    };
    const [ownCopy, otherCopy] = [saved(own), saved(other)];
    const shown = (el: HTMLElement) => getComputedStyle(el).display;
    expect(shown(ownCopy)).not.toBe("none"); // no grid drew: the saved copy is read
    const { el, close } = mounted(batchPage(), own);
    expect(el.querySelectorAll(".mn-grid-tile")).toHaveLength(3);
    expect(shown(ownCopy)).toBe("none");
    expect(shown(otherCopy)).not.toBe("none");
    close();
    el.remove();
    ownCopy.remove();
    otherCopy.remove();
  });

  it("sends open, turn, filter and jump; not a disabled control's click", () => {
    const { model, el, close } = mounted(batchPage());
    (el.querySelector("button[data-open='1']") as HTMLButtonElement).click();
    (el.querySelector("button[data-open='2']") as HTMLButtonElement).click(); // queued: disabled
    (el.querySelector(".mn-grid-pager-bottom button[data-turn=next]") as HTMLButtonElement).click();
    (el.querySelector(".mn-grid-pager-top button[data-turn=previous]") as HTMLButtonElement).click(); // disabled
    const select = el.querySelector("select.mn-grid-filter") as HTMLSelectElement;
    select.value = "error";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    const jump = el.querySelector("input.mn-grid-jump") as HTMLInputElement;
    jump.value = "  #7 ";
    jump.dispatchEvent(new Event("change", { bubbles: true })); // leaving the box: no jump
    jump.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(jump.value).toBe("");
    expect(model.sent).toEqual([{ open: 1 }, { turn: "next" }, { filter: "error" }, { jump: "#7" }]);
    close();
    (el.querySelector("button[data-open='0']") as HTMLButtonElement).click();
    expect(model.sent).toHaveLength(4);
    el.remove();
  });

  it("draws again only the tiles whose data changed", () => {
    const { model, el, close } = mounted(batchPage());
    const before = [...el.querySelectorAll(".mn-grid-tile")];
    const page = batchPage();
    page.tiles[1] = tile(1, { runs: [run(1, { answer: "answer 1, and more of it" })] });
    model.set(page);
    const after = [...el.querySelectorAll(".mn-grid-tile")];
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]?.querySelector(".mn-grid-answer")?.textContent).toBe("answer 1, and more of it");
    expect(after[2]).toBe(before[2]);
    model.set(batchPage({ tiles: page.tiles.slice(0, 1) }));
    expect(el.querySelectorAll(".mn-grid-tile")).toHaveLength(1);
    const kept = el.querySelector(".mn-grid-tile");
    model.set(batchPage({ tiles: page.tiles.slice(0, 1), where: "4–6 of 9", previous: true }));
    expect(texts(el, ".mn-grid-where")).toEqual(["4–6 of 9", "4–6 of 9"]); // both pagers drawn again
    expect(el.querySelector(".mn-grid-tile")).toBe(kept); // the tiles kept
    expect((el.querySelector(".mn-grid-pager-bottom button[data-turn=previous]") as HTMLButtonElement).disabled).toBe(false);
    close();
    el.remove();
  });

  it("redraws an experiment's changed row only, and adds its styles to the page once", () => {
    const { model, el, close } = mounted(experimentPage());
    const second = mounted(experimentPage());
    expect(document.querySelectorAll('style[data-mn-styles="mn-grid-style"]')).toHaveLength(1);
    const rows = [...el.querySelectorAll("tbody > tr")];
    const page = experimentPage();
    (page.rows[1] as { input: string }).input = "capital of Italy? (again)";
    model.set(page);
    const now = [...el.querySelectorAll("tbody > tr")];
    expect(now[0]).toBe(rows[0]);
    expect(now[1]).not.toBe(rows[1]);
    close();
    second.close();
    el.remove();
    second.el.remove();
  });
});

describe("the grid's verdicts and forks", () => {
  it("draws a verdict column per judged pair between its variants' tiles: the better variant (pointed at) or tie per repeat, both reasons on hover and opened", () => {
    const el = drawGrid(judgedPage());
    expect(texts(el, "thead th")).toEqual(["input", "terse", "⚖ terse vs chatty", "chatty"]);
    expect(el.querySelector("thead th.mn-grid-verdict-head")?.getAttribute("title")).toBe("pairwise: terse against chatty");
    const [first, second] = [...el.querySelectorAll("tbody > tr")];
    const cells = [...(first?.querySelectorAll("td") ?? [])];
    expect(cells.map((td) => td.className)).toEqual(["mn-grid-cell", "mn-grid-verdict", "mn-grid-cell"]); // between the two tiles
    const cell = cells[1] as HTMLElement;
    const judged = [...cell.querySelectorAll("details.mn-grid-verdict-run")] as HTMLDetailsElement[];
    expect(judged.map((d) => d.dataset.side)).toEqual(["a", "tie"]);
    expect(judged.map((d) => d.querySelector("summary")?.textContent)).toEqual(["#1 ◀ terse", "#2 tie the two orders disagree"]); // terse's tiles are on the left
    expect(judged[0]?.querySelector(".mn-grid-verdict-word")?.className).toContain("mn-grid-tone-ok");
    expect(judged[0]?.open).toBe(false); // folded: opened, both askings' reasons
    expect(texts(judged[0] as Element, ".mn-grid-reason")).toEqual([
      "terse shown first: terse: it names Paris",
      "chatty shown first: terse: shorter, and it names Paris",
    ]);
    expect(judged[0]?.getAttribute("title")).toBe("terse shown first: terse: it names Paris\nchatty shown first: terse: shorter, and it names Paris");
    expect(second?.querySelector(".mn-grid-verdict")?.textContent).toBe("not judged");
    expect(drawGrid(experimentPage()).querySelector(".mn-grid-verdict, .mn-grid-verdict-head")).toBeNull(); // none judged: no column
  });

  it("points at the better variant's side, and puts a pair whose variants are not side by side after every variant", () => {
    const page = judgedPage();
    page.columns.push({ name: "tooled", title: "" });
    for (const row of page.rows) row.tiles.push({ title: "", subtitle: "", hover: "", runs: [run(9)] });
    page.pairs = [
      { a: "chatty", b: "terse", title: "" }, // side by side, its first variant on the right
      { a: "terse", b: "tooled", title: "" }, // apart: after every variant
    ];
    const first = page.rows[0];
    if (first) first.verdicts = [[verdict(0, "a", { word: "chatty" })], [verdict(0, "b", { word: "tooled" })]];
    const el = drawGrid(page);
    expect(texts(el, "thead th")).toEqual(["input", "terse", "⚖ chatty vs terse", "chatty", "tooled", "⚖ terse vs tooled"]);
    expect(texts(el.querySelector("tbody > tr") as Element, ".mn-grid-verdict summary")).toEqual(["chatty ▶", "tooled"]); // apart: no arrow
  });

  it("draws a hostile reason, verdict word and pair name as inert text", () => {
    const page = judgedPage();
    page.pairs = [{ a: HOSTILE, b: HOSTILE, title: HOSTILE }];
    const first = page.rows[0];
    if (first) first.verdicts = [[verdict(1, "b", { word: HOSTILE, tone: HOSTILE, note: HOSTILE, reasons: [[HOSTILE, HOSTILE]] })]];
    const el = drawGrid(page);
    expect(el.querySelector("img, script")).toBeNull();
    expect([...el.querySelectorAll("*")].some((node) => [...node.attributes].some((a) => a.name.startsWith("on")))).toBe(false);
    expect(el.querySelector(".mn-grid-reason bdi")?.textContent).toBe(HOSTILE);
    expect(el.querySelector(".mn-grid-verdict-word")?.textContent).toBe(HOSTILE);
    expect(el.querySelector(".mn-grid-verdict-word")?.className).toContain("mn-grid-tone-neutral");
  });

  it("marks a tile's fork: the sentence, and each repeat's step where they part", () => {
    const page = experimentPage();
    const tile = page.rows[0]?.tiles[0];
    if (tile) {
      tile.fork = "step 1 separates the passing and failing repeats";
      tile.runs = [run(0, { repeat: 1, step: 'step 1: getWeather({"city":"Paris"})' }), run(1, { repeat: 2, step: 'step 1: getWeather({"city":"Lyon"})' })];
    }
    const el = drawGrid(page);
    const marked = el.querySelector(".mn-grid-tile") as HTMLElement;
    expect(marked.querySelector(".mn-grid-fork")?.textContent).toBe("step 1 separates the passing and failing repeats");
    expect(texts(marked, ".mn-grid-step")).toEqual(['step 1: getWeather({"city":"Paris"})', 'step 1: getWeather({"city":"Lyon"})']);
    expect(el.querySelectorAll(".mn-grid-fork")).toHaveLength(1); // the other tiles do not fork
    expect(el.querySelectorAll(".mn-grid-step")).toHaveLength(2);
  });

  it("draws the table again when a pair is judged (a column more), and a row again when its verdicts change", () => {
    const { model, el, close } = mounted(experimentPage());
    const table = el.querySelector("table");
    model.set(judgedPage());
    expect(el.querySelector("table")).not.toBe(table);
    expect(el.querySelectorAll("th.mn-grid-verdict-head")).toHaveLength(1);
    const rows = [...el.querySelectorAll("tbody > tr")];
    const page = judgedPage();
    const second = page.rows[1];
    if (second) second.verdicts = [[verdict(1, "b")]];
    model.set(page);
    const now = [...el.querySelectorAll("tbody > tr")];
    expect(now[0]).toBe(rows[0]);
    expect(now[1]).not.toBe(rows[1]);
    expect(now[1]?.querySelector(".mn-grid-verdict summary")?.textContent).toBe("chatty ▶");
    close();
    el.remove();
  });
});
