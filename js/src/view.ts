/**
 * The DOM of a store: a `.mn-root` with the header and the node tree. `apply` updates only the
 * nodes a change touched (and creates the elements of new children) and returns the ids of the
 * nodes that ran out of time (`budgetMs`) and want another frame.
 */
import { h } from "./dom";
import { str } from "./format";
import { rendererFor } from "./render";
import type { NodeView, RenderCtx, Traits } from "./render/context";
import { Header } from "./render/header";
import { type Change, ROOT_ID, type Store } from "./store";
import type { Send } from "./types";

export class View {
  readonly root: HTMLElement;
  private readonly header: Header;
  private readonly body = h("div", "mn-body");
  private readonly views = new Map<string, NodeView>();
  private readonly shownChildren = new Map<string, number>();
  private readonly ctx: RenderCtx;
  private traits: Traits = { title: "", streaming: false, canApprove: false };
  private deadline = Infinity;

  constructor(
    host: HTMLElement,
    private readonly store: Store,
    send: Send,
    private readonly budgetMs = 12,
  ) {
    this.ctx = { store, send, traits: () => this.traits, deadline: () => this.deadline };
    this.header = new Header(send);
    this.header.update(this.traits);
    this.root = h("div", "mn-root", [this.header.el, this.body]);
    host.append(this.root);
    this.markApplied();
  }

  /** A control in the header (e.g. the inspector toggle). */
  addHeaderControl(el: HTMLElement): void {
    this.header.addControl(el);
  }

  /** A bar under the header (e.g. the replay controls). */
  addBar(el: HTMLElement): void {
    this.header.el.after(el);
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
    this.traits = { ...this.traits, ...traits };
    this.header.update(this.traits);
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
    this.markApplied();
    return more;
  }

  destroy(): void {
    this.root.remove();
    this.views.clear();
  }

  private markApplied(): void {
    this.root.dataset.status = str(this.store.get(ROOT_ID)?.status) ?? "";
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
