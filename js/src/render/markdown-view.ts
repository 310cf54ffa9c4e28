/**
 * Incremental markdown: closed blocks are rendered once into their own element; only the open
 * tail is rendered again when the text grows. Closed blocks are rendered until the frame's
 * deadline (at least one per call); `update` returns true while some are still queued, and the
 * tail waits for them. A long text keeps only the blocks near view in the DOM (block-window.ts).
 * The tail's new letters are inserted into its text node when its HTML only grew by plain text
 * (`insertedText`): a streamed paragraph is then not parsed, sanitized and laid out anew per update.
 */
import { BlockSplitter } from "../blocks";
import { h } from "../dom";
import { insertedText, markdownHtml, renderMarkdown, sanitize } from "../markdown";
import { BlockWindow } from "./block-window";

export class MarkdownView {
  readonly el = h("div", "mn-md");
  private readonly splitter = new BlockSplitter();
  private readonly blocks = new BlockWindow((src) => this.renderBlock(src));
  private readonly tailEl = h("div", "mn-md-block mn-md-tail");
  private readonly queue: string[] = [];
  private tail: string | null = null;
  private tailHighlighted = false;
  /** The HTML the tail's DOM is made of. */
  private tailHtml = "";
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
      this.showTail(markdownHtml(split.tail, highlight));
      this.renderedChars += split.tail.length;
    }
    return false;
  }

  private showTail(html: string): void {
    if (html === this.tailHtml) return;
    const inserted = insertedText(this.tailHtml, html);
    if (!inserted || !insertText(this.tailEl, inserted.offset, inserted.text)) {
      this.tailEl.replaceChildren(sanitize(html));
    }
    this.tailHtml = html;
  }

  private renderBlock(src: string): HTMLElement {
    this.renderedChars += src.length;
    return h("div", "mn-md-block", [renderMarkdown(src, true)]);
  }
}

/** Inserts `text` into the text node of `el` that holds the `offset`-th character's predecessor. */
function insertText(el: HTMLElement, offset: number, text: string): boolean {
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let start = 0;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const end = start + node.data.length;
    if (offset > start && offset <= end) {
      node.insertData(offset - start, text);
      return true;
    }
    start = end;
  }
  return false;
}
