import hljs from "highlight.js/lib/core";
import { describe, expect, it, vi } from "vitest";
import { MAX_HIGHLIGHT } from "../src/markdown";
import { MarkdownView } from "../src/render/markdown-view";
import { mountStatic } from "../src/widget";
import { add, append, mount, nextFrame, nodeEl, opsMsg, root, snapshot } from "./helpers";
import { Store } from "../src/store";
import { View } from "../src/view";

function textView(text: string) {
  const md = new MarkdownView();
  document.body.append(md.el);
  md.update(text);
  return md;
}

describe("text rendering", () => {
  it("renders markdown: headings, lists, emphasis, code", () => {
    const { el } = mount([add("root", "t1", "text", { text: "# Hello\n\n- **one**\n- two\n\n`x = 1`\n" })]);
    const t = nodeEl(el, "t1");
    expect(t.dataset.kind).toBe("text");
    expect(t.querySelector("h1")?.textContent).toBe("Hello");
    expect(t.querySelectorAll("li")).toHaveLength(2);
    expect(t.querySelector("strong")?.textContent).toBe("one");
    expect(t.querySelector("code")?.textContent).toBe("x = 1");
  });

  it("highlights completed code blocks only", () => {
    const md = textView("```python\ndef f():\n    return 1\n");
    expect(md.el.querySelector("pre code")?.textContent).toContain("def f()");
    expect(md.el.querySelector(".hljs-keyword")).toBeNull();
    md.update("```python\ndef f():\n    return 1\n```\n");
    expect(md.el.querySelector(".hljs-keyword")?.textContent).toBe("def");
  });

  it("never highlights with the markdown grammar: an 80k `[` fence mounts plain", () => {
    const brackets = "[".repeat(80_000);
    for (const lang of ["markdown", "md"]) {
      const { el } = mount([add("root", "t", "text", { text: `\`\`\`${lang}\n${brackets}\n\`\`\`\n` })]);
      const code = nodeEl(el, "t").querySelector("pre code");
      expect(code?.textContent).toBe(`${brackets}\n`);
      expect(code?.querySelector("[class^=hljs]")).toBeNull();
      el.remove();
    }
  });

  it("highlights at most 20 kB per block", () => {
    const line = "x = 1\n";
    const big = line.repeat(Math.ceil((MAX_HIGHLIGHT + 1) / line.length));
    const small = textView(`\`\`\`python\n${line}\`\`\`\n`);
    expect(small.el.querySelector(".hljs-number")).not.toBeNull();
    const large = textView(`\`\`\`python\n${big}\`\`\`\n`);
    expect(large.el.querySelector("pre code")?.textContent).toBe(big);
    expect(large.el.querySelector("pre code [class^=hljs]")).toBeNull();
  });

  it("highlights a closed code block once while the text after it grows", () => {
    const spy = vi.spyOn(hljs, "highlight");
    try {
      const fence = "```python\ndef once():\n    return 42\n```\n";
      const md = textView(fence);
      for (let i = 0; i < 10; i++) md.update(`${fence}and then ${"more ".repeat(i)}`);
      md.update(`${fence}and then all.\n\nNext paragraph`); // the block closes and is drawn for good
      const calls = spy.mock.calls.filter(([code]) => String(code).includes("def once"));
      expect(calls).toHaveLength(1);
      expect(md.el.querySelector(".hljs-keyword")?.textContent).toBe("def");
    } finally {
      spy.mockRestore();
    }
  });

  it("keeps closed blocks: the same element survives appends", () => {
    const store = new Store();
    const host = document.createElement("div");
    const view = new View(host, store, () => {});
    store.subscribe((c) => view.apply(c));
    store.receive(opsMsg(1, [add(null, "root", "run", { status: "running" }), add("root", "t1", "text", { text: "" })]));
    store.receive(opsMsg(2, [append("t1", "text", "First paragraph.\n\nSecond")]));
    const first = nodeEl(host, "t1").querySelector(".mn-md-block");
    expect(first?.textContent?.trim()).toBe("First paragraph.");
    const firstP = first?.querySelector("p");
    for (let i = 0; i < 20; i++) store.receive(opsMsg(3 + i, [append("t1", "text", ` more ${i}`)]));
    const blocks = nodeEl(host, "t1").querySelectorAll(".mn-md-block");
    expect(blocks[0]).toBe(first);
    expect(blocks[0]?.querySelector("p")).toBe(firstP);
    expect(blocks[1]?.textContent).toContain("more 19");
  });

  it("does not re-render the whole text on each append (long answer)", () => {
    const md = new MarkdownView();
    let text = "";
    const paragraph = "Lorem ipsum dolor sit amet, **consectetur** adipiscing elit. ".repeat(3);
    for (let i = 0; i < 5000; i++) {
      text += i % 10 === 9 ? `${paragraph}\n\n` : paragraph.slice(0, 40);
      if (i % 10 === 0) md.update(text); // one frame every 10 appends
    }
    md.update(text);
    expect(text.length).toBeGreaterThan(200_000);
    expect(md.renderedChars).toBeLessThan(text.length * 3);
    expect(md.el.querySelectorAll(".mn-md-block").length).toBeGreaterThan(400);
  }, 60_000); // 5,000 appends: seconds on a busy host (it asserts work done, not time)

  it("inserts a growing paragraph's letters into its text node, the DOM the same as a fresh render's", () => {
    const pieces = ["Hel", "lo ", "**wor", "ld**", " and", " `co", "de`", " x < y", " & z", ".", "It", " www", ".ex",
      "ample.com", " [a", "](https://a.example)", "\n- one", "\n- tw", "o", "\n\n```py", "thon\nx = 1", "\ny", " = 2",
      "\n```", "\n\nsay", " &amp", "; ok", "\n1. a", "b", "\n\n| a | b |\n|", "---|---|\n| 1", " | 2", " |", "\n\nend"];
    const md = textView("");
    const tail = () => md.el.querySelector(".mn-md-tail") as HTMLElement;
    let text = "";
    let kept = 0;
    for (const piece of pieces) {
      const before = tail().firstChild;
      text += piece;
      md.update(text);
      if (before && tail().firstChild === before) kept++;
      const fresh = textView(text);
      expect(md.el.innerHTML, text).toBe(fresh.el.innerHTML);
      fresh.el.remove();
    }
    expect(kept).toBeGreaterThan(5); // letters went into the text nodes already there
    // the same text cut anywhere, 1-5 characters at a time (a seeded generator)
    let seed = 17;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 3; round++) {
      const whole = text;
      const view = textView("");
      for (let at = 0; at < whole.length; ) {
        at = Math.min(whole.length, at + 1 + Math.floor(next() * 5));
        view.update(whole.slice(0, at));
        const fresh = textView(whole.slice(0, at));
        expect(view.el.innerHTML, whole.slice(0, at)).toBe(fresh.el.innerHTML);
        fresh.el.remove();
      }
      view.el.remove();
    }
  });

  it("re-renders everything when the text is replaced", () => {
    const md = textView("a\n\nb");
    md.update("z");
    expect(md.el.textContent?.trim()).toBe("z");
  });
});

