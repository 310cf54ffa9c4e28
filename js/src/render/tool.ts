/**
 * A tool call card: name, status badge, live arguments, result, error, outputs, duration,
 * approval buttons, and the nested run of an agent or workflow used as a tool.
 */
import { h, slot } from "../dom";
import { obj, str } from "../format";
import { capitalized, decisionWord, statusWord } from "../status-words";
import type { Send, ToolNode, ValueCut } from "../types";
import { Fold, OutputsView, callHead, errorBox, maybeJson } from "./common";
import type { NodeRenderer } from "./context";
import { decisionSummary, decisionText, humanView } from "./human";
import { jsonPre } from "./json";
import { richArgs, richResult } from "./rich";

/** Arguments: the parsed value (shown as compact JSON), else the raw streamed text. */
function argsValue(tool: ToolNode): unknown {
  return tool.args ?? str(tool.args_text) ?? "";
}

/** The arguments: as `args_display` asks (a field as code, a bundle), with their JSON one click away; else as JSON. */
function argsView(tool: ToolNode): HTMLElement[] | null {
  const value = argsValue(tool);
  const rich = richArgs(tool.args_display, tool.args, tool.args_text);
  if (rich === null) return value === "" ? null : [h("div", "mn-label", ["Arguments"]), jsonPre(value)];
  if (value === "") return [rich];
  return [rich, h("details", "mn-field mn-raw", [h("summary", "mn-label", ["Arguments as JSON"]), jsonPre(value)])];
}

/** The note on a result shown cut for its size (the kernel's words), and where the whole value is. */
function cutNote(cut: ValueCut | null | undefined): HTMLElement | null {
  const note = str(cut?.note);
  if (note === null) return null;
  const where = str(cut?.where);
  return h("div", "mn-value-cut", where === null ? [note] : [`${note} `, h("code", "mn-mono", [where])]);
}

/** Redraws only when one of its inputs changed (a table of 50 rows is not redrawn per update). */
function memo<T>(draw: (...inputs: unknown[]) => T): (...inputs: unknown[]) => T {
  let last: unknown[] | null = null;
  let out: T;
  return (...inputs) => {
    if (last === null || inputs.length !== last.length || inputs.some((input, i) => input !== last?.[i])) {
      last = inputs;
      out = draw(...inputs);
    }
    return out;
  };
}

/** Approve / Decline (with an optional reason typed inline) for a tool awaiting approval. */
function approvalControls(send: Send, toolCallId: string): HTMLElement {
  const approve = h("button", "mn-btn mn-approve", ["Approve"], { type: "button" });
  const decline = h("button", "mn-btn mn-decline", ["Decline"], { type: "button" });
  const reason = h("input", "mn-decline-reason", [], {
    type: "text",
    placeholder: "Reason (optional)",
    "aria-label": "Reason for declining (optional)",
  });
  const confirm = h("button", "mn-btn mn-decline-confirm", ["Decline"], { type: "button" });
  const cancel = h("button", "mn-btn mn-decline-cancel", ["Cancel"], { type: "button" });
  const form = h("div", "mn-decline-form", [reason, confirm, cancel]);
  form.hidden = true;
  const note = h("span", "mn-muted");
  const el = h("div", "mn-approval", [h("span", "mn-label", ["Needs approval"]), approve, decline, form, note]);

  const sent = (what: string) => {
    for (const button of el.querySelectorAll("button")) button.disabled = true;
    reason.disabled = true;
    note.textContent = what;
  };
  const confirmDecline = () => {
    send({ t: "decline", tool_call_id: toolCallId, reason: reason.value.trim() || null });
    sent(`${capitalized(decisionWord("decline"))}, waiting for the run…`);
  };
  approve.addEventListener("click", () => {
    send({ t: "approve", tool_call_id: toolCallId });
    sent(`${capitalized(decisionWord("approve"))}, waiting for the run…`);
  });
  decline.addEventListener("click", () => {
    form.hidden = false;
    decline.hidden = true;
    reason.focus();
    // JupyterLab may take the focus back to the notebook once the click is handled: ask again after.
    setTimeout(() => reason.focus(), 0);
  });
  confirm.addEventListener("click", confirmDecline);
  reason.addEventListener("keydown", (event) => {
    if (event.key === "Enter") confirmDecline();
    if (event.key === "Escape") cancel.click();
  });
  cancel.addEventListener("click", () => {
    form.hidden = true;
    decline.hidden = false;
    reason.value = "";
  });
  return el;
}

/** Statuses in which a card stays open: something is still happening, or a person must act. */
const LIVE = new Set(["streaming-args", "running", "awaiting-approval", "suspended", "pending"]);


