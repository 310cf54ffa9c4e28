/**
 * The one grid of runs: a batch's (`Gallery`, its tiles flowing) and an experiment's (`Grid`: a row
 * per input, a column per variant). The kernel sends a page's data (mastra_notebook/widget/grid.py
 * `GridPage`), never HTML; this draws it, live in the widget (grid-widget.ts, which sends a click
 * back) and in the kernel for the saved notebook (static/transcript.ts `grid`, controls left out).
 * One tile, one pager (above the tiles and below them), one filter, one "open".
 *
 * Every string from the kernel goes in as text (dom.ts `h`), never as HTML.
 */
import { h, isolated } from "../dom";

/** A score badge or the status, as the kernel words it, with its tone (`ok`, `error`, `warn`, ...). */
export interface GridBadge {
  text: string;
  tone: string;
  title?: string;
}

/** One run in a tile. */
export interface GridRun {
  /** What "open" sends back: the run's number (an experiment's cell, a batch's tile). */
  open: number;
  /** The repeat, from 1; 0 when the tile has one run (no number shown). */
  repeat: number;
  /** The run's status (`queued`, `running`, `finished`, `error`...), as `data-status`. */
  status: string;
  /** The status as the views word it, and its tone. */
  word: string;
  tone: string;
  /** Who failed it, when it ended failed: `transport`, `agent` or `stopped` (`exp.retry()` runs the transport's again); "" otherwise. */
  failure?: string;
  badges: GridBadge[];
  /** The answer's first lines (or the error's message). */
  answer: string;
  /** A person's label (thumbs, score) and comment: the comment is shown whole. */
  label: string;
  comment: string;
  /** It has something to open (not queued, or a run streaming with no view). */
  openable: boolean;
  /** Where its tile's passing and failing repeats part: what this run did at that step ("" none). */
  step?: string;
}

/** One tile: a batch's prompt, or an experiment's input × variant (its repeats). */
export interface GridTile {
  /** A batch's tile: its prompt's label, its number and what ran it ("#3 · agent weather"). */
  title: string;
  subtitle: string;
  /** What the title's hover shows (the whole prompt). */
  hover: string;
  /** The tile a jump went to. */
  target?: boolean;
  runs: GridRun[];
  /** Where its passing and failing repeats part, said (`exp.forks`); "" when they did not both pass and fail. */
  fork?: string;
}

/** One pair judged (`exp.pairwise`): which variant was better, or a tie, and both askings' reasons. */
export interface GridVerdict {
  /** The repeat, from 1; 0 when the experiment has one. */
  repeat: number;
  /** `a`, `b` or `tie`: the pair's first variant won, its second, or neither. */
  side: string;
  /** The better variant's name, or "tie"; its tone. */
  word: string;
  tone: string;
  /** Why a tie (the two orders disagree), or "". */
  note: string;
  /** Each asking, `[what it was shown first and chose, its reason]`. */
  reasons: [string, string][];
}

/** A judged pair of variants: its verdict column's head. */
export interface GridPair {
  a: string;
  b: string;
  /** What the verdicts are, on hover. */
  title: string;
}

/** An experiment's row: its input (numbered from 1) and a tile per variant. */
export interface GridRow {
  number: number;
  input: string;
  /** The whole input, on hover. */
  hover: string;
  expected: string;
  tiles: GridTile[];
  /** A list per judged pair (the page's `pairs`): its verdict for each repeat. */
  verdicts?: GridVerdict[][];
}

/** A variant's column head. */
export interface GridColumn {
  name: string;
  /** Its options, on hover. */
  title: string;
}

export interface GridPage {
  /** `batch`: tiles flowing (one column of data); `experiment`: rows of inputs, a column per variant. */
  kind: "batch" | "experiment";
  columns: GridColumn[];
  /** An experiment's judged pairs of variants: a verdict column each (`verdictPlaces`: between its variants' columns, or after them all). */
  pairs: GridPair[];
  /** A batch's page: its tiles. */
  tiles: GridTile[];
  /** An experiment's page: its rows. */
  rows: GridRow[];
  /** Where the page is ("1–48 of 500"), and a note beside it (a jump that found nothing). */
  where: string;
  note: string;
  previous: boolean;
  next: boolean;
  /** The filter's choices, `[label, key]`, and the one chosen; none: no filter. */
  filters: [string, string][];
  filter: string;
  /** A jump box's placeholder; "": none. */
  jump: string;
  /** What the page shows when it has no tile. */
  empty: string;
}

