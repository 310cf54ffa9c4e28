/**
 * Splits growing markdown text into blocks at blank lines outside fenced code, so that finished
 * blocks are rendered once and only the open tail is re-rendered. A blank line closes a block only
 * when the next non-blank line starts unindented (indented lines may continue a list item).
 */

export interface Split {
  /** true when the text was not an extension of the previous one: all blocks must be dropped. */
  reset: boolean;
  /** Blocks closed by this update, in order. */
  closed: string[];
  /** The open block (may be empty). */
  tail: string;
  /** The tail ends inside an unclosed code fence. */
  tailInFence: boolean;
}

interface Fence {
  ch: string;
  len: number;
}

const FENCE_OPEN = /^\s*(`{3,}(?=[^`]*$)|~{3,})/;
const FENCE_CLOSE = /^\s*(`{3,}|~{3,})\s*$/;
const BLANK = /^\s*$/;

function fenceOpen(line: string): Fence | null {
  const m = FENCE_OPEN.exec(line);
  return m?.[1] ? { ch: m[1].charAt(0), len: m[1].length } : null;
}

function fenceCloses(line: string, fence: Fence): boolean {
  const m = FENCE_CLOSE.exec(line);
  return !!m?.[1] && m[1].charAt(0) === fence.ch && m[1].length >= fence.len;
}

export class BlockSplitter {
  private text = "";
  private pos = 0; // start of the first line not scanned yet
  private blockStart = 0;
  private blockHasContent = false;
  private boundary: number | null = null; // end of a blank line that may close the block
  private fence: Fence | null = null;

  update(text: string): Split {
    const reset = !text.startsWith(this.text);
    if (reset) this.clear();
    this.text = text;
    const closed: string[] = [];
    let nl: number;
    while ((nl = text.indexOf("\n", this.pos)) !== -1) {
      this.scanLine(text.slice(this.pos, nl), nl + 1, closed);
      this.pos = nl + 1;
    }
    const partial = text.slice(this.pos);
    // The first character of a line never changes, so a partial line can already close the block.
    if (partial && !this.fence) this.closeAtBoundary(partial, closed);
    const tailInFence = this.fence !== null || fenceOpen(partial) !== null;
    return { reset, closed, tail: text.slice(this.blockStart), tailInFence };
  }

  private clear(): void {
    this.text = "";
    this.pos = 0;
    this.blockStart = 0;
    this.blockHasContent = false;
    this.boundary = null;
    this.fence = null;
  }

  private scanLine(line: string, lineEnd: number, closed: string[]): void {
    if (this.fence) {
      if (fenceCloses(line, this.fence)) this.fence = null;
      return;
    }
    if (BLANK.test(line)) {
      if (this.blockHasContent) this.boundary = lineEnd;
      return;
    }
    this.closeAtBoundary(line, closed);
    this.boundary = null;
    this.blockHasContent = true;
    this.fence = fenceOpen(line);
  }

  /** Closes the open block at the pending blank line when `line` (non-blank) starts unindented. */
  private closeAtBoundary(line: string, closed: string[]): void {
    if (this.boundary === null || /^\s/.test(line)) return;
    closed.push(this.text.slice(this.blockStart, this.boundary));
    this.blockStart = this.boundary;
    this.boundary = null;
  }
}
