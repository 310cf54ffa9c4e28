import { describe, expect, it } from "vitest";
import { adoptStyles } from "../src/styles";

const CSS = ".mn-root { color: rgb(1, 2, 3); }";

/** Frames run when the test says (a view attached a few frames after it rendered). */
function manualFrames() {
  const queue: (() => void)[] = [];
  return {
    frame: (callback: () => void) => void queue.push(callback),
    next: () => queue.splice(0).forEach((callback) => callback()),
    get waiting() {
      return queue.length;
    },
  };
}

function stylesIn(scope: ParentNode, key: string): number {
  return scope.querySelectorAll(`style[data-mn-styles="${key}"]`).length;
}

describe("the widget's styles are added once where views draw", () => {
  it("adds one style element to the document however many views draw", () => {
    for (let i = 0; i < 5; i++) {
      const el = document.createElement("div");
      document.body.append(el);
      adoptStyles(el, CSS, "v1");
    }
    expect(stylesIn(document.head, "v1")).toBe(1);
    expect(document.head.querySelector('style[data-mn-styles="v1"]')?.textContent).toBe(CSS);
  });

  it("keeps the style element it added: a later view never rewrites it (that restyles the page)", () => {
    const before = document.head.querySelector('style[data-mn-styles="v1"]');
    const el = document.createElement("div");
    document.body.append(el);
    adoptStyles(el, CSS, "v1");
    expect(document.head.querySelector('style[data-mn-styles="v1"]')).toBe(before);
  });

  it("adds another version's styles beside the first", () => {
    const el = document.createElement("div");
    document.body.append(el);
    adoptStyles(el, ".mn-root { color: red; }", "v2");
    expect(stylesIn(document.head, "v1")).toBe(1);
    expect(stylesIn(document.head, "v2")).toBe(1);
  });

  it("adds them to a shadow root the view is in, once", () => {
    const host = document.createElement("div");
    document.body.append(host);
    const shadow = host.attachShadow({ mode: "open" });
    for (let i = 0; i < 3; i++) {
      const el = document.createElement("div");
      shadow.append(el);
      adoptStyles(el, CSS, "v1");
    }
    expect(stylesIn(shadow, "v1")).toBe(1);
    expect(stylesIn(document.head, "v1")).toBe(1);
  });

  it("waits for a view the host attaches after rendering it, then styles its shadow root", () => {
    const frames = manualFrames();
    const host = document.createElement("div");
    document.body.append(host);
    const shadow = host.attachShadow({ mode: "open" });
    const el = document.createElement("div");
    adoptStyles(el, CSS, "v3", frames.frame);
    expect(stylesIn(document.head, "v3")).toBe(1); // the document at once: no unstyled frame
    frames.next();
    expect(stylesIn(shadow, "v3")).toBe(0);
    shadow.append(el);
    frames.next();
    expect(stylesIn(shadow, "v3")).toBe(1);
    expect(frames.waiting).toBe(0); // styled: no longer watched
  });

  it("stops watching a view that is never attached", () => {
    const frames = manualFrames();
    adoptStyles(document.createElement("div"), CSS, "v4", frames.frame);
    let rounds = 0;
    while (frames.waiting > 0 && rounds < 1000) {
      frames.next();
      rounds++;
    }
    expect(frames.waiting).toBe(0);
    expect(rounds).toBeLessThan(1000);
  });
});
