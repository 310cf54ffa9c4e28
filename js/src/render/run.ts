/**
 * A run: the root (parts, structured output, status banner, footer) or, when `nested`, a compact
 * foldable sub-run inside a tool card or workflow step.
 */
import { h, isolated, slot } from "../dom";
import { obj, str } from "../format";
import { BANNERS } from "../status-words";
import { ROOT_ID } from "../store";
import { nodeOf, type RunNode } from "../types";
import { badge, errorMessage, maybeJson, trackDetails } from "./common";
import type { NodeRenderer, RenderCtx } from "./context";
import { Footer } from "./footer";
import { jsonPre, jsonTree } from "./json";

/** A folded "raw JSON" of a live value, drawn only while open (partial objects come often). */
class RawJson {
  private readonly body = h("div", "mn-raw-body");
  readonly el = h("details", "mn-field mn-raw", [h("summary", "mn-label", ["raw JSON"]), this.body]);
  private value: unknown = null;
  private drawn: unknown = undefined;

  constructor() {
    this.el.addEventListener("toggle", () => this.draw());
  }

  update(value: unknown): void {
    this.value = value;
    this.draw();
  }

  private draw(): void {
    if (!this.el.open || this.drawn === this.value) return;
    this.drawn = this.value;
    this.body.replaceChildren(jsonPre(this.value));
  }
}

/** Run statuses that get a banner (its words: status-words.ts), with the level of the `banner` node that would say the same. */
const BANNER_LEVELS: Record<string, string> = {
  error: "error",
  aborted: "abort",
  tripwire: "tripwire",
  suspended: "suspended",
  incomplete: "warning",
};

/** The status banner for the run, unless a `banner` node of that level already says it. */
function statusBanner(ctx: RenderCtx, run: RunNode): { level: string; text: string } | null {
  const status = str(run.status) ?? "";
  const level = BANNER_LEVELS[status];
  const text = BANNERS[status];
  if (level === undefined || text === undefined) return null;
  const banner = { level, text };
  const said = ctx.store
    .childrenOf(run.id)
    .some((id) => nodeOf(ctx.store.get(id), "banner")?.level === banner.level);
  if (said) return null;
  // a suspended run says the call that continues it (the kernel's `continue_with`, e.g. view.resume({...}))
  const waiting = status === "suspended" ? str(run.continue_with) : null;
  const detail = errorMessage(run.error) ?? str(obj(run.tripwire)?.reason) ?? (waiting && `continue with ${waiting}`);
  return { level: banner.level, text: detail ? `${banner.text}: ${detail}` : banner.text };
}

function runLabel(run: RunNode): string {
  const workflow = obj(run.workflow);
  return str(run.agent_id) ?? str(workflow?.workflow_id) ?? "sub-run";
}

export const renderRun: NodeRenderer<RunNode> = (ctx, node) => {
  const nested = node.nested === true || node.id !== ROOT_ID;
  const parts = h("div", "mn-parts");
  const workflow = slot("mn-workflow");
  const objectLabel = h("div", "mn-label");
  const objectTree = slot("mn-object-tree");
  const objectRaw = new RawJson();
  const object = h("div", "mn-object", [objectLabel, objectTree.el, objectRaw.el]);
  const banner = slot("mn-status-banner");
  const footer = new Footer(nested ? null : ctx);
  const collapsed = new Set<string>();
  const body = [parts, workflow.el, object, banner.el, footer.el];

  let el: HTMLElement;
  let summary: HTMLElement | null = null;
  if (nested) {
    summary = h("summary", "mn-run-summary");
    const details = h("details", "mn-run mn-run-nested", [summary, ...body], { open: true });
    trackDetails(details, summary, ctx.folds.of(node.id));
    el = details;
  } else {
    el = h("div", "mn-run mn-run-root", body);
  }

  return {
    el,
    childHost: parts,
    update(run) {
      summary?.replaceChildren(isolated("mn-run-label", runLabel(run)), badge(run.status));
      workflow.update(run.workflow, (value) => {
        const wf = obj(value);
        if (!wf) return null;
        return [
          h("div", "mn-card-head", [
            h("span", "mn-label", ["Workflow "]),
            isolated("mn-name", str(wf.workflow_id) ?? ""),
            badge(wf.status),
          ]),
          maybeJson("Result", wf.result),
        ];
      });
      const hasObject = run.object !== null && run.object !== undefined;
      object.hidden = !hasObject;
      // the run's text is then the same JSON, streamed: the tree alone draws it (see text.ts)
      el.toggleAttribute("data-structured", hasObject);
      objectRaw.update(hasObject ? run.object : null);
      objectLabel.textContent = run.object_final === true ? "Structured output" : "Structured output (partial)";
      objectTree.update(hasObject ? run.object : null, (value) => (value === null ? null : jsonTree(value, collapsed)));
      const status = statusBanner(ctx, run);
      banner.update(status ? `${status.level}\n${status.text}` : null, () =>
        status ? h("div", `mn-banner mn-banner-${status.level}`, [status.text]) : null,
      );
      footer.update(run);
    },
  };
};
