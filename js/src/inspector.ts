/**
 * The inspector: the raw chunk stream beside the rendered run. Each row is one chunk (index, time,
 * type, `from`, nesting path); a click asks Python for its JSON. Selecting a part of the rendered
 * run highlights the chunks that built it; hovering a row outlines the parts it changed.
 */
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
}


const MAX_JSON = 200_000;

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
  };
}

export class Inspector {
  readonly toggle = h("button", "mn-btn mn-inspect", ["Chunks"], { type: "button", title: "Show the raw chunks" });
  readonly el = h("div", "mn-inspector");
  private readonly list = h("ol", "mn-chunks");
  private readonly rows = new Map<number, { row: HTMLElement; entry: ChunkEntry }>();
  private open = false;

  constructor(
    private readonly send: Send,
    private readonly content: HTMLElement,
  ) {
    this.el.append(this.list);
    this.el.hidden = true;
    this.toggle.addEventListener("click", () => this.setOpen(!this.open));
    this.content.addEventListener("click", this.onContentClick);
  }

  setOpen(open: boolean): void {
    this.open = open;
    this.el.hidden = !open;
    this.toggle.classList.toggle("mn-active", open);
    this.toggle.setAttribute("aria-pressed", String(open));
    if (open) {
      this.rows.clear();
      this.list.replaceChildren();
    }
    this.send({ t: "inspect", open });
  }

  /** Handles `chunks` and `chunk-json` messages; returns false for anything else. */
  receive(msg: unknown): boolean {
    if (typeof msg !== "object" || msg === null) return false;
    const m = msg as Record<string, unknown>;
    if (m.t === "chunks" && Array.isArray(m.entries)) {
      if (m.start === 0) {
        this.rows.clear();
        this.list.replaceChildren();
      }
      for (const raw of m.entries) {
        const entry = parseEntry(raw);
        if (entry && !this.rows.has(entry.i)) this.addRow(entry);
      }
      return true;
    }
    if (m.t === "chunk-json" && typeof m.i === "number") {
      this.showJson(m.i, m.json);
      return true;
    }
    return false;
  }

  destroy(): void {
    this.content.removeEventListener("click", this.onContentClick);
  }

  private addRow(entry: ChunkEntry): void {
    const where = entry.path.length ? entry.path.join(" › ") : "";
    const time = entry.ms === null ? "" : `${(entry.ms / 1000).toFixed(3)} s`;
    const row = h("li", `mn-chunk${entry.type === "invalid" ? " mn-chunk-invalid" : ""}`, [
      h("span", "mn-chunk-i", [String(entry.i)]),
      h("span", "mn-chunk-time", [time]),
      h("span", "mn-chunk-type", [entry.type ?? "?"]),
      h("span", "mn-chunk-from", [entry.from ?? ""]),
      h("span", "mn-chunk-path", [where]),
    ]);
    row.dataset.i = String(entry.i);
    row.title = entry.error ?? "Click for the chunk's JSON";
    row.addEventListener("click", () => {
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

  /** A click on a rendered part highlights the chunks that built it (and scrolls to the first). */
  private readonly onContentClick = (event: Event): void => {
    if (!this.open || !(event.target instanceof Element)) return;
    const part = event.target.closest("[data-node-id]");
    const id = part instanceof HTMLElement ? part.dataset.nodeId : undefined;
    if (!id) return;
    let first: HTMLElement | null = null;
    for (const { row, entry } of this.rows.values()) {
      const hit = entry.nodes.includes(id);
      row.classList.toggle("mn-hit", hit);
      if (hit && !first) first = row;
    }
    if (first && typeof first.scrollIntoView === "function") first.scrollIntoView({ block: "nearest" });
  };
}