/** What the grid's controls ask of the kernel. */
export type GridMessage = { open: number } | { turn: "previous" | "next" } | { filter: string } | { jump: string };

const NO_PAGE: GridPage = {
  kind: "batch",
  columns: [],
  pairs: [],
  tiles: [],
  rows: [],
  where: "",
  note: "",
  previous: false,
  next: false,
  filters: [],
  filter: "",
  jump: "",
  empty: "",
};

/** A string as sent, or "" for anything else. */
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The kernel's page as sent; anything missing or of the wrong kind reads as its empty value. */
export function readPage(value: unknown): GridPage {
  if (typeof value !== "object" || value === null) return NO_PAGE;
  const page = value as Partial<GridPage>;
  const list = <T>(items: unknown): T[] => (Array.isArray(items) ? (items as T[]) : []);
  return {
    kind: page.kind === "experiment" ? "experiment" : "batch",
    columns: list(page.columns),
    pairs: list(page.pairs),
    tiles: list(page.tiles),
    rows: list(page.rows),
    where: text(page.where),
    note: text(page.note),
    previous: page.previous === true,
    next: page.next === true,
    filters: list(page.filters),
    filter: text(page.filter),
    jump: text(page.jump),
    empty: text(page.empty),
  };
}

function badge(piece: GridBadge, cls = "mn-grid-badge"): HTMLElement {
  const attrs = piece.title ? { title: piece.title } : {};
  return h("code", `${cls} mn-grid-tone-${/^[a-z]+$/.test(piece.tone) ? piece.tone : "neutral"}`, [piece.text], attrs);
}


/** What each failure kind means, as its badge's hover says it. */
const FAILURES: Record<string, string> = {
  transport: "the server or the connection failed it (refused, reset, timed out, HTTP 5xx): exp.retry() runs it again",
  agent: "the agent or its model failed it: exp.retry() does not run it again",
  stopped: "stopped before it ended (by a person, or a budget): exp.resume() runs it",
};

function drawRun(run: GridRun, many: boolean): HTMLElement {
  const failure = text(run.failure);
  const pieces = [
    ...(many && run.repeat > 0 ? [h("span", "mn-grid-repeat", [`#${run.repeat}`])] : []),
    badge({ text: run.word, tone: run.tone }, "mn-grid-badge mn-grid-status"),
    // beside the status when it says more than it ("error" · "transport"; a stopped run is said once)
    ...(failure && failure !== run.word ? [badge({ text: failure, tone: "neutral", title: FAILURES[failure] ?? "" }, "mn-grid-badge mn-grid-failure")] : []),
    ...run.badges.map((piece) => badge(piece)),
  ];
  // a space between badges: they read apart where no stylesheet spaces them (the saved notebook)
  const head = h("div", "mn-grid-run-head", pieces.flatMap((piece, i) => (i === 0 ? [piece] : [" ", piece])));
  const said = run.label || run.comment;
  const step = text(run.step);
  return h("div", "mn-grid-run", [
    head,
    run.answer ? h("div", "mn-grid-answer", [isolated("", run.answer)]) : null,
    step ? h("div", "mn-grid-step", [isolated("", step)], { title: step }) : null,
    said
      ? h("div", "mn-grid-feedback", [
          run.label ? h("span", "mn-grid-label", [run.label]) : null,
          run.label && run.comment ? " · " : null,
          run.comment ? h("span", "mn-grid-comment", [isolated("", run.comment)]) : null,
        ])
      : null,
    h(
      "button",
      "mn-grid-open",
      [many && run.repeat > 0 ? `open #${run.repeat}` : "open"],
      { "data-open": String(run.open), disabled: !run.openable, title: run.openable ? "its full view, below the grid" : "nothing to open yet" },
    ),
  ], failure ? { "data-status": run.status, "data-failure": failure } : { "data-status": run.status });
}

