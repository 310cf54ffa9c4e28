import { h, slot } from "../dom";
import { str } from "../format";
import { maybeJson } from "./common";
import type { NodeRenderer } from "./context";

/** A custom `data-*` part: its type and JSON value. */
export const renderData: NodeRenderer = () => {
  const type = h("span", "mn-name");
  const value = slot("mn-data-value");
  const el = h("div", "mn-card mn-data", [h("div", "mn-card-head", [h("span", "mn-kind-label", ["Data"]), type]), value.el]);
  return {
    el,
    update(node) {
      type.textContent = str(node.type) ?? "";
      value.update(node.data, (data) => maybeJson("Value", data));
    },
  };
};
