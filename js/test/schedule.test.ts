import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Clock, FRAME_BUDGET, FrameQueue, FrameScheduler, MAX_GAP_MS, MEASURE_EVERY } from "../src/schedule";
import { fakeClock } from "./helpers";

/**
 * An update that costs `cost()` ms of main thread (the fake clock moves on while it runs). It is
 * measured a millisecond more: the fake timers run `setTimeout(0)` a millisecond later.
 */
function scheduler(cost: () => number) {
  const starts: number[] = [];
  const s = new FrameScheduler(() => {
    starts.push(Date.now());
    vi.setSystemTime(Date.now() + cost());
  }, fakeClock);
  return { s, starts };
}

describe("FrameScheduler", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("after a quiet moment draws a change in the next frame", () => {
    const { s, starts } = scheduler(() => 3);
    s.request();
    vi.advanceTimersByTime(16);
    expect(starts).toEqual([16]);
    vi.advanceTimersByTime(1000); // quiet
    s.request();
    vi.advanceTimersByTime(16);
    expect(starts.length).toBe(2);
    expect((starts[1] ?? Infinity) - 1016 - 3).toBeLessThanOrEqual(16); // within a frame of the change
  });

  it("merges the changes of one frame into one update", () => {
    const { s, starts } = scheduler(() => 1);
    for (let i = 0; i < 50; i++) s.request();
    vi.advanceTimersByTime(100);
    expect(starts.length).toBe(1);
  });

  /** Requests every `everyMs` for `forMs`; each request's wait until its update started. */
  function feed(s: FrameScheduler, starts: number[], everyMs: number, forMs: number): number[] {
    const requested: number[] = [];
    const timer = setInterval(() => {
      requested.push(Date.now());
      s.request();
    }, everyMs);
    vi.advanceTimersByTime(forMs);
    clearInterval(timer);
    vi.advanceTimersByTime(MAX_GAP_MS + 32); // the last one's update
    // a request waits for the first update that starts after it
    return requested.map((t) => (starts.find((start) => start >= t) ?? Infinity) - t);
  }

  it("draws every change in the next frame while updates fit their budget, however often they come", () => {
    const { s, starts } = scheduler(() => 1); // 2 ms at 40 a second: 8 % of the main thread
    expect(FRAME_BUDGET).toBeGreaterThanOrEqual(0.1);
    const waits = feed(s, starts, 25, 3000); // the kernel's pace under load: a message every 25 ms
    expect(Math.max(...waits)).toBeLessThanOrEqual(16);
    expect(starts.length).toBe(3000 / 25);
  });

  it("at 20 changes a second each is drawn in the next frame", () => {
    const { s, starts } = scheduler(() => 3); // 4 ms at 20 a second: 8 %
    const waits = feed(s, starts, 50, 2000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(16);
  });

  it("under load spaces updates so they take about their share of the main thread", () => {
    const { s, starts } = scheduler(() => 8);
    const until = 5000;
    const feed = setInterval(() => s.request(), 4); // a change every 4 ms: 250 chunks/s
    vi.advanceTimersByTime(until);
    clearInterval(feed);
    const busy = starts.length * 9; // measured a millisecond more
    expect(busy / Date.now()).toBeLessThanOrEqual(FRAME_BUDGET + 0.01);
    expect(busy / Date.now()).toBeGreaterThan(FRAME_BUDGET * 0.8); // and it does use its budget: still live
    expect(s.updateCost).toBeGreaterThanOrEqual(8); // measured after the frame: a little more
    expect(s.updateCost).toBeLessThan(10);
    const later = starts.slice(starts.length / 2); // once the credit of a quiet start is spent
    const gaps = later.slice(1).map((t, i) => t - (later[i] ?? 0));
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    expect(mean).toBeGreaterThanOrEqual(9 / FRAME_BUDGET - 1); // cost / budget apart, on average
    expect(Math.min(...gaps)).toBeGreaterThan(16); // never frame after frame
  });

  it("costly updates at 20 a second are spaced to their budget", () => {
    const { s, starts } = scheduler(() => 24); // 500 ms a second wanted
    const waits = feed(s, starts, 50, 4000);
    // the budget of the time gone by, plus the credit a quiet start has (`Date.now()` runs on
    // during updates: it is the main thread's clock)
    expect(starts.length * 25).toBeLessThanOrEqual(FRAME_BUDGET * (Date.now() + MAX_GAP_MS) + 25);
    expect(Math.max(...waits)).toBeLessThanOrEqual(25 / FRAME_BUDGET + 16);
  });

  it("after one costly update, cheap ones are drawn in the next frame again within MAX_GAP_MS", () => {
    let cost = 150; // a whole snapshot drawn at once
    const { s, starts } = scheduler(() => cost);
    s.request();
    vi.advanceTimersByTime(16);
    cost = 1;
    const requested: number[] = [];
    const timer = setInterval(() => {
      requested.push(Date.now());
      s.request();
    }, 25);
    vi.advanceTimersByTime(2000);
    clearInterval(timer);
    vi.advanceTimersByTime(MAX_GAP_MS);
    const late = requested.filter((t) => t >= 16 + 150 + MAX_GAP_MS);
    const waits = late.map((t) => (starts.find((start) => start >= t) ?? Infinity) - t);
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(16);
  });

  it("after a quiet moment a burst of changes is drawn frame by frame until the credit is spent", () => {
    const { s, starts } = scheduler(() => 6);
    vi.advanceTimersByTime(5000); // quiet: full credit (25 ms)
    const waits = feed(s, starts, 16, 64); // four changes, a frame apart: 24 ms
    expect(Math.max(...waits)).toBeLessThanOrEqual(16);
  });

  it("a very costly update never holds the next one more than MAX_GAP_MS", () => {
    const { s, starts } = scheduler(() => 200);
    const feed = setInterval(() => s.request(), 10);
    vi.advanceTimersByTime(3000);
    expect(starts.length).toBeGreaterThan(3000 / (200 + MAX_GAP_MS + 16) - 1);
    clearInterval(feed);
    const gaps = starts.slice(2).map((t, i) => t - (starts[i + 1] ?? 0));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(200 + MAX_GAP_MS + 16);
  });

  it("queues a task after the frame for one update in MEASURE_EVERY, and charges the others their rendering too", () => {
    let afterFrame = 0;
    const rendering = 6; // ms of style, layout and paint after each update's own 2 ms of script
    const clock: Clock = {
      ...fakeClock,
      after: (ms, callback) => {
        if (ms === 0) afterFrame++;
        setTimeout(() => {
          if (ms === 0) vi.setSystemTime(Date.now() + rendering);
          callback();
        }, ms);
      },
    };
    const starts: number[] = [];
    const s = new FrameScheduler(() => {
      starts.push(Date.now());
      vi.setSystemTime(Date.now() + 2);
    }, clock);
    const feed = setInterval(() => s.request(), 4);
    vi.advanceTimersByTime(5000);
    clearInterval(feed);
    expect(afterFrame).toBe(Math.ceil(starts.length / MEASURE_EVERY));
    // all updates charged about 2 + 6 (+1: setTimeout(0) runs a millisecond later): spaced to the budget
    const busy = starts.length * (2 + rendering + 1);
    expect(busy / Date.now()).toBeLessThanOrEqual(FRAME_BUDGET + 0.02);
    expect(s.updateCost).toBeGreaterThan(2 + rendering - 1);
  });

  it("does nothing once stopped", () => {
    const { s, starts } = scheduler(() => 1);
    s.request();
    s.stop();
    vi.advanceTimersByTime(100);
    s.request();
    vi.advanceTimersByTime(100);
    expect(starts).toEqual([]);
  });
});

