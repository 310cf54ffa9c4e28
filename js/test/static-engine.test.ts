// @vitest-environment node
/**
 * The static transcript as the kernel draws it (mastra_notebook/render/engine.py): no browser DOM,
 * the string DOM installed as the global one before any renderer loads (static/install.ts), then the
 * live view's own renderers drawing committed parity snapshots and the XSS corpus, written out as
 * script-free HTML with raw HTML standing apart as islands (the kernel sanitises those with nh3:
 * tests/test_rich.py). What is checked here is the HTML the renderers themselves write.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type * as Entry from "../src/static/transcript";
import type { SnapshotMsg } from "../src/types";

const HERE = decodeURIComponent(import.meta.url.replace(/^file:\/\//, "").replace(/\/[^/]*$/, ""));
const CORPUS = (JSON.parse(readFileSync(`${HERE}/../../tests/rich/xss-corpus.json`, "utf8")) as { entries: string[] }).entries;

let staticViews: typeof Entry;

beforeAll(async () => {
  expect(typeof document).toBe("undefined"); // no DOM but the one installed below, as in the kernel
  await import("../src/static/install");
  staticViews = await import("../src/static/transcript");
});

function snapshot(name: string): { title: string; ops: SnapshotMsg["ops"] } {
  const data = JSON.parse(readFileSync(`${HERE}/../../tests/parity/snapshots/${name}.json`, "utf8")) as {
    title: string;
    snapshot: SnapshotMsg;
  };
  return { title: data.title, ops: data.snapshot.ops };
}

const ENTITIES: Record<string, string> = { "&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/**
 * Every start tag of the serializer's HTML with its attributes (it always quotes a value and
 * escapes `"`, `<` and `>` in it, so a pattern reads it whole).
 */
function startTags(html: string): { tag: string; attrs: [string, string][] }[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s"'<>/=]+(?:="[^"]*")?)*)\s*>/g)].map((m) => ({
    tag: (m[1] ?? "").toLowerCase(),
    attrs: [...(m[2] ?? "").matchAll(/([^\s"'<>/=]+)(?:="([^"]*)")?/g)].map(
      (a) => [(a[1] ?? "").toLowerCase(), (a[2] ?? "").replace(/&(quot|amp|lt|gt);/g, (e) => ENTITIES[e] ?? e)] as [string, string],
    ),
  }));
}

/** Every attribute holding a remote address but a link's href: what a browser fetches by itself. */
function remoteAddresses(html: string): string[] {
  return startTags(html).flatMap(({ tag, attrs }) =>
    attrs
      .filter(([name, value]) => {
        if (tag === "a" && name === "href") return false;
        // whitespace and control characters out first: a browser drops them from a URL
        const text = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
        // a data: URL loads nothing (its base64 may hold "//")
        const remote = /https?:/.test(text) || (!text.startsWith("data:") && text.includes("//"));
        return remote || (name === "style" && text.includes("url("));
      })
      .map(([name, value]) => `${tag}[${name}="${value}"]`),
  );
}

const ACTIVE = new Set(["script", "iframe", "frame", "object", "embed", "form", "input", "button", "textarea", "select", "style", "link", "meta", "base", "svg", "math"]);

/** What must hold of any HTML the renderers write: nothing runs, nothing loads, nothing raw is inline. */
function expectInert(html: string): void {
  // every `<` opens a tag the pattern reads (text is escaped)
  const bare = html.replace(/<\/[a-zA-Z][\w-]*>/g, "").replace(/<([a-zA-Z][\w-]*)((?:\s+[^\s"'<>/=]+(?:="[^"]*")?)*)\s*>/g, "");
  expect(bare).not.toMatch(/[<>]/);
  for (const { tag, attrs } of startTags(html)) {
    expect(ACTIVE.has(tag), tag).toBe(false);
    for (const [name, value] of attrs) {
      expect(name.startsWith("on"), `${tag} ${name}`).toBe(false);
      if (tag === "a" && name === "href") expect(value).toMatch(/^(https?:|mailto:)/);
      if (tag === "img" && name === "src") expect(value).toMatch(/^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]*={0,2}$/);
    }
  }
  expect(remoteAddresses(html)).toEqual([]);
}

describe("the transcript drawn by the renderers on the string DOM", () => {
  it("says what the run said, with nothing active, the markdown as islands", () => {
    const { title, ops } = snapshot("plain-text");
    const { html, islands } = staticViews.renderTranscript({ ops, title, subtitle: "a subtitle", classes: ["mastra-notebook-transcript"] });
    expectInert(html);
    expect(html).toMatch(/^<div class="mastra-notebook-transcript"/);
    expect(html).toContain(title);
    expect(html).toContain("a subtitle");
    expect(html).not.toContain("mn-root");
    expect(islands.length).toBeGreaterThan(0);
    expect(html.match(/<mn-island n="\d+"><\/mn-island>/g)).toHaveLength(islands.length);
    islands.forEach((_, i) => expect(html).toContain(`<mn-island n="${i}"></mn-island>`));
    // the answer is markdown: markdown-it's HTML, handed to the kernel's sanitiser
    expect(islands.some((island) => island.startsWith("<p>"))).toBe(true);
  });

  it("writes finished tool cards as folded <details> and their results as data", () => {
    const { title, ops } = snapshot("tool-rich-results");
    const { html, islands } = staticViews.renderTranscript({ ops, title });
    expectInert(html);
    const cards = startTags(html).filter(({ tag, attrs }) => tag === "details" && attrs.some(([n, v]) => n === "data-kind" && v === "tool"));
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(card.attrs.some(([name]) => name === "open"), JSON.stringify(card)).toBe(false);
    expect(html).toContain("<summary");
    expect(html).toContain("<table");
    expect(html.match(/<mn-island /g) ?? []).toHaveLength(islands.length);
  });
});

describe("the XSS corpus through the rich drawings on the string DOM", () => {
  const places = (text: string) => [
    { display: { data: { "text/html": text }, preview: text }, result: text },
    { display: { data: { "image/svg+xml": text } }, result: text },
    { display: { data: { "text/markdown": text } }, result: text },
    { display: { data: { "image/png": text, "text/plain": text } }, result: text },
    { display: { error: text }, result: text },
    { display: null, result: [{ [text]: text, n: 1 }, { [text]: text, n: 2 }] },
    { display: null, result: { type: "file", url: text, data: text, mediaType: text, filename: text } },
    { display: null, result: { type: "image", image: text, mimeType: "image/png" } },
    { display: null, result: text },
  ];

  it("writes nothing active and no remote address; a tool's HTML only as an island", () => {
    for (const entry of CORPUS) {
      const drawn = places(entry).map((input) => staticViews.renderRich(input));
      expect(drawn.slice(0, 7).every((d) => d !== null), entry).toBe(true);
      for (const d of drawn) if (d) expectInert(d.html);
      // the tool's HTML is the kernel's to sanitise (nh3): handed over whole, never written inline
      expect(drawn[0]?.islands, entry).toContain(entry);
    }
  });
});
