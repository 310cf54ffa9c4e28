/** The run footer: status, tokens, time to first token, tokens/s, duration, steps, cost. */
import { h } from "../dom";
import { formatDuration, formatInt, num, obj, span, str } from "../format";
import type { NodeData } from "../types";
import { humanWaitWithin } from "./human";

type Stat = [key: string, label: string, value: (run: NodeData) => string | null];

function usage(run: NodeData, key: string): number | null {
  return num(obj(run.usage)?.[key]);
}

function tokens(key: string): (run: NodeData) => string | null {
  return (run) => {
    const n = usage(run, key);
    return n === null ? null : formatInt(n);
  };
}

function duration(from: string, to: string): (run: NodeData) => string | null {
  return (run) => {
    const ms = span(run[from], run[to]);
    return ms === null ? null : formatDuration(ms);
  };
}

/** Output tokens per second of generation (from the first token, else the start, to the end). */
const MIN_RATE_SPAN_MS = 250;

export function tokensPerSecond(run: NodeData): number | null {
  // The kernel's figure when its steps ended: their output tokens over their streaming spans only.
  const streamed = num(run.streamed_tokens);
  const streamingMs = num(run.streaming_ms);
  if (streamed !== null && streamingMs !== null) {
    return streamed > 0 && streamingMs >= MIN_RATE_SPAN_MS ? streamed / (streamingMs / 1000) : null;
  }
  const out = usage(run, "output_tokens");
  const from = num(run.first_token_at) ?? run.started_at;
  const wait = humanWaitWithin(run, from, run.finished_at); // a person deciding is no generation time
  const ms = (span(from, run.finished_at) ?? NaN) - wait;
  // Over a few hundred ms a rate says nothing (a recording fed at once reads as 100,000 tok/s).
  return out === null || out === 0 || !(ms >= MIN_RATE_SPAN_MS) ? null : out / (ms / 1000);
}

/** `$0.00206` below a dollar (three significant digits: a step costs fractions of a cent), `$1.23` above. */
const DOLLARS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatUsd(usd: number): string {
  if (usd === 0 || usd >= 1) return `$${DOLLARS.format(usd)}`;
  const digits = Math.max(2, 2 - Math.floor(Math.log10(usd)));
  return `$${usd.toFixed(digits)}`.replace(/0+$/, "").replace(/\.$/, "");
}

/** The run's cost (genai-prices, in the kernel): its steps and the runs nested in it. */
export function runCost(run: NodeData): { text: string; title: string } | null {
  const cost = obj(run.cost);
  if (!cost) return null;
  const usd = num(cost.total_usd);
  const reason = str(cost.reason);
  if (usd !== null) return { text: formatUsd(usd), title: "USD, from genai-prices" };
  return reason ? { text: "unknown", title: reason } : null;
}

const STATS: Stat[] = [
  ["status", "", (run) => str(run.status)],
  ["input_tokens", "in", tokens("input_tokens")],
  ["output_tokens", "out", tokens("output_tokens")],
  ["reasoning_tokens", "reasoning", tokens("reasoning_tokens")],
  ["cached_input_tokens", "cached", tokens("cached_input_tokens")],
  ["ttft", "first token", duration("started_at", "first_token_at")],
  ["tokens_per_s", "tok/s", (run) => tokensPerSecond(run)?.toFixed(1) ?? null],
  ["duration", "duration", duration("started_at", "finished_at")],
  ["steps", "steps", (run) => (num(run.steps) === null ? null : formatInt(num(run.steps) ?? 0))],
  ["cost", "cost", (run) => runCost(run)?.text ?? null],
];

export class Footer {
  readonly el = h("div", "mn-footer");
  private readonly values = new Map<string, [HTMLElement, HTMLElement]>();

  constructor() {
    for (const [key, label] of STATS) {
      const value = h("span", "mn-stat-value");
      const item = h("span", "mn-stat", [label ? h("span", "mn-stat-label", [label]) : null, value], {
        "data-stat": key,
      });
      item.hidden = true;
      this.values.set(key, [item, value]);
      this.el.append(item);
    }
  }

  update(run: NodeData): void {
    for (const [key, , compute] of STATS) {
      const entry = this.values.get(key);
      if (!entry) continue;
      const text = compute(run);
      entry[0].hidden = text === null;
      if (key === "cost") entry[0].title = runCost(run)?.title ?? "";
      if (text !== null && entry[1].textContent !== text) entry[1].textContent = text;
    }
  }
}
