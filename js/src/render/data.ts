import { h, slot } from "../dom";
import { obj, str } from "../format";
import { maybeJson } from "./common";
import type { DataNode } from "../types";
import type { NodeRenderer } from "./context";

/**
 * A custom `data-*` part: its type and JSON value. Mastra's own parts (observational memory, the
 * sandbox's output, signals, tripwires, structured output, the token limiter) are said as what they are.
 */
export const renderData: NodeRenderer<DataNode> = () => {
  const kind = h("span", "mn-kind-label", ["Data"]);
  const type = h("span", "mn-name");
  const exit = slot("mn-data-exit", "span");
  const value = slot("mn-data-value");
  const el = h("div", "mn-card mn-data", [h("div", "mn-card-head", [kind, type, exit.el]), value.el]);
  return {
    el,
    update(node) {
      const part = namedPart(str(node.type) ?? "", node.data);
      kind.textContent = part?.kind ?? "Data";
      type.textContent = part?.name ?? str(node.type) ?? "";
      exit.update(part?.exit ?? null, (e) => (e === null ? null : h("span", `mn-badge mn-tone-${e.tone}`, [e.word])));
      value.update(node.data, (data) => {
        const d = obj(data);
        const output = str(d?.output);
        if (part?.stream !== undefined && output !== null) {
          return h("pre", `mn-term mn-term-${part.stream}`, [output]); // textContent: inert
        }
        if (part?.kind === "Structured output" && d !== null && "object" in d) return maybeJson("Object", d.object);
        return maybeJson("Value", data);
      });
    },
  };
};

/** How a named part is drawn: its kind's label, a line in words, an exit badge, which stream it prints. */
export interface NamedPart {
  kind: string;
  name: string;
  exit?: { word: string; tone: "ok" | "error" };
  stream?: "stdout" | "stderr";
}

const whole = (v: unknown): string => (typeof v === "number" && Number.isInteger(v) ? String(v) : "?");

/** Mastra's own data parts in words (shapes as `@mastra/core` writes them); null for a part of the user's own. */
export function namedPart(type: string, data: unknown): NamedPart | null {
  const d = obj(data) ?? {};
  const om = omMarker(type, data);
  if (om !== null) return { kind: "Observational memory", name: om };
  if (type === "data-sandbox-stdout") return { kind: "Sandbox", name: "stdout", stream: "stdout" };
  if (type === "data-sandbox-stderr") return { kind: "Sandbox", name: "stderr", stream: "stderr" };
  if (type === "data-sandbox-exit") {
    const ms = typeof d.executionTimeMs === "number" && Number.isFinite(d.executionTimeMs) ? ` in ${whole(Math.round(d.executionTimeMs))} ms` : "";
    const ok = d.success === true || (d.success === undefined && d.exitCode === 0);
    return { kind: "Sandbox", name: `exited${ms}`, exit: { word: `exit ${whole(d.exitCode)}`, tone: ok ? "ok" : "error" } };
  }
  if (type === "data-signal") {
    const said = [str(d.type), str(d.tagName) ?? str(d.id)].filter((s): s is string => !!s);
    return { kind: "Signal", name: said.join(" ") || "signal" };
  }
  if (type === "data-tripwire") {
    const by = str(d.processorId);
    const reason = str(d.reason) ?? str(d.tripwireReason);
    return { kind: "Tripwire", name: `blocked${by === null ? "" : ` by ${by}`}${reason === null ? "" : `: ${reason}`}` };
  }
  if (type === "data-structured-output") return { kind: "Structured output", name: "the final object" };
  if (type === "data-token-limit-reached") {
    const at = typeof d.tokens === "number" ? ` (${whole(d.tokens)} counted)` : "";
    return { kind: "Token limit", name: `output withheld past ${whole(d.limit)} tokens${at}` };
  }
  return null;
}

/** Mastra's observational-memory markers (`data-om-*`) in words, with their token counts; null for another part. */
export function omMarker(type: string, data: unknown): string | null {
  const d = obj(data) ?? {};
  if (type === "data-om-status") {
    const messages = obj(obj(obj(d.windows)?.active)?.messages) ?? {};
    return `status: messages ${whole(messages.tokens)} of ${whole(messages.threshold)} tokens before observing`;
  }
  if (type === "data-om-observation-start") return `observing ${whole(d.tokensToObserve)} tokens`;
  if (type === "data-om-observation-end")
    return `observed ${whole(d.tokensObserved)} tokens into ${whole(d.observationTokens)} in ${whole(d.durationMs)} ms`;
  return type.startsWith("data-om-") ? type.slice("data-om-".length) : null;
}
