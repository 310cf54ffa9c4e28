/**
 * A step's "Request" toggle (issue 19, part 2): labelled by the kernel; nothing drawn and nothing
 * asked until it opens; opening asks the kernel for that step's request and draws its answer as
 * text (history folded, this step's new messages open, tools' schemas folded, settings); with no
 * kernel it says where the request is; a static page answers from the requests it embeds.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { drawRequest, NO_KERNEL_MS } from "../src/render/request";
import { mountStatic } from "../src/widget";
import { add, click, drawn, FakeModel, root, show, snapshot } from "./helpers";

const HOSTILE = '<img src=x onerror="alert(1)">';

const STEP = {
  index: 2,
  finish_reason: "stop",
  request_summary: "system · 3 messages (1 history) · 1 tool · temperature 0.3",
};

/** The kernel's bounded answer for step n1 (core/request_bounded.py's shape). */
const REPLY = {
  t: "request",
  id: "n1",
  where: "result.steps[1].request",
  request: {
    system: `You are terse. ${HOSTILE}`,
    settings: { model: "claude-sonnet-4-5", temperature: 0.3 },
    provider: "anthropic.messages",
    source: "stream",
    new_from: 1,
    message_count: 3,
    tool_count: 1,
    where: "result.steps[1].request",
    messages: [
      { i: 0, role: "user", new: false, parts: [{ type: "text", text: "What is the weather?" }] },
      {
        i: 1,
        role: "assistant",
        new: true,
        parts: [{ type: "tool-call", id: "c1", name: "getWeather", args: { city: "Paris" } }],
      },
      { i: 2, role: "tool", new: true, parts: [{ type: "tool-result", id: "c1", name: "getWeather", result: { c: 18 } }] },
    ],
    tools: [{ name: "getWeather", description: "The weather now", input_schema: { type: "object" } }],
    omitted: { messages: 2 },
    cut: true,
  },
};

const asked = (model: FakeModel) => model.sent.filter((m) => (m as { t: string }).t === "request");

