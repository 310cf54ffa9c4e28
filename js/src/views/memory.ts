/**
 * A chat turn's memory, under its answer (client/chat.py): the messages memory recalled (folded:
 * role and text), the working memory's lines added, removed and kept, and a note; and the person's
 * prompt as a user turn. All of it is untrusted text: drawn as text, each label isolated.
 */
import { h, isolated } from "../dom";

/** `+` added, `-` removed, ` ` kept (widget/conversation.py `working_diff`). */
export type Mark = "+" | "-" | " ";

export interface MemoryInput {
  /** (role, text) of each message recalled, the text cut by the kernel. */
  recalled: readonly (readonly [string, string])[];
  /** The working memory's lines, each marked; null when the turn has no working memory. */
  /** (role, text) of each message the turn added to its thread (older kernels send none). */
  saved?: readonly (readonly [string, string])[];
  working: readonly (readonly [Mark, string])[] | null;
  note?: string | null;
  /** The counts beside the trace's: that they agree, or why they differ. */
  counts?: string | null;
}

const MARK_WORD: Record<Mark, string> = { "+": "added", "-": "removed", " ": "kept" };
const GLYPH: Record<Mark, string> = { "+": "+", "-": "\u2212", " ": " " }; // a minus sign: as wide as the plus

/** What memory did in one turn, or null when there is nothing to show. */
export function drawMemory(input: MemoryInput): HTMLElement | null {
  const blocks: HTMLElement[] = [];
  const listed = (kind: "recalled" | "saved", word: string, messages: readonly (readonly [string, string])[]) => {
    if (messages.length === 0) return;
    const count = `${messages.length} message${messages.length === 1 ? "" : "s"}`;
    const items = messages.map(([role, text]) =>
      h("li", "", [isolated("mn-memory-role", role), isolated("mn-memory-text", text)], { "data-role": role }),
    );
    blocks.push(h("details", `mn-memory-${kind}`, [h("summary", "", [`${word} ${count}`]), h("ol", "mn-memory-list", items)]));
  };
  listed("recalled", "Recalled", input.recalled);
  listed("saved", "Saved", input.saved ?? []);
  if (input.working !== null) {
    const lines = input.working;
    const added = lines.filter(([mark]) => mark === "+").length;
    const removed = lines.filter(([mark]) => mark === "-").length;
    const change = added || removed ? `+${added} -${removed} lines` : "unchanged";
    const shown = lines.map(([mark, text]) =>
      h("span", `mn-diff-line mn-diff-${MARK_WORD[mark]}`, [h("span", "mn-diff-gutter", [GLYPH[mark]]), isolated("", text)], {
        "data-mark": MARK_WORD[mark],
      }),
    );
    blocks.push(
      h("details", "mn-memory-working", [h("summary", "", [`Working memory: ${change}`]), h("div", "mn-memory-diff", shown)], {
        open: added > 0 || removed > 0,
      }),
    );
  }
  if (input.counts) blocks.push(h("div", "mn-memory-counts", [`Counts: ${input.counts}`]));
  if (input.note) blocks.push(h("div", "mn-memory-note", [input.note]));
  return blocks.length === 0 ? null : h("div", "mn-turn-memory", blocks, { "data-role": "memory" });
}

/** A person's prompt as a user turn (the text as typed: prompts may hold anything). */
export function drawUserTurn(text: string): HTMLElement {
  return h("div", "mn-user-turn", [text], { "data-role": "user" });
}
