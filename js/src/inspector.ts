/**
 * The inspector: the raw chunk stream beside the rendered run. Each row is one chunk: index, time,
 * type and `from` in columns, the nesting path (if any) on a line under the type; nothing is cut, a
 * long type wraps. An envelope's row names its outer chunk and the one it carries
 * (`tool-output › start`, `USER › AGENT`), as the JSON it opens reads. A click asks Python for it. Selecting a part of the rendered run highlights
 * the chunks that built it and scrolls the first into view; hovering a row outlines the parts it
 * changed. The list always comes from the kernel when the panel opens: a view drawn again (a page
 * reload) asks again, and a view whose kernel is gone (a saved notebook, a restarted kernel) says so.
 */
import { CHUNK_GLOSSARY, FROM_GLOSSARY } from "./contract.generated";
import { h } from "./dom";
import type { Send } from "./types";

export interface ChunkEntry {
  i: number;
  ms: number | null;
  type: string | null;
  from: string | null;
  path: string[];
  nodes: string[];
  error?: string;
  /** An envelope's outermost chunk (the JSON the row opens), when `type`/`from` are its innermost one's. */
  outer?: { type: string | null; from: string | null };
}

/** The columns of a row, in order (each cell is `.mn-chunk-<column>`). */
export const COLUMNS = ["i", "time", "type", "from", "path"] as const;
export type Column = (typeof COLUMNS)[number];
const HEADINGS: Record<Column, string> = { i: "#", time: "time", type: "type", from: "from", path: "path" };

/** How long the panel waits for the kernel's list before saying that no kernel answers. */
export const NO_KERNEL_MS = 4000;
const MAX_JSON = 200_000;

export type InspectorState = "closed" | "waiting" | "ready" | "no-kernel";

function parseEntry(value: unknown): ChunkEntry | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.i !== "number") return null;
  const strings = (list: unknown) => (Array.isArray(list) ? list.map((x) => String(x)) : []);
  return {
    i: v.i,
    ms: typeof v.ms === "number" ? v.ms : null,
    type: typeof v.type === "string" ? v.type : null,
    from: typeof v.from === "string" ? v.from : null,
    path: strings(v.path),
    nodes: strings(v.nodes),
    error: typeof v.error === "string" ? v.error : undefined,
    outer: parseOuter(v.outer),
  };
}

function parseOuter(value: unknown): ChunkEntry["outer"] {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  return { type: typeof v.type === "string" ? v.type : null, from: typeof v.from === "string" ? v.from : null };
}

/** Outer › inner, as the JSON reads from its top: an envelope's own value, then what it carries. */
const NESTS = " › ";

/** The text of each column of an entry's row. */
export function cellsOf(entry: ChunkEntry): Record<Column, string> {
  return {
    i: String(entry.i),
    time: entry.ms === null ? "" : `${(entry.ms / 1000).toFixed(3)} s`,
    type: entry.outer ? `${entry.outer.type ?? "?"}${NESTS}${entry.type ?? "?"}` : (entry.type ?? "?"),
    from: entry.outer ? `${entry.outer.from ?? "?"}${NESTS}${entry.from ?? "?"}` : (entry.from ?? ""),
    path: entry.path.join(NESTS),
  };
}

/** A value with its glossary line (core/glossary.py), or as it is when the glossary has none. */
function explained(value: string | null, glossary: Readonly<Record<string, string>>): string {
  const line = value === null ? undefined : glossary[value];
  return line === undefined ? (value ?? "?") : `${value}: ${line}`;
}

/** A cell's title: the type and from cells say what their values mean (an envelope's outer and
 * inner, one line each), and the type cell why the chunk is invalid; the others their whole text. */
export function titleOf(column: Column, entry: ChunkEntry, cells: Record<Column, string>): string {
  if (column !== "type" && column !== "from") return cells[column];
  const glossary = column === "type" ? CHUNK_GLOSSARY : FROM_GLOSSARY;
  if (column === "from" && entry.from === null && !entry.outer) return "";
  const lines = [...(entry.outer ? [entry.outer[column]] : []), entry[column]].map((v) => explained(v, glossary));
  return [...lines, ...(column === "type" && entry.error ? [entry.error] : [])].join("\n");
}

