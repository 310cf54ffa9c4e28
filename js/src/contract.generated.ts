// Generated from mastra_notebook/core/nodes.py and mastra_notebook/widget/contract.py
// by `.venv/bin/python scripts/contract.py`. Do not edit.
// Every node field may be missing or null until it is known; values are untrusted JSON.

/**
 * A run: the root, or a sub-agent / workflow nested in a tool or workflow step.
 * Children: its parts in arrival order.
 */
export interface RunNode extends NodeBase {
  kind: "run";
  /** `running finished error aborted tripwire suspended incomplete`. */
  status?: string | null;
  /** A sub-run inside a tool or workflow step. */
  nested?: boolean | null;
  /** Mastra's run id. */
  run_id?: string | null;
  /** The agent's id (`start`). */
  agent_id?: string | null;
  /** Why the run ended (`stop`, `tool-calls`, `suspended`, `aborted` ...). */
  finish_reason?: string | null;
  /** This run's own usage. */
  usage?: Usage | null;
  /** The usage of the runs nested in it, to any depth. */
  nested_usage?: Usage | null;
  /** What ended the run in error. */
  error?: ErrorInfo | null;
  /** The processor that blocked it. */
  tripwire?: Tripwire | null;
  /** When its request was sent or its source started being read (epoch ms). */
  started_at?: number | null;
  /** Its first text or reasoning token. */
  first_token_at?: number | null;
  /** Its finish chunk, or the end of its stream. */
  finished_at?: number | null;
  /**
   * Its start by Mastra's trace (the span of its first request, or a sub-agent's run; epoch ms on
   * the server's clock), once the trace is known: the timeline places the trace's times from it.
   */
  trace_start?: number | null;
  /** Its end by Mastra's trace. */
  trace_end?: number | null;
  /**
   * `recorded`: a replay or a read recording, timed by the recording alone: its view's "so far"
   * is its latest recorded moment, never the wall clock.
   */
  clock?: "recorded" | null;
  /** How many model steps it took. */
  steps?: number | null;
  /** A workflow run's own state. */
  workflow?: WorkflowState | null;
  /** Structured output so far. */
  object?: unknown;
  /** The structured output is complete. */
  object_final?: boolean | null;
  /** Chunks folded into it. */
  chunk_count?: number | null;
  /** Lines that were not chunks. */
  invalid_count?: number | null;
  /** USD for its steps and nested runs (genai-prices). */
  cost?: Cost | null;
  /** Its finished steps' streaming spans: the denominator of tokens/s. */
  streaming_ms?: number | null;
  /** Its finished steps' output tokens: the numerator of tokens/s. */
  streamed_tokens?: number | null;
  /** `[from, to]` pairs: time spent waiting for a person, kept out of its own time. */
  human_waits?: [number, number][] | null;
  /**
   * The Python call that answers the latest request still waiting, e.g.
   * `view.resume({"approved": True}, step="request")`: its suspension banner says it.
   */
  continue_with?: string | null;
  /** The id of Mastra's trace the client asked for (`tracingOptions.traceId`). */
  trace_id?: string | null;
  /** Mastra's trace of it, once `view.trace()` fetched it (or why it could not): the timeline's lane. */
  trace?: TraceLane | null;
  /**
   * What its request overrode on purpose (`instructions`, `model`...): the header says
   * "instructions overridden" when `instructions` is among them.
   */
  overrides?: string[] | null;
  /** The header's and footer's figures, formatted. */
  figures?: RunFigures | null;
  /** Its scores are awaited (Mastra scores a run after its stream ends): the header says "scoring…". */
  scoring?: boolean | null;
  /** Its scores, Mastra's and the notebook's, in the order asked for. */
  scores?: Score[] | null;
  /**
   * Its scores as the header's badges and the footer's scores row show them, in the same order
   * (core/score.py `badge`).
   */
  score_badges?: ScoreBadge[] | null;
  /** A person's label of the run (`view.label(...)` or the footer's control). */
  feedback?: FeedbackShown | null;
  /** The label's state as the footer says it: "sent to Mastra", or kept in the notebook and why. */
  feedback_note?: string | null;
}

/** A text part of the model's answer (markdown). */
export interface TextNode extends Streamed {
  kind: "text";
}

/** A reasoning part. */
export interface ReasoningNode extends Streamed {
  kind: "reasoning";
  /** It ended: said apart from its time. */
  done?: boolean | null;
  /** The provider sent it encrypted: nothing to read. */
  redacted?: boolean | null;
  /** How long it took, as shown (`Thought for 2.1 s`); null while it streams (core/captions.py). */
  duration?: string | null;
}

/**
 * A tool call (or a primitive a network runs). Children: at most one `run`, the sub-agent or
 * workflow it ran.
 */
