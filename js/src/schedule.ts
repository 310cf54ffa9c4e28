/**
 * When a live view touches the DOM. After a quiet moment (no change for `QUIET_MS`) a change is
 * drawn in the next animation frame; under load updates are spaced so they take about `budget` of
 * the main thread: each update's cost (the change applied, then the page's style, layout and paint)
 * is measured, and the next one starts no sooner than cost / budget after the last one started (at
 * most `maxGapMs` later).
 */

/** The timers the scheduler uses (injected: tests drive them with fake timers). */
export interface Clock {
  now(): number;
  /** Runs `callback` before the next paint. */
  frame(callback: () => void): void;
  /** Runs `callback` as a task after `ms`. */
  after(ms: number, callback: () => void): void;
}

/**
 * Main-thread milliseconds the page's views may take in one animation frame before the rest wait
 * (the frame's style, layout and paint come on top: at 30 ms a page flip's frames took 60 to 90 ms).
 */
export const FRAME_SLICE_MS = 16;

/**
 * The frame callbacks of every view on a page, run in animation frames until `sliceMs` of one is
 * spent, the rest in the next frames, in the order asked. Views that each ask for a frame would
 * otherwise all draw in the same one: a gallery page of 48 tiles took 240 ms in one task.
 */
export class FrameQueue {
  private waiting: (() => void)[] = [];
  private requested = false;

  constructor(
    private readonly requestFrame: (callback: () => void) => void,
    private readonly now: () => number,
    private readonly sliceMs = FRAME_SLICE_MS,
  ) {}

  /** Runs `callback` in an animation frame: the next one, unless earlier callbacks fill it. */
  add(callback: () => void): void {
    this.waiting.push(callback);
    if (!this.requested) {
      this.requested = true;
      this.requestFrame(this.run);
    }
  }

  private readonly run = (): void => {
    this.requested = false;
    const start = this.now();
    const due = this.waiting;
    this.waiting = []; // what the callbacks ask for meanwhile goes to a later frame
    let ran = 0;
    while (ran < due.length && (ran === 0 || this.now() - start < this.sliceMs)) {
      const callback = due[ran++] as () => void;
      try {
        callback();
      } catch (error) {
        console.error("mastra_notebook: a view's update failed", error);
      }
    }
    this.waiting = due.slice(ran).concat(this.waiting); // what did not fit first, then what came since
    if (this.waiting.length > 0) {
      this.requested = true;
      this.requestFrame(this.run);
    }
  };
}

const pageFrames = new FrameQueue(
  typeof requestAnimationFrame === "function"
    ? (callback) => void requestAnimationFrame(() => callback())
    : (callback) => void setTimeout(callback, 16),
  () => performance.now(),
);

export const browserClock: Clock = {
  now: () => performance.now(),
  frame: (callback) => pageFrames.add(callback),
  after: (ms, callback) => void setTimeout(callback, ms),
};

/** Main-thread share live updates may take under load. */
export const FRAME_BUDGET = 0.1;
/** The longest a change waits for its update under load (ms): slower than this no longer reads as live. */
export const MAX_GAP_MS = 250;
/**
 * A change this long after the previous one follows a quiet moment and is drawn in the next frame
 * whatever the last update cost (20 chunks a second come 50 ms apart; under load the kernel sends
 * every 25 ms or more often).
 */
export const QUIET_MS = 40;
/** Weight of the newest measurement in the running cost estimate. */
const COST_WEIGHT = 0.3;

export class FrameScheduler {
  private cost = 0;
  private lastStart = -Infinity;
  private lastRequest = -Infinity;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly update: () => void,
    private readonly clock: Clock = browserClock,
    private readonly budget = FRAME_BUDGET,
    private readonly maxGapMs = MAX_GAP_MS,
  ) {}

  /** The estimated cost of one update (ms). */
  get updateCost(): number {
    return this.cost;
  }

  /** Time between the starts of two updates under load (ms). */
  get gap(): number {
    return Math.min(this.cost / this.budget, this.maxGapMs);
  }

  /** Something changed: schedule an update (one at a time). */
  request(): void {
    const now = this.clock.now();
    const quiet = now - this.lastRequest >= QUIET_MS;
    this.lastRequest = now;
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    const wait = quiet ? 0 : this.lastStart + this.gap - now;
    if (wait > 0) this.clock.after(wait, () => this.clock.frame(this.run));
    else this.clock.frame(this.run);
  }

  stop(): void {
    this.stopped = true;
  }

  private readonly run = (): void => {
    this.scheduled = false;
    if (this.stopped) return;
    const start = this.clock.now();
    this.lastStart = start;
    this.update();
    // A task queued in the frame runs after its paint: the update's whole cost, rendering included
    // (and whatever the page queued meanwhile: an estimate on the safe side).
    this.clock.after(0, () => this.measured(this.clock.now() - start));
  };

  private measured(ms: number): void {
    this.cost = this.cost === 0 ? ms : (1 - COST_WEIGHT) * this.cost + COST_WEIGHT * ms;
  }
}
