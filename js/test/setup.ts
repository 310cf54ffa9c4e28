/**
 * What a test file leaves behind is cleared once it ends: the test files share one jsdom per worker
 * (vitest.config.ts: not isolated, a quarter of the CPU), so a view left in the document, a stubbed
 * global, fake timers or a selection must not reach the next file.
 */
import { afterAll, vi } from "vitest";

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.getSelection()?.removeAllRanges();
  document.body.replaceChildren();
});
