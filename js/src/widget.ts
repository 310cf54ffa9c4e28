/**
 * anywidget entry. `render` shows a live run: it applies `_final` (if any), says hello, applies
 * incoming messages to the store at once and updates the DOM in animation frames (js/src/schedule.ts).
 * `mountStatic` renders a snapshot with no kernel (standalone HTML export, replay).
 */
import type { Traits } from "./render/context";
import { Inspector } from "./inspector";
import { RequestSource } from "./render/request";
import { Timeline } from "./render/timeline";
import { hideOwnTranscripts } from "./transcripts";
import { parseReplay, ReplayBar } from "./replay-bar";
import { type Change, Store } from "./store";
import { type Op, type OutMsg, parseInMsg, type ReplayTraits, type SnapshotMsg } from "./types";
import { browserClock, type Clock, FRAME_BUDGET, FrameScheduler, MAX_GAP_MS } from "./schedule";
import { View } from "./view";

/** The part of the anywidget model this view uses. */
export interface WidgetModel {
  get(name: string): unknown;
  on(event: string, callback: (...args: never[]) => void): void;
  off(event: string, callback?: (...args: never[]) => void): void;
  send(msg: unknown): void;
}

function parseSnapshot(value: unknown): SnapshotMsg | null {
  let msg = value;
  if (typeof value === "string") {
    if (!value) return null;
    try {
      msg = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const parsed = parseInMsg(msg);
  return parsed?.t === "snapshot" ? parsed : null;
}

/** A synced trait's name, as mastra_notebook/widget/contract.py declares it (a replay's has them all). */
type TraitName = keyof ReplayTraits;

/** A trait's value: untrusted, read with a guard. */
function trait(model: WidgetModel, name: TraitName): unknown {
  return model.get(name);
}

function changeOf(name: TraitName): string {
  return `change:${name}`;
}

/** The synced traits the header reads. */
const TRAITS: readonly TraitName[] = ["title", "subtitle", "streaming", "queued", "can_approve", "_can_label", "max_height", "_present"];

/**
 * Merges store changes and applies them to the view when its scheduler says: a frame after a quiet
 * moment, at most a quarter of the main thread under load (`FRAME_BUDGET`); a static mount:
 * `flush()` at once, and what ran out of time in the next frames.
 */
class FrameBatcher {
  private pending: Change | null = null;
  private stopped = false;
  private readonly scheduler: FrameScheduler;

  constructor(
    private readonly view: View,
    clock: Clock = browserClock,
    maxGapMs = MAX_GAP_MS,
  ) {
    this.scheduler = new FrameScheduler(() => this.flush(), clock, FRAME_BUDGET, maxGapMs);
  }

  add(change: Change): void {
    if (!this.pending || change.reset) {
      const pending = this.pending;
      this.pending = {
        reset: change.reset || (pending?.reset ?? false),
        ids: new Set(change.ids),
        anotherRun: change.anotherRun === true || pending?.anotherRun === true,
      };
    } else {
      for (const id of change.ids) this.pending.ids.add(id);
    }
    this.scheduler.request();
  }

  flush(): void {
    const change = this.pending;
    this.pending = null;
    if (!change || this.stopped) return;
    const more = this.view.apply(change);
    if (more.size > 0) this.add({ reset: false, ids: more });
  }

  stop(): void {
    this.stopped = true;
    this.scheduler.stop();
  }
}

/** The "Timeline" toggle in the header and its panel under it (render/timeline.ts). */
function mountTimeline(store: Store, view: View): Timeline {
  const timeline = new Timeline(store, view.content, view.root, view.stickyTop);
  view.addHeaderControl(timeline.toggle);
  view.addBar(timeline.el);
  return timeline;
}

/** Renders a live view of `model` into `el`; `clock` drives its updates (tests pass fake timers). */
export function renderView(model: WidgetModel, el: HTMLElement, clock: Clock = browserClock): () => void {
  const send = (msg: OutMsg) => {
    try {
      model.send(msg);
    } catch (error) {
      console.warn("mastra_notebook: cannot reach the kernel", error);
    }
  };
  const store = new Store(send);
  const requests = new RequestSource(send);
  const view = new View(el, store, send, undefined, requests);
  const batcher = new FrameBatcher(view, clock);
  const unsubscribe = store.subscribe((change) => batcher.add(change));
  const replayBar = new ReplayBar(send);
  view.addBar(replayBar.el);
  const inspector = new Inspector(send, view.content);
  view.addHeaderControl(inspector.toggle);
  view.addAside(inspector.el);
  const timeline = mountTimeline(store, view);
  const readReplay = () => {
    const replay = parseReplay(trait(model, "replay"));
    replayBar.update(replay);
    // a replay held short of its end says "paused", not "running" (issue 17)
    view.setTraits({ paused: replay !== null && !replay.playing && replay.position < replay.total });
  };

  const readTraits = () => {
    view.root.classList.toggle("mn-present", trait(model, "_present") === true); // present mode, set from Python
    const traits: Traits = {
      title: String(trait(model, "title") ?? ""),
      subtitle: String(trait(model, "subtitle") ?? ""),
      streaming: trait(model, "streaming") === true,
      queued: trait(model, "queued") === true,
      canApprove: trait(model, "can_approve") === true,
      canLabel: trait(model, "_can_label") === true,
      maxHeight: String(trait(model, "max_height") ?? ""),
    };
    view.setTraits(traits);
  };
  const onMessage = (msg: unknown) => {
    if (inspector.receive(msg) || requests.receive(msg)) return;
    const parsed = parseInMsg(msg);
    if (parsed) store.receive(parsed);
  };
  const onFinal = () => {
    const final = parseSnapshot(trait(model, "_final"));
    if (final) store.receive(final);
  };

  readTraits();
  readReplay();
  const final = parseSnapshot(trait(model, "_final"));
  if (final) {
    store.applySnapshot(final);
    batcher.flush(); // a saved run shows at once
  }
  model.on("msg:custom", onMessage);
  model.on(changeOf("_final"), onFinal);
  for (const name of TRAITS) model.on(changeOf(name), readTraits);
  model.on(changeOf("replay"), readReplay);
  store.hello();

  return () => {
    batcher.stop();
    unsubscribe();
    model.off("msg:custom", onMessage);
    model.off(changeOf("_final"), onFinal);
    for (const name of TRAITS) model.off(changeOf(name), readTraits);
    model.off(changeOf("replay"), readReplay);
    replayBar.destroy();
    inspector.destroy();
    timeline.destroy();
    requests.destroy();
    view.destroy();
  };
}

function render({ model, el }: { model: WidgetModel; el: HTMLElement }): () => void {
  const cleanup = renderView(model, el);
  hideOwnTranscripts(el.ownerDocument, trait(model, "view_key")); // drawn: its transcript would repeat it
  return cleanup;
}

export interface StaticOptions {
  title?: string;
  /** The line under the title: the prompt's first line, as the live view shows it. */
  subtitle?: string;
  /** Milliseconds of markdown rendering per frame before the rest waits for the next frames. */
  budgetMs?: number;
  /** Each step's request by step node id, as the export page embeds it (no kernel to ask). */
  requests?: Record<string, unknown>;
  /** Present mode (a projector's): the class `mn-present` on the root. */
  present?: boolean;
}

export interface StaticHandle {
  root: HTMLElement;
  /** Shows another snapshot (e.g. a replay scrubber moving). */
  show(snapshot: SnapshotMsg): void;
  destroy(): void;
}

/** A view with no kernel, its store and how it shows a snapshot (`mountStatic`, `mountReplay`). */
function staticView(el: HTMLElement, opts: StaticOptions) {
  const store = new Store();
  const view = new View(el, store, () => {}, opts.budgetMs, new RequestSource(null, opts.requests ?? null));
  view.setTraits({ title: opts.title ?? "", subtitle: opts.subtitle ?? "" });
  view.root.classList.toggle("mn-present", opts.present === true);
  const batcher = new FrameBatcher(view, browserClock, 0);
  store.subscribe((change) => {
    batcher.add(change);
    batcher.flush(); // at once; what did not fit in the budget follows in the next frames
  });
  return { store, view, batcher };
}

/** Renders a snapshot message without a kernel: no Stop, no approval buttons. */
export function mountStatic(el: HTMLElement, snapshot: SnapshotMsg, opts: StaticOptions = {}): StaticHandle {
  const { store, view, batcher } = staticView(el, opts);
  const timeline = mountTimeline(store, view);
  const show = (snap: SnapshotMsg) => {
    const parsed = parseSnapshot(snap);
    if (parsed) store.applySnapshot(parsed);
  };
  show(snapshot);
  return {
    root: view.root,
    show,
    destroy: () => {
      batcher.stop();
      timeline.destroy();
      view.destroy();
    },
  };
}

/**
 * A recorded run the export page replays with no kernel (widget/export.py `replay_of`): the ops of a
 * fresh run before any chunk (`start`: its root, its trace's requests, its notes), then those each
 * chunk made, in order; each chunk's arrival time (ms, null when untimed); where each moment begins.
 */
export interface RecordedReplay {
  start: Op[];
  chunks: Op[][];
  times: (number | null)[];
  marks: Record<string, unknown>;
}

/** A recording's pace: the gap before chunk `index` (ms at speed 1), as replay.py `_gap_ms` says. */
export function gapMs(times: (number | null)[], index: number): number {
  const now = times[index];
  const before = times[index - 1];
  if (index > 0 && typeof now === "number" && typeof before === "number") return Math.min(Math.max(now - before, 0), MAX_REPLAY_GAP_MS);
  return UNTIMED_GAP_MS;
}
const UNTIMED_GAP_MS = 40;
const MAX_REPLAY_GAP_MS = 2000;

export interface ReplayHandle extends StaticHandle {
  /** How many chunks the page shows (the bar's position). */
  position(): number;
}

/**
 * The export page's view of a recorded run, with the replay bar (replay-bar.ts: the widget's own)
 * played here: the run at position N is the ops of its first N chunks; at the end, the run as it was
 * exported (`snapshot`: with what came after its stream, such as scores).
 */
export function mountReplay(el: HTMLElement, snapshot: SnapshotMsg, replay: RecordedReplay, opts: StaticOptions = {}, clock: Pick<typeof globalThis, "setTimeout" | "clearTimeout"> = globalThis): ReplayHandle {
  const { store, view, batcher } = staticView(el, opts);
  const total = replay.chunks.length;
  let position = total;
  let speed = 1;
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bar = new ReplayBar((msg) => answer(msg));
  view.addBar(bar.el);
  const timeline = mountTimeline(store, view);
  const publish = () => {
    const state = parseReplay({ total, position, playing: timer !== undefined, speed, marks: replay.marks });
    bar.update(state);
    view.setTraits({ paused: timer === undefined && position < total });
  };
  const showAt = (target: number) => {
    target = Math.max(0, Math.min(total, Math.round(target)));
    if (target === total) {
      store.applySnapshot({ ...snapshot, seq: ++seq }); // the run as exported
    } else if (target > position) {
      for (let i = position; i < target; i++) store.receive({ t: "ops", seq: ++seq, ops: replay.chunks[i] ?? [] });
    } else {
      store.applySnapshot({ t: "snapshot", seq: ++seq, ops: replay.start.concat(...replay.chunks.slice(0, target)) });
    }
    position = target;
  };
  const stop = () => {
    clock.clearTimeout(timer);
    timer = undefined;
  };
  const tick = () => {
    if (position >= total) {
      stop();
    } else {
      timer = clock.setTimeout(() => {
        showAt(position + 1);
        if (position >= total) stop();
        else tick();
        publish();
      }, gapMs(replay.times, position) / speed);
    }
  };
  const answer = (msg: OutMsg) => {
    if (msg.t === "play") {
      if (position >= total) showAt(0);
      stop();
      tick();
    } else if (msg.t === "pause") {
      stop();
    } else if (msg.t === "seek") {
      stop();
      showAt(msg.position);
    } else if (msg.t === "speed" && Number.isFinite(msg.speed) && msg.speed > 0) {
      speed = msg.speed;
    }
    publish();
  };
  store.applySnapshot({ ...snapshot, seq: ++seq });
  publish();
  return {
    root: view.root,
    show: (snap) => store.applySnapshot({ ...snap, seq: ++seq }),
    position: () => position,
    destroy: () => {
      stop();
      bar.destroy();
      batcher.stop();
      timeline.destroy();
      view.destroy();
    },
  };
}

export { adoptStyles } from "./styles";

export default { render };
