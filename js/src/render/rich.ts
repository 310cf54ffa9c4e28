/**
 * A tool's result drawn as data (issue 21): a kernel-made MIME bundle (`display`), or, without any
 * registration, a list of flat records as a table, image and file parts as images or links, and
 * `data:` image URLs as images. Everything here is untrusted: HTML goes through DOMPurify (markdown.ts
 * `sanitize`), SVG is drawn as an <img> of a data: URL (a document in an <img> runs no script and
 * loads nothing), rasters only as data: URLs built from an image type and checked base64. The JSON
 * result stays one click away. render/static/rich.py draws the same for the transcript.
 */
import { h } from "../dom";
import { formatInt, list, obj, str } from "../format";
import { highlightCode, renderMarkdown, sanitize } from "../markdown";
import { SANITIZE_POLICY } from "../sanitize-policy";
import { safeHref, hardenLink } from "../url";
import { imageDataUrl } from "./file";
import { jsonPre } from "./json";

/** Rows and columns a built-in table draws; the rest is said ("12 more rows") and stays in the JSON. */
export const TABLE_ROWS = 50;
export const TABLE_COLUMNS = 20;
/** Characters a cell shows (a web search's encrypted content, a long text): the whole stays in the JSON. */
export const CELL_CHARS = 120;

/** The bundle's types in the order they win: the richest the widget draws safely. */
export const MIME_ORDER = [
  "text/html", "image/svg+xml", "image/png", "image/jpeg", "image/gif", "image/webp",
  "text/markdown", "application/json", "text/plain",
];

const RASTER = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

function sanitizedHtml(html: string): DocumentFragment {
  const fragment = sanitize(html);
  for (const el of fragment.querySelectorAll("*")) {
    for (const name of SANITIZE_POLICY.toolStrippedAttributes) el.removeAttribute(name);
  }
  return fragment;
}

/** UTF-8 text as base64 (btoa takes Latin-1 only). */
function base64Text(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** An SVG as an image: in an <img> its scripts never run and its links never load. */
function svgImage(svg: string): HTMLElement {
  return h("img", "mn-image mn-rich-svg", [], { src: `data:image/svg+xml;base64,${base64Text(svg)}`, alt: "SVG image" });
}

/** One MIME type's payload, or null when it cannot be drawn safely. */
function drawMime(mime: string, payload: unknown): HTMLElement | null {
  if (mime === "text/html" && typeof payload === "string") return h("div", "mn-rich-html", [sanitizedHtml(payload)]);
  if (mime === "image/svg+xml" && typeof payload === "string") return svgImage(payload);
  if (RASTER.has(mime)) {
    const src = imageDataUrl(mime, payload);
    return src ? h("img", "mn-image", [], { src, alt: mime }) : null;
  }
  if (mime === "text/markdown" && typeof payload === "string") return h("div", "mn-md mn-rich-md", [renderMarkdown(payload, true)]);
  if (mime === "application/json") return jsonPre(payload);
  if (mime === "text/plain" && typeof payload === "string") return h("pre", "mn-json mn-rich-text", [payload]);
  return null;
}

/** A MIME bundle's richest drawable type, drawn; null when none is. */
export function drawBundle(data: unknown): HTMLElement | null {
  const bundle = obj(data);
  if (!bundle) return null;
  for (const mime of MIME_ORDER) {
    if (!(mime in bundle)) continue;
    const el = drawMime(mime, bundle[mime]);
    if (el) {
      el.dataset.mime = mime;
      return el;
    }
  }
  return null;
}

// ---- built-in drawings of a JSON result --------------------------------------------------------

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** How a list cut for the view ends (core/bounding.py): `… 1,200 more items`. */
const MORE_ITEMS = /^… ([\d,]+) more items$/;

/**
 * A list cut for the view (the kernel keeps it whole): its whole items, and how many were cut
 * (its end marker's count, and a last item cut short, which ends in a `…` key).
 */
function cutList(value: unknown[]): { items: unknown[]; more: number } {
  const marker = typeof value.at(-1) === "string" ? MORE_ITEMS.exec(value.at(-1) as string) : null;
  if (marker === null) return { items: value, more: 0 };
  const items = value.slice(0, -1);
  const last = obj(items.at(-1));
  const partial = last !== null && "…" in last ? 1 : 0;
  return { items: partial ? items.slice(0, -1) : items, more: Number((marker[1] ?? "0").replaceAll(",", "")) + partial };
}

/** A list of objects whose values are all scalars (what a query or a DataFrame's records give). */
export function flatRecords(value: unknown): Record<string, Scalar>[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  for (const row of value) {
    const record = obj(row);
    if (!record || !Object.values(record).every(isScalar)) return null;
  }
  const rows = value as Record<string, Scalar>[];
  return rows.some((row) => Object.keys(row).length > 0) ? rows : null;
}

/** The image a `data:` URL holds, when it is base64 of a raster type. */
export function dataImageUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const match = /^data:([a-z0-9.+/-]+);base64,(.*)$/is.exec(value.trim());
  return match ? imageDataUrl(match[1], match[2]) : null;
}

