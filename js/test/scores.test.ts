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