export interface ToolNode extends HumanStep {
  kind: "tool";
  /** The call's id. */
  tool_call_id?: string | null;
  /** The tool's name. */
  tool_name?: string | null;
  /** `streaming-args running done error awaiting-approval suspended denied`. */
  status?: string | null;
  /** The arguments' raw JSON text as streamed. */
  args_text?: string | null;
  /** The best parse of the arguments so far. */
  args?: unknown;
  /** What the tool returned (shown cut when it is large: `result_cut` says so). */
  result?: unknown;
  /** The result is shown cut for its size: what was cut, and where the whole value is. */
  result_cut?: ValueCut | null;
  /** Its arguments were complete: it runs. */
  called_at?: number | null;
  /** What its approval request asks. */
  approval?: Approval | null;
  /** Why the call was declined. */
  denied_reason?: string | null;
  /** The provider ran it (web search ...), not Mastra. */
  provider_executed?: boolean | null;
  /** A result, output or approval came for a call this stream never announced. */
  orphan?: boolean | null;
  /** Where a client tool ran (`notebook`). */
  ran_in?: string | null;
  /**
   * The folded head's arguments (`city="Paris", days=3`, at most 48 characters as JavaScript
   * counts them); null while they stream. Written by the kernel (core/captions.py).
   */
  args_summary?: string | null;
  /** The result drawn as data (a table, a chart, an image), when the kernel has one. */
  display?: RichDisplay | null;
  /** How its arguments are drawn as they stream, when a renderer asks. */
  args_display?: ArgsDisplay | null;
}

/**
 * A workflow step (a loop's iterations are steps of their own). Children: at most one `run`,
 * an agent streamed inside it.
 */
export interface WorkflowStepNode extends HumanStep {
  kind: "workflow-step";
  /** The step's id. */
  step_name?: string | null;
  /** Mastra's id of this execution of the step. */
  step_call_id?: string | null;
  /** Mastra's word: `running success failed suspended waiting ...`. */
  status?: string | null;
  /** What the step received. */
  input?: unknown;
  /** What it returned. */
  output?: unknown;
  /** Its latest `workflow-step-progress` payload. */
  progress?: unknown;
  /** The server's `startedAt` (another clock: only its difference to `endedAt` is used). */
  server_started_at?: number | null;
}

/** A source (once per URL); citations add the text they cite. */
export interface SourceNode extends NodeBase {
  kind: "source";
  /** `url` or `document`. */
  source_type?: string | null;
  /** The provider's id for it. */
  source_id?: string | null;
  /** Its address (shown as a link only for http(s) and mailto). */
  url?: string | null;
  /** Its title. */
  title?: string | null;
  /** A document's media type. */
  media_type?: string | null;
  /** A document's file name. */
  filename?: string | null;
  /** The texts that cite it. */
  citations?: string[] | null;
}

/** A file the model produced. */
export interface FileNode extends NodeBase {
  kind: "file";
  /** Its media type. */
  media_type?: string | null;
  /** Its size in bytes. */
  size?: number | null;
  /** Its bytes, only for raster images up to 2 MB. */
  base64?: string | null;
  /** Its file name. */
  name?: string | null;
  /** The first 2 KB of a `text/*` file. */
  text_preview?: string | null;
  /** `size` as shown (`1.5 KB`), written by the kernel (core/captions.py). */
  size_label?: string | null;
}

/** A divider between model steps. */
export interface StepNode extends Timed {
  kind: "step";
  /** 1-based, as the view's "Step 1" and `Step.index` say it (Mastra's trace: `step: 0`). */
  index?: number | null;
  /**
   * How long the step took (`1.3 s`): its span by Mastra's trace when known, else from its
   * start to its finish as its chunks arrived; null until it ended (core/captions.py).
   */
  duration?: string | null;
  /** What measured `duration`: the server's span (`trace`) or its chunks' arrival. */
  duration_source?: "trace" | "arrival" | null;
  /** The duration's tooltip: what measured it. */
  duration_title?: string | null;
  /** Why the step ended. */
  finish_reason?: string | null;
  /** The step's usage. */
  usage?: Usage | null;
  /** The model that ran it. */
  model_id?: string | null;
  /** The model's provider. */
  provider?: string | null;
  /** The provider's response id. */
  response_id?: string | null;
  /** The provider's warnings. */
  warnings?: unknown;
  /** Its price (genai-prices). */
  cost_usd?: number | null;
  /** Why it has no price. */
  cost_reason?: string | null;
  /** The union of its parts' streaming spans. */
  streaming_ms?: number | null;
  /**
   * The folded "Request" toggle's label (`system · 6 messages (4 history) · 2 tools`): what the
   * model was given in this step. The request itself is not a node field: it is sent on demand.
   */
  request_summary?: string | null;
  /** Why this step has no request, and what to turn on, on the server. */
  request_reason?: string | null;
  /** A teacher's note on the step (`view.note(step, text)`): text, never HTML. */
  note?: string | null;
}

