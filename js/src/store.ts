import type { InMsg, NodeData, Op, Send, SnapshotMsg } from "./types";

export const ROOT_ID = "root";

/** What one applied message changed: `reset` (the tree was rebuilt) and the touched node ids. */
export interface Change {
  reset: boolean;
  ids: Set<string>;
  /** With `reset`: the tree is another run's (the view forgets the reader's folding). */
  anotherRun?: boolean;
}

export type ChangeListener = (change: Change) => void;

/**
 * Nodes, children order and the seq logic of the view protocol.
 * Ops messages are applied when `seq == lastSeq + 1`; duplicates are ignored; a gap sends one
 * resync and waits for a snapshot. Listeners get the ids touched by every applied message.
 */
export class Store {
  readonly nodes = new Map<string, NodeData>();
  readonly children = new Map<string, string[]>();
  lastSeq = 0;
  /** A snapshot was asked for (hello or resync) and has not arrived yet. */
  awaitingSnapshot = false;
  private readonly listeners = new Set<ChangeListener>();
  private readonly ownLists = new WeakSet<unknown[]>();

  constructor(private readonly send: Send = () => {}) {}

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(id: string): NodeData | undefined {
    return this.nodes.get(id);
  }

  childrenOf(id: string): readonly string[] {
    return this.children.get(id) ?? [];
  }

  /** Sends `hello`; Python answers with a snapshot, which is then applied whatever its seq. */
  hello(): void {
    this.awaitingSnapshot = true;
    this.send({ t: "hello" });
  }

  receive(msg: InMsg): void {
    if (msg.t === "snapshot") {
      if (msg.seq > this.lastSeq || this.awaitingSnapshot) this.applySnapshot(msg);
      return;
    }
    if (msg.seq <= this.lastSeq) return; // duplicate
    if (msg.seq > this.lastSeq + 1) {
      if (!this.awaitingSnapshot) {
        this.awaitingSnapshot = true;
        this.send({ t: "resync", seq: this.lastSeq });
      }
      return;
    }
    const ids = new Set<string>();
    for (const op of msg.ops) this.applyOp(op, ids);
    this.lastSeq = msg.seq;
    this.emit({ reset: false, ids });
  }

  /** Resets the store to `snapshot` unconditionally. */
  applySnapshot(snapshot: SnapshotMsg): void {
    this.nodes.clear();
    this.children.clear();
    const ids = new Set<string>();
    for (const op of snapshot.ops) this.applyOp(op, ids);
    this.lastSeq = snapshot.seq;
    this.awaitingSnapshot = false;
    this.emit({ reset: true, ids, anotherRun: snapshot.another_run === true });
  }

  private emit(change: Change): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Applies one op; malformed ops and ops on unknown nodes are skipped. */
  private applyOp(op: Op, touched: Set<string>): void {
    if (!Array.isArray(op)) return;
    if (op[0] === "add") {
      const [, parent, node] = op;
      if (typeof node !== "object" || node === null || typeof node.id !== "string") return;
      const existed = this.nodes.has(node.id);
      this.nodes.set(node.id, { ...node, id: node.id, kind: typeof node.kind === "string" ? node.kind : "unknown" });
      if (!existed) this.children.set(node.id, []);
      touched.add(node.id);
      if (parent !== null && !existed) {
        const siblings = this.children.get(parent);
        if (siblings) {
          siblings.push(node.id);
          touched.add(parent);
        }
      }
      return;
    }
    const [name, id, field, value] = op;
    const node = this.nodes.get(id);
    if (!node || typeof field !== "string" || field === "id" || field === "kind") return;
    if (name === "append") {
      const prev = node[field];
      node[field] = (typeof prev === "string" ? prev : "") + String(value);
    } else if (name === "set") {
      node[field] = value;
    } else if (name === "push") {
      // Lists are grown in place (views compare them by length too), but never a list that came
      // with a message: a replay may apply the same ops again.
      const prev = node[field];
      if (Array.isArray(prev) && this.ownLists.has(prev)) {
        prev.push(value);
      } else {
        const list = Array.isArray(prev) ? [...(prev as unknown[]), value] : [value];
        this.ownLists.add(list);
        node[field] = list;
      }
    } else {
      return;
    }
    touched.add(id);
  }
}
