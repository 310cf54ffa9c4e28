// Builds ../mastra_notebook/static/widget.js (one minified ESM file), widget.css, and transcript.js
// (the renderers again as one classic script, for the kernel's embedded engine).
// `node build.mjs --watch` rebuilds on change.
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const outdir = "../mastra_notebook/static";

const common = { absWorkingDir: here, bundle: true, minify: true, logLevel: "info" };
const builds = [
  {
    ...common,
    entryPoints: ["src/widget.ts"],
    outfile: `${outdir}/widget.js`,
    format: "esm",
    target: "es2020",
    define: { "define.amd": "false" },
  },
  { ...common, entryPoints: ["src/widget.css"], outfile: `${outdir}/widget.css` },
  // the grid of runs, a batch's and an experiment's (mastra_notebook/widget/grid.py GridWidget)
  { ...common, entryPoints: ["src/grid-widget.ts"], outfile: `${outdir}/grid.js`, format: "esm", target: "es2020" },
  // the review queue (mastra_notebook/widget/review.py ReviewWidget): its runs drawn by the run view
  { ...common, entryPoints: ["src/review-widget.ts"], outfile: `${outdir}/review.js`, format: "esm", target: "es2020", define: { "define.amd": "false" } },
  // The same renderers for the kernel's static transcript, run in an embedded JS engine
  // (mastra_notebook/render/engine.py): one classic script that defines globalThis.mastraNotebookStatic.
  {
    ...common,
    entryPoints: ["src/static/transcript.ts"],
    outfile: `${outdir}/transcript.js`,
    format: "iife",
    globalName: "mastraNotebookStatic",
    target: "es2020",
  },
];

if (process.argv.includes("--watch")) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
