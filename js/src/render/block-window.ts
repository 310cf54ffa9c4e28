/**
 * The closed markdown blocks of a long text, windowed: only the blocks near the visible band of the
 * view's own scroll box (one box height above and below it) are in the DOM. The others are drawn by
 * two spacers (above and below the window) that keep their measured heights, so the scroll box keeps
 * its size and the reader's place. An IntersectionObserver on the spacers and the window's blocks
 * says when the band moved; the window is then computed again from the heights (a pure function).
 *
 * Why: a 200 kB answer is ~550 blocks and ~1,200 elements, growing with the answer; a notebook of
 * such views gets slow to style and scroll. Bounded instead: a few dozen blocks per view.
 * What it keeps: follow-the-tail (the window reaches the end while the view is at the end), copying
 * a selection (no block leaves the window while the selection is inside the text), the inspector's
 * click on a part (the part's element stays). What it gives up: the browser's find-in-page sees only
 * the blocks in the window (the whole text stays in `view.result.text` and in the transcript).
 * Short texts (under `WINDOW_FROM` blocks), hidden texts (a folded card) and browsers without
 * IntersectionObserver (jsdom) keep every block.
 */
import { h } from "../dom";

/** Texts with fewer closed blocks are never windowed. */
export const WINDOW_FROM = 40;
/** The band kept in the DOM: the scroll box plus this many box heights above and below it. */
const MARGIN_BOXES = 1;
/** Blocks kept beyond those in the visible box, on each side, at most: a window of guessed heights
 * (a jump into never-measured blocks) could otherwise span hundreds of blocks. */
const MAX_BEYOND_BOX = 20;
/** Height of a block not measured yet, per character (about 90 characters a 20 px line), and at least. */
const PX_PER_CHAR = 0.22;
const MIN_BLOCK_PX = 24;

/**
 * The blocks `[lo, hi)` that overlap the band `[from, to)` (px from the top of the first block),
 * given each block's height. A band above every block gives `[0, 0)`, one below them `[n, n)`.
 */
export function blockRange(heights: readonly number[], from: number, to: number): [number, number] {
  let y = 0;
  let lo = heights.length;
  let hi = heights.length;
  for (let i = 0; i < heights.length; i++) {
    const bottom = y + (heights[i] ?? 0);
    if (lo === heights.length && bottom > from) lo = i;
    if (y >= to) {
      hi = i;
      break;
    }
    y = bottom;
  }
  return [Math.min(lo, hi), hi];
}

interface Block {
  src: string;
  el: HTMLElement | null;
  /** Its height in `heights` was measured (else it is an estimate). */
  measured: boolean;
}

export class BlockWindow {
  readonly el = h("div", "mn-md-blocks");
  private readonly above = h("div", "mn-md-spacer", [], { "aria-hidden": "true" });
  private readonly below = h("div", "mn-md-spacer", [], { "aria-hidden": "true" });
  private readonly blocks: Block[] = [];
  /** Height of each block (px, the gap above it included): measured, else estimated. */
  private readonly heights: number[] = [];
  private measuredPx = 0;
  private measuredChars = 0;
  private belowPx = 0;
  private lo = 0;
  private hi = 0;
  private observer: IntersectionObserver | null = null;
  private root: Element | null = null;
  private waitingToConnect = false;

  constructor(private readonly render: (src: string) => HTMLElement) {
    this.el.append(this.above, this.below);
  }

  get count(): number {
    return this.blocks.length;
  }

  /** The blocks in the DOM, `[lo, hi)` (for tests and benchmarks). */
  get range(): [number, number] {
    return [this.lo, this.hi];
  }

  /** Adds a closed block: drawn when the window reaches the end, else only counted in the spacer below. */
  push(src: string): void {
    const block: Block = { src, el: null, measured: false };
    const atEnd = this.hi === this.blocks.length;
    this.blocks.push(block);
    this.heights.push(this.estimate(src));
    if (atEnd) {
      this.below.before(this.materialize(block, this.blocks.length - 1));
      this.hi = this.blocks.length;
    } else {
      this.belowPx += this.heights[this.heights.length - 1] ?? 0;
      setHeight(this.below, this.belowPx);
    }
    if (!this.observer && this.blocks.length >= WINDOW_FROM) this.startWindowing();
  }

  clear(): void {
    this.observer?.disconnect();
    this.observer = null;
    delete this.el.dataset.windowed;
    this.blocks.length = 0;
    this.heights.length = 0;
    this.measuredPx = 0;
    this.measuredChars = 0;
    this.lo = 0;
    this.hi = 0;
    this.el.replaceChildren(this.above, this.below);
    this.sizeSpacers();
  }

  private materialize(block: Block, index: number): HTMLElement {
    const el = this.render(block.src);
    el.classList.toggle("mn-md-gap", index > 0);
    el.dataset.block = String(index); // which block it is, for tests reading a text by scrolling it
    block.el = el;
    this.observer?.observe(el);
    return el;
  }

