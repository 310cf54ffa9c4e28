/**
 * The grid's widget (mastra_notebook/widget/grid.py `GridWidget`): the page's data the kernel syncs
 * (`page`), drawn by views/grid.ts; a control's click sent back as a message (`open`, `turn`,
 * `filter`, `jump`). Drawn, it hides its saved copy (the static grid output below it, named by its
 * `view_key`), as a run's view hides its transcript. Its styles are added once per document (a
 * `<style>` of its own, not anywidget's `_css`, which restyles every view on the page whenever a
 * model is made).
 */
import { type GridMessage, mountGrid, readPage } from "./views/grid";
import { GRID_CSS } from "./grid-style";
import { adoptStyles } from "./styles";
import { hideOwnTranscripts } from "./transcripts";

/** The part of the anywidget model the grid uses. */
export interface GridModel {
  get(name: "page" | "view_key"): unknown;
  on(event: "change:page", callback: () => void): void;
  off(event: "change:page", callback: () => void): void;
  send(msg: GridMessage): void;
}

export function renderGrid({ model, el }: { model: GridModel; el: HTMLElement }): () => void {
  adoptStyles(el, GRID_CSS, "mn-grid-style");
  const grid = mountGrid(el, (msg) => model.send(msg));
  const draw = () => grid.show(readPage(model.get("page")));
  draw();
  hideOwnTranscripts(el.ownerDocument, model.get("view_key")); // drawn: its saved copy would repeat it
  model.on("change:page", draw);
  return () => {
    model.off("change:page", draw);
    grid.close();
  };
}

export default { render: renderGrid };