/**
 * The grid columns of the rows: index and time fixed, `from` as wide as its longest value (in
 * characters: the panel's font is monospaced), the type takes the rest and wraps at its spaces and
 * hyphens when it must. The path is no column: a nested chunk's row shows it on a line of its own
 * under its type (most chunks have none, and a column of them stood mostly empty).
 */
export function columnTemplate(longestFrom: number): string {
  return `3em 5.5em minmax(0, 1fr) ${Math.max(longestFrom, HEADINGS.from.length)}ch`;
}

/** Where a scroll box is: its scrollTop, visible height, and the height its sticky head covers. */
export interface ScrollBox {
  scrollTop: number;
  height: number;
  head: number;
}

/**
 * The scrollTop that shows a row (`top` in the box's content coordinates): unchanged when the row
 * is visible already, else the row centred below the head. Only the box scrolls, never the page
 * (`scrollIntoView` would also scroll the notebook).
 */
export function scrollTopFor(box: ScrollBox, row: { top: number; height: number }): number {
  const visibleTop = box.scrollTop + box.head;
  if (row.top >= visibleTop && row.top + row.height <= box.scrollTop + box.height) return box.scrollTop;
  return Math.max(0, Math.round(row.top - box.head - (box.height - box.head - row.height) / 2));
}

/** The rows whose chunk changed node `id`. */
export function hitsOf(entries: Iterable<ChunkEntry>, id: string): number[] {
  const hits: number[] = [];
  for (const entry of entries) if (entry.nodes.includes(id)) hits.push(entry.i);
  return hits;
}

export class Inspector {
  readonly toggle = h("button", "mn-btn mn-inspect", ["Chunks"], { type: "button", title: "Show the raw chunks" });
  readonly el = h("div", "mn-inspector");
  private readonly status = h("div", "mn-inspector-status", [], { role: "status" });
  private readonly head = h(
    "div",
    "mn-chunk-head",
    COLUMNS.map((column) => h("span", `mn-chunk-${column}`, [HEADINGS[column]])),
    { title: "Click a row for the chunk's JSON" },
  );
  private readonly top = h("div", "mn-inspector-top", [this.status, this.head]); // sticky
  private readonly list = h("ol", "mn-chunks");
  private readonly rows = new Map<number, { row: HTMLElement; entry: ChunkEntry }>();
  private selected: Element | null = null;
  private longestFrom = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private state: InspectorState = "closed";

  constructor(
    private readonly send: Send,
    private readonly content: HTMLElement,
  ) {
    this.el.append(this.top, this.list);
    this.el.hidden = true;
    this.setState("closed");
    this.toggle.addEventListener("click", () => this.setOpen(this.state === "closed"));
    this.content.addEventListener("click", this.onContentClick);
  }

  /** Opening always asks the kernel for the whole list (what a reopened view showed is stale). */
  setOpen(open: boolean): void {
    this.el.hidden = !open;
    this.toggle.classList.toggle("mn-active", open);
    this.toggle.setAttribute("aria-pressed", String(open));
    clearTimeout(this.timer);
    this.clear();
    this.select(null);
    if (open) {
      this.setState("waiting");
      this.timer = setTimeout(() => this.setState("no-kernel"), NO_KERNEL_MS);
    } else {
      this.setState("closed");
    }
    this.send({ t: "inspect", open });
  }

  /** Handles `chunks` and `chunk-json` messages; returns false for anything else. */
  receive(msg: unknown): boolean {
    if (typeof msg !== "object" || msg === null) return false;
    const m = msg as Record<string, unknown>;
    if (m.t === "chunks" && Array.isArray(m.entries)) {
      if (this.state === "closed") return true; // meant for another view of this widget
      if (m.start === 0) {
        clearTimeout(this.timer);
        this.clear();
        this.setState("ready");
      }
      for (const raw of m.entries) {
        const entry = parseEntry(raw);
        if (entry && !this.rows.has(entry.i)) this.addRow(entry);
      }
      this.el.style.setProperty("--mn-chunk-columns", columnTemplate(this.longestFrom));
      if (this.state === "ready") this.describeSelection();
      return true;
    }
    if (m.t === "chunk-json" && typeof m.i === "number") {
      this.showJson(m.i, m.json);
      return true;
    }
    return false;
  }

  destroy(): void {
    clearTimeout(this.timer);
    this.content.removeEventListener("click", this.onContentClick);
  }

