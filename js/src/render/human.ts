/**
 * What waits for a person, and how they answered: for tool cards and workflow steps.
 *
 * Python computes the words (`continue_with`: the call that answers, e.g. `view.resume({"answer": ...})`)
 * and the times (`decision` `{action, by, at, waited_ms, waited}`, `waited` as shown: core/captions.py); this only draws them. A tool or step
 * renderer puts `humanView(node)` in its card and calls `update(node)` with each change.
 */
import { h } from "../dom";
import { num, obj, str } from "../format";
import { capitalized, decisionWord } from "../status-words";
import type { RunNode } from "../types";
import type { CallNode } from "./common";

const BY: Record<string, string> = { view: "in the view", python: "from Python" };
const WAITING = new Set(["awaiting-approval", "suspended"]);

/** "Approved in the view · waited 8.7 s for a person", or null when nobody decided yet. */
export function decisionText(node: CallNode): string | null {
  const decision = obj(node.decision);
  const action = str(decision?.action);
  if (!decision || !action) return null;
  const bits = [`${capitalized(decisionWord(action))} ${BY[str(decision.by) ?? ""] ?? ""}`.trim()];
  const waited = str(decision.waited);
  if (waited !== null) bits.push(`waited ${waited} for a person`);
  return bits.join(" · ");
}

/** A folded head's "approved in the view after 8.7 s", or null when nobody decided yet. */
export function decisionSummary(node: CallNode): string | null {
  const decision = obj(node.decision);
  const action = str(decision?.action);
  if (!decision || !action) return null;
  const waited = str(decision.waited);
  const by = BY[str(decision.by) ?? ""];
  return [decisionWord(action), by, waited === null ? null : `after ${waited}`]
    .filter(Boolean)
    .join(" ");
}

/** The Python call that answers a waiting tool call or step, while it waits. */
export function continueWith(node: CallNode): string | null {
  return WAITING.has(str(node.status) ?? "") && obj(node.decision) === null ? str(node.continue_with) : null;
}

export function humanView(): { el: HTMLElement; update(node: CallNode): void } {
  const code = h("code", "mn-continue-code");
  const hint = h("div", "mn-continue", [h("span", "mn-label", ["Continue with"]), " ", code]);
  const decided = h("div", "mn-decision mn-muted");
  const el = h("div", "mn-human", [hint, decided]);
  return {
    el,
    update(node) {
      const call = continueWith(node);
      hint.hidden = call === null;
      if (code.textContent !== (call ?? "")) code.textContent = call ?? "";
      const text = decisionText(node);
      decided.hidden = text === null;
      if (decided.textContent !== (text ?? "")) decided.textContent = text ?? "";
      el.hidden = call === null && text === null;
    },
  };
}

/** Milliseconds of the run's human waits (`human_waits`: [from, to] pairs) inside [from, to]. */
export function humanWaitWithin(run: RunNode, from: unknown, to: unknown): number {
  const start = num(from);
  const end = num(to);
  if (start === null || end === null || !Array.isArray(run.human_waits)) return 0;
  let total = 0;
  for (const pair of run.human_waits as unknown[]) {
    if (!Array.isArray(pair)) continue;
    const a = num(pair[0]);
    const b = num(pair[1]);
    if (a !== null && b !== null) total += Math.max(0, Math.min(b, end) - Math.max(a, start));
  }
  return total;
}
