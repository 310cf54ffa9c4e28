import { describe, expect, it } from "vitest";
import { compactJson, runFigures } from "../src/format";

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