describe("sanitizer", () => {
  const evil = [
    "<script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 1">',
    "[click](javascript:alert(1))",
    "[click2](JaVaScRiPt:alert(1))",
    '<iframe src="https://evil.example"></iframe>',
    "[html](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '<a href="javascript:alert(1)">raw</a>',
    '<svg onload="window.__pwned=1"><script>1</script></svg>',
    "![tracker](https://evil.example/pixel.png)",
    "<style>body{display:none}</style>",
    "[rel](relative/path.html) and <vbscript:msgbox>",
  ].join("\n\n");

  it("leaves nothing active from hostile markdown", () => {
    const { el } = mount([add("root", "t1", "text", { text: `${evil}\n\nend` })]);
    const t = nodeEl(el, "t1");
    for (const tag of ["script", "img", "iframe", "svg", "style", "object", "embed"]) {
      expect(t.querySelector(tag), tag).toBeNull();
    }
    for (const node of t.querySelectorAll("*")) {
      for (const attr of node.attributes) expect(attr.name.startsWith("on"), attr.name).toBe(false);
    }
    for (const a of t.querySelectorAll("a")) {
      const href = a.getAttribute("href");
      if (href !== null) expect(href).toMatch(/^(https?:|mailto:)/);
    }
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    // raw HTML is shown as text, images as their alt text
    expect(t.textContent).toContain("<script>");
    expect(t.textContent).toContain("[image: tracker]");
  });

  it("keeps http(s) and mailto links, opening in a new tab without opener or referrer", () => {
    const md = textView("[site](https://example.com/a?b=1) <mailto:me@example.com>\n");
    const links = [...md.el.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "https://example.com/a?b=1",
      "mailto:me@example.com",
    ]);
    for (const a of links) {
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    }
  });

  it("strips non-web links but keeps their text", () => {
    const md = textView("[a](relative.html) [b](file:///etc/passwd) [c](data:text/html,<b>x</b>)\n");
    for (const a of md.el.querySelectorAll("a")) expect(a.hasAttribute("href")).toBe(false);
    expect(md.el.textContent).toContain("a");
  });
});

describe("render budget", () => {
  it("renders closed blocks over several frames when out of time, the tail last", () => {
    const md = new MarkdownView();
    const text = "one\n\ntwo\n\nthree\n\ntail";
    expect(md.update(text, 0)).toBe(true);
    expect(md.el.querySelectorAll(".mn-md-block:not(.mn-md-tail)")).toHaveLength(1);
    expect(md.el.querySelector(".mn-md-tail")?.textContent).toBe("");
    expect(md.update(text, 0)).toBe(true);
    expect(md.update(text, 0)).toBe(false);
    expect(md.el.textContent?.replace(/\s+/g, " ").trim()).toBe("one two three tail");
  });

  it("mountStatic finishes a long text in the following frames", async () => {
    const el = document.createElement("div");
    const text = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}.`).join("\n\n");
    mountStatic(el, snapshot(1, [root(), add("root", "t1", "text", { text })]), { budgetMs: 0 });
    expect(el.querySelectorAll(".mn-md-block").length).toBeLessThan(30);
    for (let i = 0; i < 40; i++) await nextFrame();
    expect(el.querySelectorAll(".mn-md-block")).toHaveLength(30);
    expect(el.querySelector(".mn-md-tail")?.textContent?.trim()).toBe("Paragraph 29.");
  });
});
