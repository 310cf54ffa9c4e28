/** The review queue (src/views/review.ts, src/review-widget.ts): keys, the comment box, progress. */
import { afterEach, describe, expect, it } from "vitest";
import { type ReviewMessage, type ReviewState, mountReview, readReview } from "../src/views/review";
import { type ReviewModel, renderReview } from "../src/review-widget";

function state(change: Partial<ReviewState> = {}): ReviewState {
  return readReview({
    position: 11,
    total: 60,
    progress: "12 of 60",
    reviewer: "ana",
    note: "Labels are written to exp/review.json as they are made, not sent to Mastra: these runs name no Mastra trace.",
    pairwise: false,
    done: false,
    place: "#4 · concise",
    input: "What is 2 + 2?",
    expected: "4",
    rubric: { thumbs: true, scale: [1, 5], categories: ["wrong", "terse"], comment: true },
    given: null,
    skipped: false,
    status: "",
    runs: [{ name: "concise", ops: [], title: "concise", subtitle: "What is 2 + 2?", requests: {} }],
    error: "",
    ...change,
  });
}

const drawn: string[] = [];
function mounted(first: ReviewState) {
  const sent: ReviewMessage[] = [];
  const el = document.createElement("div");
  document.body.append(el);
  const review = mountReview(el, (msg) => void sent.push(msg), (host, run) => {
    drawn.push(run.name);
    host.textContent = `run view of ${run.name}`;
    return () => void drawn.push(`ended ${run.name}`);
  });
  review.show(first);
  const root = () => el.querySelector(".mn-review") as HTMLElement;
  const key = (key: string, init: KeyboardEventInit = {}, target: HTMLElement = root()) => {
    const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(event);
    return event;
  };
  return { el, sent, review, root, key };
}

afterEach(() => {
  document.body.innerHTML = "";
  drawn.length = 0;
});

