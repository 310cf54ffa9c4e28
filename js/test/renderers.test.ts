import { describe, expect, it } from "vitest";
import { add, mount, nodeEl, set } from "./helpers";
import { Store } from "../src/store";
import { View } from "../src/view";
import { opsMsg } from "./helpers";

const PNG_1PX =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

describe("reasoning", () => {
  it("draws nothing for an empty block once it ended (encrypted reasoning, a signature)", () => {
    const { el } = mount([
      add("root", "e", "reasoning", { text: "", started_at: 1, ended_at: 2, redacted: false }),
      add("root", "s", "reasoning", { text: "", started_at: 1, ended_at: null, redacted: false }),
    ]);
    expect(nodeEl(el, "e").hidden).toBe(true);
    expect(nodeEl(el, "s").hidden).toBe(false); // still thinking: "Thinking…" is news
  });

  it("is open while streaming and folds with the time when done", () => {
    const store = new Store();
    const host = document.createElement("div");
    const view = new View(host, store, () => {});
    store.subscribe((c) => view.apply(c));
    store.receive(opsMsg(1, [add(null, "root", "run", {}), add("root", "r", "reasoning", { text: "Hmm", started_at: 1000, ended_at: null })]));
    const details = nodeEl(host, "r") as HTMLDetailsElement;
    expect(details.open).toBe(true);
    expect(details.querySelector("summary")?.textContent).toBe("Thinking…");
    expect(details.textContent).toContain("Hmm");
    store.receive(opsMsg(2, [set("r", "ended_at", 4200), set("r", "duration", "3.2 s")])); // the kernel's caption
    expect(details.open).toBe(false);
    expect(details.querySelector("summary")?.textContent).toBe("Thought for 3.2 s");
  });

  it("says when it is redacted", () => {
    const { el } = mount([add("root", "r", "reasoning", { text: "", redacted: true, started_at: 1, ended_at: 2 })]);
    expect(nodeEl(el, "r").querySelector("summary")?.textContent).toBe("Reasoning redacted");
  });
});

