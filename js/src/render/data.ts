import { h, slot } from "../dom";
import { obj, str } from "../format";
import { maybeJson } from "./common";
import type { NodeRenderer } from "./context";

/** A custom `data-*` part: its type and JSON value; observational memory's markers said as what they are. */
export const renderData: NodeRenderer = () => {
  const kind = h("span", "mn-kind-label", ["Data"]);
  const type = h("span", "mn-name");
  const value = slot("mn-data-value");
  const el = h("div", "mn-card mn-data", [h("div", "mn-card-head", [kind, type]), value.el]);
  return {
    el,
    update(node) {
      const marker = omMarker(str(node.type) ?? "", node.data);
      kind.textContent = marker === null ? "Data" : "Observational memory";
      type.textContent = marker ?? str(node.type) ?? "";
      value.update(node.data, (data) => maybeJson("Value", data));
    },
  };
};

/** Mastra's observational-memory markers (`data-om-*`) in words, with their token counts; null for another part. */
export function omMarker(type: string, data: unknown): string | null {
  const d = obj(data) ?? {};
  const n = (v: unknown): string => (typeof v === "number" && Number.isInteger(v) ? String(v) : "?");
  if (type === "data-om-status") {
    const messages = obj(obj(obj(d.windows)?.active)?.messages) ?? {};
    return `status: messages ${n(messages.tokens)} of ${n(messages.threshold)} tokens before observing`;
  }
  if (type === "data-om-observation-start") return `observing ${n(d.tokensToObserve)} tokens`;
  if (type === "data-om-observation-end")
    return `observed ${n(d.tokensObserved)} tokens into ${n(d.observationTokens)} in ${n(d.durationMs)} ms`;
  return type.startsWith("data-om-") ? type.slice("data-om-".length) : null;
}