function cell(value: Scalar): HTMLElement {
  const src = dataImageUrl(value);
  if (src) return h("td", "", [h("img", "mn-rich-thumb", [], { src, alt: "image" })]);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const shown = text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text;
  return h("td", typeof value === "number" ? "mn-num" : value === null ? "mn-muted" : "", [shown]);
}

/**
 * The first 50 rows and 20 columns of flat records as a table, and what was left out (`cut`: rows
 * the view was not sent, kept in the kernel).
 */
export function recordsTable(rows: Record<string, Scalar>[], cut = 0): HTMLElement {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) if (!seen.has(key)) (seen.add(key), columns.push(key));
  const shownColumns = columns.slice(0, TABLE_COLUMNS);
  const shownRows = rows.slice(0, TABLE_ROWS);
  const head = h("thead", "", [h("tr", "", shownColumns.map((name) => h("th", "", [name])))]);
  const body = h(
    "tbody",
    "",
    shownRows.map((row) => h("tr", "", shownColumns.map((name) => (name in row ? cell(row[name] ?? null) : h("td", "mn-muted", []))))),
  );
  const more = [
    rows.length + cut > shownRows.length ? `${formatInt(rows.length + cut - shownRows.length)} more rows` : "",
    columns.length > TABLE_COLUMNS ? `${formatInt(columns.length - TABLE_COLUMNS)} more columns` : "",
  ].filter(Boolean);
  return h("div", "mn-rich-table", [
    h("div", "mn-table-scroll", [h("table", "mn-table", [head, body])]),
    more.length ? h("div", "mn-muted mn-table-more", [`${more.join(", ")} (${cut ? "in the kernel" : "in the JSON"})`]) : null,
  ]);
}

const PART_TYPES = new Set(["image", "file", "media", "image-data", "file-data", "image-url", "file-url"]);

function mediaTypeOf(part: Record<string, unknown>): string {
  return (str(part.mediaType) ?? str(part.mimeType) ?? str(part.media_type) ?? "").toLowerCase();
}

/** An AI SDK / Mastra / MCP image or file part: an image from its data, else a link to its URL, else its name. */
function drawPart(part: Record<string, unknown>): HTMLElement | null {
  const type = str(part.type) ?? "";
  if (type === "text") return typeof part.text === "string" ? h("div", "mn-rich-part-text", [part.text]) : null;
  if (!PART_TYPES.has(type)) return null;
  const mediaType = mediaTypeOf(part);
  const data = part.data ?? part.image ?? part.base64;
  const name = str(part.filename) ?? str(part.name) ?? (type.startsWith("image") ? "image" : "file");
  const src = dataImageUrl(data) ?? dataImageUrl(part.url) ?? imageDataUrl(mediaType || (type.startsWith("image") ? "image/png" : ""), data);
  if (src) return h("img", "mn-image", [], { src, alt: name });
  const href = safeHref(part.url, false) ?? safeHref(data, false);
  const meta = h("span", "mn-muted", [mediaType ? ` ${mediaType}` : ""]);
  if (href) {
    const a = h("a", "mn-rich-link", [name], { href });
    hardenLink(a); // never loaded here (no remote images): a link the person may open
    return h("div", "mn-rich-file", [a, meta]);
  }
  return h("div", "mn-rich-file", [h("span", "", [name]), meta]);
}

/** The parts of a content result: a list of typed parts, or `{content: [...]}` (MCP), `{type: "content", value: [...]}` (AI SDK). */
function partsOf(value: unknown): Record<string, unknown>[] | null {
  const o = obj(value);
  const items = Array.isArray(value) ? value : o ? (list(o.content).length ? o.content : o.value) : null;
  if (!Array.isArray(items) || items.length === 0) return null;
  const parts = items.map(obj);
  if (parts.some((part) => !part || (str(part.type) !== "text" && !PART_TYPES.has(str(part.type) ?? "")))) return null;
  return parts.some((part) => PART_TYPES.has(str(part?.type) ?? "")) ? (parts as Record<string, unknown>[]) : null;
}

/** A JSON result drawn without registration, or null when it is best read as JSON. */
export function drawBuiltIn(result: unknown): HTMLElement | null {
  const src = dataImageUrl(result);
  if (src) return h("img", "mn-image", [], { src, alt: "image" });
  const whole = Array.isArray(result) ? cutList(result) : null;
  const records = flatRecords(whole?.items ?? result);
  if (records) return recordsTable(records, whole?.more ?? 0);
  const single = obj(result);
  if (single && PART_TYPES.has(str(single.type) ?? "")) return drawPart(single);
  const parts = partsOf(result);
  if (parts) {
    const drawn = parts.map(drawPart);
    return drawn.some(Boolean) ? h("div", "mn-rich-parts", drawn) : null;
  }
  return null;
}

