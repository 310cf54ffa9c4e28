import { str } from "../format";
import { errorMessage } from "./common";
import type { InvalidNode } from "../types";
import { foldedRaw } from "./whole";

/** A line of the stream that could not be parsed: folded, raw text and the error. */
export const renderInvalid = foldedRaw<InvalidNode>("mn-invalid", (node) => [
  `Invalid chunk: ${errorMessage(node.error) ?? "unreadable"}`,
  str(node.raw) ?? "",
]);
