import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "jsdom",
    include: ["test/**/*.test.ts"],
    // A hang guard, not a speed check: the windowing tests lay out 2,000 blocks in jsdom (3-5 s on
    // two cores shared with a kernel, a server and a browser); vitest's 5 s default made them flaky.
    testTimeout: 60_000,
  },
});
