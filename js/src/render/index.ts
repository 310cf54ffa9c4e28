import { renderBackgroundTask } from "./background-task";
import { renderBanner } from "./banner";
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
import { renderUnknown } from "./unknown";
import { renderWorkflowStep } from "./workflow-step";

const RENDERERS = new Map<string, NodeRenderer>(Object.entries({
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
}));

export function rendererFor(kind: string): NodeRenderer {
  return RENDERERS.get(kind) ?? renderUnknown;
}
