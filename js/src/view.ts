/**
 * The DOM of a store: a `.mn-root` with the header and the node tree. `apply` updates only the
 * nodes a change touched (and creates the elements of new children) and returns the ids of the
 * nodes that ran out of time (`budgetMs`) and want another frame.
 *
 * With a `maxHeight` the root is its own scroll box. The header and the bars under it (replay
 * controls, timeline) are one block that sticks at its top: a click in the timeline that scrolls the
 * run keeps the timeline and the play bar in view. While the run
 * streams the view follows the newest content, until the reader scrolls up; then a "Jump to latest"
 * button brings it back.
 */
import { h } from "./dom";
import { str } from "./format";
import { rendererFor } from "./render";
import { FoldChoices } from "./render/common";
import { DEFAULT_TRAITS, type NodeView, type RenderCtx, type Traits } from "./render/context";
import { Header } from "./render/header";
import { latestTime } from "./render/timeline";
import type { RequestSource } from "./render/request";
import { type Change, ROOT_ID, type Store } from "./store";
import { nodeOf, type Send } from "./types";

/** How near the end (px) still counts as at the end (rounding, a last line half shown). */
const END_SLACK_PX = 24;
/** Input by which a reader scrolls (a pointer down: the scrollbar), and how long its scrolling lasts. */
const USER_SCROLL_EVENTS = ["wheel", "touchmove", "keydown", "pointerdown"] as const;
const USER_SCROLL_MS = 1000;

const UP_KEYS = new Set(["ArrowUp", "PageUp", "Home"]);

/** A wheel turned up, or a key that scrolls up (not typed into a field). */
function readsUp(event: Event): boolean {
  if (event.type === "wheel") return (event as WheelEvent).deltaY < 0;
  if (event.type !== "keydown") return false;
  const target = event.target as HTMLElement | null;
  const typing = target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  return !typing && UP_KEYS.has((event as KeyboardEvent).key);
}

export class View {
  readonly root: HTMLElement;
  private readonly header: Header;
  private readonly body = h("div", "mn-body");
  /** The header and the bars under it, in the order they were added; sticky as one block. */
  private readonly top = h("div", "mn-top");
  private readonly views = new Map<string, NodeView>();
  private readonly shownChildren = new Map<string, number>();
  private readonly ctx: RenderCtx;
  private traits: Traits = DEFAULT_TRAITS;
  private deadline = Infinity;
  private readonly jump = h("button", "mn-btn mn-jump", ["Jump to latest ↓"], {
    type: "button",
    title: "Follow the newest content again",
  });
  private readonly jumpBar = h("div", "mn-jump-bar", [this.jump]);
  private following = true;
  /** Off screen (a gallery's tile below the fold): following the tail waits until it shows. */
  private offscreen = false;
  private visibility: IntersectionObserver | null = null;
  private lastScrollTop = 0;
  private userInputAt = -Infinity;
  /** The run just ended while the view followed its tail: it keeps following until the reader scrolls. */
  private settling = false;

  constructor(
    host: HTMLElement,
    private readonly store: Store,
    send: Send,
    private readonly budgetMs = 12,
    requests?: RequestSource,
  ) {
    this.ctx = { store, send, traits: () => this.traits, deadline: () => this.deadline, requests, folds: new FoldChoices() };
    this.header = new Header(send, () => latestTime(store, ROOT_ID));
    this.header.update(this.traits);
    this.top.append(this.header.el);
    this.root = h("div", "mn-root", [this.top, this.body, this.jumpBar]);
    this.jumpBar.hidden = true;
    this.root.addEventListener("scroll", this.onScroll, { passive: true });
    this.root.addEventListener("click", this.onClick);
    for (const event of USER_SCROLL_EVENTS) this.root.addEventListener(event, this.onUserInput, { passive: true });
    this.jump.addEventListener("click", () => {
      this.following = true;
      this.scrollToEnd();
    });
    host.append(this.root);
    this.markApplied();
  }

  /** Whether the view follows the newest content (while streaming, until the reader scrolls up). */
  get followsTail(): boolean {
    return this.following;
  }

  /** A control in the header (e.g. the inspector toggle). */
  addHeaderControl(el: HTMLElement): void {
    this.header.addControl(el);
  }

  /** A bar under the header and the bars added before it (the replay controls, then the timeline). */
  addBar(el: HTMLElement): void {
    this.top.append(el);
  }

