/**
 * The review queue's widget (mastra_notebook/widget/review.py `ReviewWidget`): the item's data the
 * kernel syncs (`state`), drawn by views/review.ts, each run by the run view itself (widget.ts
 * `mountStatic`, folded as the live view folds); what the reviewer did sent back as a message. The
 * run view's styles come with the entry (widget/bundle.py: `adoptStyles`), the queue's own once per
 * document.
 */
import { type ReviewMessage, type ReviewRun, mountReview, readReview } from "./views/review";
import { type AgreementMessage, mountAgreement, readAgreement } from "./views/agreement";
import { REVIEW_CSS } from "./review-style";
import { adoptStyles } from "./styles";
import { mountStatic } from "./widget";

export { adoptStyles };

/** The part of the anywidget model the review uses. */
export interface ReviewModel {
  get(name: "state"): unknown;
  on(event: "change:state", callback: () => void): void;
  off(event: "change:state", callback: () => void): void;
  send(msg: ReviewMessage): void;
}

/** A run drawn by the run view, from its ops (folded: nothing opened). */
export function drawRun(host: HTMLElement, run: ReviewRun): () => void {
  const view = mountStatic(
    host,
    { t: "snapshot", seq: 0, ops: run.ops as never },
    { title: run.title, subtitle: run.subtitle, requests: run.requests },
  );
  return () => view.destroy();
}

export function renderReview({ model, el }: { model: ReviewModel; el: HTMLElement }): () => void {
  adoptStyles(el, REVIEW_CSS, "mn-review-style");
  const review = mountReview(el, (msg) => model.send(msg), drawRun);
  const draw = () => review.show(readReview(model.get("state")));
  draw();
  model.on("change:state", draw);
  return () => {
    model.off("change:state", draw);
    review.close();
  };
}

/** The part of the anywidget model an agreement uses (mastra_notebook/widget/agreement.py). */
export interface AgreementModel {
  get(name: "agreement"): unknown;
  on(event: "change:agreement", callback: () => void): void;
  off(event: "change:agreement", callback: () => void): void;
  send(msg: AgreementMessage): void;
}

/** An agreement whose disagreeing runs each open the review queue (the kernel opens it below). */
export function renderAgreement({ model, el }: { model: AgreementModel; el: HTMLElement }): () => void {
  adoptStyles(el, REVIEW_CSS, "mn-review-style");
  const agreement = mountAgreement(el, (msg) => model.send(msg));
  const draw = () => agreement.show(readAgreement(model.get("agreement")));
  draw();
  model.on("change:agreement", draw);
  return () => {
    model.off("change:agreement", draw);
    agreement.close();
  };
}

/** One bundle, two widgets: the review queue, and the agreement that leads to it (its model has `agreement`). */
export function render(args: { model: ReviewModel & Partial<AgreementModel>; el: HTMLElement }): () => void {
  const { model, el } = args;
  return (model.get as (name: string) => unknown)("agreement") !== undefined
    ? renderAgreement({ model: model as unknown as AgreementModel, el })
    : renderReview({ model, el });
}

export default { render };
