/** Formatting of numbers, durations and sizes; every input may be missing or of the wrong type. */

export function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

export function obj(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

// Made once: `toLocaleString` makes a formatter on every call, and a gallery's page formats hundreds
const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatInt(n: number): string {
  return INTEGER.format(Math.round(n));
}

/** `340 ms`, `3.2 s`, `2 m 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} m ${s % 60} s`;
}

/** Duration between two epoch-ms fields, or null when either is unknown. */
export function span(start: unknown, end: unknown): number | null {
  const a = num(start);
  const b = num(end);
  return a === null || b === null ? null : b - a;
}

export function humanSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? `${n} B` : `${n.toFixed(n < 10 ? 1 : 0)} ${units[i]}`;
}

/** JSON text of a value for display: strings as they are, other values pretty-printed. */
export function prettyJson(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return "(a value nested too deep to show)"; // String() of a deep array recurses too
    }
  }
}

/**
 * JSON text that keeps short objects and arrays on one line (`{"day": 1, "highC": 16}`) and
 * breaks only those wider than `width`: one key per line made every small value a tall block.
 */
export function compactJson(value: unknown, width = 72): string {
  if (typeof value === "string") return value;
  try {
    return compactAt(JSON.parse(JSON.stringify(value) ?? "null") as unknown, "", width);
  } catch {
    return prettyJson(value); // nested too deep for the recursion, or not JSON at all
  }
}

function compactAt(value: unknown, indent: string, width: number): string {
  const flat = flatJson(value);
  if (typeof value !== "object" || value === null || indent.length + flat.length <= width) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value) && value.every((v) => typeof v !== "object" || v === null)) {
    return `[\n${packLines(value.map(flatJson), inner, width)}\n${indent}]`;
  }
  const entries = Array.isArray(value)
    ? value.map((v: unknown) => inner + compactAt(v, inner, width))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactAt(v, inner, width)}`);
  if (entries.length === 0) return flat;
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${entries.join(",\n")}\n${indent}${close}`;
}

/** Scalars filled into lines of `width` (a list of 60 numbers is 3 lines, not 60). */
function packLines(items: string[], indent: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    if (line && indent.length + line.length + item.length + 2 > width) {
      lines.push(`${indent}${line},`);
      line = "";
    }
    line = line ? `${line}, ${item}` : item;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}

/** One-line JSON with a space after `:` and `,`. */
function flatJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(flatJson).join(", ")}]`;
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${flatJson(v)}`).join(", ")}}`;
}

/** Direction controls (embeddings, overrides, isolates, marks): a one-line summary drops them. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` cut to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * A short one-line form of a value for a folded card: strings quoted and cut, objects by their
 * first keys (`{city: "Paris", temperatureC: 18, …}`), nested values as `{…}` / `[3]`.
 */
export function summarizeValue(value: unknown, max = 60, depth = 0): string {
  return truncate(summaryOf(value, max, depth).replace(BIDI_CONTROLS, ""), max);
}

/** The first line of `text`, without direction controls, cut to `max` characters. */
export function summarizeText(text: string, max = 80): string {
  const line = text.slice(0, max + 1).split("\n", 1)[0] ?? "";
  return truncate((line.length < text.length ? `${line.slice(0, max - 1)}…` : line).replace(BIDI_CONTROLS, ""), max);
}

function summaryOf(value: unknown, max: number, depth: number): string {
  if (typeof value === "string") return JSON.stringify(summarizeText(value, Math.max(8, max - 2)));
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) {
    if (depth > 0) return `[${value.length}]`;
    return `[${joinShort(value.map((v) => summaryOf(v, 24, depth + 1)), max - 2)}]`;
  }
  if (depth > 0) return Object.keys(value).length === 0 ? "{}" : "{…}";
  const parts = Object.entries(value).map(([k, v]) => `${k}: ${summaryOf(v, 24, depth + 1)}`);
  return `{${joinShort(parts, max - 2)}}`;
}

/** Arguments as `city="Paris", days=3` (an object), or the value's summary. */
export function summarizeArgs(args: unknown, max = 48): string {
  const o = obj(args);
  if (!o) return args === null || args === undefined ? "" : summarizeValue(args, max);
  const parts = Object.entries(o).map(([k, v]) => `${k}=${summaryOf(v, 24, 1)}`);
  return truncate(joinShort(parts, max).replace(BIDI_CONTROLS, ""), max);
}

/** Joins `parts` with ", " while they fit in `max`, then "…". */
function joinShort(parts: string[], max: number): string {
  let out = "";
  for (const [i, part] of parts.entries()) {
    const next = i === 0 ? part : `${out}, ${part}`;
    if (next.length > max && i > 0) return `${out}, …`;
    out = next;
  }
  return out;
}

/**
 * A run node's figures as the kernel computed and formatted them (`figures`: durations, rates,
 * tokens, cost; core/figures.py): renderers show these strings and compute no figure themselves.
 */
export function runFigures(run: Record<string, unknown> | undefined): Record<string, string> {
  const shipped = obj(run?.figures);
  const figures: Record<string, string> = {};
  if (!shipped) return figures;
  for (const [key, value] of Object.entries(shipped)) if (typeof value === "string") figures[key] = value;
  return figures;
}