  private setState(state: InspectorState): void {
    this.state = state;
    this.el.dataset.state = state;
    this.describeSelection();
  }

  private describeSelection(): void {
    const hits = this.list.querySelectorAll(".mn-hit").length;
    const text: Record<InspectorState, string> = {
      closed: "",
      waiting: "Asking the kernel for the chunks…",
      "no-kernel":
        "No kernel answers: the chunk list lives in the kernel that ran this view. Run the cell again to inspect its chunks.",
      ready:
        this.rows.size === 0
          ? "No chunks yet."
          : this.selected
            ? `${hits} of ${this.rows.size} chunks built the selected part.`
            : `${this.rows.size} chunks. Click a part of the run to highlight the chunks that built it.`,
    };
    this.status.textContent = text[this.state];
    this.head.hidden = this.state !== "ready" || this.rows.size === 0;
  }

  private clear(): void {
    this.longestFrom = 0;
    this.rows.clear();
    this.list.replaceChildren();
  }

  private addRow(entry: ChunkEntry): void {
    const cells = cellsOf(entry);
    this.longestFrom = Math.max(this.longestFrom, cells.from.length);
    const row = h(
      "li",
      `mn-chunk${entry.type === "invalid" ? " mn-chunk-invalid" : ""}`,
      COLUMNS.map((column) => {
        const title = titleOf(column, entry, cells);
        return h("span", `mn-chunk-${column}`, [cells[column]], { title: title || undefined });
      }),
    );
    row.dataset.i = String(entry.i);
    row.addEventListener("click", (event) => {
      if (event.target instanceof Element && event.target.closest(".mn-chunk-json")) return; // selecting JSON text
      const shown = row.querySelector(".mn-chunk-json");
      if (shown) shown.remove();
      else this.send({ t: "chunk-json", i: entry.i });
    });
    row.addEventListener("mouseenter", () => this.outline(entry.nodes, true));
    row.addEventListener("mouseleave", () => this.outline(entry.nodes, false));
    this.rows.set(entry.i, { row, entry });
    this.list.append(row);
  }

  private showJson(i: number, json: unknown): void {
    const found = this.rows.get(i);
    if (!found) return;
    let text = JSON.stringify(json, null, 2) ?? String(json);
    if (text.length > MAX_JSON) text = `${text.slice(0, MAX_JSON)}\n… (${text.length - MAX_JSON} more characters)`;
    found.row.querySelector(".mn-chunk-json")?.remove();
    found.row.append(h("pre", "mn-chunk-json", [text]));
  }

  private outline(nodes: string[], on: boolean): void {
    for (const id of nodes) {
      if (!/^[\w-]+$/.test(id)) continue; // our own ids ("root", "n12"): anything else is ignored
      for (const el of this.content.querySelectorAll(`[data-node-id="${id}"]`)) {
        el.classList.toggle("mn-outlined", on);
      }
    }
  }

  private select(part: Element | null): void {
    this.selected?.classList.remove("mn-inspected");
    this.selected = part;
    part?.classList.add("mn-inspected");
  }

  /** A click on a rendered part highlights the chunks that built it and scrolls to the first. */
  private readonly onContentClick = (event: Event): void => {
    if (this.state !== "ready" || !(event.target instanceof Element)) return;
    const part = event.target.closest("[data-node-id]");
    const id = part instanceof HTMLElement ? part.dataset.nodeId : undefined;
    if (!id) return;
    this.select(part);
    const hits = new Set(hitsOf([...this.rows.values()].map((r) => r.entry), id));
    let first: HTMLElement | null = null;
    for (const [i, { row }] of this.rows) {
      row.classList.toggle("mn-hit", hits.has(i));
      if (hits.has(i) && !first) first = row;
    }
    this.describeSelection();
    if (first) this.scrollTo(first);
  };

  private scrollTo(row: HTMLElement): void {
    const box = this.el.getBoundingClientRect();
    const at = row.getBoundingClientRect();
    const top = at.top - box.top + this.el.scrollTop; // in the box's content coordinates
    const head = this.top.getBoundingClientRect().height;
    this.el.scrollTop = scrollTopFor(
      { scrollTop: this.el.scrollTop, height: this.el.clientHeight, head },
      { top, height: at.height },
    );
  }
}
