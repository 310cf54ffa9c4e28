import { h, slot } from "../dom";
import { list, str } from "../format";
import { OutputsView, badge, errorBox, maybeJson } from "./common";
import { statusWord } from "../status-words";
import type { BackgroundTaskNode } from "../types";
import type { NodeRenderer } from "./context";

/** A background task: tool name, status and its history, outputs, result, error. */
export const renderBackgroundTask: NodeRenderer<BackgroundTaskNode> = () => {
  const name = h("span", "mn-name");
  const status = slot("mn-status", "span");
  const history = h("div", "mn-history mn-muted");
  const result = slot("mn-result");
  const error = slot("mn-error-slot");
  const outputs = new OutputsView();
  const el = h("div", "mn-card mn-background-task", [
    h("div", "mn-card-head", [h("span", "mn-kind-label", ["Background task"]), name, status.el]),
    history, outputs.el, result.el, error.el,
  ]);
  return {
    el,
    update(task) {
      name.textContent = str(task.tool_name) ?? str(task.task_id) ?? "task";
      status.update(task.status, badge);
      history.textContent = list(task.history)
        .map((status) => statusWord(String(status)))
        .join(" → ");
      outputs.update(task.outputs);
      result.update(task.result, (value) => maybeJson("Result", value));
      error.update(task.error, errorBox);
    },
  };
};