/** A tool that runs on after its step. */
export interface BackgroundTaskNode extends NodeBase {
  kind: "background-task";
  /** The task's id. */
  task_id?: string | null;
  /** The tool it runs. */
  tool_name?: string | null;
  /** The call it runs for. */
  tool_call_id?: string | null;
  /** `started running completed failed cancelled ...`. */
  status?: string | null;
  /** Every status, in order. */
  history?: string[] | null;
  /** Progress not shown on its tool call. */
  outputs?: unknown[] | null;
  /** What it returned. */
  result?: unknown;
  /** Why it failed. */
  error?: ErrorInfo | null;
}

/** A goal's (or a network's validation's) verdict on an attempt. */
export interface GoalNode extends NodeBase {
  kind: "goal";
  /** The chunk type: `goal`, `is-task-complete` or `network-validation-end`. */
  type?: string | null;
  /** The payload as Mastra sent it. */
  evaluation?: unknown;
  /** The agent was sent back to work. */
  should_continue?: boolean | null;
}

/** A message across the run: an error, an abort, a tripwire, a warning. */
export interface BannerNode extends NodeBase {
  kind: "banner";
  /** `error abort tripwire suspended warning`. */
  level?: string | null;
  /** What to say. */
  message?: string | null;
  /** What else is known, as JSON. */
  detail?: unknown;
}

/** A value the run wrote for its reader: `data-*`, `custom`, `raw`, a network's routing. */
export interface DataNode extends NodeBase {
  kind: "data";
  /** The chunk type, e.g. `data-progress` (`routing` for a network's decision). */
  type?: string | null;
  /** The value. */
  data?: unknown;
}

/** A chunk type this version does not know: kept whole and shown raw. */
export interface UnknownNode extends NodeBase {
  kind: "unknown";
  /** Its type. */
  type?: string | null;
  /** The whole chunk. */
  chunk?: unknown;
}

/** A line that was not a chunk. */
export interface InvalidNode extends NodeBase {
  kind: "invalid";
  /** Its text (first 4,000 characters). */
  raw?: string | null;
  /** What is wrong with it. */
  error?: string | null;
}

/** The traits every view syncs (`model.get` in the browser). */
export interface ViewTraits {
  /**
   * Empty while running; when the run ends, the final snapshot message as JSON text, so a saved
   * notebook with widget state renders the run without a kernel.
   */
  _final: string;
  /** The Stop button shows while true. */
  streaming: boolean;
  /** The view can continue a run (a live client view): approval buttons. */
  can_approve: boolean;
  /** The footer's label control sends labels to the kernel (a live view's). */
  _can_label: boolean;
  /** A header line (agent or workflow id), may be empty. */
  title: string;
  /** A second, muted header item: what was asked (the prompt's first line). */
  subtitle: string;
  /** The view waits for its turn (a gallery tile not started yet). */
  queued: boolean;
  /** A CSS length: a taller view scrolls inside itself; `""` for no limit. */
  max_height: string;
  /** Names this view's transcripts: where the view draws, it hides them (and only them). */
  view_key: string;
  /**
   * Present mode, for a projector (`view.present()`): larger type, a compact header, no label
   * row, token counts or raw JSON (the class `mn-present` on the view's root).
   */
  _present: boolean;
}

/** A replay's traits (`ReplayView`): a view's, and its position. */
export interface ReplayTraits extends ViewTraits {
  /** `{total, position, playing, speed}`: the replay bar. */
  replay: ReplayState;
}

/** The whole tree: the store resets to it (on hello, resync, a replay's seek back). */
export interface SnapshotMsg {
  t: "snapshot";
  /** The seq of the last batch it includes. */
  seq: number;
  /** `add` ops that rebuild the tree. */
  ops: Op[];
  /**
   * The tree of another run than the one drawn (a grid's detail area showing the next run): the
   * view forgets what the reader opened or folded by hand. Absent for the same run (a hello, a
   * resync, a replay's seek back), whose cards the reader left open stay open.
   */
  another_run?: boolean;
}

/** A batch of changes, applied when its seq follows the last one. */
export interface OpsMsg {
  t: "ops";
  /** Numbered from 1. */
  seq: number;
  ops: Op[];
}

/** The inspector's rows from `start` on (all on opening, then the new ones after each batch). */
export interface ChunksMsg {
  t: "chunks";
  start: number;
  /** `{i, ms, type, from, path, nodes, error?, raw?, outer?}` per chunk. */
  entries: Record<string, unknown>[];
}

/** A chunk's JSON, as the inspector's row asked. */
export interface ChunkJsonReplyMsg {
  t: "chunk-json";
  i: number;
  json: unknown;
}