describe("FrameQueue: every view of a page shares the animation frames", () => {
  /** Frames on demand; each callback costs `cost` ms of the fake clock. */
  function queue(sliceMs = 30) {
    let now = 0;
    const frames: (() => void)[] = [];
    const q = new FrameQueue((callback) => void frames.push(callback), () => now, sliceMs);
    const ran: { view: number; frame: number }[] = [];
    let frame = 0;
    const view = (index: number, cost: number) => () => {
      ran.push({ view: index, frame });
      now += cost;
    };
    const nextFrame = () => {
      frame++;
      const due = frames.splice(0);
      for (const callback of due) callback();
      return due.length;
    };
    return { q, ran, view, nextFrame, requested: () => frames.length };
  }

  it("spreads 48 views' updates over frames of at most the slice (plus one update)", () => {
    const { q, ran, view, nextFrame } = queue(30);
    for (let i = 0; i < 48; i++) q.add(view(i, 5));
    let frames = 0;
    while (nextFrame() > 0) frames++;
    expect(ran.map((r) => r.view)).toEqual([...Array(48).keys()]); // in the order asked, none lost
    const perFrame = new Map<number, number>();
    for (const r of ran) perFrame.set(r.frame, (perFrame.get(r.frame) ?? 0) + 1);
    expect(Math.max(...perFrame.values())).toBe(6); // 6 × 5 ms fills a 30 ms slice
    expect(frames).toBe(8);
  });

  it("asks for one animation frame however many views ask", () => {
    const { q, view, requested } = queue();
    for (let i = 0; i < 10; i++) q.add(view(i, 1));
    expect(requested()).toBe(1);
  });

  it("runs at least one update a frame, however slow", () => {
    const { q, ran, view, nextFrame } = queue(30);
    q.add(view(0, 100));
    q.add(view(1, 100));
    nextFrame();
    expect(ran.map((r) => r.view)).toEqual([0]);
    nextFrame();
    expect(ran.map((r) => r.view)).toEqual([0, 1]);
  });

  it("puts what an update asks for in a later frame, after what waited", () => {
    const { q, ran, view, nextFrame } = queue(30);
    const again = view(9, 1);
    q.add(() => {
      view(0, 1)();
      q.add(again);
    });
    q.add(view(1, 1));
    nextFrame();
    expect(ran.map((r) => r.view)).toEqual([0, 1]);
    nextFrame();
    expect(ran.map((r) => r.view)).toEqual([0, 1, 9]);
  });

  it("goes on after an update that throws", () => {
    const { q, ran, view, nextFrame } = queue(30);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    q.add(() => {
      throw new Error("broken view");
    });
    q.add(view(1, 1));
    nextFrame();
    expect(ran.map((r) => r.view)).toEqual([1]);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});