/** One tile: its title (a batch's), then each run's status, badges, answer head, label, "open". */
export function drawTile(tile: GridTile): HTMLElement {
  const many = tile.runs.length > 1;
  const head = tile.title
    ? h("div", "mn-grid-tile-head", [
        h("div", "mn-grid-title", [isolated("", tile.title)], tile.hover ? { title: tile.hover } : {}),
        tile.subtitle ? h("div", "mn-grid-subtitle", [tile.subtitle]) : null,
      ])
    : null;
  const status = tile.runs.length === 1 ? (tile.runs[0]?.status ?? "") : "";
  const cls = tile.target ? "mn-grid-tile mn-grid-target" : "mn-grid-tile";
  const fork = text(tile.fork);
  const forked = fork ? h("div", "mn-grid-fork", [fork], { title: "where the passing and failing repeats part (exp.forks)" }) : null;
  return h("div", cls, [head, forked, ...tile.runs.map((run) => drawRun(run, many))], status ? { "data-status": status } : {});
}

function drawInput(row: GridRow): HTMLElement {
  return h("th", "mn-grid-input", [
    h("span", "mn-grid-number", [`#${row.number}`]),
    " ",
    isolated("", row.input),
    row.expected ? h("div", "mn-grid-expected", ["expected: ", isolated("", row.expected)]) : null,
  ], { title: row.hover, scope: "row" });
}

/**
 * Where each judged pair's verdict column goes: between its two variants' columns when they stand side
 * by side (the verdict points at the better one's tiles), else after every variant's column.
 */
export interface VerdictPlaces {
  /** By a variant's column: the pairs whose verdict column stands just before it. */
  before: Map<number, number[]>;
  /** The pairs whose verdict column comes after every variant's. */
  after: number[];
  /** By pair: the column of its first variant (a) is left of its second's (true), right of it
   * (false), or the column stands apart (null: no arrow). */
  leftFirst: (boolean | null)[];
}

export function verdictPlaces(page: GridPage): VerdictPlaces {
  const column = new Map(page.columns.map((c, i) => [c.name, i]));
  const places: VerdictPlaces = { before: new Map(), after: [], leftFirst: [] };
  page.pairs.forEach((pair, index) => {
    const [a, b] = [column.get(text(pair.a)), column.get(text(pair.b))];
    const between = a !== undefined && b !== undefined && Math.abs(a - b) === 1;
    if (between) {
      const later = Math.max(a, b);
      places.before.set(later, [...(places.before.get(later) ?? []), index]);
    } else places.after.push(index);
    places.leftFirst.push(between ? a < b : null);
  });
  return places;
}

/** One judged pair: the better variant (or tie), pointing at its tiles when its column stands
 * between them, and on hover or opened both askings' choices and reasons. */
function drawVerdict(verdict: GridVerdict, many: boolean, leftFirst: boolean | null): HTMLElement {
  const reasons = Array.isArray(verdict.reasons) ? verdict.reasons : [];
  const said = reasons.map(([choice, why]) => (why ? `${text(choice)}: ${text(why)}` : text(choice))).join("\n");
  const note = text(verdict.note);
  const side = /^(a|b|tie)$/.test(verdict.side) ? verdict.side : "tie";
  const left = leftFirst === null || side === "tie" ? null : (side === "a") === leftFirst;
  const word = badge({ text: text(verdict.word), tone: text(verdict.tone) }, "mn-grid-badge mn-grid-verdict-word");
  return h("details", "mn-grid-verdict-run", [
    h("summary", "", [
      ...(many && verdict.repeat > 0 ? [h("span", "mn-grid-repeat", [`#${verdict.repeat}`]), " "] : []),
      left === true ? h("span", "mn-grid-verdict-arrow", ["◀ "]) : null,
      word,
      left === false ? h("span", "mn-grid-verdict-arrow", [" ▶"]) : null,
      note ? h("span", "mn-grid-verdict-note", [" ", note]) : null,
    ]),
    ...reasons.map(([choice, why]) =>
      h("div", "mn-grid-reason", [h("span", "mn-grid-reason-head", [text(choice)]), why ? ": " : null, why ? isolated("", text(why)) : null]),
    ),
  ], { title: said, "data-side": side });
}