describe("the Request toggle", () => {
  afterEach(() => vi.useRealTimers());

  it("shows the kernel's caption, asks nothing and draws nothing until opened", async () => {
    const model = new FakeModel();
    const el = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "step", STEP)]));
    const toggle = await drawn(el, ".mn-request-toggle");
    expect(toggle.textContent).toBe(`Request · ${STEP.request_summary}`);
    expect(el.querySelector<HTMLElement>(".mn-request")?.hidden).toBe(true);
    expect(el.querySelector(".mn-request")?.childElementCount).toBe(0);
    expect(asked(model)).toEqual([]);
  });

  it("is not there for a step with no label and no reason", async () => {
    const model = new FakeModel();
    const el = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "step", { index: 1 })]));
    const toggle = await drawn(el, ".mn-request-toggle");
    expect((toggle as HTMLElement).hidden).toBe(true);
  });

  it("asks the kernel when opened and draws its answer as text", async () => {
    const model = new FakeModel();
    const el = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "step", STEP)]));
    click(await drawn(el, ".mn-request-toggle"));
    expect(asked(model)).toEqual([{ t: "request", id: "n1" }]);
    const panel = el.querySelector<HTMLElement>(".mn-request");
    expect(panel?.hidden).toBe(false);
    expect(panel?.textContent).toContain("Asking the kernel");
    model.receive(REPLY);
    const text = panel?.textContent ?? "";
    expect(text).toContain("System prompt");
    expect(text).toContain(`You are terse. ${HOSTILE}`); // as text
    expect(el.querySelector("img")).toBeNull();
    expect(text).toContain("Messages (3)");
    const history = panel?.querySelector<HTMLDetailsElement>(".mn-request-history");
    expect(history?.open).toBe(false); // history folded
    expect(history?.textContent).toContain("What is the weather?");
    const fresh = [...(panel?.querySelectorAll(".mn-request-message.mn-role-new") ?? [])];
    expect(fresh.map((m) => m.querySelector(".mn-request-role")?.textContent)).toEqual(["assistant", "tool"]);
    expect(fresh[0]?.textContent).toContain("tool call getWeather");
    const tool = panel?.querySelector<HTMLDetailsElement>("details.mn-request-tool");
    expect(tool?.open).toBe(false); // schema folded
    expect(tool?.querySelector("summary")?.textContent).toBe("getWeather — The weather now");
    expect(text).toContain("temperature: 0.3");
    expect(text).toContain("2 messages left out");
    expect(text).toContain("The whole request is in result.steps[1].request.");
  });

  it("closing empties the panel; an answer after it is dropped", async () => {
    const model = new FakeModel();
    const el = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "step", STEP)]));
    const toggle = await drawn(el, ".mn-request-toggle");
    click(toggle);
    click(toggle);
    model.receive(REPLY);
    const panel = el.querySelector<HTMLElement>(".mn-request");
    expect(panel?.hidden).toBe(true);
    expect(panel?.childElementCount).toBe(0);
  });

  it("with no kernel, says where the request is instead of waiting forever", async () => {
    const model = new FakeModel();
    const el = show(model);
    model.receive(snapshot(0, [root(), add("root", "n1", "step", STEP)]));
    const toggle = await drawn(el, ".mn-request-toggle");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    click(toggle);
    vi.advanceTimersByTime(NO_KERNEL_MS);
    const text = el.querySelector(".mn-request")?.textContent ?? "";
    expect(text).toContain("No kernel answers");
    expect(text).toContain("result.steps[1].request");
  });

  it("a step with no request says why, from the kernel", async () => {
    const model = new FakeModel();
    const el = show(model);
    const reason = "The stream carried no request for this step: serve with redact: false.";
    model.receive(snapshot(0, [root(), add("root", "n1", "step", { index: 1, request_reason: reason })]));
    const toggle = await drawn(el, ".mn-request-toggle");
    expect(toggle.textContent).toBe("Request · not carried");
    click(toggle);
    model.receive({ t: "request", id: "n1", request: null, reason, where: "result.steps[0].request" });
    expect(el.querySelector(".mn-request")?.textContent).toBe(reason);
  });

  it("a static page answers from the requests it embeds", () => {
    const el = document.createElement("div");
    document.body.append(el);
    const { t: _t, id: _id, ...shown } = REPLY;
    mountStatic(el, snapshot(1, [root(), add("root", "n1", "step", STEP)]), { budgetMs: Infinity, requests: { n1: shown } });
    click(el.querySelector(".mn-request-toggle"));
    expect(el.querySelector(".mn-request")?.textContent).toContain("getWeather");
  });
});

describe("a request that teaches (issue 32)", () => {
  it("says where a tool call and result Mastra's trace abbreviated came from, with their values", () => {
    const note = "from the run's tool call (Mastra's trace abbreviates it)";
    const parts = [
      { type: "tool-call", id: "c1", name: "getWeather", args: { city: "Paris" }, note },
      { type: "tool-result", id: "c1", name: "getWeather", result: { temperatureC: 18 }, note },
    ];
    const request = { source: "trace", messages: [{ i: 0, role: "assistant", new: true, parts }], tools: [], settings: {} };
    const el = document.createElement("div");
    el.append(...drawRequest({ request, where: null } as never));
    expect([...el.querySelectorAll(".mn-request-note")].map((n) => n.textContent)).toEqual([note, note]);
    expect(el.textContent).toContain('"city": "Paris"');
  });

  it("shows each system message apart with the agent it came from", () => {
    const system_messages = [
      { text: "You are the analyst.", agent: "analyst" },
      { text: "You are the supervisor.", agent: "supervisor" },
    ];
    const request = { source: "trace", system: "You are the analyst.\n\nYou are the supervisor.", system_messages, messages: [], tools: [], settings: {} };
    const el = document.createElement("div");
    el.append(...drawRequest({ request, where: null } as never));
    expect([...el.querySelectorAll(".mn-label")].slice(0, 2).map((n) => n.textContent)).toEqual([
      "System message · from analyst",
      "System message · from supervisor",
    ]);
    expect([...el.querySelectorAll(".mn-request-system")].map((n) => n.textContent)).toEqual(["You are the analyst.", "You are the supervisor."]);
  });
});