describe("the review queue", () => {
  it("shows the progress, the reviewer, the input and expected answer, the note and the run", () => {
    const { el } = mounted(state());
    expect(el.querySelector(".mn-review-progress")?.textContent).toBe("12 of 60");
    expect(el.querySelector(".mn-review-reviewer")?.textContent).toBe("reviewer ana");
    expect(el.querySelector(".mn-review-input .mn-review-text")?.textContent).toBe("What is 2 + 2?");
    expect(el.querySelector(".mn-review-expected .mn-review-text")?.textContent).toBe("4");
    expect(el.querySelector(".mn-review-note")?.textContent).toContain("not sent to Mastra");
    expect(el.querySelector(".mn-review-run-view")?.textContent).toBe("run view of concise");
    expect([...el.querySelectorAll(".mn-review-score")].map((b) => b.textContent)).toEqual(["1", "2", "3", "4", "5"]);
    expect(el.querySelector(".mn-review-keys")?.textContent).toBe(
      "keys: n/p next/previous · 1–5 score · Shift+1–2 category · u/d thumbs · s skip · c comment (Escape leaves it)",
    );
  });

  it("takes a score by digit, thumbs by u/d, a category by Shift+digit, and labels on n", () => {
    const { sent, key, el } = mounted(state());
    key("4", { code: "Digit4" });
    key("u");
    key("@", { code: "Digit2", shiftKey: true });
    expect(el.querySelector(".mn-review-score.mn-review-on")?.textContent).toBe("4");
    expect(sent).toEqual([]);
    key("n");
    expect(sent).toEqual([{ label: { thumbs: "up", score: 4, category: "terse", comment: null, choice: null } }]);
  });

  it("moves with n/p and the arrows; s skips; nothing given, n only moves on", () => {
    const { sent, key } = mounted(state());
    key("n");
    key("ArrowRight");
    key("p");
    key("ArrowLeft");
    key("s");
    key("9", { code: "Digit9" }); // off the scale: nothing
    expect(sent).toEqual([{ go: "next" }, { go: "next" }, { go: "previous" }, { go: "previous" }, { skip: true }]);
  });

  it("stops every key it takes: JupyterLab's shortcuts never see them", () => {
    const { key } = mounted(state());
    const seen: string[] = [];
    document.addEventListener("keydown", (event) => void seen.push(event.key));
    for (const name of ["a", "b", "d", "1", "n", "x", "Escape"]) key(name);
    expect(seen).toEqual([]);
    const run = key("Enter", { shiftKey: true }); // running the cell stays the notebook's
    expect(seen).toEqual(["Enter"]);
    expect(run.defaultPrevented).toBe(false);
    expect(mounted(state()).root().getAttribute("data-lm-suppress-shortcuts")).toBe("true");
  });

  it("the comment box keeps the keys typed in it; Escape leaves it, and the keys work again", () => {
    const { sent, key, root, el } = mounted(state());
    key("c");
    const box = el.querySelector("textarea.mn-review-comment") as HTMLTextAreaElement;
    expect(document.activeElement).toBe(box);
    for (const name of ["n", "p", "s", "4", "u"]) {
      const event = key(name, {}, box);
      expect(event.defaultPrevented).toBe(false); // typed into the box
    }
    box.value = "nps4u";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    expect(sent).toEqual([]);
    key("Escape", {}, box);
    expect(document.activeElement).toBe(root());
    key("n");
    expect(sent).toEqual([{ label: { thumbs: null, score: null, category: null, comment: "nps4u", choice: null } }]);
  });

  it("a pairwise review draws both runs side by side and takes a, b and t", () => {
    const pair = state({
      pairwise: true,
      rubric: { thumbs: false, scale: null, categories: [], comment: false },
      runs: [
        { name: "a · concise", ops: [], title: "", subtitle: "", requests: {} },
        { name: "b · verbose", ops: [], title: "", subtitle: "", requests: {} },
      ],
    });
    const { sent, key, el } = mounted(pair);
    expect(el.querySelector(".mn-review-runs.mn-review-pair")).not.toBeNull();
    const views = [...el.querySelectorAll<HTMLElement>(".mn-review-run-view")];
    expect(views.map((view) => view.dataset.name)).toEqual(["a · concise", "b · verbose"]);
    key("b");
    key("t");
    key("Enter");
    expect(sent).toEqual([{ label: { thumbs: null, score: null, category: null, comment: null, choice: "tie" } }]);
  });

  it("keeps the runs' views while only the label changes, and draws them again for the next item", () => {
    const { review, key } = mounted(state());
    key("3", { code: "Digit3" });
    review.show(state({ status: "labelled: kept here" }));
    expect(drawn).toEqual(["concise"]);
    review.show(state({ position: 12, progress: "13 of 60", place: "#5 · concise" }));
    expect(drawn).toEqual(["concise", "ended concise", "concise"]);
  });

  it("a new item starts from its kept label; the done queue says so", () => {
    const { review, el } = mounted(state());
    review.show(state({ position: 3, place: "#1 · x", given: { thumbs: "down", score: 2, category: null, comment: "meh", choice: null } }));
    expect(review.draft()).toMatchObject({ thumbs: "down", score: 2, comment: "meh" });
    expect((el.querySelector("textarea") as HTMLTextAreaElement).value).toBe("meh");
    review.show(state({ position: 60, done: true, progress: "done: 60 of 60 labelled", place: "" }));
    expect(el.querySelector(".mn-review-done")).not.toBeNull();
    expect(el.querySelector(".mn-review-progress")?.textContent).toBe("done: 60 of 60 labelled");
  });

  it("draws hostile text as text", () => {
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const { el } = mounted(state({ input: hostile, expected: hostile, reviewer: hostile }));
    expect(el.querySelector("img, script")).toBeNull();
    expect(el.querySelector(".mn-review-input .mn-review-text")?.textContent).toBe(hostile);
  });

  it("the widget draws the model's state and sends what the reviewer did", () => {
    let value: unknown = state({ runs: [] });
    const listeners: (() => void)[] = [];
    const sent: unknown[] = [];
    const model: ReviewModel = {
      get: () => value,
      on: (_e, callback) => void listeners.push(callback),
      off: (_e, callback) => void listeners.splice(listeners.indexOf(callback) >>> 0, 1),
      send: (msg) => void sent.push(msg),
    };
    const el = document.createElement("div");
    document.body.append(el);
    const close = renderReview({ model, el });
    expect(el.querySelector(".mn-review-progress")?.textContent).toBe("12 of 60");
    value = state({ runs: [], position: 12, progress: "13 of 60" });
    for (const listener of listeners) listener();
    expect(el.querySelector(".mn-review-progress")?.textContent).toBe("13 of 60");
    (el.querySelector("[data-skip]") as HTMLButtonElement).click();
    expect(sent).toEqual([{ skip: true }]);
    close();
    expect(listeners).toEqual([]);
  });
});