describe("source", () => {
  it("links http(s) urls safely", () => {
    const { el } = mount([add("root", "s", "source", { url: "https://example.com/weather", title: "Weather", source_type: "url" })]);
    const a = nodeEl(el, "s").querySelector("a");
    expect(a?.getAttribute("href")).toBe("https://example.com/weather");
    expect(a?.textContent).toBe("Weather");
    expect(a?.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(a?.getAttribute("target")).toBe("_blank");
  });

  it.each(["javascript:alert(1)", "data:text/html,<script>1</script>", "mailto:x@y.z", "/relative"])(
    "shows %s as plain text",
    (url) => {
      const { el } = mount([add("root", "s", "source", { url, title: null })]);
      const s = nodeEl(el, "s");
      expect(s.querySelector("a")).toBeNull();
      expect(s.textContent).toContain(url);
    },
  );

  it("shows a document source by title and filename", () => {
    const { el } = mount([add("root", "s", "source", { source_type: "document", title: "Handbook", filename: "h.pdf", media_type: "application/pdf" })]);
    expect(nodeEl(el, "s").textContent).toContain("Handbook");
    expect(nodeEl(el, "s").textContent).toContain("h.pdf");
  });
});

describe("file", () => {
  it("shows raster images inline from a data: URL it builds", () => {
    const { el } = mount([add("root", "f", "file", { media_type: "image/png", size: 70, base64: PNG_1PX, name: "dot.png" })]);
    const img = nodeEl(el, "f").querySelector("img");
    expect(img?.getAttribute("src")).toBe(`data:image/png;base64,${PNG_1PX}`);
    expect(img?.getAttribute("alt")).toBe("dot.png");
  });

  it.each([
    ["bad base64", { media_type: "image/png", base64: 'AAAA"onerror="x' }],
    ["a url instead of base64", { media_type: "image/png", base64: "https://evil.example/p.png" }],
    ["svg with script", { media_type: "image/svg+xml", base64: btoa('<svg onload="alert(1)"><script>alert(1)</script></svg>') }],
    ["html", { media_type: "text/html", base64: null, text_preview: "<script>alert(1)</script>" }],
  ])("never inlines %s", (_, fields) => {
    const { el } = mount([add("root", "f", "file", { name: "x", size: 2048, size_label: "2.0 KB", ...fields })]);
    const f = nodeEl(el, "f");
    expect(f.querySelector("img, svg, script, iframe")).toBeNull();
    expect(f.textContent).toContain("2.0 KB");
  });

  it("shows the text preview as text", () => {
    const { el } = mount([add("root", "f", "file", { media_type: "text/html", size: 30, size_label: "30 B", name: "a.html", text_preview: "<b>hi</b>" })]);
    const f = nodeEl(el, "f");
    expect(f.querySelector("pre")?.textContent).toBe("<b>hi</b>");
    expect(f.querySelector("b")).toBeNull();
    expect(f.textContent).toContain("a.html");
    expect(f.textContent).toContain("text/html · 30 B");
  });
});

describe("workflow step", () => {
  it("shows name, status, input, output, error, outputs and a nested run", () => {
    const { el } = mount([
      add("root", "w", "workflow-step", {
        step_name: "fetch-weather",
        status: "success",
        input: { city: "Paris" },
        output: { temp: 21 },
        outputs: [{ type: "progress" }],
        started_at: 0,
        ended_at: 250,
        duration: "250 ms", // the kernel's caption (core/captions.py)
      }),
      add("w", "wr", "run", { nested: true, agent_id: "reporter", status: "finished" }),
      add("wr", "wt", "text", { text: "Report" }),
      add("root", "wf", "workflow-step", { step_name: "broken", status: "failed", error: { message: "boom" } }),
    ]);
    const w = nodeEl(el, "w");
    expect(w.querySelector(".mn-name")?.textContent).toBe("fetch-weather");
    expect(w.querySelector(".mn-badge")?.textContent).toBe("done"); // Mastra's success, in the one word for it
    expect(w.querySelector(".mn-input pre")?.textContent).toContain('"city": "Paris"');
    expect(w.querySelector(".mn-output pre")?.textContent).toContain('"temp": 21');
    expect(w.querySelector(".mn-outputs li")?.textContent).toContain("progress");
    expect(w.querySelector(".mn-duration")?.textContent).toBe("250 ms");
    expect(nodeEl(w, "wr").textContent).toContain("Report");
    expect(nodeEl(el, "wf").querySelector(".mn-error")?.textContent).toBe("boom");
  });
});

describe("small parts", () => {
  it("step divider", () => {
    const { el } = mount([add("root", "s", "step", { index: 2, finish_reason: "tool-calls", usage: { input_tokens: 1200, output_tokens: 30 } })]);
    expect(nodeEl(el, "s").textContent).toBe("Step 2 · tool-calls · 1,200 in · 30 out");
  });

  it("background task", () => {
    const { el } = mount([
      add("root", "b", "background-task", {
        task_id: "task-1",
        tool_name: "crunch",
        status: "completed",
        history: ["started", "running", "completed"],
        outputs: [{ pct: 50 }],
        result: { done: true },
      }),
    ]);
    const b = nodeEl(el, "b");
    expect(b.querySelector(".mn-name")?.textContent).toBe("crunch");
    expect(b.querySelector(".mn-badge")?.textContent).toBe("done");
    expect(b.querySelector(".mn-history")?.textContent).toBe("started → running → done");
    expect(b.querySelector(".mn-outputs")?.textContent).toContain("50");
    expect(b.querySelector(".mn-result")?.textContent).toContain('"done": true');
  });

  it("goal with the continues marker", () => {
    const { el } = mount([
      add("root", "g1", "goal", { evaluation: { score: 0.4 }, should_continue: true }),
      add("root", "g2", "goal", { evaluation: { score: 1 }, should_continue: false }),
    ]);
    const marker = (id: string) => nodeEl(el, id).querySelector<HTMLElement>(".mn-card-head .mn-badge");
    expect(marker("g1")?.hidden).toBe(false);
    expect(marker("g1")?.textContent).toBe("continues");
    expect(marker("g2")?.hidden).toBe(true);
    expect(nodeEl(el, "g1").querySelector("pre")?.textContent).toContain('"score": 0.4');
  });

  it("banner", () => {
    const { el } = mount([
      add("root", "b", "banner", { level: "tripwire", message: "Blocked: <b>pii</b>", detail: { processor_id: "pii" } }),
      add("root", "b2", "banner", { level: "evil onclick", message: "x" }),
    ]);
    const b = nodeEl(el, "b");
    expect(b.className).toBe("mn-banner mn-banner-tripwire");
    expect(b.querySelector(".mn-banner-message")?.textContent).toBe("Blocked: <b>pii</b>");
    expect(b.querySelector("b")).toBeNull();
    expect(b.querySelector("pre")?.textContent).toContain("pii");
    expect(nodeEl(el, "b2").className).toBe("mn-banner mn-banner-warning");
  });

  it("data", () => {
    const { el } = mount([add("root", "d", "data", { type: "data-progress", data: { pct: 10 } })]);
    expect(nodeEl(el, "d").querySelector(".mn-name")?.textContent).toBe("data-progress");
    expect(nodeEl(el, "d").querySelector("pre")?.textContent).toContain('"pct": 10');
  });

  it("unknown and invalid are folded", () => {
    const { el } = mount([
      add("root", "u", "unknown", { type: "weird-chunk", chunk: { type: "weird-chunk", payload: "<img src=x onerror=alert(1)>" } }),
      add("root", "i", "invalid", { raw: "{not json <script>", error: "Unexpected token" }),
      add("root", "k", "future-kind", { foo: 1 }),
    ]);
    const u = nodeEl(el, "u") as HTMLDetailsElement;
    expect(u.open).toBe(false);
    expect(u.querySelector("summary")?.textContent).toBe("Unknown chunk: weird-chunk");
    expect(u.querySelector("pre")?.textContent).toContain("onerror");
    expect(u.querySelector("img")).toBeNull();
    const i = nodeEl(el, "i") as HTMLDetailsElement;
    expect(i.open).toBe(false);
    expect(i.querySelector("summary")?.textContent).toBe("Invalid chunk: Unexpected token");
    expect(i.querySelector("pre")?.textContent).toBe("{not json <script>");
    expect(nodeEl(el, "k").querySelector("summary")?.textContent).toBe("Unknown part: future-kind");
  });
});

describe("run", () => {
  it("footer numbers", () => {
    // the kernel's figures (core/figures.py), as it ships them
    const figures = {
      input_tokens: "1,234", output_tokens: "500", reasoning_tokens: "120", cached_input_tokens: "1,000",
      first_token: "450 ms", tokens_per_second: "100.0", duration: "5.5 s", steps: "2",
    };
    const { el } = mount([], { status: "finished", figures });
    const stat = (key: string) => {
      const item = el.querySelector<HTMLElement>(`.mn-run-root > .mn-footer [data-stat="${key}"]`);
      return item?.hidden ? null : item?.querySelector(".mn-stat-value")?.textContent;
    };
    expect(stat("status")).toBe("finished");
    expect(stat("input_tokens")).toBe("1,234");
    expect(stat("output_tokens")).toBe("500");
    expect(stat("reasoning_tokens")).toBe("120");
    expect(stat("cached_input_tokens")).toBe("1,000");
    expect(stat("ttft")).toBe("450 ms");
    expect(stat("tokens_per_s")).toBe("100.0");
    expect(stat("duration")).toBe("5.5 s");
    expect(stat("steps")).toBe("2");
  });

  it("hides unknown footer numbers", () => {
    const { el } = mount([], { status: "running", started_at: 1 });
    const hidden = [...el.querySelectorAll<HTMLElement>(".mn-footer .mn-stat")].filter((s) => !s.hidden);
    expect(hidden.map((s) => s.dataset.stat)).toEqual(["status"]);
  });

  it("shows structured output as a live tree labelled Structured output", () => {
    const store = new Store();
    const host = document.createElement("div");
    const view = new View(host, store, () => {});
    store.subscribe((c) => view.apply(c));
    store.receive(opsMsg(1, [add(null, "root", "run", { object: null })]));
    expect(host.querySelector<HTMLElement>(".mn-object")?.hidden).toBe(true);
    store.receive(opsMsg(2, [set("root", "object", { city: "Par" })]));
    const tree = () => host.querySelector<HTMLElement>(".mn-object");
    expect(tree()?.hidden).toBe(false);
    expect(tree()?.querySelector(".mn-label")?.textContent).toBe("Structured output (partial)");
    // the user folds the tree; it stays folded while the object grows
    const details = tree()?.querySelector<HTMLDetailsElement>("details.mn-tree");
    if (details) {
      details.open = false;
      details.dispatchEvent(new Event("toggle"));
    }
    store.receive(opsMsg(3, [set("root", "object", { city: "Paris", days: [1, 2] }), set("root", "object_final", true)]));
    expect(tree()?.querySelector(".mn-label")?.textContent).toBe("Structured output");
    expect(tree()?.querySelector<HTMLDetailsElement>("details.mn-tree")?.open).toBe(false);
    expect(tree()?.textContent).toContain('"Paris"');
  });

  it("shows a status banner only when no banner node says it", () => {
    const withBanner = mount([add("root", "b", "banner", { level: "error", message: "Model failed" })], {
      status: "error",
      error: { message: "Model failed" },
    });
    expect(withBanner.el.querySelector(".mn-status-banner")?.hasChildNodes()).toBe(false);
    const without = mount([], { status: "incomplete" });
    expect(without.el.querySelector(".mn-status-banner")?.textContent).toBe("The stream ended without a finish");
    const err = mount([], { status: "error", error: { message: "boom" } });
    expect(err.el.querySelector(".mn-status-banner")?.textContent).toBe("Run failed: boom");
    expect(err.el.querySelector(".mn-root")?.getAttribute("data-status")).toBe("error");
  });
});

describe("footer figures", () => {
  it("shows the kernel's figures as they come, and none it was not sent", () => {
    const figures = { first_token: "340 ms", tokens_per_second: "52.1", duration: "1.2 s", tokens_with_nested: "1,378" };
    const { el } = mount([], { status: "finished", figures, started_at: 0, finished_at: 99_999 });
    const stat = (key: string) => el.querySelector<HTMLElement>(`.mn-footer [data-stat="${key}"]`);
    expect(stat("ttft")?.textContent).toBe("first token340 ms");
    expect(stat("tokens_per_s")?.textContent).toBe("tok/s52.1");
    expect(stat("duration")?.textContent).toBe("duration1.2 s"); // not the 100 s its moments span
    expect(stat("tokens_with_nested")?.textContent).toBe("with sub-agents1,378");
    expect(stat("cost")?.hidden).toBe(true);
  });
});
