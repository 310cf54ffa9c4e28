/** Test helpers: hand-built ops and messages, a fake anywidget model, frame waiting. */
import { vi } from "vitest";
import type { Clock } from "../src/schedule";
import type { NodeData, Op, OpsMsg, SnapshotMsg } from "../src/types";
import widget, { mountStatic, renderView, type StaticHandle } from "../src/widget";

export const add = (parent: string | null, id: string, kind: string, fields: Record<string, unknown> = {}): Op => [
  "add",
  parent,
  { id, kind, ...fields } as NodeData,
];
export const append = (id: string, field: string, text: string): Op => ["append", id, field, text];
export const set = (id: string, field: string, value: unknown): Op => ["set", id, field, value];
export const push = (id: string, field: string, value: unknown): Op => ["push", id, field, value];

/** A snapshot message; `anotherRun`: of another run than the one shown (a grid's next run). */
export const snapshot = (seq: number, ops: Op[], anotherRun = false): SnapshotMsg =>
  anotherRun ? { t: "snapshot", seq, ops, another_run: true } : { t: "snapshot", seq, ops };
export const opsMsg = (seq: number, ops: Op[]): OpsMsg => ({ t: "ops", seq, ops });

/** The root run node. */
export const root = (fields: Record<string, unknown> = {}): Op => add(null, "root", "run", { status: "running", ...fields });

type Callback = (...args: never[]) => void;

/** A stand-in for the anywidget model: traits, event listeners and the messages sent. */
export class FakeModel {
  readonly sent: unknown[] = [];
  private readonly traits: Record<string, unknown>;
  private readonly listeners = new Map<string, Set<Callback>>();

  constructor(traits: Record<string, unknown> = {}) {
    this.traits = { _final: "", streaming: false, can_approve: false, title: "", ...traits };
  }

  get(name: string): unknown {
    return this.traits[name];
  }

  set(name: string, value: unknown): void {
    this.traits[name] = value;
    this.emit(`change:${name}`);
  }

  on(event: string, callback: Callback): void {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)?.add(callback);
  }

  off(event: string, callback?: Callback): void {
    if (callback) this.listeners.get(event)?.delete(callback);
    else this.listeners.delete(event);
  }

  send(msg: unknown): void {
    this.sent.push(msg);
  }

  save_changes(): void {}

  listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  emit(event: string, ...args: unknown[]): void {
    for (const callback of this.listeners.get(event) ?? []) (callback as (...a: unknown[]) => void)(...args);
  }

  /** Python sends a custom message. */
  receive(msg: unknown): void {
    this.emit("msg:custom", msg, []);
  }
}

/** Frames every 16 ms on vitest's fake timers (updates cost no time: every change is "after a quiet moment"). */
export const fakeClock: Clock = {
  now: () => Date.now(),
  frame: (callback) => void setTimeout(callback, 16 - (Date.now() % 16)),
  after: (ms, callback) => void setTimeout(callback, ms),
};

/**
 * A live view of a fake model with `traits`, drawn into a fresh element of the page on vitest's fake
 * timers (`fakeClock`, from 1,000,000 ms); `frame()` moves them on by one frame.
 */
export function liveOnFakeTimers(traits: Record<string, unknown> = {}) {
  vi.useFakeTimers({ now: 1_000_000 });
  const model = new FakeModel(traits);
  const el = document.createElement("div");
  document.body.append(el);
  const cleanup = renderView(model, el, fakeClock);
  const rootEl = el.querySelector<HTMLElement>(".mn-root") as HTMLElement;
  return { model, el, rootEl, cleanup, frame: () => vi.advanceTimersByTime(17) };
}

/** jsdom has no layout: give `el` a scroll box of `client` px showing `content` px of content. */
export function fakeScrollBox(el: HTMLElement, size: { content: number; client: number }) {
  let top = 0;
  Object.defineProperty(el, "scrollHeight", { get: () => size.content, configurable: true });
  Object.defineProperty(el, "clientHeight", { get: () => size.client, configurable: true });
  Object.defineProperty(el, "scrollTop", {
    get: () => top,
    set: (v: number) => {
      top = Math.max(0, Math.min(v, size.content - size.client));
    },
    configurable: true,
  });
  return {
    /** The reader scrolls (a wheel, then the scroll). */
    scrollTo(v: number) {
      el.dispatchEvent(new Event("wheel"));
      el.scrollTop = v;
      el.dispatchEvent(new Event("scroll"));
    },
    /** The view moves without the reader (a resize, scroll anchoring). */
    moved(v: number) {
      el.scrollTop = v;
      el.dispatchEvent(new Event("scroll"));
    },
  };
}

/** A live view's next DOM update: it comes in a frame, at most once every 100 ms. */
export async function nextUpdate(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 110));
  await nextFrame();
}

export function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/**
 * Waits the frames until `selector` shows in `el` (at most `frames`): every view of the page shares
 * the frames (src/schedule.ts FrameQueue), so a view may draw a frame or two after another's.
 */
export async function drawn(el: Element, selector: string, frames = 20): Promise<Element> {
  for (let frame = 0; frame < frames; frame++) {
    const found = el.querySelector(selector);
    if (found) return found;
    await nextFrame();
  }
  throw new Error(`${selector} was not drawn within ${frames} frames`);
}

/** Renders `ops` (after a root run node) statically into a fresh element. */
export function mount(ops: Op[], rootFields: Record<string, unknown> = {}): StaticHandle & { el: HTMLElement } {
  const el = document.createElement("div");
  document.body.append(el);
  const handle = mountStatic(el, snapshot(1, [root(rootFields), ...ops]), { budgetMs: Infinity });
  return { ...handle, el };
}

export function nodeEl(el: ParentNode, id: string): HTMLElement {
  const found = el.querySelector<HTMLElement>(`[data-node-id="${id}"]`);
  if (!found) throw new Error(`no element for node ${id}`);
  return found;
}

/** Renders a live view of `model` into a fresh element of the page. */
export function show(model: FakeModel): HTMLElement {
  const el = document.createElement("div");
  document.body.append(el);
  widget.render({ model, el });
  return el;
}

/** A click, as a person's (it bubbles to the view's delegated listeners). */
export function click(el: Element | null): void {
  if (!el) throw new Error("nothing to click");
  el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}
