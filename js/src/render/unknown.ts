import { prettyJson, str } from "../format";
import type { NodeData, UnknownNode } from "../types";
import { foldedRaw } from "./whole";

/** A chunk the Python side did not know: folded JSON. */
export const renderUnknown = foldedRaw<UnknownNode>("mn-unknown", (node) => [
  `Unknown chunk: ${str(node.type) ?? node.kind}`,
  prettyJson(node.chunk),
]);

/** A node of a kind this view does not know (a newer kernel's): folded, the whole node as JSON. */
export const renderOtherKind = foldedRaw<NodeData>("mn-unknown", (node) => [
  `Unknown part: ${str(node.type) ?? node.kind}`,
  prettyJson(node),
]);