/** A pair's verdict cell in a row: a verdict per repeat judged ("not judged" when none was). */
function drawVerdicts(verdicts: GridVerdict[], leftFirst: boolean | null): HTMLElement {
  const many = verdicts.length > 1;
  const drawn = verdicts.map((verdict) => drawVerdict(verdict, many, leftFirst));
  return h("td", "mn-grid-verdict", drawn.length > 0 ? drawn : [h("span", "mn-grid-verdict-none", ["not judged"])]);
}

/**
 * An experiment's row: its input, then a tile per variant, with a verdict cell per judged pair
 * (`places`: between its two variants' tiles, or after them all).
 */
export function drawRow(row: GridRow, places: VerdictPlaces = { before: new Map(), after: [], leftFirst: [] }): HTMLElement {
  const verdicts = Array.isArray(row.verdicts) ? row.verdicts : [];
  const judged = (pair: number) => drawVerdicts(Array.isArray(verdicts[pair]) ? (verdicts[pair] as GridVerdict[]) : [], places.leftFirst[pair] ?? null);
  return h("tr", "mn-grid-row", [
    drawInput(row),
    ...row.tiles.flatMap((tile, i) => [...(places.before.get(i) ?? []).map(judged), h("td", "mn-grid-cell", [drawTile(tile)])]),
    ...places.after.map(judged),
  ]);
}

/** The pager (and, above the tiles, the filter and the jump box): the same controls top and bottom. */
export function drawPager(page: GridPage, place: "top" | "bottom"): HTMLElement {
  const button = (turn: "previous" | "next", words: string, on: boolean) =>
    h("button", `mn-grid-${turn}`, [words], { "data-turn": turn, disabled: !on });
  const filter =
    place === "top" && page.filters.length > 0
      ? h("select", "mn-grid-filter", page.filters.map(([label, key]) => {
          const option = h("option", "", [label], { value: key, selected: key === page.filter });
          return option;
        }), { "aria-label": "show" })
      : null;
  const jump =
    place === "top" && page.jump
      ? h("input", "mn-grid-jump", [], { type: "text", placeholder: page.jump, "aria-label": "jump" })
      : null;
  return h("div", `mn-grid-pager mn-grid-pager-${place}`, [
    filter,
    button("previous", "◀ previous", page.previous),
    h("span", "mn-grid-where", [page.where]),
    button("next", "next ▶", page.next),
    jump,
    place === "top" && page.note ? h("span", "mn-grid-note", [page.note]) : null,
  ]);
}

/** The page's tiles: a batch's flowing, an experiment's as a table of inputs × variants. */
export function drawBody(page: GridPage): HTMLElement {
  if (page.kind === "experiment") {
    const places = verdictPlaces(page);
    const judged = (index: number) => {
      const pair = page.pairs[index] as GridPair;
      return h("th", "mn-grid-head mn-grid-verdict-head", ["⚖ ", isolated("", text(pair.a)), " vs ", isolated("", text(pair.b))], { title: text(pair.title), scope: "col" });
    };
    const head = h("tr", "", [
      h("th", "mn-grid-head", ["input"], { scope: "col" }),
      ...page.columns.flatMap((column, i) => [
        ...(places.before.get(i) ?? []).map(judged),
        h("th", "mn-grid-head", [isolated("", column.name)], { title: column.title, scope: "col" }),
      ]),
      ...places.after.map(judged),
    ]);
    return h("table", "mn-grid-table", [
      h("thead", "", [head]),
      h("tbody", "", page.rows.map((row) => drawRow(row, places))),
    ]);
  }
  return h("div", "mn-grid-tiles", page.tiles.map(drawTile));
}

