/**
 * What the model was given in a step: the "Request" toggle on each step divider and the panel it
 * opens (the system prompt, the messages with the history folded and this step's new ones open,
 * the tools offered, the settings). The request is no node field: opening the toggle asks the kernel
 * (`{t: "request", id}`), which answers with the request bounded (core/request_bounded.py), so a
 * 200 kB request costs nothing until someone opens it. A static page answers from the requests it
 * embeds; a saved notebook with no kernel says where the request is. Every value is text.
 */
import { controls, h } from "../dom";
import { compactJson, list, num, obj, str } from "../format";
import type { Send, StepNode } from "../types";
import { jsonPre } from "./json";

/** How long the toggle waits for the kernel's answer before saying that no kernel answers. */
export const NO_KERNEL_MS = 4000;

/** The kernel's answer: the request (bounded), or null and why; where the whole request is. */
export interface RequestReply {
  request: Record<string, unknown> | null;
  reason: string | null;
  where: string | null;
}

type Listener = (reply: RequestReply | "no-kernel") => void;

function parseReply(value: unknown): RequestReply | null {
  const m = obj(value);
  if (!m) return null;
  return { request: obj(m.request), reason: str(m.reason), where: str(m.where) };
}

/**
 * Where a view's steps get their requests: the kernel (live), or the requests a static page embeds
 * (by step node id). One per view; its toggles share it.
 */
export class RequestSource {
  private readonly waiting = new Map<string, { listeners: Listener[]; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly send: Send | null,
    private readonly embedded: Record<string, unknown> | null = null,
  ) {}

  /** Whether asking can tell anything: a page answers only for the steps it embeds. */
  offers(id: string): boolean {
    return this.embedded === null || id in this.embedded;
  }

  /** Asks for the request of step node `id`; `listener` hears the answer once (or "no-kernel"). */
  ask(id: string, listener: Listener): void {
    if (this.embedded !== null || this.send === null) {
      const reply = this.embedded ? parseReply(this.embedded[id]) : null;
      listener(reply ?? "no-kernel");
      return;
    }
    const pending = this.waiting.get(id);
    if (pending) {
      pending.listeners.push(listener);
      return;
    }
    const timer = setTimeout(() => this.settle(id, "no-kernel"), NO_KERNEL_MS);
    this.waiting.set(id, { listeners: [listener], timer });
    this.send({ t: "request", id });
  }

  /** Handles the kernel's `request` messages; false for anything else. */
  receive(msg: unknown): boolean {
    const m = obj(msg);
    if (!m || m.t !== "request" || typeof m.id !== "string") return false;
    const reply = parseReply(m);
    if (reply) this.settle(m.id, reply);
    return true;
  }