/** A step's request, as its Request toggle asked (`core/request_bounded.py`). */
export interface RequestReplyMsg {
  t: "request";
  /** The step node's id. */
  id: string;
  /** The request, bounded; null when there is none. */
  request: unknown;
  /** Why there is none. */
  reason?: string | null;
  /** Where the whole request is: `result.steps[i].request`. */
  where: string | null;
}

/** On every render (a new view, a second display, a page reload): the kernel sends a snapshot. */
export interface HelloMsg {
  t: "hello";
}

/** A gap in the seqs: the kernel sends a snapshot. */
export interface ResyncMsg {
  t: "resync";
  /** The last seq the view applied. */
  seq: number;
}

/** The Stop button. */
export interface StopMsg {
  t: "stop";
}

/** A tool card's Approve button (only when the trait `can_approve` is true). */
export interface ApproveMsg {
  t: "approve";
  tool_call_id: string;
}

/** A tool card's Decline, with the reason typed (or null). */
export interface DeclineMsg {
  t: "decline";
  tool_call_id: string;
  reason?: string | null;
}

/** A replay's play button. */
export interface PlayMsg {
  t: "play";
}

/** A replay's pause button. */
export interface PauseMsg {
  t: "pause";
}

/** A replay's scrubber or step buttons: show the state after `position` chunks. */
export interface SeekMsg {
  t: "seek";
  position: number;
}

/** A replay's speed control: play at `speed` times the recorded pace. */
export interface SpeedMsg {
  t: "speed";
  speed: number;
}

/** A replay held before a moment (`pause_at`): show it, and play on to the next. */
export interface RevealMsg {
  t: "reveal";
}

/** The inspector opened or closed: while open, the kernel sends `chunks`. */
export interface InspectMsg {
  t: "inspect";
  open: boolean;
}

/** The footer's label control. */
export interface LabelMsg {
  t: "label";
  thumbs?: "up" | "down" | null;
  score?: number | null;
  comment?: string | null;
}

/** An inspector row clicked: the kernel answers with the chunk's JSON. */
export interface ChunkJsonMsg {
  t: "chunk-json";
  /** The chunk's index. */
  i: number;
}

/** A step's Request toggle opened: the kernel answers with the request. */
export interface RequestMsg {
  t: "request";
  /** The step node's id. */
  id: string;
}

/** What a tool call waiting for approval asks. */
export interface Approval {
  /** The JSON schema of the data that resumes it, when Mastra sent one. */
  resume_schema?: unknown;
}

/** How a tool's arguments are drawn while they stream (`mn.renderer(name, args=...)`). */
export interface ArgsDisplay {
  /** The argument drawn as code (`query`). */
  field?: string | null;
  /** Its language: `sql python json markdown`. */
  language?: string | null;
  /** `args=fn`'s display of the partial arguments, throttled like the rest of the view. */
  display?: RichDisplay | null;
}

/**
 * USD: `total_usd` (this run's steps and the runs nested in it) and `steps_usd` (one figure per
 * step, `None` where unknown). `reason` says why `total_usd` is `None`.
 */
export interface Cost {
  /** USD for this run's steps and the runs nested in it; `None` when any is unknown (see `reason`). */
  total_usd?: number | null;
  /** USD per step, in order; `None` for a step whose model or usage is unknown. */
  steps_usd?: (number | null)[];
  /** USD of the sub-agents and workflows this run's tools ran (`None`: none, or unknown). */
  nested_usd?: number | null;
  /** Why `total_usd` is `None`: a model genai-prices does not know, a step without usage... */
  reason?: string | null;
}

/** Why a run, a tool call, a workflow step or a background task failed. */
export interface ErrorInfo {
  /** What went wrong, as the server or the tool said it. */
  message: string;
  /** The error's class or kind (`TypeError`, `APICallError`...), when given. */
  name?: string | null;
  /** The HTTP status of a failed request (400, 429, 500...), when the error came from one. */
  status_code?: number | null;
  /** Anything else the error carried (the cause, the provider's response body), as sent. */
  details?: unknown;
}

/** A person's label of a run, as the footer shows it (core/feedback.py `Feedback`, as JSON). */
export interface FeedbackShown {
  /** `up`, `down` or null. */
  thumbs?: "up" | "down" | null;
  /** The score the person gave, or null. */
  score?: number | null;
  /** What the person wrote, or null. */
  comment?: string | null;
  /** When it was given (ISO 8601, UTC). */
  at?: string | null;
  /** Mastra's server stored it (true), it is kept in the notebook only (false), or it is being sent. */
  sent_to_mastra?: boolean | null;
  /** Why it is kept in the notebook only, and what to turn on to send it. */
  reason?: string | null;
}