  /** The block that sticks at the top of the view (header and bars): what covers the scrolled run. */
  get stickyTop(): HTMLElement {
    return this.top;
  }

  /** A panel beside the run (e.g. the inspector); shown in a second column while visible. */
  addAside(el: HTMLElement): void {
    this.root.append(el);
  }

  /** The element holding the rendered run (for click delegation). */
  get content(): HTMLElement {
    return this.body;
  }

  setTraits(traits: Partial<Traits>): void {
    const approvalChanged = traits.canApprove !== undefined && traits.canApprove !== this.traits.canApprove;
    const started = traits.streaming === true && !this.traits.streaming;
    const ended = traits.streaming === false && this.traits.streaming;
    this.traits = { ...this.traits, ...traits };
    this.header.update(this.traits);
    if (this.root.style.maxHeight !== this.traits.maxHeight) {
      this.root.style.maxHeight = this.traits.maxHeight;
      // An invalid length is dropped by the style: then the view is not bounded.
      if (this.root.style.maxHeight) this.root.style.setProperty("--mn-view-height", this.root.style.maxHeight);
      else this.root.style.removeProperty("--mn-view-height");
    }
    this.root.classList.toggle("mn-bounded", this.root.style.maxHeight !== "");
    if (started) this.following = true;
    // What the end brings (a "stopped" banner, the footer) lands after the last streamed text: a view
    // that followed the tail shows it whole, until the reader scrolls.
    if (ended) this.settling = this.following;
    this.keepFocus();
    this.watchVisibility(this.traits.streaming);
    this.afterChange();
    if (!approvalChanged) return;
    for (const [id, view] of this.views) {
      const node = this.store.get(id);
      if (node?.kind === "tool") view.update(node);
    }
  }

  apply(change: Change): Set<string> {
    this.deadline = performance.now() + this.budgetMs;
    const more = new Set<string>();
    if (change.reset) {
      if (change.anotherRun === true) this.ctx.folds.forget();
      this.views.clear();
      this.shownChildren.clear();
      this.body.replaceChildren();
    }
    const done = new Set<string>();
    if (!this.views.has(ROOT_ID) && this.store.get(ROOT_ID)) {
      this.body.append(this.create(ROOT_ID, done, more));
    }
    for (const id of change.ids) {
      const view = this.views.get(id);
      const node = this.store.get(id);
      if (!view || !node || done.has(id)) continue;
      if (view.update(node) === true) more.add(id);
      this.syncChildren(id, view, done, more);
    }
    if (change.reset || change.ids.has(ROOT_ID) || nodeOf(this.store.get(ROOT_ID), "run")?.status === "suspended") {
      this.header.updateRun(nodeOf(this.store.get(ROOT_ID), "run") ?? undefined, this.awaitingApproval());
    }
    this.markApplied();
    this.afterChange();
    return more;
  }

  destroy(): void {
    this.visibility?.disconnect();
    this.header.destroy();
    this.root.removeEventListener("scroll", this.onScroll);
    this.root.removeEventListener("click", this.onClick);
    for (const event of USER_SCROLL_EVENTS) this.root.removeEventListener(event, this.onUserInput);
    this.root.remove();
    this.views.clear();
  }

  /** A tool of the run waits for approval (looked for only while the run is suspended). */
  private awaitingApproval(): boolean {
    if (nodeOf(this.store.get(ROOT_ID), "run")?.status !== "suspended") return false;
    for (const id of this.views.keys()) {
      if (nodeOf(this.store.get(id), "tool")?.status === "awaiting-approval") return true;
    }
    return false;
  }

  /**
   * Keeps following the tail while streaming; shows "Jump to latest" when the reader left it. After
   * the end (`settling`) only what the view adds is followed (`scrolled`: a scroll, e.g. a script's
   * jump to the top, is then left where it went).
   */
  private afterChange(scrolled = false): void {
    const bounded = this.root.classList.contains("mn-bounded");
    const live = this.traits.streaming && bounded;
    if (live && this.offscreen) return; // its height would lay out a view the page skips: read when it shows
    if (live && this.following) this.scrollToEnd();
    else if (bounded && this.settling && this.following && !scrolled) this.scrollToEnd();
    const away = live && !this.following && !this.atEnd();
    if (this.jumpBar.hidden === away) this.jumpBar.hidden = !away;
  }

