import { defineConfig } from "vitest/config";

// A hang guard, not a speed check: the windowing tests lay out 2,000 blocks in jsdom (3-5 s on
// two cores shared with a kernel, a server and a browser); vitest's 5 s default made them flaky.
const testTimeout = 60_000;
const STRING_DOM = ["test/static-engine.test.ts", "test/grid-static.test.ts"];

export default defineConfig({
  test: {
    projects: [
      {
        // The views in jsdom: one jsdom per worker for all files (isolating each file cost ~4x the CPU
        // in environment setup); test/setup.ts clears what a test leaves in it.
        test: {
          name: "jsdom",
          environment: "jsdom",
          include: ["test/**/*.test.ts"],
          exclude: STRING_DOM,
          isolate: false,
          setupFiles: ["test/setup.ts"],
          testTimeout,
        },
      },
      {
        // The kernel's static engine installs its own string DOM as the global one: each file alone.
        test: { name: "static engine", environment: "node", include: STRING_DOM, testTimeout },
      },
    ],
  },
});
