/**
 * The words a person reads for statuses: the one table Python shows them with too
 * (mastra_notebook/core/status_words.json, bundled here at build time). Nodes keep the contract's
 * values (`aborted`, `awaiting-approval`, `denied`...); what is shown is `statusWord(status)`.
 */
// named imports: esbuild bundles these three and leaves the rest (the table's "about") out
import { banners, decisions, statuses } from "../../mastra_notebook/core/status_words.json";

interface Entry {
  word: string;
  tone: string;
}

export const STATUSES: Readonly<Record<string, Entry>> = statuses;
export const DECISIONS: Readonly<Record<string, string>> = decisions;
export const BANNERS: Readonly<Record<string, string>> = banners;

/** What a person reads for `status` (`aborted` → "stopped"); an unknown one as it is. */
export function statusWord(status: string): string {
  return STATUSES[status]?.word ?? status;
}

/** How its badge is coloured: active, ok, warn, error or neutral. */
export function statusTone(status: string): string {
  return STATUSES[status]?.tone ?? "neutral";
}

/** `approve` → "approved", `decline` → "declined", `resume` → "resumed". */
export function decisionWord(action: string): string {
  return DECISIONS[action] ?? action;
}

/** The first letter upper-cased ("declined" → "Declined"), for a word that starts a line. */
export function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
