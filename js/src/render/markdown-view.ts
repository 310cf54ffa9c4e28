/**
 * Incremental markdown: closed blocks are rendered once into their own element; only the open
 * tail is rendered again when the text grows. Closed blocks are rendered until the frame's
 * deadline (at least one per call); `update` returns true while some are still queued, and the
 * tail waits for them. A long text keeps only the blocks near view in the DOM (block-window.ts).
 */
import { BlockSplitter } from "../blocks";
import { h } from "../dom";
import { renderMarkdown } from "../markdown";
import { BlockWindow } from "./block-window";

export class MarkdownView {
  readonly el = h("div", "mn-md");
  private readonly splitter = new BlockSplitter();
  private readonly blocks = new BlockWindow((src) => this.renderBlock(src));
  private readonly tailEl = h("div", "mn-md-block mn-md-tail");
  private readonly queue: string[] = [];
  private tail: string | null = null;
  private tailHighlighted = false;
  /** Characters of markdown rendered so far (closed blocks + every tail render); for tests. */
  renderedChars = 0;

  constructor() {
    this.el.append(this.blocks.el, this.tailEl);
  }

  /** The closed blocks in the DOM, `[lo, hi)`, and how many there are (for tests). */
  get window(): { range: [number, number]; count: number } {
    return { range: this.blocks.range, count: this.blocks.count };
  }

  /** Shows `text`; returns true when blocks are left for a later frame. */
  update(text: string, deadline = Infinity): boolean {
    const split = this.splitter.update(text);
    if (split.reset) {
      this.blocks.clear();
      this.queue.length = 0;
      this.tail = null;
    }
    this.queue.push(...split.closed);
    let block: string | undefined;
    let first = true;
    while ((first || performance.now() < deadline) && (block = this.queue.shift()) !== undefined) {
      first = false;
      this.blocks.push(block);
    }
    this.tailEl.classList.toggle("mn-md-gap", this.blocks.count > 0);
    if (this.queue.length > 0) return true;
    const highlight = !split.tailInFence;
    if (split.tail !== this.tail || highlight !== this.tailHighlighted) {
      this.tail = split.tail;
      this.tailHighlighted = highlight;
      this.tailEl.replaceChildren(renderMarkdown(split.tail, highlight));
      this.renderedChars += split.tail.length;
    }
    return false;
  }

  private renderBlock(src: string): HTMLElement {
    this.renderedChars += src.length;
    return h("div", "mn-md-block", [renderMarkdown(src, true)]);
  }
}
