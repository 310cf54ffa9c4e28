/** An agreement (src/views/agreement.ts, src/review-widget.ts): the matrix, the disagreeing runs, and
 * a click on one opening the review queue at it. */
import { afterEach, describe, expect, it } from "vitest";
import { type AgreementMessage, drawAgreement, mountAgreement, readAgreement } from "../src/views/agreement";
import render from "../src/review-widget";

const HOSTILE = '<img src=x onerror="alert(1)">';

function state(change: Record<string, unknown> = {}) {
  return readAgreement({
    caption: "exact and labels on 6 runs: Cohen's kappa 0.333; 2 disagree.",
    names: ["exact", "labels"],
    columns: ["False", "True"],
    rows: [
      { label: "False", counts: [1, 0] },
      { label: "True", counts: [2, 3] },
    ],
    disagreements: [
      { place: "#1 · b", first: "True", second: "False" },
      { place: "#2 · b", first: "True", second: HOSTILE },
    ],
    more: 0,
    reviewable: true,
    ...change,
  });
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("an agreement", () => {
  it("draws the caption, the confusion matrix and the runs where the raters disagree", () => {
    const el = drawAgreement(state());
    expect(el.querySelector(".mn-agreement-caption")?.textContent).toContain("kappa 0.333");
    const cells = [...el.querySelectorAll(".mn-agreement-matrix tbody tr")].map((row) =>
      [...row.children].map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      ["False", "1", "0"],
      ["True", "2", "3"],
    ]);
    const runs = [...el.querySelectorAll(".mn-agreement-run")].map((li) => li.firstChild?.textContent);
    expect(runs).toEqual(["#1 · b", "#2 · b"]);
    expect(el.querySelector("img")).toBeNull(); // a label is text
    expect(el.textContent).toContain(HOSTILE);
  });

  it("opens the review queue at the run clicked, or of them all", () => {
    const sent: AgreementMessage[] = [];
    const el = document.createElement("div");
    document.body.append(el);
    const mounted = mountAgreement(el, (msg) => void sent.push(msg));
    mounted.show(state());
    const buttons = [...el.querySelectorAll<HTMLButtonElement>("button[data-review]")];
    expect(buttons.map((b) => b.textContent)).toEqual(["review all 2", "review", "review"]);
    buttons[2]?.click();
    buttons[0]?.click();
    expect(sent).toEqual([{ review: 1 }, { review: -1 }]);
    mounted.close();
    expect(el.childElementCount).toBe(0);
  });

  it("has no buttons when nothing can be reviewed, nor in a saved notebook's drawing", () => {
    expect(drawAgreement(state({ reviewable: false })).querySelector("button")).toBeNull();
    expect(drawAgreement(state(), false).querySelector("button")).toBeNull();
    const more = drawAgreement(state({ more: 3 }));
    expect(more.querySelector(".mn-agreement-more")?.textContent).toBe("… and 3 more (to_dataframe())");
    expect(more.querySelector(".mn-agreement-review")?.textContent).toBe("review all 5");
    expect(readAgreement(undefined)).toMatchObject({ caption: "", rows: [], disagreements: [], reviewable: false });
  });

  it("is drawn by the review queue's bundle when its model holds an agreement", () => {
    let value: unknown = state();
    const listeners: (() => void)[] = [];
    const sent: unknown[] = [];
    const model = {
      get: (name: string) => (name === "agreement" ? value : undefined),
      on: (_e: string, callback: () => void) => void listeners.push(callback),
      off: (_e: string, callback: () => void) => void listeners.splice(listeners.indexOf(callback) >>> 0, 1),
      send: (msg: unknown) => void sent.push(msg),
    };
    const el = document.createElement("div");
    document.body.append(el);
    const close = render.render({ model: model as never, el });
    expect(el.querySelectorAll(".mn-agreement-run")).toHaveLength(2);
    value = state({ disagreements: [] });
    for (const listener of listeners) listener();
    expect(el.querySelectorAll(".mn-agreement-run")).toHaveLength(0);
    close();
    expect(listeners).toEqual([]);
  });
});
