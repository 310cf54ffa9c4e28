import { h, isolated, slot } from "../dom";
import { str } from "../format";
import { nodeOf, type WorkflowStepNode } from "../types";
import { Fold, OutputsView, callHead, errorBox, maybeJson } from "./common";
import type { NodeRenderer, RenderCtx } from "./context";
import { humanView } from "./human";
import { jsonPre } from "./json";

/** Step statuses in which the card stays open. */
const LIVE = new Set(["running", "waiting", "suspended", "pending", "paused"]);

/** The step before `id` among its siblings (the previous step of the same workflow), if any. */
function previousStep(ctx: RenderCtx, siblings: readonly string[], id: string): WorkflowStepNode | null {
  for (let i = siblings.indexOf(id) - 1; i >= 0; i--) {
    const node = nodeOf(ctx.store.get(siblings[i] ?? ""), "workflow-step");
    if (node) return node;
  }
  return null;
}

/** Whether two JSON values are equal (both came through the same serializer). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A workflow step: name, status, input/output, error, outputs and a nested agent run. An input
 * that only repeats the previous step's output is folded; a finished step folds to one line.
 */
export const renderWorkflowStep: NodeRenderer<WorkflowStepNode> = (ctx, node) => {
  const head = callHead("Step");
  const input = slot("mn-input");
  const sameInput = slot("mn-input mn-input-same");
  const output = slot("mn-output");
  const error = slot("mn-error-slot");
  const suspended = slot("mn-suspended"); // issue 9: what the step asks, the call that resumes it
  const human = humanView();
  const outputs = new OutputsView();
  const children = h("div", "mn-children");
  const body = h("div", "mn-card-body", [input.el, sameInput.el, suspended.el, human.el, output.el, error.el, outputs.el, children]);
  const el = h("div", "mn-card mn-workflow-step", [head.el, body]);
  const fold = new Fold(el, head.el, body, ctx.folds.of(node.id));
  // the list of this step and its siblings (the store grows it in place)
  let siblings: readonly string[] = [];
  let compared: [unknown, unknown, boolean] = [undefined, undefined, false];
  const repeats = (step: WorkflowStepNode, previous: WorkflowStepNode | null): boolean => {
    if (!previous || step.input === null || step.input === undefined) return false;
    if (compared[0] !== step.input || compared[1] !== previous.output) {
      compared = [step.input, previous.output, sameJson(step.input, previous.output)];
    }
    return compared[2];
  };
  return {
    el,
    childHost: children,
    update(step) {
      if (!siblings.includes(node.id)) {
        siblings = [...ctx.store.children.values()].find((ids) => ids.includes(node.id)) ?? [];
      }
      const stepStatus = str(step.status) ?? "";
      head.update(step, str(step.step_name) ?? "step", step.status);
      el.dataset.stepStatus = stepStatus;
      const previous = previousStep(ctx, siblings, node.id);
      const same = repeats(step, previous);
      input.update(same ? null : step.input, (value) => maybeJson("Input", value));
      sameInput.update(same ? (str(previous?.step_name) ?? "the previous step") : null, (previousName) =>
        previousName === null
          ? null
          : h("details", "mn-field", [
              h("summary", "mn-label", ["Input: same as ", isolated("mn-step-ref", previousName), "'s output"]),
              jsonPre(step.input),
            ]),
      );
      output.update(step.output, (value) => maybeJson("Output", value));
      error.update(step.error, errorBox);
      suspended.update(stepStatus === "suspended" ? step.suspend_payload : null, (payload) => maybeJson("Suspended with", payload));
      human.update(step);
      outputs.update(step.outputs);
      const nested = ctx.store.childrenOf(node.id).some((id) => ctx.store.get(id)?.kind === "run");
      fold.setDefault(LIVE.has(stepStatus) || stepStatus === "" || nested);
    },
  };
};
