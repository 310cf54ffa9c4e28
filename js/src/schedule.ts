/**
 * When a live view touches the DOM: in the next animation frame, unless its updates have taken
 * more than their share (`budget`) of the main thread lately. Each update's cost (the change
 * applied, then the page's style, layout and paint: measured one update in `MEASURE_EVERY`,
 * estimated for the others) is paid from a credit that grows with time at `budget` ms per ms (a
 * token bucket of at most `budget × maxGapMs`). While the credit
 * lasts a change is drawn in the next frame, however often changes come; once spent, the next update
 * waits until it is paid back (at most `maxGapMs`). A cheap update after a quiet moment is never held,
 * and spacing applies only while updates really exceed the budget.
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

/**
 * Main-thread share live updates may take, over a few hundred milliseconds. An update of a streaming
 * view in JupyterLab costs 4-7 ms with its style, layout and paint on a busy 2-core host; at the
 * kernel's 40 messages a second that is 15-25 %: a quarter lets each be drawn in the next frame (a
 * tenth spaced them 50-80 ms apart), and leaves three quarters to the reader.
 */
export const FRAME_BUDGET = 0.25;
/**
 * The longest a change waits for its update when updates cost more than their budget (ms): slower
 * than this no longer reads as live. It also bounds the credit and the debt (`budget × maxGapMs`):
 * a burst after a quiet moment spends at most that much at once, and a costly moment is forgotten
 * once this long has paid for it.
 */
export const MAX_GAP_MS = 250;
/** Weight of the newest measurement in the running cost estimate. */
const COST_WEIGHT = 0.3;
/**
 * An update's rendering (style, layout, paint after it) is measured by a task queued after its frame
 * one update in this many: that task costs the page too, at every frame of a stream. The others are
 * charged their own script time plus the latest estimate of the rendering.
 */
export const MEASURE_EVERY = 4;

export class FrameScheduler {
  private cost = 0;
  /** Estimated ms of rendering after an update's own script (style, layout, paint). */
  private renderCost = 0;
  private runs = 0;
  /** Main-thread ms the updates may still take now (negative: owed), as of `creditAt`. */
  private credit: number;
  private creditAt: number;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly update: () => void,
    private readonly clock: Clock = browserClock,
    private readonly budget = FRAME_BUDGET,
    private readonly maxGapMs = MAX_GAP_MS,
  ) {
    this.credit = this.limit;
    this.creditAt = clock.now();
  }

  /** The estimated cost of one update (ms). */
  get updateCost(): number {
    return this.cost;
  }

  /** How long the next change would wait for its frame (ms; 0: the next frame). */
  get wait(): number {
    return Math.min(Math.max(-this.creditNow() / this.budget, 0), this.maxGapMs);
  }

  /** Something changed: schedule an update (one at a time). */
  request(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    const wait = this.wait;
    if (wait > 0) this.clock.after(wait, () => this.clock.frame(this.run));
    else this.clock.frame(this.run);
  }

  stop(): void {
    this.stopped = true;
  }

  private get limit(): number {
    return this.budget * this.maxGapMs;
  }

  private creditNow(): number {
    return Math.min(this.credit + (this.clock.now() - this.creditAt) * this.budget, this.limit);
  }

  private readonly run = (): void => {
    this.scheduled = false;
    if (this.stopped) return;
    const start = this.clock.now();
    this.update();
    const script = this.clock.now() - start;
    if (this.runs++ % MEASURE_EVERY !== 0) {
      this.charge(script + this.renderCost);
      return;
    }
    // A task queued in the frame runs after its paint: the update's whole cost, rendering included
    // (and whatever the page queued meanwhile: an estimate on the safe side).
    this.clock.after(0, () => {
      const ms = this.clock.now() - start;
      this.renderCost = this.runs === 1 ? ms - script : (1 - COST_WEIGHT) * this.renderCost + COST_WEIGHT * (ms - script);
      this.charge(ms);
    });
  };

  private charge(ms: number): void {
    this.credit = Math.max(this.creditNow() - ms, -this.limit);
    this.creditAt = this.clock.now();
    this.cost = this.cost === 0 ? ms : (1 - COST_WEIGHT) * this.cost + COST_WEIGHT * ms;
  }
}