/** What a tool call and a workflow step share: they run, may wait for a person, may hold a run. */
export interface HumanStep extends Timed {
  /** Why it failed. */
  error?: ErrorInfo | null;
  /** Custom values it wrote (`tool-output`, `workflow-step-output`). */
  outputs?: unknown[] | null;
  /** What it said when it suspended. */
  suspend_payload?: unknown;
  /** Since when it waits for a person. */
  waiting_since?: number | null;
  /** The person's answer. */
  decision?: DecisionShown | null;
  /** The Python call that answers it while it waits, e.g. `view.approve("call_1")`. */
  continue_with?: string | null;
  /** How many levels of runs nested below it are not drawn (deeper than the view's depth). */
  hidden_levels?: number | null;
  /**
   * The folded head's outcome (`→ 18`, `→ error: ...`, `→ declined: ...`, at most 80
   * characters; a sub-run's answer text when a run is nested), or "" (core/captions.py).
   */
  outcome?: string | null;
  /** How long it took without the person's wait (`1.3 s`); null until it ended. */
  duration?: string | null;
  /** What measured `duration`: the server's span (`trace`) or its chunks' arrival. */
  duration_source?: "trace" | "arrival" | null;
  /** The duration's tooltip: what measured it (core/captions.py). */
  duration_title?: string | null;
}

/** A person's answer to an approval or suspension. */
export interface DecisionShown {
  /** `approve`, `decline` or `resume`. */
  action: string;
  /** `view` (a button) or `python` (a call). */
  by: string;
  /** When they answered (epoch ms; null when untimed). */
  at?: number | null;
  /** How long the request waited for them. */
  waited_ms?: number | null;
  /** `waited_ms` as the card shows it (`8.7 s`), written by the kernel (core/captions.py). */
  waited?: string | null;
}

/** Every node: an id and a kind; its children are kept by the store, not as a field. */
export interface NodeBase {
  /** Unique in its run's tree; the root is `"root"`. */
  id: string;
}

/** A change of the node tree (JSON arrays; `core/tree.py` makes them as lists). */
export type Op = AddOp | AppendOp | SetOp | PushOp;

/** Create a node (its fields) and append its id to its parent's children (the root's parent: null). */
export type AddOp = ["add", string | null, Record<string, unknown>];

/** `node[field] += text` (string fields: `text`, `args_text`). */
export type AppendOp = ["append", string, string, string];

/** `node[field].push(value)` (list fields; created if missing). */
export type PushOp = ["push", string, string, unknown];

/** A replay's position (`ReplayView`); empty until the replay publishes it. */
export interface ReplayState {
  /** How many chunks the recording holds. */
  total?: number;
  /** How many of them the view shows. */
  position?: number;
  /** It plays (else it is paused). */
  playing?: boolean;
  /** Its pace against the recorded one. */
  speed?: number;
  /**
   * Where each moment begins (`step`, `tool-call`, `sub-agent`: chunk indexes, core/moments.py):
   * the bar's next and previous step and next tool call.
   */
  marks?: Record<string, number[]>;
  /** The moment playback stops before (`mn.replay(path, pause_at=...)`), or `""`. */
  pause_at?: string;
  /** The moment the replay is held before, hidden until revealed (`""`: not held). */
  held?: string;
}

/**
 * A value drawn as data rather than JSON (a tool's result, or its arguments as they stream): a
 * MIME bundle made in the kernel from a Python object or a renderer's return, bounded on the wire.
 * Untrusted: sanitised wherever it is drawn (DOMPurify in the widget, the static renderer's
 * sanitiser in transcripts).
 */
export interface RichDisplay {
  /**
   * MIME type to payload: `text/html`, `image/svg+xml`, `text/markdown`, `text/plain` (text);
   * `image/png`, `image/jpeg`, `image/gif`, `image/webp` (base64 text); `application/json`
   * (any JSON). The richest type the renderer can draw safely wins.
   */
  data?: Record<string, unknown> | null;
  /** Where it came from: `value` (a Python tool's return), `renderer` (`mn.renderer`). */
  source?: string | null;
  /** What stayed in the kernel when the whole was too large, e.g. `first 50 of 1,000,000 rows`. */
  preview?: string | null;
  /** The renderer raised: its message. The JSON result stays one click away. */
  error?: string | null;
}

/**
 * Every figure the header and footer show, formatted once in Python (`core/figures.py`).
 * A key is missing where there is nothing to say.
 */