function parts(page: GridPage): { body: HTMLElement; items: HTMLElement[] } {
  const body = drawBody(page);
  const items = page.kind === "experiment" ? [...body.querySelectorAll("tbody > tr")] : [...body.children];
  return { body, items: items as HTMLElement[] };
}

/** The whole grid: the pager, the tiles (or what shows in their place), the pager again. */
export function drawGrid(page: GridPage): HTMLElement {
  const empty = page.tiles.length === 0 && page.rows.length === 0;
  return h("div", `mn-grid mn-grid-${page.kind}`, [
    drawPager(page, "top"),
    empty ? h("div", "mn-grid-empty", [page.empty]) : drawBody(page),
    drawPager(page, "bottom"),
  ]);
}

/**
 * The live grid in `el`: `show(page)` draws a page, drawing again only the tiles (an experiment's rows)
 * whose data changed (the others keep their nodes: no garbage of a page's nodes per tick, a hovered
 * button stays); the controls' clicks go to `send`. Returns `show` and a `close` that stops listening.
 */
export function mountGrid(el: HTMLElement, send: (msg: GridMessage) => void): { show(page: GridPage): void; close(): void } {
  let keys: string[] = [];
  let shell = "";
  let frame = "";
  let root: HTMLElement | null = null;
  let holder: HTMLElement | null = null;
  const show = (page: GridPage) => {
    const items = page.kind === "experiment" ? page.rows : page.tiles;
    const next = items.map((item) => JSON.stringify(item));
    const { tiles: _t, rows: _r, pairs: _p, ...controls } = page;
    // the grid's frame: its kind, its columns, or no tile at all (what shows in their place)
    const frameKey = JSON.stringify({ kind: page.kind, columns: page.columns, pairs: page.pairs, empty: items.length === 0 ? page.empty : null });
    const shellKey = JSON.stringify(controls);
    if (root === null || frame !== frameKey) {
      root = drawGrid(page);
      el.replaceChildren(root);
      holder = root.querySelector(".mn-grid-tiles, .mn-grid-table > tbody");
      [frame, shell, keys] = [frameKey, shellKey, next];
      return;
    }
    if (shell !== shellKey) {
      // the pager's words or the filter changed: the pagers drawn again, the tiles kept
      for (const place of ["top", "bottom"] as const) root.querySelector(`.mn-grid-pager-${place}`)?.replaceWith(drawPager(page, place));
      shell = shellKey;
    }
    if (holder === null) return;
    const drawn = parts(page).items;
    next.forEach((key, i) => {
      const current = holder?.children[i];
      const fresh = drawn[i];
      if ((current && keys[i] === key) || fresh === undefined) return;
      if (current) current.replaceWith(fresh);
      else holder?.append(fresh);
    });
    while (holder.children.length > next.length) holder.lastElementChild?.remove();
    keys = next;
  };
  const onClick = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest("button") : null;
    if (!(button instanceof HTMLButtonElement) || !el.contains(button) || button.disabled) return;
    const open = button.dataset.open;
    if (open !== undefined && /^\d+$/.test(open)) send({ open: Number(open) });
    const turn = button.dataset.turn;
    if (turn === "previous" || turn === "next") send({ turn });
  };
  const onChange = (event: Event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement && target.classList.contains("mn-grid-filter")) send({ filter: target.value });
  };
  // the jump box jumps on Enter (not on leaving it: a reader who clicks away did not ask to jump)
  const onKey = (event: KeyboardEvent) => {
    const target = event.target;
    if (event.key !== "Enter" || !(target instanceof HTMLInputElement) || !target.classList.contains("mn-grid-jump")) return;
    event.preventDefault();
    event.stopPropagation(); // not JupyterLab's: Enter in a cell's output must not run the cell or edit it
    if (target.value.trim()) send({ jump: target.value.trim() });
    target.value = "";
  };
  el.addEventListener("click", onClick);
  el.addEventListener("change", onChange);
  el.addEventListener("keydown", onKey);
  return {
    show,
    close() {
      el.removeEventListener("click", onClick);
      el.removeEventListener("change", onChange);
      el.removeEventListener("keydown", onKey);
    },
  };
}