  /** Observes once the text is in a page (the view builds it detached): the scroll box is then known. */
  private startWindowing(): void {
    if (typeof IntersectionObserver === "undefined") return;
    if (!this.el.isConnected) {
      if (!this.waitingToConnect) {
        this.waitingToConnect = true;
        requestAnimationFrame(() => {
          this.waitingToConnect = false;
          if (!this.observer && this.blocks.length >= WINDOW_FROM) this.startWindowing();
        });
      }
      return;
    }
    // a bounded view scrolls inside itself; an unbounded one with the page
    this.root = this.el.closest(".mn-root.mn-bounded");
    this.el.dataset.windowed = "";
    this.observer = new IntersectionObserver(() => this.check(), {
      root: this.root,
      rootMargin: `${100 * MARGIN_BOXES}% 0px`,
    });
    this.observer.observe(this.above);
    this.observer.observe(this.below);
    for (let i = this.lo; i < this.hi; i++) {
      const el = this.blocks[i]?.el;
      if (el) this.observer.observe(el);
    }
  }

  /** The band moved (or blocks changed size): keep in the DOM the blocks it overlaps. */
  private check(): void {
    if (!this.el.isConnected || this.el.getClientRects().length === 0) return; // hidden: nothing to measure
    const resized = this.measure();
    const box = this.el.getBoundingClientRect();
    const view = this.root?.getBoundingClientRect() ?? { top: 0, bottom: window.innerHeight };
    const margin = (view.bottom - view.top) * MARGIN_BOXES;
    let [lo, hi] = blockRange(this.heights, view.top - margin - box.top, view.bottom + margin - box.top);
    const [boxLo, boxHi] = blockRange(this.heights, view.top - box.top, view.bottom - box.top);
    lo = Math.max(lo, boxLo - MAX_BEYOND_BOX);
    hi = Math.min(hi, boxHi + MAX_BEYOND_BOX);
    if (this.selectionInside()) {
      // a selection being made or copied keeps its blocks: the window only grows
      lo = Math.min(lo, this.lo);
      hi = Math.max(hi, this.hi);
    }
    if (lo !== this.lo || hi !== this.hi) this.show(lo, hi);
    else if (resized) this.sizeSpacers();
  }

  /** Measures the blocks in the DOM; when a height changed, estimates the others again. */
  private measure(): boolean {
    let resized = false;
    for (let i = this.lo; i < this.hi; i++) {
      const block = this.blocks[i];
      if (!block?.el) continue;
      const px = block.el.getBoundingClientRect().height;
      const was = this.heights[i] ?? 0;
      if (block.measured && Math.abs(px - was) < 0.5) continue;
      this.measuredPx += block.measured ? px - was : px;
      if (!block.measured) this.measuredChars += block.src.length;
      block.measured = true;
      this.heights[i] = px;
      resized = true;
    }
    if (!resized) return false;
    for (let i = 0; i < this.blocks.length; i++) {
      const block = this.blocks[i];
      if (block && !block.measured) this.heights[i] = this.estimate(block.src);
    }
    return true;
  }

  /** A block's height before it is measured: the measured blocks' height per character. */
  private estimate(src: string): number {
    const perChar = this.measuredChars > 0 ? this.measuredPx / this.measuredChars : PX_PER_CHAR;
    return Math.max(MIN_BLOCK_PX, src.length * perChar);
  }

  private selectionInside(): boolean {
    const selection = document.getSelection();
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return false;
    return selection.getRangeAt(0).intersectsNode(this.el);
  }

  /** Puts blocks `[lo, hi)` in the DOM, and no others. */
  private show(lo: number, hi: number): void {
    for (let i = this.lo; i < this.hi; i++) {
      const block = this.blocks[i];
      if (!block?.el || (i >= lo && i < hi)) continue;
      this.observer?.unobserve(block.el);
      block.el.remove();
      block.el = null;
    }
    const before: HTMLElement[] = [];
    const after: HTMLElement[] = [];
    const kept = Math.max(lo, this.lo) < Math.min(hi, this.hi);
    for (let i = lo; i < hi; i++) {
      const block = this.blocks[i];
      if (!block || block.el) continue;
      (kept && i < this.lo ? before : after).push(this.materialize(block, i));
    }
    this.above.after(...before);
    this.below.before(...after);
    this.lo = lo;
    this.hi = hi;
    this.sizeSpacers();
  }

  private sizeSpacers(): void {
    let above = 0;
    let below = 0;
    for (let i = 0; i < this.heights.length; i++) {
      if (i < this.lo) above += this.heights[i] ?? 0;
      else if (i >= this.hi) below += this.heights[i] ?? 0;
    }
    this.belowPx = below;
    setHeight(this.above, above);
    setHeight(this.below, below);
  }
}

function setHeight(el: HTMLElement, px: number): void {
  const value = px > 0 ? `${px.toFixed(1)}px` : "";
  if (el.style.height !== value) el.style.height = value;
}
