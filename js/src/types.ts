/** Shapes of the view protocol (docs/view-protocol.md). All payload values are untrusted JSON. */
import type { BrowserMessage, NodeKind, OpsMsg, SnapshotMsg, ViewNode } from "./contract.generated";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type * from "./contract.generated";

/**
 * A node as the store keeps it: `id`, `kind` and any fields (each may be missing or null). What each
 * kind carries is typed in `contract.generated.ts` (generated from mastra_notebook/core/nodes.py):
 * a renderer gets its kind's type (render/index.ts).
 */
export interface NodeData {
  id: string;
  kind: string;
  [field: string]: unknown;
}

/** The typed node of one kind. */
export type NodeOf<K extends NodeKind> = Extract<ViewNode, { kind: K }>;

/**
 * `node` as the typed node of `kind`, or null when it is of another kind. Its fields are as Python
 * sent them: the types say what the reducer writes, they do not check untrusted values.
 */
export function nodeOf<K extends NodeKind>(node: NodeData | undefined, kind: K): NodeOf<K> | null {
  return node !== undefined && node.kind === kind ? (node as unknown as NodeOf<K>) : null;
}

/** What the store applies: the kernel's snapshot and ops messages (the rest go to the inspector and
 * the request toggles). The messages both ways are typed in mastra_notebook/widget/contract.py. */
export type InMsg = SnapshotMsg | OpsMsg;

/** What the browser sends the kernel. */
export type OutMsg = BrowserMessage;

export type Send = (msg: OutMsg) => void;

/** Parses an incoming custom message; anything not shaped like the protocol gives null. */
export function parseInMsg(msg: unknown): InMsg | null {
  if (typeof msg !== "object" || msg === null) return null;
  const m = msg as { t?: unknown; seq?: unknown; ops?: unknown };
  if ((m.t !== "snapshot" && m.t !== "ops") || typeof m.seq !== "number" || !Array.isArray(m.ops)) {
    return null;
  }
  return m as InMsg;
}
