/**
 * The kernel's tables as one view: a catalogue (`client.agents()`), a dataset and its items, an
 * experiment's summary and results, two experiments compared. The kernel sends what to show as inline
 * content (inline.ts: captions, notes, one or more tables of typed cells); this draws it in a block of
 * the kernel's class.
 */
import { h } from "../dom";
import { type Data, type Inline, drawInline } from "./inline";

export interface TableView {
  /** Classes of the block (`mn-dataset-experiment`), and its `data-*` attributes. */
  cls?: string;
  data?: Data;
  body: Inline;
}

export function drawTableView(view: TableView): HTMLElement {
  const el = h("div", view.cls, drawInline(view.body));
  for (const [name, value] of Object.entries(view.data ?? {})) {
    if (/^[a-z][a-z0-9-]*$/.test(name)) el.setAttribute(`data-${name}`, value);
  }
  return el;
}
