/** A batch's and an experiment's grid page, as the kernel sends them (widget/grid.py). */
import type { GridPage, GridRun, GridTile, GridVerdict } from "../src/views/grid";

export const HOSTILE = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;

export function run(open: number, extra: Partial<GridRun> = {}): GridRun {
  return {
    open,
    repeat: 0,
    status: "finished",
    word: "finished",
    tone: "ok",
    badges: [{ text: "exact 1 ✓", tone: "ok", title: "exact (Python scorer)" }],
    answer: `answer ${open}`,
    label: "",
    comment: "",
    openable: true,
    ...extra,
  };
}

export function tile(index: number, extra: Partial<GridTile> = {}): GridTile {
  return { title: `prompt ${index + 1}`, subtitle: `#${index + 1} · agent test`, hover: `prompt ${index + 1}`, runs: [run(index)], ...extra };
}

export function batchPage(extra: Partial<GridPage> = {}): GridPage {
  return {
    kind: "batch",
    columns: [],
    pairs: [],
    tiles: [tile(0), tile(1), tile(2, { runs: [run(2, { status: "queued", word: "queued", tone: "neutral", badges: [], answer: "", openable: false })] })],
    rows: [],
    where: "1–3 of 9",
    note: "",
    previous: false,
    next: true,
    filters: [
      ["all, in prompt order", "all"],
      ["errors only", "error"],
    ],
    filter: "all",
    jump: "jump to #number or prompt text",
    empty: "no tiles",
    ...extra,
  };
}

export function experimentPage(extra: Partial<GridPage> = {}): GridPage {
  const runs = (cell: number) => [run(cell, { repeat: 1 }), run(cell + 1, { repeat: 2, tone: "error", word: "error", status: "error", answer: "boom" })];
  return {
    kind: "experiment",
    columns: [
      { name: "terse", title: "instructions: Answer in one word." },
      { name: "chatty", title: "temperature 1" },
    ],
    pairs: [],
    tiles: [],
    rows: [
      { number: 1, input: "capital of France?", hover: "capital of France?", expected: "Paris", tiles: [{ title: "", subtitle: "", hover: "", runs: runs(0) }, { title: "", subtitle: "", hover: "", runs: runs(2) }] },
      { number: 2, input: "capital of Italy?", hover: "capital of Italy?", expected: "", tiles: [{ title: "", subtitle: "", hover: "", runs: runs(4) }, { title: "", subtitle: "", hover: "", runs: runs(6) }] },
    ],
    where: "inputs 1–2 of 5",
    note: "",
    previous: false,
    next: true,
    filters: [
      ["all inputs", "all"],
      ["differs only", "differs"],
    ],
    filter: "all",
    jump: "jump to input #",
    empty: "no inputs",
    ...extra,
  };
}

/** A verdict of the judged pair terse vs chatty, as widget/experiment.py `_verdict` sends it. */
export function verdict(repeat: number, side: "a" | "b" | "tie", extra: Partial<GridVerdict> = {}): GridVerdict {
  const word = { a: "terse", b: "chatty", tie: "tie" }[side];
  return {
    repeat,
    side,
    word,
    tone: side === "tie" ? "neutral" : "ok",
    note: "",
    reasons: [
      ["terse shown first: " + word, "it names Paris"],
      ["chatty shown first: " + word, "shorter, and it names Paris"],
    ],
    ...extra,
  };
}

/** The experiment page with terse vs chatty judged: row 1's repeats a win and a split tie, row 2 not judged. */
export function judgedPage(): GridPage {
  const page = experimentPage({ pairs: [{ a: "terse", b: "chatty", title: "pairwise: terse against chatty" }] });
  const [first, second] = page.rows;
  if (first) first.verdicts = [[verdict(1, "a"), verdict(2, "tie", { note: "the two orders disagree" })]];
  if (second) second.verdicts = [[]];
  return page;
}
