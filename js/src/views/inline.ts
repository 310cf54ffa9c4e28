/**
 * The small typed content the kernel's tables and panels are made of (a catalogue's cells, a dataset
 * experiment's summary, `mn.compare`'s diffs): the kernel sends it as JSON and these functions draw
 * it with the same `h()` helpers as every renderer. Text always goes in as text (textContent), never
 * as HTML; an untrusted label sits in a `<bdi dir=auto>` (`isolated`), so direction controls inside it
 * cannot reorder what is around it. Styles come from classes: the one palette (static/palette.ts)
 * colours them where the view is written out as HTML.
 *
 * Python declares the same shapes once (mastra_notebook/render/views.py).
 */
import { h, isolated } from "../dom";
import { statusTone } from "../status-words";
import { safeHref } from "../url";

/** Text, a list of pieces side by side, or one typed piece. */
export type Inline = string | readonly Inline[] | Piece;

/** `data-*` attributes, by name without the prefix. */
export type Data = Readonly<Record<string, string>>;

export type Piece =
  /** Untrusted label text, isolated (`<bdi dir=auto>`); `title`: its whole text on hover. */
  | { t: "label"; text: string; title?: string }
  | { t: "code"; body: Inline; title?: string }
  | { t: "muted"; body: Inline }
  | { t: "strong"; body: Inline }
  /** What a diff adds, and what it removes. */
  | { t: "ins"; body: Inline }
  | { t: "del"; body: Inline }
  /**
   * A span or a block of the kernel's own class (`mn-...`), to be found and styled by it (the palette
   * styles its class; `style`: declarations of its own, kept where the palette's are left out).
   */
  | { t: "span"; cls: string; body: Inline; title?: string; data?: Data; style?: string }
  | { t: "block"; cls?: string; body: Inline; title?: string; data?: Data; style?: string }
  /**
   * A button the page's own script acts on (by its `data-*`): a control, drawn only where the view is
   * written out with its controls (the experiment grid's "open"); a transcript leaves it out.
   */
  | { t: "button"; cls: string; body: Inline; data?: Data; disabled?: boolean; style?: string }
  /** Pieces one under the other, the rest counted (`more`, muted). */
  | { t: "lines"; lines: readonly Inline[]; more?: string }
  /** Preformatted text (JSON, instructions); `isolated`: in a `<bdi>` too. */
  | { t: "pre"; text: string; isolated?: boolean }
  | { t: "details"; summary: Inline; body: Inline; open?: boolean; cls?: string }
  /** A link, drawn only to an absolute http(s) or mailto address (else its text alone). */
  | { t: "link"; text: string; href: string }
  /** A status as a badge: `text` as the kernel words it, coloured by `status`'s tone. */
  | { t: "badge"; text: string; status: string }
  /** `done` of `total` as a bar. */
  | { t: "progress"; done: number; total: number }
  | TablePiece;

/** A table of columns and rows, each cell inline content. */
export interface TablePiece {
  t: "table";
  /** Classes of the table (`mn-catalogue`), and what it lists (`data-kind`). */
  cls?: string;
  kind?: string;
  /** Column heads (`<thead>`); none: rows of facts. */
  heads?: readonly Inline[];
  rows: readonly (readonly Inline[])[];
  /** Each row's first cell heads it (`<th>`). */
  rowHeads?: boolean;
  /** Figures: every column but the first aligned right (`mn-num`). */
  numeric?: boolean;
  /** Declarations of every cell's own, kept where the palette's are left out. */
  cellStyle?: string;
}

const DATA_NAME = /^[a-z][a-z0-9-]*$/;

function styled<E extends HTMLElement>(el: E, style: string | undefined): E {
  if (style) el.style.cssText = style;
  return el;
}

function withData<E extends HTMLElement>(el: E, data: Data | undefined): E {
  for (const [name, value] of Object.entries(data ?? {})) {
    if (DATA_NAME.test(name)) el.setAttribute(`data-${name}`, value);
  }
  return el;
}

