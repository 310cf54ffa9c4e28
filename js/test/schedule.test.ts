import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Clock, FrameScheduler, MAX_GAP_MS } from "../src/schedule";

/** Frames every 16 ms, driven by vitest's fake timers; `Date.now()` is the fake clock. */
const fakeClock: Clock = {
  now: () => Date.now(),
  frame: (callback) => void setTimeout(callback, 16 - (Date.now() % 16)),
  after: (ms, callback) => void setTimeout(callback, ms),
};

/** An update that costs `cost()` ms of main thread (the fake clock moves on while it runs). */
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

  it("under load spaces updates so they take about a tenth of the main thread", () => {
    const { s, starts } = scheduler(() => 8);
    const until = 5000;
    const feed = setInterval(() => s.request(), 4); // a change every 4 ms: 250 chunks/s
    vi.advanceTimersByTime(until);
    clearInterval(feed);
    const busy = starts.length * 8;
    expect(busy / until).toBeLessThanOrEqual(0.11);
    expect(busy / until).toBeGreaterThan(0.07); // and it does use its budget: still live
    expect(s.updateCost).toBeGreaterThanOrEqual(8); // measured after the frame: a little more
    expect(s.updateCost).toBeLessThan(10);
    const gaps = starts.slice(2).map((t, i) => t - (starts[i + 1] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(80);
  });

  it("at 20 changes a second each is drawn at once, even when updates are costly", () => {
    const { s, starts } = scheduler(() => 12);
    const requested: number[] = [];
    const feed = setInterval(() => {
      requested.push(Date.now());
      s.request();
    }, 50);
    vi.advanceTimersByTime(2000);
    clearInterval(feed);
    vi.advanceTimersByTime(20); // the last one's frame
    expect(starts.length).toBe(requested.length);
    const waits = starts.map((t, i) => t - (requested[i] ?? 0));
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
