/**
 * The grid's widget (mastra_notebook/widget/grid.py `GridWidget`): the page's data the kernel syncs
 * (`page`), drawn by views/grid.ts; a control's click sent back as a message (`open`, `turn`,
 * `filter`, `jump`). Its styles are added once per document (a `<style>` of its own, not anywidget's
 * `_css`, which restyles every view on the page whenever a model is made).
 */
import { type GridMessage, mountGrid, readPage } from "./views/grid";
import { GRID_CSS as css } from "./grid-style";

/** The part of the anywidget model the grid uses. */
export interface GridModel {
  get(name: "page"): unknown;
  on(event: "change:page", callback: () => void): void;
  off(event: "change:page", callback: () => void): void;
  send(msg: GridMessage): void;
}

const STYLE_ID = "mn-grid-style";

function adoptStyle(el: HTMLElement): void {
  const root = el.getRootNode();
  const host = root instanceof ShadowRoot ? root : document.head;
  if (host.querySelector(`#${STYLE_ID}`)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = css;
  host.append(style);
}

export function renderGrid({ model, el }: { model: GridModel; el: HTMLElement }): () => void {
  adoptStyle(el);
  const grid = mountGrid(el, (msg) => model.send(msg));
  const draw = () => grid.show(readPage(model.get("page")));
  draw();
  model.on("change:page", draw);
  return () => {
    model.off("change:page", draw);
    grid.close();
  };
}

export default { render: renderGrid };
