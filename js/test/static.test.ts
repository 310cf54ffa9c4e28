/**
 * The static transcript's own pieces, without an engine: the string DOM (static/string-dom.ts) the
 * renderers draw on in the kernel, and its serializer (static/serialize.ts), which writes the drawn
 * view out as script-free HTML. Each test builds an `SDocument` of its own (jsdom's DOM is the global
 * one here and stays so); jsdom only reads the written HTML back, as a browser would.
 * static-engine.test.ts runs the renderers themselves on the string DOM, as the kernel does.
 */
import { describe, expect, it } from "vitest";
import { SHORT_LINES } from "../src/render/json";
import { CLASS_STYLES, styleOf, TAG_STYLES } from "../src/static/palette";
import { serialize } from "../src/static/serialize";
import { SDocument, type SElement, SFragment, SRaw, SText } from "../src/static/string-dom";

/** An element of `doc` with classes, attributes and children (strings are text). */
function el(
  doc: SDocument,
  tag: string,
  cls = "",
  children: (SElement | SText | SFragment | string)[] = [],
  attrs: Record<string, string> = {},
): SElement {
  const made = doc.createElement(tag);
  if (cls) made.className = cls;
  for (const [name, value] of Object.entries(attrs)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}

/** An element's style as the renderers see it (their elements are typed as the browser's). */
const asCss = (node: SElement) => node.style as unknown as CSSStyleDeclaration;

/** The written HTML read back by jsdom's parser, as a page would read it. */
function parse(html: string): DocumentFragment {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}

/** A card the widget folds: a `.mn-fold-head` (with a part shown only folded) and its body. */
function foldCard(doc: SDocument, expanded: boolean): SElement {
  const head = el(doc, "div", "mn-fold-head", [
    el(doc, "span", "mn-name", ["lookup"]),
    el(doc, "span", "mn-fold-args mn-fold-only", ["city: Paris"]),
  ]);
  head.setAttribute("aria-expanded", String(expanded));
  head.setAttribute("role", "button");
  head.tabIndex = 0;
  const body = el(doc, "div", "mn-card-body", [el(doc, "div", "mn-field", ["the body"])]);
  body.hidden = !expanded;
  return el(doc, "div", "mn-card mn-tool", [head, body]);
}

describe("the string DOM", () => {
  it("reflects properties as attributes, as a browser does", () => {
    const doc = new SDocument();
    const div = el(doc, "div", "a b");
    div.classList.add("c");
    div.classList.remove("a");
    div.dataset.nodeId = "n1";
    asCss(div).maxHeight = "10px"; // as a renderer writes it: camelCase, on the style object
    div.hidden = true;
    div.title = 'say "hi"';
    expect(div.className).toBe("b c");
    expect(div.getAttribute("data-node-id")).toBe("n1");
    expect(div.dataset.nodeId).toBe("n1");
    expect(div.getAttribute("style")).toBe("max-height:10px");
    expect(div.hasAttribute("hidden")).toBe(true);
    div.hidden = false;
    expect(div.hasAttribute("hidden")).toBe(false);
    expect(div.matches('div.b[data-node-id="n1"]')).toBe(true);
    expect(div.matches("span, .c")).toBe(true);
  });

  it("moves nodes as the DOM does: a fragment gives its children, a node leaves its old parent", () => {
    const doc = new SDocument();
    const a = el(doc, "p", "", ["a"]);
    const b = el(doc, "p", "", ["b"]);
    const fragment = doc.createDocumentFragment();
    fragment.append(a, "text", b);
    const host = el(doc, "div", "", [fragment]);
    expect(fragment.childNodes).toHaveLength(0);
    expect(host.textContent).toBe("atextb");
    const other = el(doc, "section", "", [b]);
    expect(host.textContent).toBe("atext");
    expect(b.parentElement).toBe(other);
    a.replaceWith(el(doc, "em", "", ["A"]));
    expect(host.querySelector("em")?.textContent).toBe("A");
    host.firstChild?.after("!");
    expect(host.textContent).toBe("A!text");
    expect(host.querySelectorAll("em, p")).toHaveLength(1);
  });

  it("keeps raw HTML as it is, for the kernel to sanitise, and reads its text without tags", () => {
    const doc = new SDocument();
    const fragment = doc.rawFragment("<b>bold</b> text");
    const raw = fragment.firstChild;
    expect(raw).toBeInstanceOf(SRaw);
    expect((raw as SRaw).html).toBe("<b>bold</b> text");
    expect(raw?.textContent).toBe("bold text");
  });

  it("calls listeners on click and dispatchEvent only", () => {
    const doc = new SDocument();
    const button = el(doc, "button");
    let clicks = 0;
    button.addEventListener("click", () => clicks++);
    button.click();
    button.click();
    expect(clicks).toBe(2);
  });
});

describe("the static form of a drawn view", () => {
  it("escapes text and attribute values, so the page reads back the same words", () => {
    const doc = new SDocument();
    const hostile = `a < b && c > "d" </div><script>x</script>`;
    const root = el(doc, "div", "mn-field", [hostile], { title: hostile, "data-x": `"&<>` });
    const { html, islands } = serialize(root);
    expect(islands).toEqual([]);
    expect(html).not.toContain("<script");
    expect(html).toContain("a &lt; b &amp;&amp; c &gt; \"d\" &lt;/div&gt;&lt;script&gt;");
    expect(html).toContain('title="a &lt; b &amp;&amp; c &gt; &quot;d&quot; &lt;/div&gt;');
    const read = parse(html).firstElementChild;
    expect(read?.tagName).toBe("DIV");
    expect(read?.childElementCount).toBe(0);
    expect(read?.textContent).toBe(hostile);
    expect(read?.getAttribute("title")).toBe(hostile);
    expect(read?.getAttribute("data-x")).toBe(`"&<>`);
  });

  it("writes raw HTML as numbered islands, never inline", () => {
    const doc = new SDocument();
    const first = '<p onclick="x()">one</p>';
    const second = '<table><tr><td background="http://tracker.example/t.gif">two</td></tr></table>';
    const root = el(doc, "div", "mn-md", [doc.rawFragment(first), el(doc, "p", "", ["between"]), doc.rawFragment(second)]);
    const { html, islands } = serialize(root);
    expect(islands).toEqual([first, second]);
    expect(html).toBe(
      `<div class="mn-md"><mn-island n="0"></mn-island><p>between</p><mn-island n="1"></mn-island></div>`,
    );
    expect(html).not.toContain("onclick");
    expect(html).not.toContain("tracker");
  });

  it("writes a folded card as a closed <details> that keeps what the widget shows folded", () => {
    const doc = new SDocument();
    const { html } = serialize(foldCard(doc, false));
    const details = parse(html).firstElementChild as HTMLDetailsElement;
    expect(details.tagName).toBe("DETAILS");
    expect(details.open).toBe(false);
    expect(details.className).toBe("mn-card mn-tool");
    const summary = details.firstElementChild;
    expect(summary?.tagName).toBe("SUMMARY");
    expect(summary?.className).toBe("mn-fold-head");
    expect(summary?.textContent).toBe("lookupcity: Paris");
    // the body the widget hides while folded is drawn: a click on the summary shows it
    expect(details.querySelector(".mn-card-body")?.textContent).toBe("the body");
    expect(details.querySelector("[hidden]")).toBeNull();
    // what makes the live head work is left out
    for (const name of ["aria-expanded", "role", "tabindex", "hidden"]) expect(html).not.toContain(name);
  });

  it("writes an open card as <details open> without the parts shown only folded", () => {
    const doc = new SDocument();
    const { html } = serialize(foldCard(doc, true));
    const details = parse(html).firstElementChild as HTMLDetailsElement;
    expect(details.open).toBe(true);
    expect(details.querySelector("summary")?.textContent).toBe("lookup");
    expect(details.querySelector(".mn-fold-only")).toBeNull();
    expect(details.querySelector(".mn-card-body")?.textContent).toBe("the body");
  });

  it("writes a toggle button and its panel as a folded disclosure, the panel drawn", () => {
    const doc = new SDocument();
    const button = el(doc, "button", "mn-link-btn", ["Request"], { type: "button", "aria-controls": "mn-panel-7" });
    const panel = el(doc, "div", "mn-request", [el(doc, "pre", "mn-json", ['{"model": "x"}'])], { id: "mn-panel-7" });
    panel.hidden = true;
    const root = el(doc, "div", "mn-step", [el(doc, "span", "", ["Step 1"]), button, panel]);
    const { html } = serialize(root);
    expect(html).not.toContain("<button");
    expect(html).not.toContain("mn-panel-7");
    const read = parse(html).firstElementChild;
    const disclosure = read?.querySelector("details.mn-disclosure") as HTMLDetailsElement;
    expect(disclosure.open).toBe(false);
    expect(disclosure.getAttribute("style")).toBe(styleOf("details", ["mn-disclosure"]));
    const summary = disclosure.querySelector("summary");
    expect(summary?.textContent).toBe("Request");
    expect(summary?.hasAttribute("data-mn-control")).toBe(true);
    expect(disclosure.querySelector(".mn-request pre")?.textContent).toBe('{"model": "x"}');
    expect(disclosure.querySelector("[hidden]")).toBeNull();
    expect(read?.textContent).toBe("Step 1Request{\"model\": \"x\"}");
  });

  it("leaves out a hidden toggle's panel, hidden elements, controls, handlers and spacers", () => {
    const doc = new SDocument();
    const button = el(doc, "button", "", ["Timeline"], { "aria-controls": "p1" });
    button.hidden = true;
    const panel = el(doc, "div", "mn-tl", ["bars"], { id: "p1" });
    panel.hidden = true;
    const hidden = el(doc, "div", "", ["secret"]);
    hidden.hidden = true;
    const root = el(doc, "div", "mn-card", [
      button,
      panel,
      hidden,
      el(doc, "input", "", [], { value: "typed" }),
      el(doc, "textarea", "", ["draft"]),
      el(doc, "select"),
      el(doc, "span", "", [], { "aria-hidden": "true" }),
      el(doc, "span", "", ["kept"], { onclick: "x()", onmouseover: "y()" }),
    ]);
    const { html } = serialize(root);
    expect(html).toBe(`<div class="mn-card" style="${CLASS_STYLES["mn-card"]}"><span>kept</span></div>`);
  });

  it("styles each element from the palette, its own inline style after", () => {
    const doc = new SDocument();
    const pre = el(doc, "pre", "mn-json", ["{}"]);
    const bar = el(doc, "div", "mn-tl-seg mn-tl-exec");
    asCss(bar).left = "10%";
    asCss(bar).width = "25%";
    const { html } = serialize(el(doc, "div", "mn-card", [pre, bar, el(doc, "span", "mn-unknown-class", ["x"])]));
    const read = parse(html).firstElementChild;
    expect(read?.getAttribute("style")).toBe(CLASS_STYLES["mn-card"]);
    expect(read?.querySelector("pre")?.getAttribute("style")).toBe(TAG_STYLES.pre);
    const own = styleOf("div", ["mn-tl-seg", "mn-tl-exec"]);
    expect(own).toContain(CLASS_STYLES["mn-tl-seg"]);
    expect(read?.querySelector(".mn-tl-seg")?.getAttribute("style")).toBe(`${own};left:10%;width:25%`);
    expect(read?.querySelector(".mn-unknown-class")?.hasAttribute("style")).toBe(false);
    expect(styleOf("td", ["mn-tone-error"])).toBe(`${TAG_STYLES.td};${CLASS_STYLES["mn-tone-error"]}`);
  });

  it(`splits long JSON into its first ${SHORT_LINES} lines and the rest behind "show all"`, () => {
    const doc = new SDocument();
    const lines = Array.from({ length: 20 }, (_, i) => `  "k${i}": "<${i}>",`);
    const pre = el(doc, "pre", "mn-json mn-json-cut", [lines.join("\n")]);
    const toggle = el(doc, "button", "mn-show-all", ["show all 20 lines"]);
    const { html } = serialize(el(doc, "div", "mn-json-long", [pre, toggle]));
    const read = parse(html).firstElementChild;
    const [first, rest] = [...(read?.querySelectorAll("pre") ?? [])];
    expect(first?.parentElement).toBe(read);
    expect(first?.textContent).toBe(lines.slice(0, SHORT_LINES).join("\n"));
    expect(first?.getAttribute("style")).toMatch(/^margin-bottom:0;/);
    const more = read?.querySelector("details[data-mn-show-all]") as HTMLDetailsElement;
    expect(more.open).toBe(false);
    expect(more.querySelector("summary[data-mn-control]")?.textContent).toBe("show all 20 lines");
    expect(rest?.parentElement).toBe(more);
    expect(rest?.textContent).toBe(lines.slice(SHORT_LINES).join("\n"));
    expect(read?.querySelector("button")).toBeNull();
    expect(html).not.toContain("<0>");
  });
});

describe("the string DOM behaves as a browser's where the serializer relies on it", () => {
  it("writes no attribute whose name could close its tag", () => {
    const doc = new SDocument();
    const link = el(doc, "a", "", ["x"]);
    link.setAttribute('x" onload="z', "1");
    link.setAttribute("data-ok", "1");
    const { html } = serialize(el(doc, "div", "", [link]));
    expect(html).not.toContain("onload");
    expect(html).toContain('data-ok="1"');
  });

  it("reads raw HTML's text with its character references read", () => {
    const doc = new SDocument();
    const raw = new SRaw("<p>a &amp; b &lt;c&gt; &#x41;&#66;</p>");
    expect(raw.textContent).toBe("a & b <c> AB");
    expect(doc.rawFragment("<b>x &quot;y&quot;</b>").textContent).toBe('x "y"');
  });

  it("leaves a node inserted before itself where it is", () => {
    const doc = new SDocument();
    const [a, b, c] = ["a", "b", "c"].map((name) => el(doc, "i", name));
    const parent = el(doc, "div", "", [a as SElement, b as SElement, c as SElement]);
    parent.insertBefore(b as SElement, b as SElement);
    (b as SElement).before(b as SElement);
    expect(parent.children.map((child) => child.className)).toEqual(["a", "b", "c"]);
  });
});
