/**
 * The review queue's widget (mastra_notebook/widget/review.py `ReviewWidget`): the item's data the
 * kernel syncs (`state`), drawn by views/review.ts, each run by the run view itself (widget.ts
 * `mountStatic`, folded as the live view folds); what the reviewer did sent back as a message. The
 * run view's styles come with the entry (widget/bundle.py: `adoptStyles`), the queue's own once per
 * document.
 */
import { type ReviewMessage, type ReviewRun, mountReview, readReview } from "./views/review";
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

export default { render: renderReview };