  destroy(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private settle(id: string, reply: RequestReply | "no-kernel"): void {
    const pending = this.waiting.get(id);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.waiting.delete(id);
    for (const listener of pending.listeners) listener(reply);
  }
}

/** What a toggle says when no kernel answers (a saved notebook): where the request is. */
export function noKernel(index: number | null): string {
  const where = index === null ? "result.steps[i].request" : `result.steps[${index - 1}].request`;
  return (
    `No kernel answers: the request lives in the kernel that ran this view, in ${where} ` +
    "(a run nested in a tool call: under that call's children). Run the cell again to see it here."
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function label(text: string): HTMLElement {
  return h("div", "mn-label mn-request-section", [text]);
}

function bidi(cls: string, text: string): HTMLElement {
  return h("bdi", cls, [text], { dir: "auto" });
}

function drawPart(part: Record<string, unknown>): HTMLElement {
  const kind = str(part.type) ?? "other";
  if (kind === "text" || kind === "reasoning") {
    const text = h("div", "mn-request-text", [str(part.text) ?? ""]);
    return kind === "text" ? text : h("div", "mn-request-part", [label("reasoning"), text]);
  }
  if (kind === "tool-call" || kind === "tool-result") {
    const name = str(part.name) ?? str(part.id) ?? "";
    const word = kind === "tool-call" ? "tool call" : "tool result";
    const value = kind === "tool-call" ? part.args : part.result;
    const note = str(part.note); // filled from the run's own call where Mastra's trace abbreviates it
    return h("div", "mn-request-part", [
      h("div", "mn-label", [`${word} `, bidi("", name)]),
      note === null ? null : h("div", "mn-muted mn-request-note", [note]),
      value === undefined && note !== null ? null : jsonPre(value ?? null),
    ].filter((el): el is HTMLElement => el !== null));
  }
  if (kind === "image" || kind === "file") {
    const bits = [kind, str(part.filename), str(part.media_type), str(part.size_label), str(part.url)];
    return h("div", "mn-request-media", [bits.filter(Boolean).join(" · ")]);
  }
  return jsonPre(part.value ?? part);
}

function drawMessage(message: Record<string, unknown>): HTMLElement {
  const parts = list(message.parts)
    .map(obj)
    .filter((part): part is Record<string, unknown> => part !== null);
  const more = num(message.more_parts);
  return h("div", `mn-request-message mn-role-${message.new ? "new" : "history"}`, [
    h("div", "mn-request-role", [bidi("", str(message.role) ?? "?")]),
    ...parts.map(drawPart),
    more ? h("div", "mn-muted", [`… ${plural(more, "more part")}`]) : null,
  ]);
}

function drawMessages(request: Record<string, unknown>): HTMLElement[] {
  const messages = list(request.messages)
    .map(obj)
    .filter((m): m is Record<string, unknown> => m !== null);
  const history = messages.filter((m) => !m.new);
  const fresh = messages.filter((m) => m.new);
  const count = num(request.message_count) ?? messages.length;
  if (!count) return [];
  const out: HTMLElement[] = [label(`Messages (${count})`)];
  if (history.length > 0) {
    const summary = h("summary", "mn-muted", [`History · ${plural(history.length, "message")}`]);
    out.push(h("details", "mn-request-history", [summary, ...history.map(drawMessage)]));
  }
  return [...out, ...fresh.map(drawMessage)];
}

function drawTools(request: Record<string, unknown>): HTMLElement[] {
  const tools = list(request.tools)
    .map(obj)
    .filter((t): t is Record<string, unknown> => t !== null);
  if (tools.length === 0) return [];
  const count = num(request.tool_count) ?? tools.length;
  const rows = tools.map((tool) => {
    const head: (Node | string)[] = [bidi("mn-request-tool-name", str(tool.name) ?? "?")];
    for (const bit of [str(tool.provider_type), str(tool.description)]) if (bit) head.push(` — ${bit}`);
    if (tool.input_schema === undefined || tool.input_schema === null) return h("div", "mn-request-tool", head);
    return h("details", "mn-request-tool", [h("summary", "", head), jsonPre(tool.input_schema)]);
  });
  return [label(`Tools (${count})`), ...rows];
}

function drawSettings(request: Record<string, unknown>): HTMLElement[] {
  const settings = obj(request.settings) ?? {};
  const rows = Object.entries(settings).map(([key, value]) =>
    h("div", "mn-request-setting", [h("span", "mn-muted", [`${key}: `]), h("span", "mn-mono", [compactJson(value)])]),
  );
  return rows.length > 0 ? [label("Settings"), ...rows] : [];
}

function cutNote(request: Record<string, unknown>, where: string | null): HTMLElement | null {
  if (request.cut !== true) return null;
  const omitted = obj(request.omitted) ?? {};
  const bits = Object.entries(omitted)
    .filter(([, n]) => num(n))
    .map(([key, n]) => `${plural(num(n) ?? 0, key === "messages" ? "message" : "tool")} left out`);
  const said = `Cut to fit: ${bits.length > 0 ? `${bits.join(", ")}; ` : ""}long values shortened.`;
  return h("div", "mn-request-cut", [said + (where ? ` The whole request is in ${where}.` : "")]);
}

/** The system prompt: each system message apart with the agent it came from, when the kernel says
 * (a sub-agent is given its own instructions and its supervisor's), else the one block. */
function drawSystem(request: Record<string, unknown>, system: string | null): HTMLElement[] {
  const apart = list(request.system_messages)
    .map(obj)
    .filter((m): m is Record<string, unknown> => m !== null);
  if (apart.length === 0) return system === null ? [] : [label("System prompt"), h("div", "mn-request-text", [system])];
  return apart.flatMap((message) => {
    const agent = str(message.agent);
    return [
      h("div", "mn-label", agent === null ? ["System message"] : ["System message · from ", bidi("", agent)]),
      h("div", "mn-request-text mn-request-system", [str(message.text) ?? ""]),
    ];
  });
}

/** The panel's content for a kernel's (or a page's) answer. */
export function drawRequest(reply: RequestReply): HTMLElement[] {
  const request = reply.request;
  if (!request) return [h("div", "mn-muted", [reply.reason ?? "This step's request is not known."])];
  const system = str(request.system);
  return [
    str(request.source) === "trace"
      ? h("div", "mn-muted", ["From Mastra's trace (the stream's copy was redacted)."])
      : null,
    ...drawSystem(request, system),
    ...drawMessages(request),
    ...drawTools(request),
    ...drawSettings(request),
    ...("raw" in request ? [h("div", "mn-raw", [label("Body as sent"), jsonPre(request.raw)])] : []),
    cutNote(request, reply.where),
  ].filter((el): el is HTMLElement => el !== null);
}

/** The toggle's words: `Request · system · 3 messages (1 history) · 1 tool`. */
export function requestLabel(node: StepNode): string | null {
  const summary = str(node.request_summary);
  if (summary) return `Request · ${summary}`;
  return str(node.request_reason) ? "Request · not carried" : null;
}

/**
 * The "Request" toggle of step node `id` and its panel (drawn only once opened). `update` follows
 * the node's label; the answer is asked for at each opening (a live step's request may have been
 * filled from the trace since).
 */
export class RequestToggle {
  readonly button = h("button", "mn-link-btn mn-request-toggle", [], { type: "button", "aria-expanded": "false" });
  readonly panel = h("div", "mn-request");
  private open = false;
  private asked = 0;

  constructor(
    private readonly id: string,
    private readonly source: RequestSource,
    private readonly index: number | null = null,
  ) {
    this.panel.hidden = true;
    this.button.hidden = true;
    controls(this.button, this.panel);
    this.button.addEventListener("click", () => this.setOpen(!this.open));
  }

  update(node: StepNode): void {
    const text = requestLabel(node);
    this.button.hidden = text === null || !this.source.offers(this.id);
    this.button.textContent = text ?? "";
    this.button.title = "What the model was given in this step";
  }

  setOpen(open: boolean): void {
    this.open = open;
    this.button.setAttribute("aria-expanded", String(open));
    this.button.classList.toggle("mn-active", open);
    this.panel.hidden = !open;
    if (!open) {
      this.panel.replaceChildren();
      return;
    }
    const asked = ++this.asked;
    this.panel.replaceChildren(h("div", "mn-muted", ["Asking the kernel for this step's request…"]));
    this.source.ask(this.id, (reply) => {
      if (asked !== this.asked || !this.open) return; // closed or reopened since
      this.panel.replaceChildren(...(reply === "no-kernel" ? [h("div", "mn-muted", [noKernel(this.index)])] : drawRequest(reply)));
    });
  }
}
