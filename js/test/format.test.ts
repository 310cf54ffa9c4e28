import { describe, expect, it } from "vitest";
import { compactJson, runFigures, summarizeArgs, summarizeText, summarizeValue, truncate } from "../src/format";

describe("compact JSON", () => {
  it("keeps short values on one line and breaks only wide ones", () => {
    expect(compactJson({ temp: 21 })).toBe('{"temp": 21}');
    expect(compactJson([])).toBe("[]");
    expect(compactJson("plain text")).toBe("plain text");
    const day = { day: 1, highC: 16, lowC: 10, conditions: "overcast" };
    expect(compactJson({ city: "Berlin", forecast: [day, day] }, 72)).toBe(
      [
        "{",
        '  "city": "Berlin",',
        '  "forecast": [',
        '    {"day": 1, "highC": 16, "lowC": 10, "conditions": "overcast"},',
        '    {"day": 1, "highC": 16, "lowC": 10, "conditions": "overcast"}',
        "  ]",
        "}",
      ].join("\n"),
    );
  });

  it("fills lines with scalars of a long list", () => {
    const text = compactJson(Array.from({ length: 60 }, (_, i) => i));
    expect(text.split("\n").length).toBe(6); // [, 4 lines of numbers, ]
    expect(JSON.parse(text)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it("is valid JSON of the same value", () => {
    const value = { a: [1, "two", null, { b: true, c: [[], {}] }], long: "y".repeat(100), d: { e: { f: "g" } } };
    expect(JSON.parse(compactJson(value, 20))).toEqual(value);
  });

  it("does not fail on values nested too deep for recursion", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(() => compactJson(deep)).not.toThrow();
  });
});

describe("summaries of folded cards", () => {
  it("summarizes arguments as key=value, first keys only", () => {
    expect(summarizeArgs({ city: "Paris", days: 3 })).toBe('city="Paris", days=3');
    expect(summarizeArgs({ q: { deep: 1 }, list: [1, 2, 3] })).toBe("q={…}, list=[3]");
    const many = summarizeArgs(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])));
    expect(many.length).toBeLessThanOrEqual(48);
    expect(many.startsWith("k0=0, k1=1")).toBe(true);
    expect(many.endsWith("…")).toBe(true);
    expect(summarizeArgs(null)).toBe("");
  });

  it("summarizes values short: strings by their first line, objects by first keys", () => {
    expect(summarizeValue({ temp: 21, sky: "clear" })).toBe('{temp: 21, sky: "clear"}');
    expect(summarizeValue("first line\nsecond")).toBe('"first line…"');
    expect(summarizeValue([1, [2], { a: 1 }])).toBe("[1, [1], {…}]");
    expect(summarizeValue("z".repeat(500), 40).length).toBe(40);
    expect(summarizeValue(null)).toBe("null");
  });

  it("drops direction controls from summaries", () => {
    expect(summarizeText("a\u202eb\u2066c")).toBe("abc");
    expect(summarizeValue({ k: "x\u202ey" })).toBe('{k: "xy"}');
  });

  it("truncates with an ellipsis", () => {
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(truncate("abc", 4)).toBe("abc");
  });
});

describe("the kernel's figures", () => {
  it("are read as shipped strings, anything else left out", () => {
    expect(runFigures({ figures: { duration: "1.2 s", tokens_per_second: "52.1", bogus: 3 } })).toEqual({
      duration: "1.2 s",
      tokens_per_second: "52.1",
    });
    expect(runFigures({})).toEqual({});
    expect(runFigures(undefined)).toEqual({});
    expect(runFigures({ figures: "1.2 s" })).toEqual({});
  });
});
