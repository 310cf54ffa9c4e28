/**
 * A tool call card: name, status badge, live arguments, result, error, outputs, duration,
 * approval buttons, and the nested run of an agent or workflow used as a tool.
 */
import { h, slot } from "../dom";
import { obj, prettyJson, str } from "../format";
import type { NodeData, Send } from "../types";
import { OutputsView, badge, errorBox, maybeJson, nodeDuration } from "./common";
import type { NodeRenderer } from "./context";

/** Arguments as text: the parsed object pretty-printed, else the raw streamed text. */
function argsText(tool: NodeData): string {
  return obj(tool.args) ? prettyJson(tool.args) : (str(tool.args_text) ?? "");
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
    sent("Declined, waiting for the run…");
  };
  approve.addEventListener("click", () => {
    send({ t: "approve", tool_call_id: toolCallId });
    sent("Approved, waiting for the run…");
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

export const renderTool: NodeRenderer = (ctx) => {
  const name = h("span", "mn-name");
  const status = slot("mn-status", "span");
  const duration = h("span", "mn-duration mn-muted");
  const args = slot("mn-args");
  const approval = slot("mn-approval-slot");
  const result = slot("mn-result");
  const error = slot("mn-error-slot");
  const suspended = slot("mn-suspended");
  const denied = slot("mn-denied");
  const outputs = new OutputsView();
  const children = h("div", "mn-children");
  const origin = h("span", "mn-origin mn-muted");
  const hidden = h("div", "mn-hidden-levels mn-muted");
  const el = h("div", "mn-card mn-tool", [
    h("div", "mn-card-head", [h("span", "mn-kind-label", ["Tool"]), name, status.el, origin, duration]),
    // what happened inside (outputs the tool wrote, a nested run) before what came out
    args.el, approval.el, suspended.el, outputs.el, children, hidden, result.el, error.el, denied.el,
  ]);

  return {
    el,
    childHost: children,
    update(tool) {
      const toolStatus = str(tool.status) ?? "running";
      el.dataset.toolStatus = toolStatus;
      name.textContent = str(tool.tool_name) ?? "tool";
      status.update(toolStatus, badge);
      origin.textContent = tool.provider_executed === true ? "run by the provider" : tool.orphan === true ? "call not in this stream" : "";
      const levels = typeof tool.hidden_levels === "number" ? tool.hidden_levels : 0;
      hidden.textContent = levels > 0 ? `… ${levels} more level${levels === 1 ? "" : "s"} of nested runs (kept in the result, not drawn)` : "";
      hidden.hidden = levels === 0;
      duration.textContent = nodeDuration(tool);
      args.update(argsText(tool), (text) => (text ? [h("div", "mn-label", ["Arguments"]), h("pre", "mn-json", [text])] : null));
      const canAnswer = toolStatus === "awaiting-approval" && ctx.traits().canApprove;
      const toolCallId = str(tool.tool_call_id);
      approval.update(canAnswer && toolCallId ? toolCallId : null, (id) => (id ? approvalControls(ctx.send, id) : null));
      suspended.update(toolStatus === "suspended" ? tool.suspend_payload : null, (payload) =>
        toolStatus === "suspended" ? (maybeJson("Suspended with", payload) ?? h("div", "mn-label", ["Suspended"])) : null,
      );
      result.update(tool.result, (value) => maybeJson("Result", value));
      error.update(tool.error, errorBox);
      denied.update(toolStatus === "denied" ? (str(tool.denied_reason) ?? "") : null, (reason) =>
        reason === null ? null : h("div", "mn-error", [reason ? `Declined: ${reason}` : "Declined"]),
      );
      outputs.update(tool.outputs);
    },
  };
};
