import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { blockRange, WINDOW_FROM } from "../src/render/block-window";
import { MarkdownView } from "../src/render/markdown-view";
import { nextFrame } from "./helpers";

describe("blockRange", () => {
  const heights = [100, 100, 100, 100, 100]; // blocks at 0, 100, 200, 300, 400

  it("keeps the blocks overlapping the band", () => {
    expect(blockRange(heights, 150, 320)).toEqual([1, 4]);
    expect(blockRange(heights, 0, 100)).toEqual([0, 1]);
    expect(blockRange(heights, -500, 10_000)).toEqual([0, 5]);
  });

  it("keeps nothing for a band above or below every block", () => {
    expect(blockRange(heights, -900, -100)).toEqual([0, 0]);
    expect(blockRange(heights, 600, 900)).toEqual([5, 5]);
    expect(blockRange([], 0, 100)).toEqual([0, 0]);
  });

  it("follows uneven heights", () => {
    expect(blockRange([10, 1000, 10, 10], 500, 600)).toEqual([1, 2]);
    expect(blockRange([10, 1000, 10, 10], 1005, 1015)).toEqual([1, 3]);
  });
});

/**
 * A layout for jsdom: every block is 100 px tall, spacers as tall as their style says, the view's
 * scroll box 700 px tall and scrolled by `scroll`; an IntersectionObserver fired by hand.
 */
const BLOCK_PX = 100;
const BOX_PX = 700;
let scroll = 0;
const observers: FakeObserver[] = [];

class FakeObserver {
  readonly observed = new Set<Element>();
  constructor(
    private readonly callback: () => void,
    readonly options: IntersectionObserverInit,
  ) {
    observers.push(this);
  }
  observe(el: Element): void {
    this.observed.add(el);
  }
  unobserve(el: Element): void {
    this.observed.delete(el);
  }
  disconnect(): void {
    this.observed.clear();
  }
  fire(): void {
    this.callback();
  }
}

function rect(top: number, height: number): DOMRect {
  return { top, bottom: top + height, height, left: 0, right: 600, width: 600, x: 0, y: top, toJSON: () => ({}) };
}