export const renderTool: NodeRenderer<ToolNode> = (ctx, node) => {
  const foldArgs = h("span", "mn-fold-args mn-fold-only");
  // folded: who decided, and the person's wait apart from the tool's own time (the duration)
  const decided = h("span", "mn-fold-decision mn-fold-only mn-muted");
  const args = slot("mn-args");
  const approval = slot("mn-approval-slot");
  const result = slot("mn-result");
  const rawResult = slot("mn-result mn-raw-result");
  const resultCut = slot("mn-result-cut");
  const error = slot("mn-error-slot");
  const suspended = slot("mn-suspended");
  const denied = slot("mn-denied");
  const human = humanView(); // issue 9: the call that continues it, and who decided (render/human.ts)
  const outputs = new OutputsView();
  const children = h("div", "mn-children");
  const origin = h("span", "mn-origin mn-muted");
  const hidden = h("div", "mn-hidden-levels mn-muted");
  const head = callHead("Tool", { around: (name) => h("span", "mn-call", [name, foldArgs]), afterStatus: [origin], last: [decided] });
  // what happened inside (outputs the tool wrote, a nested run) before what came out
  const body = h("div", "mn-card-body", [
    args.el, approval.el, suspended.el, human.el, outputs.el, children, hidden, result.el, rawResult.el, resultCut.el, error.el, denied.el,
  ]);
  const el = h("div", "mn-card mn-tool", [head.el, body]);
  const fold = new Fold(el, head.el, body, ctx.folds.of(node.id));
  const drawArgs = memo((_args, _text, _display, tool) => argsView(tool as ToolNode)); // memo's inputs are unknown
  const drawResult = memo((display, value) => richResult(display, value) ?? maybeJson("Result", value));
  const nestedRun = () => ctx.store.childrenOf(node.id).some((id) => ctx.store.get(id)?.kind === "run");

  return {
    el,
    childHost: children,
    update(tool) {
      const toolStatus = str(tool.status) ?? "running";
      el.dataset.toolStatus = toolStatus;
      head.update(tool, str(tool.tool_name) ?? "tool", toolStatus);
      const ranIn = str(tool.ran_in); // a client tool: the notebook ran it
      origin.textContent = tool.provider_executed === true ? "run by the provider" : ranIn !== null ? `ran in the ${ranIn}` : tool.orphan === true ? "call not in this stream" : "";
      const levels = typeof tool.hidden_levels === "number" ? tool.hidden_levels : 0;
      hidden.textContent = levels > 0 ? `… ${levels} more level${levels === 1 ? "" : "s"} of nested runs (kept in the result, not drawn)` : "";
      hidden.hidden = levels === 0;
      decided.textContent = decisionSummary(tool) ?? "";
      decided.title = decisionText(tool) ?? "";
      args.update(drawArgs(tool.args, tool.args_text, tool.args_display, tool), (drawn) => drawn);
      const canAnswer = toolStatus === "awaiting-approval" && ctx.traits().canApprove && !tool.decision;
      human.update(tool);
      const toolCallId = str(tool.tool_call_id);
      approval.update(canAnswer && toolCallId ? toolCallId : null, (id) => (id ? approvalControls(ctx.send, id) : null));
      suspended.update(toolStatus === "suspended" ? tool.suspend_payload : null, (payload) =>
        toolStatus === "suspended" ? (maybeJson("Suspended with", payload) ?? h("div", "mn-label", ["Suspended"])) : null,
      );
      // a sub-agent's or workflow's result repeats its run, drawn above: kept folded as raw JSON
      const nested = nestedRun() || levels > 0;
      // a result drawn as data (issue 21: a bundle, a table, an image), else as JSON
      result.update(nested ? null : drawResult(tool.display, tool.result), (drawn) => drawn);
      rawResult.update(nested ? tool.result : null, (value) =>
        value === null || value === undefined
          ? null
          : h("details", "mn-field mn-raw", [h("summary", "mn-label", ["Raw result"]), jsonPre(value)]),
      );
      resultCut.update(tool.result_cut, cutNote);
      error.update(tool.error, errorBox);
      denied.update(toolStatus === "denied" ? (str(tool.denied_reason) ?? "") : null, (reason) =>
        reason === null ? null : h("div", "mn-error", [capitalized(statusWord("denied")) + (reason ? `: ${reason}` : "")]),
      );
      outputs.update(tool.outputs);
      // the folded line's `(city="Paris")`, as the kernel wrote it (core/captions.py)
      foldArgs.textContent = `(${str(tool.args_summary) ?? "…"})`;
      // a finished call folds to one line; one holding a sub-run stays open: that run is the story
      fold.setDefault(LIVE.has(toolStatus) || nested);
    },
  };
};
