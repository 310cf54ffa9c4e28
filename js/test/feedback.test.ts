/** The footer's label control (feedback.ts): thumbs, a score and a comment sent to the kernel, the
 * label and its state as the kernel wrote them, and a static page that only shows the label. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { add, liveOnFakeTimers, mount, opsMsg, root, set, snapshot } from "./helpers";

function live(rootFields: Record<string, unknown> = {}) {
  const { model, el, cleanup, frame } = liveOnFakeTimers({ _can_label: true });
  model.receive(snapshot(1, [root({ status: "finished", ...rootFields })]));
  frame();
  const control = el.querySelector<HTMLElement>(".mn-footer .mn-feedback") as HTMLElement;
  const thumb = (value: string) => control.querySelector<HTMLButtonElement>(`[data-thumbs="${value}"]`) as HTMLButtonElement;
  const score = control.querySelector<HTMLInputElement>(".mn-feedback-score") as HTMLInputElement;
  const comment = control.querySelector<HTMLInputElement>(".mn-feedback-comment") as HTMLInputElement;
  const note = control.querySelector<HTMLElement>(".mn-feedback-note") as HTMLElement;
  const labels = () => model.sent.filter((m) => (m as { t: string }).t === "label");
  return { model, el, control, thumb, score, comment, note, labels, cleanup };
}

const kept = {
  thumbs: "down",
  score: 2,
  comment: "too long",
  at: "2026-12-02T02:00:00Z",
  sent_to_mastra: false,
  reason: "Mastra's server keeps no feedback",
};

describe("the footer's label control", () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.replaceChildren();
  });

  it("is a quiet row of thumbs, a score and a comment, nothing pressed, no note", () => {
    const { control, thumb, score, comment, note } = live();
    expect(control.hidden).toBe(false);
    expect(control.hasAttribute("data-mn-control")).toBe(true); // works the view: not the run's text
    expect(thumb("up").getAttribute("aria-pressed")).toBe("false");
    expect(thumb("down").getAttribute("aria-pressed")).toBe("false");
    expect([score.value, comment.value, note.textContent]).toEqual(["", "", ""]);
  });

  it("sends the whole label on a thumb's click; a second click takes it back", () => {
    const { thumb, labels } = live();
    thumb("up").click();
    expect(thumb("up").getAttribute("aria-pressed")).toBe("true");
    thumb("up").click();
    expect(labels()).toEqual([
      { t: "label", thumbs: "up", score: null, comment: null },
      { t: "label", thumbs: null, score: null, comment: null },
    ]);
  });

  it("sends a committed score and comment (change, not each key) with the thumbs chosen", () => {
    const { thumb, score, comment, labels } = live();
    thumb("down").click();
    score.value = "3.5";
    score.dispatchEvent(new Event("change"));
    comment.value = "  missed the city  ";
    comment.dispatchEvent(new Event("input")); // typing sends nothing
    expect(labels()).toHaveLength(2);
    comment.dispatchEvent(new Event("change"));
    expect(labels().at(-1)).toEqual({ t: "label", thumbs: "down", score: 3.5, comment: "missed the city" });
    score.value = "not a number";
    score.dispatchEvent(new Event("change"));
    expect(labels().at(-1)).toEqual({ t: "label", thumbs: "down", score: null, comment: "missed the city" });
  });

  it("shows the label and its state as the kernel wrote them (a label set from Python too)", () => {
    const { model, control, thumb, score, comment, note } = live();
    model.receive(opsMsg(2, [set("root", "feedback", { ...kept, sent_to_mastra: null, reason: null })]));
    model.receive(opsMsg(3, [set("root", "feedback_note", "sending to Mastra…")]));
    vi.advanceTimersByTime(17);
    expect(thumb("down").getAttribute("aria-pressed")).toBe("true");
    expect([score.value, comment.value, note.textContent]).toEqual(["2", "too long", "sending to Mastra…"]);
    model.receive(opsMsg(4, [set("root", "feedback", kept)]));
    model.receive(opsMsg(5, [set("root", "feedback_note", "kept in the notebook: Mastra's server keeps no feedback")]));
    vi.advanceTimersByTime(17);
    expect(note.textContent).toBe("kept in the notebook: Mastra's server keeps no feedback");
    expect(note.title).toBe(note.textContent); // whole on hover when folded
    expect(control.hasAttribute("data-kept")).toBe(true);
    model.receive(opsMsg(6, [set("root", "feedback", { ...kept, sent_to_mastra: true, reason: null })]));
    vi.advanceTimersByTime(17);
    expect(control.hasAttribute("data-sent")).toBe(true);
    expect(control.hasAttribute("data-kept")).toBe(false);
  });

  it("keeps what is being typed when the label changes meanwhile", () => {
    const { model, comment } = live();
    comment.focus();
    comment.value = "half a thou";
    model.receive(opsMsg(2, [set("root", "feedback", { ...kept, comment: "older" })]));
    vi.advanceTimersByTime(17);
    expect(comment.value).toBe("half a thou");
  });

  it("an older label arriving after a newer one was sent does not undo the score entered since", () => {
    const { model, thumb, score, comment, labels } = live();
    thumb("up").click();
    score.value = "4";
    score.dispatchEvent(new Event("change"));
    comment.focus(); // the person moves on to the comment
    // the kernel's answer to the click comes now: it has no score yet
    model.receive(opsMsg(2, [set("root", "feedback", { thumbs: "up", score: null, comment: null })]));
    vi.advanceTimersByTime(17);
    expect(score.value).toBe("4");
    comment.value = "Right, and short.";
    comment.dispatchEvent(new Event("change"));
    expect(labels().at(-1)).toEqual({ t: "label", thumbs: "up", score: 4, comment: "Right, and short." });
    // once the kernel's label says what was sent, it is shown again as the kernel wrote it
    comment.blur();
    model.receive(opsMsg(3, [set("root", "feedback", { thumbs: "up", score: 4, comment: "Right, and short." })]));
    vi.advanceTimersByTime(17);
    model.receive(opsMsg(4, [set("root", "feedback", { ...kept, comment: "from Python" })]));
    vi.advanceTimersByTime(17);
    expect([score.value, comment.value]).toEqual(["2", "from Python"]);
  });

  it("draws a hostile comment and note as text", () => {
    const hostile = "<img src=x onerror=alert(1)>";
    const { el, comment, note } = live({ feedback: { ...kept, comment: hostile }, feedback_note: hostile });
    expect(comment.value).toBe(hostile);
    expect(note.textContent).toBe(hostile);
    expect(el.querySelector(".mn-footer img")).toBeNull();
  });

  it("is on the root run only, not on a nested run's footer", () => {
    const { model, el } = live();
    model.receive(opsMsg(2, [add("root", "sub", "run", { nested: true, status: "finished" })]));
    vi.advanceTimersByTime(17);
    expect(el.querySelectorAll(".mn-footer")).toHaveLength(2);
    expect(el.querySelectorAll(".mn-feedback")).toHaveLength(1);
  });
});

describe("a static page", () => {
  it("shows the label as text, no control", () => {
    const { el } = mount([], { status: "finished", feedback: kept, feedback_note: "kept in the notebook" });
    const shown = el.querySelector<HTMLElement>(".mn-footer .mn-feedback") as HTMLElement;
    expect(shown.hidden).toBe(false);
    expect(shown.querySelector("button, input")).toBeNull();
    expect(shown.querySelector(".mn-feedback-text")?.textContent).toBe("thumbs down · 2 · “too long”");
    expect(shown.querySelector(".mn-feedback-note")?.textContent).toBe("kept in the notebook");
  });

  it("shows nothing for a run without a label", () => {
    const { el } = mount([], { status: "finished" });
    expect(el.querySelector<HTMLElement>(".mn-footer .mn-feedback")?.hidden).toBe(true);
  });
});
