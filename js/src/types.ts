/** Shapes of the view protocol (docs/view-protocol.md). All payload values are untrusted JSON. */
import type { NodeKind, ViewNode } from "./nodes.generated";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type * from "./nodes.generated";

/**
 * A node as the store keeps it: `id`, `kind` and any fields (each may be missing or null). What each
 * kind carries is typed in `nodes.generated.ts` (generated from mastra_notebook/core/nodes.py).
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

export type Op =
  | ["add", string | null, NodeData]
  | ["append", string, string, string]
  | ["set", string, string, unknown]
  | ["push", string, string, unknown];

export interface SnapshotMsg {
  t: "snapshot";
  seq: number;
  ops: Op[];
}

export interface OpsMsg {
  t: "ops";
  seq: number;
  ops: Op[];
}

export type InMsg = SnapshotMsg | OpsMsg;

export type OutMsg =
  | { t: "hello" }
  | { t: "resync"; seq: number }
  | { t: "stop" }
  | { t: "approve"; tool_call_id: string }
  | { t: "decline"; tool_call_id: string; reason: string | null }
  | { t: "play" }
  | { t: "pause" }
  | { t: "seek"; position: number }
  | { t: "inspect"; open: boolean }
  | { t: "label"; thumbs: "up" | "down" | null; score: number | null; comment: string | null }
  | { t: "chunk-json"; i: number }
  | { t: "request"; id: string };

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
