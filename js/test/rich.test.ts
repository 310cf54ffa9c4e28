/**
 * Issue 21, the widget's half: a tool's `display` bundle, built-in tables, images and files, and a
 * streaming argument highlighted as code; and the XSS corpus (tests/rich/xss-corpus.json) through
 * every one of them. tests/test_rich.py checks the static renderer the same way.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { argumentText, partialField, TABLE_ROWS } from "../src/render/rich";
import { Store } from "../src/store";
import type { Op } from "../src/types";
import { View } from "../src/view";
import { add, append, mount, nodeEl, opsMsg, set } from "./helpers";

const HERE = decodeURIComponent(import.meta.url.replace(/^file:\/\//, "").replace(/\/[^/]*$/, ""));
const CORPUS = (JSON.parse(readFileSync(`${HERE}/../../tests/rich/xss-corpus.json`, "utf8")) as { entries: string[] }).entries;

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function tool(id: string, fields: Record<string, unknown> = {}): Op {
  return add("root", id, "tool", { tool_call_id: `call_${id}`, tool_name: "query", status: "running", ...fields });
}

/** The card's body, opened (a finished tool starts folded). */
function opened(el: HTMLElement, id: string): HTMLElement {
  const card = nodeEl(el, id);
  const head = card.querySelector<HTMLElement>(".mn-fold-head");
  if (head?.getAttribute("aria-expanded") === "false") head.click();
  return card;
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `row ${i + 1}`, ok: i % 2 === 0, note: null }));

