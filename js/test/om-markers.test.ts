import { describe, expect, it } from "vitest";
import { add, mount, nodeEl } from "./helpers";

// the markers as Mastra's observational memory streams them: {type, data, transient}, no runId or payload
const STATUS = { windows: { active: { messages: { tokens: 48, threshold: 60 }, observations: { tokens: 0, threshold: 100000 } } } };
const END = { cycleId: "c1", tokensObserved: 116, observationTokens: 65, durationMs: 119, observations: "* User said: <b>hi</b>" };

describe("observational memory's markers", () => {
  it("say what they are, with their token counts, and keep their value", () => {
    const { el } = mount([
      add("root", "s", "data", { type: "data-om-status", data: STATUS }),
      add("root", "b", "data", { type: "data-om-observation-start", data: { tokensToObserve: 116 } }),
      add("root", "e", "data", { type: "data-om-observation-end", data: END }),
      add("root", "o", "data", { type: "data-om-buffering-start", data: null }),
      add("root", "p", "data", { type: "data-progress", data: { pct: 10 } }),
    ]);
    const said = (id: string) => [".mn-kind-label", ".mn-name"].map((s) => nodeEl(el, id).querySelector(s)?.textContent);
    expect(said("s")).toEqual(["Observational memory", "status: messages 48 of 60 tokens before observing"]);
    expect(said("b")).toEqual(["Observational memory", "observing 116 tokens"]);
    expect(said("e")).toEqual(["Observational memory", "observed 116 tokens into 65 in 119 ms"]);
    expect(said("o")).toEqual(["Observational memory", "buffering-start"]);
    expect(said("p")).toEqual(["Data", "data-progress"]); // another part stays as it was
    expect(nodeEl(el, "e").querySelector("pre")?.textContent).toContain("User said: <b>hi</b>");
    expect(nodeEl(el, "e").querySelector("b")).toBeNull();
  });
});
