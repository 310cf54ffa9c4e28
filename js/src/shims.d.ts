// highlight.js ships no types for its per-file entry points.
declare module "highlight.js/lib/core" {
  import hljs from "highlight.js";
  export default hljs;
}
declare module "highlight.js/lib/languages/*" {
  import type { LanguageFn } from "highlight.js";
  const language: LanguageFn;
  export default language;
}