describe("a tool's result drawn as data", () => {
  it("draws flat records as a table, bounded, with the JSON one click away", () => {
    const { el } = mount([tool("t", { status: "done", result: rows(60) })]);
    const card = opened(el, "t");
    const table = card.querySelector(".mn-rich table.mn-table");
    expect([...(table?.querySelectorAll("th") ?? [])].map((th) => th.textContent)).toEqual(["id", "name", "ok", "note"]);
    expect(table?.querySelectorAll("tbody tr")).toHaveLength(TABLE_ROWS);
    expect(table?.querySelector("tbody tr td")?.classList.contains("mn-num")).toBe(true);
    expect(card.querySelector(".mn-table-more")?.textContent).toBe("10 more rows (in the JSON)");
    const json = card.querySelector<HTMLDetailsElement>("details.mn-rich-json");
    expect(json?.open).toBe(false);
    expect(json?.querySelector("summary")?.textContent).toBe("Result as JSON");
    expect(json?.querySelector("pre")?.textContent).toContain('"name": "row 60"');
  });

  it("starts folded once done, as every finished tool (a gallery tile's cards stay one line)", () => {
    const display = { data: { "image/png": PNG } };
    const { el } = mount([tool("t", { status: "done", result: rows(60), display }), tool("u", { status: "done", result: rows(3) })]);
    for (const id of ["t", "u"]) {
      const card = nodeEl(el, id);
      expect(card.classList.contains("mn-folded"), id).toBe(true);
      expect(card.querySelector<HTMLElement>(".mn-card-body")?.hidden, id).toBe(true);
    }
  });

  it("keeps results that are not flat records as JSON", () => {
    const { el } = mount([
      tool("nested", { status: "done", result: [{ a: { b: 1 } }] }),
      tool("empty", { status: "done", result: [] }),
      tool("scalars", { status: "done", result: [1, 2, 3] }),
      tool("obj", { status: "done", result: { temp: 21 } }),
    ]);
    for (const id of ["nested", "empty", "scalars", "obj"]) {
      const card = opened(el, id);
      expect(card.querySelector(".mn-rich"), id).toBeNull();
      expect(card.querySelector(".mn-result pre"), id).not.toBeNull();
    }
  });

  it("draws image parts, data: image URLs and file links; never a remote image", () => {
    const { el } = mount([
      tool("img", { status: "done", result: { type: "image", data: PNG, mediaType: "image/png" } }),
      tool("mcp", { status: "done", result: { content: [{ type: "text", text: "a chart" }, { type: "image", data: PNG, mimeType: "image/png" }] } }),
      tool("url", { status: "done", result: `data:image/png;base64,${PNG}` }),
      tool("file", { status: "done", result: { type: "file", url: "https://example.com/r.csv", mediaType: "text/csv", filename: "r.csv" } }),
      tool("remote", { status: "done", result: { type: "image", url: "https://evil.example/pixel.png" } }),
    ]);
    for (const id of ["img", "mcp", "url"]) {
      expect(opened(el, id).querySelector(".mn-rich img")?.getAttribute("src"), id).toBe(`data:image/png;base64,${PNG}`);
    }
    expect(opened(el, "mcp").querySelector(".mn-rich-part-text")?.textContent).toBe("a chart");
    const link = opened(el, "file").querySelector<HTMLAnchorElement>(".mn-rich a");
    expect(link?.getAttribute("href")).toBe("https://example.com/r.csv");
    expect(link?.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    const remote = opened(el, "remote");
    expect(remote.querySelector("img")).toBeNull();
    expect(remote.querySelector(".mn-rich a")?.getAttribute("href")).toBe("https://evil.example/pixel.png");
  });

  it("draws a display bundle's richest type, its preview, and the JSON one click away", () => {
    const display = {
      data: { "text/html": "<table><tr><th>a</th></tr><tr><td>1</td></tr></table>", "text/plain": "   a\n0  1" },
      source: "value",
      preview: "first 50 of 1,000,000 rows",
    };
    const { el } = mount([tool("t", { status: "done", result: [{ a: 1 }], display })]);
    const card = opened(el, "t");
    expect(card.querySelector(".mn-rich-html td")?.textContent).toBe("1");
    expect(card.querySelector(".mn-rich-html")?.getAttribute("data-mime")).toBe("text/html");
    expect(card.querySelector(".mn-rich-preview")?.textContent).toBe("first 50 of 1,000,000 rows");
    expect(card.querySelector("details.mn-rich-json pre")?.textContent).toBe('[{"a": 1}]');
  });

  it.each([
    ["image/png", PNG, "img"],
    ["image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg'><circle r='4'/></svg>", "img"],
    ["text/markdown", "**bold** text", ".mn-rich-md strong"],
    ["application/json", { a: 1 }, "pre.mn-json"],
    ["text/plain", "plain", "pre.mn-rich-text"],
  ])("draws a %s bundle", (mime, payload, selector) => {
    const { el } = mount([tool("t", { status: "done", result: "x", display: { data: { [mime]: payload } } })]);
    const drawn = opened(el, "t").querySelector(`.mn-rich ${selector}`);
    expect(drawn).not.toBeNull();
    if (mime === "image/svg+xml") expect(drawn?.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it("shows a renderer's error on the card, the JSON one click away", () => {
    const { el } = mount([tool("t", { status: "done", result: { rows: 3 }, display: { error: "KeyError: 'rows'", source: "renderer" } })]);
    const card = opened(el, "t");
    expect(card.querySelector(".mn-rich-error")?.textContent).toBe("The renderer failed: KeyError: 'rows'");
    expect(card.querySelector("details.mn-rich-json pre")?.textContent).toBe('{"rows": 3}');
  });
});

describe("arguments as they stream", () => {
  it("reads a field's unfinished string from the streamed text", () => {
    expect(partialField('{"query": "SELECT *\\nFROM t WHERE a = \\"x', "query")).toBe('SELECT *\nFROM t WHERE a = "x');
    expect(partialField('{"limit": 3, "query": "SEL', "query")).toBe("SEL");
    expect(partialField('{"query"', "query")).toBeNull();
    expect(partialField('{"q": "a\\', "q")).toBe("a"); // an escape cut short is left out
    expect(partialField('{"q": "caf\\u00e9", "x": 1}', "q")).toBe("café");
    expect(argumentText({ query: "SEL" }, '{"query": "SELECT 1', "query")).toBe("SELECT 1");
  });

  it("highlights a SQL argument while it streams, then keeps it", () => {
    const store = new Store();
    const host = document.createElement("div");
    const view = new View(host, store, () => {});
    store.subscribe((c) => view.apply(c));
    const spec = { field: "query", language: "sql" };
    store.receive(opsMsg(1, [add(null, "root", "run", {}), tool("t", { status: "streaming-args", args_text: "", args: null, args_display: spec })]));
    store.receive(opsMsg(2, [append("t", "args_text", '{"query": "SELECT name, total FROM ord')]));
    const code = () => nodeEl(host, "t").querySelector(".mn-rich-args pre.mn-args-code code");
    expect(code()?.textContent).toBe("SELECT name, total FROM ord");
    expect(code()?.querySelector(".hljs-keyword")?.textContent).toBe("SELECT");
    expect(nodeEl(host, "t").querySelector(".mn-rich-args .mn-label")?.textContent).toBe("Arguments · query");
    store.receive(opsMsg(3, [append("t", "args_text", 'ers WHERE total > 10"}'), set("t", "args", { query: "SELECT name, total FROM orders WHERE total > 10" })]));
    expect(code()?.textContent).toBe("SELECT name, total FROM orders WHERE total > 10");
    expect(nodeEl(host, "t").querySelector("details.mn-raw pre")?.textContent).toContain('"query"');
  });

  it("draws args=fn's bundle and markdown fields", () => {
    const { el } = mount([
      tool("fn", { args: { n: 1 }, args_display: { display: { data: { "text/markdown": "*one* row" } } } }),
      tool("md", { args: { body: "# Title" }, args_display: { field: "body", language: "markdown" } }),
    ]);
    expect(nodeEl(el, "fn").querySelector(".mn-rich-args em")?.textContent).toBe("one");
    expect(nodeEl(el, "md").querySelector(".mn-rich-args h1")?.textContent).toBe("Title");
  });
});

describe("the XSS corpus through every drawing", () => {
  const places = (text: string, i: number): Op[] => [
    tool(`html${i}`, { status: "done", result: text, display: { data: { "text/html": text }, preview: text } }),
    tool(`svg${i}`, { status: "done", result: text, display: { data: { "image/svg+xml": text } } }),
    tool(`md${i}`, { status: "done", result: text, display: { data: { "text/markdown": text } } }),
    tool(`png${i}`, { status: "done", result: text, display: { data: { "image/png": text, "text/plain": text } } }),
    tool(`err${i}`, { status: "done", result: text, display: { error: text } }),
    tool(`table${i}`, { status: "done", result: [{ [text]: text, n: 1 }, { [text]: text, n: 2 }] }),
    tool(`part${i}`, { status: "done", result: { type: "file", url: text, data: text, mediaType: text, filename: text } }),
    tool(`img${i}`, { status: "done", result: { type: "image", image: text, mimeType: "image/png" } }),
    tool(`url${i}`, { status: "done", result: text }),
    tool(`args${i}`, { args: { q: text }, args_display: { field: "q", language: "sql", display: { data: { "text/html": text } } } }),
    tool(`margs${i}`, { args: { q: text }, args_display: { field: "q", language: "markdown" } }),
  ];

  it("leaves nothing active: no script, frame, form, style, handler, or link or image outside the allowed", () => {
    const { el } = mount(CORPUS.flatMap(places));
    for (const head of el.querySelectorAll<HTMLElement>(".mn-fold-head[aria-expanded='false']")) head.click();
    for (const details of el.querySelectorAll("details")) details.open = true;
    // every place drew something: a bundle, a table, a part, an error, a code argument
    expect(el.querySelectorAll(".mn-rich-html").length).toBeGreaterThanOrEqual(2 * CORPUS.length);
    expect(el.querySelectorAll(".mn-rich table.mn-table")).toHaveLength(CORPUS.length);
    expect(el.querySelectorAll(".mn-rich-error")).toHaveLength(CORPUS.length);
    expect(el.querySelectorAll("pre.mn-args-code")).toHaveLength(CORPUS.length);
    for (const tag of ["script", "iframe", "frame", "object", "embed", "form", "input", "style", "link", "meta", "base", "svg", "math"]) {
      expect(el.querySelectorAll(tag), tag).toHaveLength(0);
    }
    for (const node of el.querySelectorAll("*")) {
      for (const attr of node.attributes) expect(attr.name.startsWith("on"), `${node.tagName} ${attr.name}`).toBe(false);
    }
    for (const a of el.querySelectorAll("a[href]")) expect(a.getAttribute("href")).toMatch(/^(https?:|mailto:)/);
    for (const img of el.querySelectorAll("img")) {
      expect(img.getAttribute("src")).toMatch(/^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]*={0,2}$/);
    }
    // nothing a browser fetches by itself when a card opens (a cell's background is a tracking
    // beacon): no attribute holds a remote address but a link's href, no style a url()
    const remote: string[] = [];
    for (const node of el.querySelectorAll("*")) {
      for (const attr of node.attributes) {
        if (node.tagName === "A" && attr.name === "href") continue;
        // whitespace and control characters out first: a browser drops them from a URL
        const text = attr.value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
        const address = /https?:/.test(text) || (!text.startsWith("data:") && text.includes("//")); // data: loads nothing
        if (address || (attr.name === "style" && text.includes("url("))) remote.push(`${node.tagName}[${attr.name}="${attr.value}"]`);
      }
    }
    expect(remote).toEqual([]);
    for (const node of el.querySelectorAll(".mn-rich-html *, .mn-rich-args .mn-rich-html *")) {
      for (const name of ["style", "class", "id"]) expect(node.hasAttribute(name), `${node.tagName} ${name}`).toBe(false);
    }
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });
});