export interface RunFigures {
  /** Prompt tokens, e.g. `"1,204"`. */
  input_tokens?: string | null;
  /** Generated tokens. */
  output_tokens?: string | null;
  /** Reasoning tokens (omitted when 0). */
  reasoning_tokens?: string | null;
  /** Cached prompt tokens (omitted when 0). */
  cached_input_tokens?: string | null;
  /** `"453 tokens"`, or `"453 tokens · 1,378 with sub-agents"`. */
  tokens?: string | null;
  /** The tokens' tooltip: in and out, and with the runs nested in it. */
  tokens_title?: string | null;
  /** Total tokens with the runs nested in it, when more than its own. */
  tokens_with_nested?: string | null;
  /** Time to the first token, e.g. `"340 ms"`. */
  first_token?: string | null;
  /** Output tokens over the finished steps' streaming spans, e.g. `"52.1"`. */
  tokens_per_second?: string | null;
  /** The run's length. */
  duration?: string | null;
  /** How many model steps. */
  steps?: string | null;
  /** `"$0.0021"` or `"unknown"`. */
  cost?: string | null;
  /** The cost's source, or why it is unknown. */
  cost_title?: string | null;
}

/** One score of a run: a Mastra scorer's (by its id) or a Python scorer's (by its name). */
export interface Score {
  /** The scorer: a Mastra scorer's id, or a Python scorer's name. */
  scorer: string;
  /** The score (a bool is 1.0 or 0.0); `None` when the scorer failed (`reason` says why). */
  score?: number | null;
  /** Why, as the scorer said it; or the error of a scorer that failed. */
  reason?: string | null;
  /** `mastra` (scored on the server) or `notebook` (a Python scorer, run in the kernel). */
  source?: "mastra" | "notebook";
  /** `score >= threshold` for a scorer with a threshold (a bool scorer's own answer); else None. */
  passed?: boolean | null;
  /** The scorer's threshold, when it has one. */
  threshold?: number | null;
}

/**
 * A score as the header's badge and the footer's scores row show it: written by the kernel
 * (core/score.py `badge`), drawn as given.
 */
export interface ScoreBadge {
  /** `answer-length 0.7`, `exact 1 ✓`, `judge failed`. */
  text: string;
  /** `ok` (passed), `error` (below its threshold), `warn` (the scorer failed), `neutral`. */
  tone: string;
  /** The scorer, where it ran, and its reason: shown on hover. */
  title: string;
  /** The scorer's name (a Mastra id or a Python scorer's name): the footer row's label. */
  scorer?: string | null;
  /** `0.7`, `1 ✓`, `0 ✗`, `failed`: the footer row's value and mark. */
  value?: string | null;
  /** The scorer's reason (or its error), `""` when it gave none: folded in the footer row. */
  reason?: string | null;
}

/** `node[field] = value`. */
export type SetOp = ["set", string, string, unknown];

/** A part of the model's answer that streams as text. */
export interface Streamed extends Timed {
  /** The text so far (grows by `append`). */
  text?: string | null;
}

/** A node with a span on the run's clock (epoch ms): a part, a step, a call. */
export interface Timed extends NodeBase {
  /** Its first chunk (a workflow step's is moved back by the server's own length of the step). */
  started_at?: number | null;
  /**
   * Its last: a part's end (`text-end`), a step's `step-finish`, a call's result, error or
   * denial; null while it runs (and in an untimed run).
   */
  ended_at?: number | null;
  /**
   * A step's or tool call's start by Mastra's trace (its span, epoch ms on the server's clock),
   * once the trace is known: its duration and its bar come from the span then.
   */
  trace_start?: number | null;
  /** Its end by Mastra's trace. */
  trace_end?: number | null;
}

/** Mastra's trace of a run, fetched by `view.trace()`: a lane of the run's timeline. */
export interface TraceLane {
  /** The trace's id. */
  trace_id?: string | null;
  /** Every request of the run had its span stored and ended. */
  complete: boolean;
  /** Why the lane is incomplete or empty, and what to turn on on the server. */
  message?: string | null;
  /** The spans drawn, in tree order (children in start order). */
  spans: TraceSpan[];
  /** Spans not drawn: chunk and event spans, and those past the lane's limit. */
  hidden?: number;
}

/** One span of Mastra's trace as the timeline's lane draws it (core/trace.py `lane`). */
export interface TraceSpan {
  /** Mastra's span id. */
  id: string;
  /** Its parent span's id. */
  parent?: string | null;
  /** How deep it is drawn (0: a request of the run). */
  depth: number;
  /** Mastra's name for it (`llm: 'gpt-4o'`, `memory: recall`, `tool: 'getWeather'`). */
  name: string;
  /** `agent_run`, `model_generation`, `memory_operation`, `processor_run`, `tool_call`... */
  type: string;
  /** Its start (epoch ms, the server's clock). */
  start?: number | null;
  /** Its end (epoch ms); null while it runs. */
  end?: number | null;
  /** `success`, `error`... as Mastra says it. */
  status?: string | null;
  /** Why it failed. */
  error?: string | null;
  /** What it was given, cut to a size the view carries. */
  input?: unknown;
  /** What it gave, cut alike. */
  output?: unknown;
  /** Its attributes, cut alike. */
  attributes?: unknown;
  /** Its input, output or attributes were cut (`view.trace()` returns them whole). */
  cut?: boolean;
}