  /**
   * Whether the view is on screen, watched only while it streams: an observer on every finished view
   * made scrolling inside a long one cost a 60 ms task (benchmarks/latency.py).
   */
  private watchVisibility(streaming: boolean): void {
    if (!streaming) {
      this.visibility?.disconnect();
      this.visibility = null;
      this.offscreen = false;
      return;
    }
    if (this.visibility || typeof IntersectionObserver === "undefined") return; // jsdom: always on screen
    this.visibility = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (!entry) return;
      this.offscreen = !entry.isIntersecting;
      if (!this.offscreen && this.following) this.scrollToEnd(); // what came while it was off screen
    });
    this.visibility.observe(this.root);
  }

  private scrollToEnd(): void {
    const target = this.root.scrollHeight - this.root.clientHeight;
    if (target > this.root.scrollTop) this.root.scrollTop = target;
    this.lastScrollTop = this.root.scrollTop;
    if (!this.jumpBar.hidden) this.jumpBar.hidden = true;
  }

  private atEnd(): boolean {
    return this.root.scrollHeight - this.root.scrollTop - this.root.clientHeight <= END_SLACK_PX;
  }

  private readonly onUserInput = (event: Event): void => {
    this.userInputAt = performance.now();
    this.settling = false;
    // The input itself says "up": stop following now. Its scroll events come later, and a frame
    // that follows the tail in between would take the reader back down (seen on a busy page).
    if (readsUp(event) && this.root.scrollTop > 0) this.following = false;
  };

  /**
   * A control that had the focus and is now hidden or disabled (Stop, once the run stopped) gives it
   * to the view itself, not to whatever the browser or JupyterLab picks next (a header toggle, which
   * then looked pressed): keys still reach the view, and nothing looks pressed.
   */
  private keepFocus(control: Element | null = this.root.ownerDocument.activeElement): void {
    if (!(control instanceof HTMLElement) || !this.root.contains(control) || control === this.root) return;
    const gone = control.closest("[hidden]") !== null || (control instanceof HTMLButtonElement && control.disabled);
    if (!gone) return;
    this.root.tabIndex = -1;
    this.root.focus({ preventScroll: true });
  }

  /** After a button's own handler ran (this listener is the root's, so it runs later). */
  private readonly onClick = (event: Event): void => {
    this.keepFocus(event.target instanceof Element ? event.target.closest("button") : null);
  };

  /**
   * The view scrolled: up by the reader stops following, back to the end follows again. Only the
   * reader's own scrolling counts: a resize, a theme's new fonts or scroll anchoring move it too.
   */
  private readonly onScroll = (): void => {
    const top = this.root.scrollTop;
    const byReader = performance.now() - this.userInputAt < USER_SCROLL_MS;
    if (this.atEnd()) this.following = true;
    else if (byReader && top < this.lastScrollTop - 1) this.following = false;
    this.lastScrollTop = top;
    this.afterChange(true);
  };

  /** Written only when changed: an attribute written per frame would restyle the view each time. */
  private markApplied(): void {
    const status = str(nodeOf(this.store.get(ROOT_ID), "run")?.status) ?? "";
    if (this.root.dataset.status !== status) this.root.dataset.status = status;
    this.root.dataset.seq = String(this.store.lastSeq);
  }

  /** Creates, fills and returns the element of node `id` with its whole subtree. */
  private create(id: string, done: Set<string>, more: Set<string>): HTMLElement {
    const node = this.store.get(id);
    if (!node) throw new Error(`no node ${id}`);
    const view = rendererFor(node.kind)(this.ctx, node);
    view.el.dataset.nodeId = id;
    view.el.dataset.kind = node.kind;
    this.views.set(id, view);
    if (view.update(node) === true) more.add(id);
    done.add(id);
    this.syncChildren(id, view, done, more);
    return view.el;
  }

  /** Appends the elements of children added since the last sync (children are only appended). */
  private syncChildren(id: string, view: NodeView, done: Set<string>, more: Set<string>): void {
    const children = this.store.childrenOf(id);
    const shown = this.shownChildren.get(id) ?? 0;
    if (children.length === shown) return;
    const host = view.childHost ?? view.el;
    for (const childId of children.slice(shown)) {
      if (!this.views.has(childId)) host.append(this.create(childId, done, more));
    }
    this.shownChildren.set(id, children.length);
  }
}
