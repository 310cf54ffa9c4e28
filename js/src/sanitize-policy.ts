/**
 * What untrusted HTML may keep (markdown an agent wrote, a tool's HTML display): one policy for every
 * surface. The widget hands it to DOMPurify (markdown.ts); the kernel hands the same object, read
 * from the transcript bundle, to nh3 for the static transcript and the export page
 * (mastra_notebook/render/engine.py).
 */
export const SANITIZE_POLICY = {
  /** Elements that load, embed, run or submit something, or restyle the page: never kept. */
  forbidTags: [
    "img", "picture", "source", "svg", "math", "iframe", "frame", "object", "embed", "video", "audio",
    "style", "link", "meta", "base", "form", "input", "button", "textarea", "select", "script",
    "map", "area", // an image map's areas are links no link check sees
  ],
  /**
   * Attributes whose value is a URL the browser fetches or follows by itself (an image behind a table
   * cell is a tracking beacon): never kept. A link's `href` is kept only to http(s) and mailto.
   */
  urlAttributes: [
    "src", "srcset", "background", "poster", "ping", "action", "formaction", "xlink:href", "cite",
    "longdesc", "lowsrc", "dynsrc", "data", "codebase", "manifest", "icon", "usemap", "profile",
    "archive", "classid", "itemtype", "itemid",
  ],
  /** Attributes a tool's HTML may not keep: its styles and classes would restyle (or hide) the page. */
  toolStrippedAttributes: ["style", "class", "id"],
  /** The only link schemes kept. */
  linkSchemes: ["http", "https", "mailto"],
} as const;