/** A guardrail that stopped the run: which one, and why. */
export interface Tripwire {
  /** Why a guardrail (an input or output processor) stopped the run. */
  reason: string;
  /** The id of the processor that tripped, when given. */
  processor_id?: string | null;
  /** What the processor attached to its decision, as sent. */
  metadata?: unknown;
}

/** Tokens, as the provider reported them (a step's, or a run's total). */
export interface Usage {
  /** Tokens the model read: the prompt, the history and the tool results sent back to it. */
  input_tokens?: number;
  /** Tokens the model wrote: text, reasoning and tool-call arguments. */
  output_tokens?: number;
  /** All tokens, as the provider counts them (input plus output, in most). */
  total_tokens?: number;
  /** Of the output tokens, those spent reasoning (0 where the provider does not say). */
  reasoning_tokens?: number;
  /** Of the input tokens, those read from the provider's prompt cache (billed less). */
  cached_input_tokens?: number;
  /**
   * Of the input tokens, those written to the provider's prompt cache (Anthropic bills them more):
   * Mastra's `cacheCreationInputTokens`.
   */
  cache_creation_input_tokens?: number;
}

/**
 * A card's note on a value the view shows cut for its size (core/bounding.py `FIELD`): the
 * node keeps it whole in the kernel. Written by the kernel (core/captions.py `value_cut`).
 */
export interface ValueCut {
  /** What was cut and the whole size (`Cut for the view: 50 MB of JSON in all, ...`). */
  note: string;
  /**
   * Where the whole value is, as Python (`result.tool_call('call_1').result`); null: in the run's
   * result.
   */
  where?: string | null;
}

/** A workflow run's own state, beside its steps. */
export interface WorkflowState {
  /** The workflow's id (`workflow-start`). */
  workflow_id?: string | null;
  /** Mastra's word: `running success failed suspended paused canceled ...`. */
  status: string;
  /** The workflow's final result. */
  result?: unknown;
}

/** Every node kind the reducer writes. */
export type NodeKind = "run" | "text" | "reasoning" | "tool" | "workflow-step" | "source" | "file" | "step" | "background-task" | "goal" | "banner" | "data" | "unknown" | "invalid";

/** A view node, told apart by `kind`. */
export type ViewNode =
  | RunNode
  | TextNode
  | ReasoningNode
  | ToolNode
  | WorkflowStepNode
  | SourceNode
  | FileNode
  | StepNode
  | BackgroundTaskNode
  | GoalNode
  | BannerNode
  | DataNode
  | UnknownNode
  | InvalidNode;

/** What the kernel sends (anywidget custom messages). */
export type KernelMessage =
  | SnapshotMsg
  | OpsMsg
  | ChunksMsg
  | ChunkJsonReplyMsg
  | RequestReplyMsg;

/** What the browser sends. */
export type BrowserMessage =
  | HelloMsg
  | ResyncMsg
  | StopMsg
  | ApproveMsg
  | DeclineMsg
  | PlayMsg
  | PauseMsg
  | SeekMsg
  | SpeedMsg
  | RevealMsg
  | InspectMsg
  | LabelMsg
  | ChunkJsonMsg
  | RequestMsg;

