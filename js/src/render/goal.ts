import { h, slot } from "../dom";
import { maybeJson } from "./common";
import type { GoalNode } from "../types";
import type { NodeRenderer } from "./context";

/** A goal evaluation, with a "continues" marker when the run goes on. */
export const renderGoal: NodeRenderer<GoalNode> = () => {
  const marker = h("span", "mn-badge mn-tone-active", ["continues"]);
  const evaluation = slot("mn-evaluation");
  const el = h("div", "mn-card mn-goal", [
    h("div", "mn-card-head", [h("span", "mn-kind-label", ["Goal"]), marker]),
    evaluation.el,
  ]);
  return {
    el,
    update(node) {
      marker.hidden = node.should_continue !== true;
      evaluation.update(node.evaluation, (value) => maybeJson("Evaluation", value));
    },
  };
};