/** Each test of the describe starts at the top, no observers, blocks `blockPx` tall; the page is emptied after. */
function withFakeLayout(blockPx = BLOCK_PX): void {
  beforeEach(() => {
    scroll = 0;
    observers.length = 0;
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    vi.spyOn(Element.prototype, "getClientRects").mockReturnValue([rect(0, 1)] as unknown as DOMRectList);
    vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function (this: Element) {
      if (this.classList.contains("mn-root")) return rect(0, BOX_PX);
      if (this.classList.contains("mn-md-blocks")) return rect(-scroll, 0);
      return rect(0, blockPx);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });
}

const paragraph = (i: number) => `Paragraph ${String(i).padStart(4, "0")}.\n\n`;
const text = (n: number) => Array.from({ length: n }, (_, i) => paragraph(i)).join("");

/** A markdown view inside a bounded view's scroll box, with `n` closed blocks. */
async function mountLong(n: number): Promise<MarkdownView> {
  const box = document.createElement("div");
  box.className = "mn-root mn-bounded";
  const md = new MarkdownView();
  box.append(md.el);
  document.body.append(box);
  md.update(text(n));
  await nextFrame(); // windowing starts once the text is in the page
  observers.at(-1)?.fire();
  return md;
}

const blocksIn = (md: MarkdownView) => [...md.el.querySelectorAll(".mn-md-blocks > .mn-md-block")];
const shownTexts = (md: MarkdownView) => blocksIn(md).map((b) => b.textContent?.trim());
const spacers = (md: MarkdownView) =>
  [...md.el.querySelectorAll<HTMLElement>(".mn-md-spacer")].map((s) => Number.parseFloat(s.style.height || "0"));

describe("a long text keeps only the blocks near view in the DOM", () => {
  withFakeLayout();

  it("draws the band of the scroll box and one box height around it; spacers keep the rest's height", async () => {
    const md = await mountLong(500);
    expect(observers[0]?.options.root).toBe(md.el.closest(".mn-root"));
    // 499 closed blocks (the last paragraph is the open tail); 0..700 px shown, 700 px below
    expect(md.window).toEqual({ range: [0, 14], count: 499 });
    expect(blocksIn(md)).toHaveLength(14);
    expect(shownTexts(md)[0]).toBe("Paragraph 0000.");
    expect(spacers(md)).toEqual([0, (499 - 14) * BLOCK_PX]);
  });

  it("brings blocks back as the box scrolls, and drops those left behind", async () => {
    const md = await mountLong(500);
    scroll = 25_000;
    observers[0]?.fire();
    expect(md.window.range).toEqual([243, 264]); // 700 px above, the box, 700 px below
    expect(shownTexts(md)).toContain("Paragraph 0250.");
    expect(md.el.textContent).not.toContain("Paragraph 0000.");
    expect(spacers(md)).toEqual([243 * BLOCK_PX, (499 - 264) * BLOCK_PX]);
    // only the window is observed, with the two spacers
    expect(observers[0]?.observed.size).toBe(21 + 2);
    scroll = 0;
    observers[0]?.fire();
    expect(shownTexts(md)[0]).toBe("Paragraph 0000.");
    expect(md.el.textContent).not.toContain("Paragraph 0250.");
  });

  it("follows the tail: at the end new blocks are drawn, and the oldest leave", async () => {
    const md = await mountLong(500);
    scroll = 499 * BLOCK_PX - BOX_PX;
    observers[0]?.fire();
    md.update(text(520));
    expect(shownTexts(md).at(-1)).toBe("Paragraph 0518.");
    scroll = 519 * BLOCK_PX - BOX_PX; // the view follows the tail
    observers[0]?.fire();
    expect(shownTexts(md).at(-1)).toBe("Paragraph 0518.");
    expect(shownTexts(md)).not.toContain("Paragraph 0480.");
    expect(blocksIn(md).length).toBeLessThanOrEqual(14);
  });

  it("scrolled up, new blocks are only counted in the spacer below", async () => {
    const md = await mountLong(500);
    const rendered = md.renderedChars;
    md.update(text(600));
    expect(md.window.range).toEqual([0, 14]);
    expect(md.renderedChars - rendered).toBe(paragraph(599).length); // the new tail only
    expect(spacers(md)[1]).toBeCloseTo((599 - 14) * BLOCK_PX, 0);
  });

  it("keeps every block of a text being selected", async () => {
    const md = await mountLong(500);
    const first = blocksIn(md)[0];
    if (!first) throw new Error("no block");
    const range = document.createRange();
    range.selectNodeContents(first);
    document.getSelection()?.addRange(range);
    scroll = 10_000;
    observers[0]?.fire();
    expect(md.el.textContent).toContain("Paragraph 0000."); // the selection's text is still there
    expect(md.window.range[0]).toBe(0);
    document.getSelection()?.removeAllRanges();
    observers[0]?.fire();
    expect(md.el.textContent).not.toContain("Paragraph 0000.");
  });

  it("does not window a short text, nor a hidden one", async () => {
    await mountLong(WINDOW_FROM - 1);
    expect(observers).toHaveLength(0);
    const md = await mountLong(500);
    vi.spyOn(Element.prototype, "getClientRects").mockReturnValue([] as unknown as DOMRectList); // a folded card
    scroll = 25_000;
    observers[0]?.fire();
    expect(md.window.range).toEqual([0, 14]); // unchanged until it is shown again
  });

  it("starts again from nothing when the text is replaced", async () => {
    const md = await mountLong(500);
    md.update("Something else entirely.\n\nAnd more.");
    expect(md.window).toEqual({ range: [0, 1], count: 1 });
    expect(md.el.textContent).toContain("Something else entirely.");
    expect(spacers(md)).toEqual([0, 0]);
  });
});

describe("a window of small blocks", () => {
  withFakeLayout(10); // blocks of 10 px: the band (2,100 px) would hold 210 of them

  it("keeps at most 20 blocks beyond those in the visible box on each side", async () => {
    const md = await mountLong(2000);
    scroll = 10_000;
    observers[0]?.fire();
    observers[0]?.fire(); // measured now: 10 px each
    expect(md.window.range).toEqual([1000 - 20, 1070 + 20]); // the box shows blocks 1000..1069
    expect(blocksIn(md)).toHaveLength(110);
  });
});
