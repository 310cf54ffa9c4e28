import { prettyJson, str } from "../format";
import { foldedRaw } from "./whole";

/** A chunk the Python side did not know (or a node kind this view does not know): folded JSON. */
export const renderUnknown = foldedRaw("mn-unknown", (node) => {
  const isUnknown = node.kind === "unknown";
  return [`Unknown ${isUnknown ? "chunk" : "part"}: ${str(node.type) ?? node.kind}`, prettyJson(isUnknown ? node.chunk : node)];
});
