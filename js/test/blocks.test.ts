import { describe, expect, it } from "vitest";
import { BlockSplitter } from "../src/blocks";

describe("BlockSplitter", () => {
  it("closes blocks at blank lines once the next block starts", () => {
    const s = new BlockSplitter();
    expect(s.update("# Title\n\nPara")).toEqual({ reset: false, closed: ["# Title\n\n"], tail: "Para", tailInFence: false });
    expect(s.update("# Title\n\nPara one.\n\n")).toMatchObject({ closed: [], tail: "Para one.\n\n" });
    expect(s.update("# Title\n\nPara one.\n\nNext")).toMatchObject({ closed: ["Para one.\n\n"], tail: "Next" });
  });

  it("does not split inside fenced code", () => {
    const s = new BlockSplitter();
    const text = "```python\na = 1\n\nb = 2\n";
    expect(s.update(text)).toMatchObject({ closed: [], tail: text, tailInFence: true });
    const closedFence = `${text}\`\`\`\n\nAfter`;
    expect(s.update(closedFence)).toMatchObject({ closed: [`${text}\`\`\`\n\n`], tail: "After", tailInFence: false });
  });

  it("needs a closing fence of the same kind and length", () => {
    const s = new BlockSplitter();
    const r = s.update("````md\n```\n\nstill code\n````\n\nout");
    expect(r.closed).toEqual(["````md\n```\n\nstill code\n````\n\n"]);
    expect(s.update("````md\n```\n\nstill code\n````\n\nout\n~~~\n\nx")).toMatchObject({ tailInFence: true, closed: [] });
  });

  it("keeps indented continuations (list items) in the same block", () => {
    const s = new BlockSplitter();
    expect(s.update("- item\n\n  more of the item\n\n- next")).toMatchObject({
      closed: ["- item\n\n  more of the item\n\n"],
      tail: "- next",
    });
  });

  it("resets when the text is not an extension", () => {
    const s = new BlockSplitter();
    s.update("a\n\nb\n\nc");
    expect(s.update("x\n\ny")).toEqual({ reset: true, closed: ["x\n\n"], tail: "y", tailInFence: false });
  });

  it("treats a partial fence line at the end as open code", () => {
    expect(new BlockSplitter().update("Text\n```py")).toMatchObject({ tailInFence: true });
  });
});
