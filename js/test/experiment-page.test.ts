/** The experiment grid's page (src/experiment-page.ts): the kernel's rows shown, redrawn only where changed, "open" sent. */
import { describe, expect, it } from "vitest";
import { type PageModel, readParts, renderPage } from "../src/experiment-page";

function fakeModel(parts: unknown): PageModel & { sent: unknown[]; set(parts: unknown): void } {
  let value = parts;
  const listeners: (() => void)[] = [];
  const sent: unknown[] = [];
  return {
    sent,
    get: () => value,
    on: (_event, callback) => void listeners.push(callback),
    off: (_event, callback) => void listeners.splice(listeners.indexOf(callback) >>> 0, 1),
    send: (msg) => void sent.push(msg),
    set(next) {
      value = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

const row = (id: string, disabled = false) =>
  `<div class="mn-exp-row" data-row="${id}">${id}<button data-open="${id}"${disabled ? " disabled" : ""}>open</button></div>`;

describe("the experiment page", () => {
  it("shows the rows and their style, and reparses only the rows whose HTML changed", () => {
    const model = fakeModel(["gap:4px", row("a"), row("b")]);
    const el = document.createElement("div");
    renderPage({ model, el });
    const rows = el.querySelector(".mn-exp-rows") as HTMLElement;
    expect(rows.getAttribute("style")).toBe("gap:4px");
    const [first, second] = [...rows.children];
    model.set(["gap:4px", row("a"), row("c"), row("d")]);
    expect([...rows.children].map((child) => child.getAttribute("data-row"))).toEqual(["a", "c", "d"]);
    expect(rows.children[0]).toBe(first); // unchanged: the same node
    expect(rows.children[1]).not.toBe(second);
    model.set(["", row("a")]);
    expect(rows.children).toHaveLength(1);
    expect(rows.getAttribute("style")).toBe("");
  });

  it("sends a tile's open, but not a disabled one's, and stops listening when closed", () => {
    const model = fakeModel(["", row("a"), row("b", true)]);
    const el = document.createElement("div");
    document.body.append(el);
    const close = renderPage({ model, el });
    (el.querySelector('[data-open="a"]') as HTMLButtonElement).click();
    (el.querySelector('[data-open="b"]') as HTMLButtonElement).click();
    expect(model.sent).toEqual([{ open: "a" }]);
    close();
    (el.querySelector('[data-open="a"]') as HTMLButtonElement).click();
    model.set(["", row("z")]);
    expect(model.sent).toEqual([{ open: "a" }]);
    expect(el.querySelector('[data-row="z"]')).toBeNull();
    el.remove();
  });

  it("reads anything but a list of strings as no rows", () => {
    expect(readParts(null)).toEqual({ style: "", rows: [] });
    expect(readParts(["s", 3, "<div></div>"])).toEqual({ style: "s", rows: ["", "<div></div>"] });
  });
});
