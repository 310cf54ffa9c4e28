/** A run's scores in the header: "scoring…" while they are awaited, then the badges the kernel wrote. */
import { describe, expect, it } from "vitest";
import { mount } from "./helpers";

const badges = [
  { text: "answer-length 0.7", tone: "neutral", title: "answer-length (Mastra scorer): 14 words; score 0.7" },
  { text: "exact 0 ✗", tone: "error", title: "exact (Python scorer)" },
];

describe("the header's scores", () => {
  it('says "scoring…" while the scores are awaited', () => {
    const { el } = mount([], { status: "finished", scoring: true });
    const shown = el.querySelector<HTMLElement>(".mn-header .mn-head-scores");
    expect(shown?.hidden).toBe(false);
    expect(shown?.textContent).toBe("scoring…");
  });

  it("draws a badge per score as the kernel wrote it, its reason on hover", () => {
    const { el } = mount([], { status: "finished", score_badges: badges });
    const drawn = [...el.querySelectorAll<HTMLElement>(".mn-header .mn-head-scores > .mn-badge")];
    expect(drawn.map((b) => b.textContent)).toEqual(["answer-length 0.7", "exact 0 ✗"]);
    expect(drawn.map((b) => b.title)).toEqual(badges.map((b) => b.title));
    expect(drawn[1]?.classList.contains("mn-tone-error")).toBe(true);
  });

  it("shows nothing for a run without scores", () => {
    const { el } = mount([], { status: "finished" });
    const shown = el.querySelector<HTMLElement>(".mn-header .mn-head-scores");
    expect(shown?.hidden).toBe(true);
    expect(shown?.childElementCount).toBe(0);
  });
});

describe("the footer's scores row", () => {
  const rows = [
    { ...badges[0], scorer: "answer-length", value: "0.7", reason: "14 words; score 0.7" },
    { ...badges[1], scorer: "exact", value: "0 ✗", reason: "" },
  ];

  it("shows each score's scorer, value with its mark, and reason (folded, whole on hover)", () => {
    const { el } = mount([], { status: "finished", score_badges: rows });
    const row = el.querySelector<HTMLElement>(".mn-footer .mn-score-row");
    expect(row?.hidden).toBe(false);
    const drawn = [...(row?.querySelectorAll<HTMLElement>(".mn-score") ?? [])];
    expect(drawn.map((s) => s.dataset.score)).toEqual(["answer-length", "exact"]);
    expect(drawn.map((s) => s.querySelector(".mn-stat-label")?.textContent)).toEqual(["answer-length", "exact"]);
    expect(drawn.map((s) => s.querySelector(".mn-stat-value")?.textContent)).toEqual(["0.7", "0 ✗"]);
    expect(drawn.map((s) => s.dataset.tone)).toEqual(["neutral", "error"]);
    const reason = drawn[0]?.querySelector<HTMLElement>(".mn-score-reason");
    expect(reason?.textContent).toBe("14 words; score 0.7");
    expect(reason?.title).toBe("14 words; score 0.7");
    expect(drawn[1]?.querySelector(".mn-score-reason")).toBeNull(); // no reason given: none drawn
  });

  it("draws a hostile reason as text", () => {
    const hostile = "<img src=x onerror=alert(1)>";
    const { el } = mount([], { status: "finished", score_badges: [{ ...rows[1], reason: hostile }] });
    const reason = el.querySelector<HTMLElement>(".mn-footer .mn-score-reason");
    expect(reason?.textContent).toBe(hostile);
    expect(el.querySelector(".mn-footer img")).toBeNull();
  });

  it("is hidden for a run without scores", () => {
    const { el } = mount([], { status: "finished" });
    const row = el.querySelector<HTMLElement>(".mn-footer .mn-score-row");
    expect(row?.hidden).toBe(true);
    expect(row?.childElementCount).toBe(0);
  });
});
