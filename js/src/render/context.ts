import type { Store } from "../store";
import type { NodeData, Send } from "../types";
import type { FoldChoices } from "./common";
import type { RequestSource } from "./request";

export interface Traits {
  title: string;
  /** A line under the title (the first line of the prompt). */
  subtitle: string;
  streaming: boolean;
  /** Waiting for its turn (a gallery tile not started yet). */
  queued: boolean;
  canApprove: boolean;
  /** A CSS length: a taller view scrolls inside itself; "" for no limit. */
  maxHeight: string;
  /** A replay held short of its end: its run is not running, it is paused. */
  paused?: boolean;
  /** The footer's label control sends labels to the kernel (a live view); else a label is only shown. */
  canLabel?: boolean;
}

export const DEFAULT_TRAITS: Traits = {
  title: "",
  subtitle: "",
  streaming: false,
  queued: false,
  canApprove: false,
  maxHeight: "",
};

export interface RenderCtx {
  store: Store;
  send: Send;
  traits(): Traits;
  /** performance.now() past which costly renderers stop and ask for another frame. */
  deadline(): number;
  /** Where a step's "Request" toggle gets its request (request.ts); none: no toggle. */
  requests?: RequestSource;
  /** What the reader opened or folded by hand, kept across a redraw of the same run. */
  folds: FoldChoices;
}

/**
 * The DOM of one node. `update` is called with the node's current fields whenever it changes: a
 * renderer's `N` is its kind's generated type (`ToolNode`...), as render/index.ts picks it by kind.
 */
export interface NodeView<N = NodeData> {
  el: HTMLElement;
  /** Where the elements of the node's children are appended (nodes that can have children). */
  childHost?: HTMLElement;
  /** Returns true when work is left for a later frame (then it is called again, same fields). */
  update(node: N): boolean | void;
}

export type NodeRenderer<N = NodeData> = (ctx: RenderCtx, node: N) => NodeView<N>;
