import { describe, expect, it } from "vitest";
import { hideOwnTranscripts, transcriptRule } from "../src/transcripts";

// a key of this file's own: the document's sheet of drawn views is shared with the other test files
const KEY = `a${crypto.randomUUID().replaceAll("-", "")}`.slice(0, 32); // a letter in it: upper case differs

function sheetRules(): string[] {
  const style = document.getElementById("mn-drawn-views") as HTMLStyleElement | null;
  return Array.from(style?.sheet?.cssRules ?? []).map((rule) => rule.cssText);
}

describe("a drawn view hides its own transcripts", () => {
  it("adds one rule per view key, once, to one shared stylesheet", () => {
    const before = sheetRules().length;
    hideOwnTranscripts(document, KEY);
    hideOwnTranscripts(document, KEY);
    hideOwnTranscripts(document, crypto.randomUUID().replaceAll("-", ""));
    const rules = sheetRules().slice(before);
    expect(rules).toHaveLength(2);
    expect(rules[0]).toContain(`.mastra-notebook-transcript.mn-transcript-of-${KEY}`);
    expect(rules[0]).toContain("display: none");
    expect(document.querySelectorAll("#mn-drawn-views")).toHaveLength(1);
  });

  it("ignores anything but a view key (a key becomes a selector: nothing else may)", () => {
    const before = sheetRules().length;
    for (const bad of [undefined, "", "x} body{display:none", KEY.toUpperCase(), `${KEY}0`, 42]) {
      hideOwnTranscripts(document, bad);
    }
    expect(sheetRules()).toHaveLength(before);
  });

  it("hides that view's transcript and no other", () => {
    const other = "fedcba9876543210fedcba9876543210";
    document.body.innerHTML = `
      <div id="own" class="mastra-notebook-transcript mn-transcript-of-${KEY}">own</div>
      <div id="other" class="mastra-notebook-transcript mn-transcript-of-${other}">other</div>
      <div id="alone" class="mastra-notebook-transcript">a RunResult</div>`;
    hideOwnTranscripts(document, KEY);
    const shown = (id: string) => getComputedStyle(document.getElementById(id) as HTMLElement).display;
    expect(shown("own")).toBe("none");
    expect(shown("other")).not.toBe("none");
    expect(shown("alone")).not.toBe("none");
    expect(transcriptRule(KEY)).toContain(KEY);
  });
});