/** Each chunk type: what it says happened (core/glossary.py). */
export const CHUNK_GLOSSARY: Readonly<Record<string, string>> = {
  "abort": "the run was aborted (Stop, or the client went away)",
  "agent-execution-abort": "a network member agent was aborted",
  "agent-execution-approval": "a network member agent waits for approval",
  "agent-execution-end": "a network member agent ended",
  "agent-execution-start": "a network member agent starts",
  "agent-execution-suspended": "a network member agent suspended itself",
  "background-task-cancelled": "a background task (a tool left running while the agent goes on) was cancelled",
  "background-task-completed": "a background task (a tool left running while the agent goes on) completed: its result",
  "background-task-failed": "a background task (a tool left running while the agent goes on) failed: its error",
  "background-task-output": "a background task (a tool left running while the agent goes on) streamed output",
  "background-task-progress": "a background task (a tool left running while the agent goes on) reports progress",
  "background-task-resumed": "a background task (a tool left running while the agent goes on) resumed",
  "background-task-running": "a background task (a tool left running while the agent goes on) is running",
  "background-task-started": "a background task (a tool left running while the agent goes on) started",
  "background-task-suspended": "a background task (a tool left running while the agent goes on) suspended itself",
  "custom": "a chunk a tool or step wrote itself (data-*): drawn by its renderer",
  "error": "the run failed: its error",
  "file": "a file the model produced (an image, say)",
  "finish": "the run ended: why, its total usage, and (with memory) the messages the model was given",
  "goal": "the agent's goal for the run, as it states it",
  "is-task-complete": "the agent's check whether its task is complete",
  "mn-feedback": "the notebook's own line: a person's label on the run (thumbs, score, comment)",
  "mn-scores": "the notebook's own line: the run's scores, kept in the recording",
  "mn-trace": "the notebook's own line: the run's trace from Mastra's observability, kept in the recording",
  "network-execution-event-finish": "the network's run ended: its result",
  "network-execution-event-step-finish": "a network step (one member's run) finished",
  "network-object": "the network's structured output so far",
  "network-object-result": "the network's structured output, complete",
  "network-validation-end": "the network's check ended: done or not",
  "network-validation-start": "the network starts checking whether the task is done",
  "object": "the structured output so far, as the model writes it",
  "object-result": "the structured output, complete and validated",
  "raw": "the provider's raw chunk, passed through as it came",
  "reasoning-delta": "a piece of the model's reasoning",
  "reasoning-end": "the model's reasoning ended",
  "reasoning-file": "a file the model produced while reasoning",
  "reasoning-signature": "the provider's signature over the reasoning (kept, not shown)",
  "reasoning-start": "the model starts reasoning (thinking before it answers)",
  "redacted-reasoning": "reasoning the provider keeps hidden: only that it happened",
  "response-metadata": "the provider's response metadata (model id, timestamps)",
  "routing-agent-abort": "the routing agent was aborted",
  "routing-agent-end": "the routing agent chose: which member runs, and why",
  "routing-agent-start": "the network's routing agent starts choosing what runs next",
  "routing-agent-text-delta": "a piece of the routing agent's text",
  "routing-agent-text-start": "the routing agent starts writing its reasoning",
  "source": "a source the model cites (a URL or document)",
  "start": "the run starts (its run id)",
  "step-finish": "a step ended: why the model stopped, and the step's token usage",
  "step-output": "what a nested step streamed, carried by its parent",
  "step-start": "a step starts: one request to the model (its request, unless the server redacts it)",
  "text-delta": "a piece of the model's text, as it streams",
  "text-end": "a block of the model's text ended",
  "text-start": "the model starts a block of text",
  "tool-call": "the model calls a tool: its name and arguments, complete",
  "tool-call-approval": "a tool call waits for a person to approve or decline it",
  "tool-call-delta": "a piece of a tool call's arguments, as the model writes them",
  "tool-call-input-streaming-end": "the model finished writing a tool call's arguments",
  "tool-call-input-streaming-start": "the model starts writing a tool call's arguments",
  "tool-call-suspended": "a tool suspended itself, waiting for data to resume with",
  "tool-error": "a tool failed: its error, sent back to the model instead of a result",
  "tool-execution-abort": "a network member tool was aborted",
  "tool-execution-approval": "a network member tool waits for approval",
  "tool-execution-end": "a network member tool ended",
  "tool-execution-start": "a network member tool starts",
  "tool-execution-suspended": "a network member tool suspended itself",
  "tool-output": "something a tool streamed while it ran (a sub-agent's chunks, progress)",
  "tool-output-denied": "a person declined the tool call: it did not run",
  "tool-result": "what a tool returned, sent back to the model",
  "tripwire": "a processor stopped the run on purpose (a guardrail): its reason",
  "watch": "a workflow's state, as Mastra's watch stream reports it",
  "workflow-canceled": "a workflow run was cancelled",
  "workflow-execution-abort": "a network member workflow was aborted",
  "workflow-execution-approval": "a network member workflow waits for approval",
  "workflow-execution-end": "a network member workflow ended",
  "workflow-execution-start": "a network member workflow starts",
  "workflow-execution-suspended": "a network member workflow suspended itself",
  "workflow-finish": "a workflow run ended: its status and result",
  "workflow-paused": "a workflow run paused",
  "workflow-start": "a workflow run starts",
  "workflow-step-finish": "a workflow step finished",
  "workflow-step-output": "something a workflow step streamed while it ran",
  "workflow-step-progress": "a workflow step's progress (of a foreach, say)",
  "workflow-step-result": "a workflow step ended: its status and output",
  "workflow-step-start": "a workflow step starts: its input",
  "workflow-step-suspended": "a workflow step suspended itself, waiting for data to resume with",
  "workflow-step-waiting": "a workflow step waits (for an event, or its turn)",
};

/** Each `from` value of a chunk: who sent it (core/glossary.py). */
export const FROM_GLOSSARY: Readonly<Record<string, string>> = {
  "AGENT": "sent by an agent's own stream (its model, its tools, its steps)",
  "NETWORK": "sent by an agent network (its routing agent and the members it picks)",
  "SYSTEM": "sent by Mastra itself, not by an agent or workflow (a stream-level notice)",
  "USER": "written by the notebook into a recording (a trace, a label, scores): no server sent it",
  "WORKFLOW": "sent by a workflow run (its steps, and what they stream)",
};
