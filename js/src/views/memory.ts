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
  working: readonly (readonly [Mark, string])[] | null;
  note?: string | null;
}

const MARK_WORD: Record<Mark, string> = { "+": "added", "-": "removed", " ": "kept" };
const GLYPH: Record<Mark, string> = { "+": "+", "-": "\u2212", " ": " " }; // a minus sign: as wide as the plus

/** What memory did in one turn, or null when there is nothing to show. */
export function drawMemory(input: MemoryInput): HTMLElement | null {
  const blocks: HTMLElement[] = [];
  const recalled = input.recalled;
  if (recalled.length > 0) {
    const count = `${recalled.length} message${recalled.length === 1 ? "" : "s"}`;
    const items = recalled.map(([role, text]) =>
      h("li", "", [isolated("mn-memory-role", role), isolated("mn-memory-text", text)], { "data-role": role }),
    );
    blocks.push(
      h("details", "mn-memory-recalled", [h("summary", "", [`Recalled ${count}`]), h("ol", "mn-memory-list", items)]),
    );
  }
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
  if (input.note) blocks.push(h("div", "mn-memory-note", [input.note]));
  return blocks.length === 0 ? null : h("div", "mn-turn-memory", blocks, { "data-role": "memory" });
}

/** A person's prompt as a user turn (the text as typed: prompts may hold anything). */
export function drawUserTurn(text: string): HTMLElement {
  return h("div", "mn-user-turn", [text], { "data-role": "user" });
}
