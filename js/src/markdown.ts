/** Markdown -> sanitized DOM. markdown-it (html: false) + highlight.js core + DOMPurify. */
import DOMPurify from "dompurify";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import MarkdownItCallable, { type MarkdownIt } from "markdown-it";
import { SANITIZE_POLICY } from "./sanitize-policy";
import { hardenLink, safeHref } from "./url";

// No markdown grammar: its rules are quadratic (a fence of 80k `[` took 6 s). No auto-detection:
// it runs every grammar, and could fall on a costly one.
const LANGUAGES = { bash, javascript, json, python, sql, typescript };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

/** Code longer than this is shown plain: highlighting is for reading, and costs per character. */
export const MAX_HIGHLIGHT = 20_000;

/** The last blocks highlighted: an open tail is rendered again as text follows a closed fence. */
const highlighted = new Map<string, string>();
const CACHED = 32;

/** highlight.js's HTML of `code` (escaped text in spans), or "" when it is not highlighted. */
export function highlightCode(code: string, lang: string): string {
  const name = lang.trim().toLowerCase();
  if (!name || code.length > MAX_HIGHLIGHT || !hljs.getLanguage(name)) return ""; // markdown-it escapes it
  const key = `${name}\n${code}`;
  const cached = highlighted.get(key);
  if (cached !== undefined) return cached;
  let html = "";
  try {
    html = hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    html = "";
  }
  highlighted.set(key, html);
  if (highlighted.size > CACHED) highlighted.delete(highlighted.keys().next().value ?? "");
  return html;
}

function createMarkdownIt(highlight: boolean): MarkdownIt {
  const md = new MarkdownItCallable({ html: false, linkify: true, highlight: highlight ? highlightCode : null });
  // No remote images (tracking): an image becomes its alt text.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const alt = token ? self.renderInlineAsText(token.children ?? [], options, env) : "";
    return `<span class="mn-img-alt">[image${alt ? `: ${md.utils.escapeHtml(alt)}` : ""}]</span>`;
  };
  return md;
}

const mdHighlighted = createMarkdownIt(true);
const mdPlain = createMarkdownIt(false);


type Purifier = ReturnType<typeof DOMPurify>;
let purifier: Purifier | null = null;

function getPurifier(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const href = safeHref(node.getAttribute("href"));
    if (href) {
      node.setAttribute("href", href);
      hardenLink(node);
    } else {
      node.removeAttribute("href");
    }
  });
  purifier = p;
  return p;
}

/** DOMPurify's fragment of `html` (the browser's way). */
function purified(html: string): DocumentFragment {
  return getPurifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [...SANITIZE_POLICY.forbidTags],
    FORBID_ATTR: [...SANITIZE_POLICY.urlAttributes],
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
}

/** How HTML becomes DOM: DOMPurify in a browser; the kernel's transcript engine keeps it raw and
 * sanitises the whole transcript's HTML with nh3 afterwards (static/transcript.ts). */
let fragmentOf: (html: string) => DocumentFragment = purified;

export function useSanitizer(make: (html: string) => DocumentFragment): void {
  fragmentOf = make;
}

/** Sanitizes an HTML string into a fragment (the only way HTML reaches the DOM). */
export function sanitize(html: string): DocumentFragment {
  return fragmentOf(html);
}

/** The HTML of markdown source (not sanitized); `highlight` only for text whose code fences are all closed. */
export function markdownHtml(src: string, highlight: boolean): string {
  return (highlight ? mdHighlighted : mdPlain).render(src);
}

/** Renders markdown source; `highlight` only for text whose code fences are all closed. */
export function renderMarkdown(src: string, highlight: boolean): DocumentFragment {
  return sanitize(markdownHtml(src, highlight));
}

/** Characters the HTML parser reads as more than themselves in text (markup, entities, newline forms). */
const NOT_PLAIN = /[<>&\r\0]/;

/**
 * When the HTML `next` is `prev` with plain text inserted right after a character of text (not in
 * a tag, not in an entity), the DOM of `next` is the DOM of `prev` with that text inserted into the
 * same text node: returns the text and how many characters of text come before it; else null.
 * A growing paragraph is mostly this: its new letters, without parsing or sanitizing it again.
 */
export function insertedText(prev: string, next: string): { offset: number; text: string } | null {
  const added = next.length - prev.length;
  if (added <= 0) return null;
  let at = 0;
  while (at < prev.length && prev.charCodeAt(at) === next.charCodeAt(at)) at++;
  if (at === 0 || !next.endsWith(prev.slice(at))) return null;
  const text = next.slice(at, at + added);
  const before = prev.slice(0, at);
  if (NOT_PLAIN.test(text) || before.endsWith(">") || before.lastIndexOf("<") > before.lastIndexOf(">")) return null;
  if (before.lastIndexOf("&") > before.lastIndexOf(";")) return null;
  // text before it: tags out, each entity one character (the renderer escapes with named or hex ones)
  const offset = before.replace(/<[^>]*>/g, "").replace(/&[^;]*;/g, "&").length;
  return { offset, text };
}