/** `inline` as DOM nodes (text nodes for text). */
export function drawInline(inline: Inline): (Node | string)[] {
  if (typeof inline === "string") return inline === "" ? [] : [inline];
  if (Array.isArray(inline)) return (inline as readonly Inline[]).flatMap(drawInline);
  return [drawPiece(inline as Piece)];
}

function drawPiece(piece: Piece): Node {
  switch (piece.t) {
    case "label": {
      const el = isolated("", piece.text);
      if (piece.title !== undefined) el.title = piece.title;
      return el;
    }
    case "code":
      return h("code", "", drawInline(piece.body), { title: piece.title });
    case "muted":
      return h("span", "mn-muted", drawInline(piece.body));
    case "strong":
      return h("strong", "", drawInline(piece.body));
    case "ins":
      return h("ins", "mn-ins", drawInline(piece.body));
    case "del":
      return h("del", "mn-del", drawInline(piece.body));
    case "span":
      return styled(withData(h("span", piece.cls, drawInline(piece.body), { title: piece.title }), piece.data), piece.style);
    case "block":
      return styled(withData(h("div", piece.cls, drawInline(piece.body), { title: piece.title }), piece.data), piece.style);
    case "button":
      return styled(withData(h("button", piece.cls, drawInline(piece.body), { disabled: piece.disabled === true }), piece.data), piece.style);
    case "lines":
      return drawLines(piece.lines, piece.more);
    case "pre":
      return h("pre", "mn-view-pre", piece.isolated ? [isolated("", piece.text)] : [piece.text]);
    case "details":
      return h("details", piece.cls, [h("summary", "", drawInline(piece.summary)), ...drawInline(piece.body)], {
        open: piece.open === true,
      });
    case "link": {
      const href = safeHref(piece.text === "" ? null : piece.href);
      if (href === null) return isolated("", piece.text);
      return h("a", "", [isolated("", piece.text)], { href, target: "_blank", rel: "noopener noreferrer nofollow" });
    }
    case "badge":
      return h("span", `mn-status mn-badge mn-tone-${statusTone(piece.status)}`, [piece.text], {
        "data-status": piece.status,
      });
    case "progress":
      return progressBar(piece.done, piece.total);
    case "table":
      return drawTable(piece);
  }
}

/** Pieces one under the other (`<br>` between), then `more` muted. */
function drawLines(lines: readonly Inline[], more: string | undefined): HTMLElement {
  const out: (Node | string)[] = [];
  for (const [index, line] of lines.entries()) {
    if (index > 0) out.push(h("br"));
    out.push(...drawInline(line));
  }
  if (more) {
    if (out.length > 0) out.push(h("br"));
    out.push(h("span", "mn-muted", [more]));
  }
  return h("span", "mn-lines", out);
}

function progressBar(done: number, total: number): HTMLElement {
  const share = total > 0 ? Math.min(100, Math.max(0, (100 * done) / total)) : 0;
  const fill = h("span", "mn-progress-fill");
  fill.style.width = `${share.toFixed(0)}%`;
  return h("span", "mn-progress", [fill], {
    role: "progressbar",
    "aria-valuenow": String(done),
    "aria-valuemax": String(total),
  });
}

/** A table of inline cells. */
export function drawTable(table: TablePiece): HTMLElement {
  const cell = (content: Inline, head: boolean, index: number) =>
    styled(h(head ? "th" : "td", table.numeric && index > 0 ? "mn-num" : "", drawInline(content)), table.cellStyle);
  const heads = table.heads ?? [];
  return h(
    "table",
    ["mn-view-table", table.cls].filter(Boolean).join(" "),
    [
      heads.length > 0 ? h("thead", "", [h("tr", "", heads.map((head, index) => cell(head, true, index)))]) : null,
      h(
        "tbody",
        "",
        table.rows.map((row) => h("tr", "", row.map((content, index) => cell(content, index === 0 && table.rowHeads === true, index)))),
      ),
    ],
    { "data-kind": table.kind },
  );
}
