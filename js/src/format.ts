/**
 * Readers of node fields (every input may be missing or of the wrong type), and the formatting the
 * widget still does itself: JSON a person expands (sent once, as JSON: formatted here and in
 * render/static/text.py alike) and the timeline's layout. What a card shows folded (summaries,
 * durations, sizes) comes formatted from the kernel (core/captions.py); the run's figures too
 * (core/figures.py).
 */

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

/**
 * A run node's figures as the kernel computed and formatted them (`figures`: durations, rates,
 * tokens, cost; core/figures.py): renderers show these strings and compute no figure themselves.
 */
export function runFigures(run: { figures?: unknown } | undefined): Record<string, string> {
  const shipped = obj(run?.figures);
  const figures: Record<string, string> = {};
  if (!shipped) return figures;
  for (const [key, value] of Object.entries(shipped)) if (typeof value === "string") figures[key] = value;
  return figures;
}
