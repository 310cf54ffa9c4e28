/** The header says when the run's request replaced the agent's instructions (the run node's `overrides`). */
import { describe, expect, it } from "vitest";
import { mount } from "./helpers";

const badge = (el: HTMLElement) => el.querySelector<HTMLElement>(".mn-header .mn-overridden");

describe("the header's overrides", () => {
  it('says "instructions overridden" when the request replaced them', () => {
    const { el } = mount([], { status: "finished", overrides: ["instructions", "model_settings"] });
    expect(badge(el)?.textContent).toBe("instructions overridden");
    expect(badge(el)?.title).toContain("result.overrides");
  });

  it("says nothing for other overrides, nor for a run without any", () => {
    expect(badge(mount([], { status: "finished", overrides: ["model_settings"] }).el)).toBeNull();
    expect(badge(mount([], { status: "finished" }).el)).toBeNull();
  });
});
