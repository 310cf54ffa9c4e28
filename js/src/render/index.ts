import { renderBackgroundTask } from "./background-task";
import { renderBanner } from "./banner";
import type { NodeKind, NodeOf } from "../types";
import type { NodeRenderer } from "./context";
import { renderData } from "./data";
import { renderFile } from "./file";
import { renderGoal } from "./goal";
import { renderInvalid } from "./invalid";
import { renderReasoning } from "./reasoning";
import { renderRun } from "./run";
import { renderSource } from "./source";
import { renderStep } from "./step";
import { renderText } from "./text";
import { renderTool } from "./tool";
import { renderOtherKind, renderUnknown } from "./unknown";
import { renderWorkflowStep } from "./workflow-step";

/** Each kind's renderer, which takes that kind's generated node type (contract.generated.ts). */
const BY_KIND: { [K in NodeKind]: NodeRenderer<NodeOf<K>> } = {
  run: renderRun,
  text: renderText,
  reasoning: renderReasoning,
  tool: renderTool,
  "workflow-step": renderWorkflowStep,
  source: renderSource,
  file: renderFile,
  step: renderStep,
  "background-task": renderBackgroundTask,
  goal: renderGoal,
  banner: renderBanner,
  data: renderData,
  unknown: renderUnknown,
  invalid: renderInvalid,
};

/**
 * The store keeps nodes of any kind; a node's kind picks its renderer, which gets it as its kind's
 * type: the one narrowing, here. The fields stay untrusted JSON (renderers keep their guards).
 */
const RENDERERS = new Map<string, NodeRenderer>(
  Object.entries(BY_KIND).map(([kind, renderer]) => [kind, renderer as unknown as NodeRenderer]),
);

export function rendererFor(kind: string): NodeRenderer {
  return RENDERERS.get(kind) ?? renderOtherKind;
}
