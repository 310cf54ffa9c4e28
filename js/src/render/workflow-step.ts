import { h, slot } from "../dom";
import { str } from "../format";
import { OutputsView, badge, errorBox, maybeJson, nodeDuration } from "./common";
import type { NodeRenderer } from "./context";

/** A workflow step: name, status, input/output, error, outputs and a nested agent run. */
export const renderWorkflowStep: NodeRenderer = () => {
  const name = h("span", "mn-name");
  const status = slot("mn-status", "span");
  const duration = h("span", "mn-duration mn-muted");
  const input = slot("mn-input");
  const output = slot("mn-output");
  const error = slot("mn-error-slot");
  const outputs = new OutputsView();
  const children = h("div", "mn-children");
  const el = h("div", "mn-card mn-workflow-step", [
    h("div", "mn-card-head", [h("span", "mn-kind-label", ["Step"]), name, status.el, duration]),
    input.el, output.el, error.el, outputs.el, children,
  ]);
  return {
    el,
    childHost: children,
    update(step) {
      name.textContent = str(step.step_name) ?? "step";
      el.dataset.stepStatus = str(step.status) ?? "";
      status.update(step.status, badge);
      duration.textContent = nodeDuration(step);
      input.update(step.input, (value) => maybeJson("Input", value));
      output.update(step.output, (value) => maybeJson("Output", value));
      error.update(step.error, errorBox);
      outputs.update(step.outputs);
    },
  };
};
