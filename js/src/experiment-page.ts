/**
 * The experiment grid's page (mastra_notebook/widget/experiment.py `Page`): the rows the kernel drew,
 * as HTML parts (`parts`: the rows' style, then each row), shown as they change; a tile's "open"
 * button asks the kernel to open that run. The parts are view data drawn in the kernel
 * (render/views.py through views/inline.ts, written out with their buttons kept: serialize.ts
 * `controls`), every value in them escaped there; only the parts whose HTML changed are parsed again: the others keep their nodes (no
 * garbage of a whole page's nodes per redraw, no style and layout work for them, a hovered button
 * stays).
 */

/** The part of the anywidget model this page uses. */
export interface PageModel {
  get(name: "parts"): unknown;
  on(event: "change:parts", callback: () => void): void;
  off(event: "change:parts", callback: () => void): void;
  send(msg: { open: string }): void;
}

/** The rows' style and the rows, as the kernel sent them; anything else reads as no rows. */
export function readParts(value: unknown): { style: string; rows: string[] } {
  const parts = Array.isArray(value) ? value.map((part) => (typeof part === "string" ? part : "")) : [];
  const [style = "", ...rows] = parts;
  return { style, rows };
}

export function renderPage({ model, el }: { model: PageModel; el: HTMLElement }): () => void {
  const rows = document.createElement("div");
  rows.className = "mn-exp-rows";
  el.replaceChildren(rows);
  const template = document.createElement("template");
  let drawn: string[] = [];
  const draw = () => {
    const { style, rows: parts } = readParts(model.get("parts"));
    if (rows.getAttribute("style") !== style) rows.setAttribute("style", style);
    parts.forEach((html, i) => {
      const current = rows.children[i];
      if (drawn[i] === html && current) return;
      template.innerHTML = html;
      const node = template.content.firstElementChild ?? document.createElement("div");
      if (current) current.replaceWith(node);
      else rows.append(node);
    });
    while (rows.children.length > parts.length) rows.lastElementChild?.remove();
    drawn = parts;
  };
  const onClick = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest("button[data-open]") : null;
    if (button instanceof HTMLButtonElement && el.contains(button) && !button.disabled) {
      model.send({ open: button.dataset.open ?? "" });
    }
  };
  draw();
  model.on("change:parts", draw);
  el.addEventListener("click", onClick);
  return () => {
    model.off("change:parts", draw);
    el.removeEventListener("click", onClick);
  };
}

export default { render: renderPage };