/** The JSON result, one click away from its drawing. */
function jsonToggle(result: unknown): HTMLElement | null {
  if (result === null || result === undefined) return null;
  return h("details", "mn-field mn-raw mn-rich-json", [h("summary", "mn-label", ["Result as JSON"]), jsonPre(result)]);
}

/** A failed display said by where it came from: a Python tool's own value, or a renderer. */
export function displayError(source: string | null, error: string): string {
  return source === "value" ? `The tool's value could not be drawn: ${error}` : `The renderer failed: ${error}`;
}

/**
 * The result section of a tool card: its display bundle (with its preview note, or the renderer's
 * error), else a built-in drawing, each with the JSON one click away; else null (drawn as JSON).
 */
export function richResult(display: unknown, result: unknown): HTMLElement | null {
  const d = obj(display);
  const error = d ? str(d.error) : null;
  const drawn = d && !error ? drawBundle(d.data) : null;
  const shown = error !== null ? null : (drawn ?? drawBuiltIn(result));
  if (error === null && shown === null) return null;
  const preview = d ? str(d.preview) : null;
  return h("div", "mn-field mn-rich", [
    h("div", "mn-label", ["Result"]),
    error !== null ? h("div", "mn-error mn-rich-error", [displayError(str(d?.source), error)]) : shown,
    preview && drawn ? h("div", "mn-muted mn-rich-preview", [preview]) : null,
    jsonToggle(result),
  ]);
}

// ---- arguments as they stream --------------------------------------------------------------------

/** JSON string escapes, read by hand: the text may stop anywhere inside one. */
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * The (possibly unfinished) string value of `field` at the top level of streamed JSON text: what
 * has arrived of it so far, or null when the field has not started. An escape cut short is left out.
 */
export function partialField(text: string, field: string): string | null {
  const key = JSON.stringify(field);
  let from = 0;
  for (;;) {
    const at = text.indexOf(key, from);
    if (at < 0) return null;
    const rest = /^\s*:\s*"/.exec(text.slice(at + key.length));
    if (rest) return readString(text, at + key.length + rest[0].length);
    from = at + key.length;
  }
}

function readString(text: string, start: number): string {
  let out = "";
  for (let i = start; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c === '"') return out;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return out;
    if (next === "u") {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return out;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 5;
      continue;
    }
    out += ESCAPES[next] ?? next;
    i += 1;
  }
  return out;
}

/** The streamed argument `field` as the tool's args say it, else as its raw text has it so far. */
export function argumentText(args: unknown, argsText: unknown, field: string): string | null {
  const value = obj(args)?.[field];
  if (typeof value === "string") {
    const raw = typeof argsText === "string" ? partialField(argsText, field) : null;
    return raw !== null && raw.length > value.length ? raw : value;
  }
  return typeof argsText === "string" ? partialField(argsText, field) : null;
}

/** Code highlighted by highlight.js (sql, python, json; markdown is rendered as markdown). */
export function codeBlock(code: string, language: string): HTMLElement {
  const lang = language.toLowerCase();
  if (lang === "markdown" || lang === "md") return h("div", "mn-md mn-args-md", [renderMarkdown(code, false)]);
  const html = highlightCode(code, lang);
  const codeEl = h("code", `hljs language-${lang}`);
  if (html) codeEl.append(sanitize(html));
  else codeEl.textContent = code;
  return h("pre", "mn-args-code", [codeEl]);
}

/**
 * The arguments drawn as `args_display` asks: a field as highlighted code, or a bundle from
 * `args=fn`; null when it asks nothing (the arguments are then drawn as JSON).
 */
export function richArgs(argsDisplay: unknown, args: unknown, argsText: unknown): HTMLElement | null {
  const spec = obj(argsDisplay);
  if (!spec) return null;
  const field = str(spec.field);
  const language = str(spec.language) ?? "";
  const code = field !== null ? argumentText(args, argsText, field) : null;
  const display = obj(spec.display);
  const bundle = display ? drawBundle(display.data) : null;
  const error = display ? str(display.error) : null;
  if (code === null && bundle === null && error === null) return null;
  return h("div", "mn-field mn-rich-args", [
    h("div", "mn-label", [field !== null && code !== null ? `Arguments · ${field}` : "Arguments"]),
    code !== null ? codeBlock(code, language) : null,
    bundle,
    error !== null ? h("div", "mn-error mn-rich-error", [`The renderer failed: ${error}`]) : null,
  ]);
}
