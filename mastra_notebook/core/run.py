"""The one reducer: chunks in, a tree of runs out. Knows the run, not the widget.

A :class:`Run` folds chunks into view nodes (see tree.py) as they arrive; ``run.result`` reads
those nodes into a :class:`RunResult`. A sub-agent or workflow that a tool streams is a nested
``Run`` under its tool call, fed the unwrapped chunks of each ``tool-output`` envelope, to any depth.
"""

from __future__ import annotations

from typing import Any

import orjson

from . import values
from .chunks import ChunkBase, InvalidChunk, check, decode, is_chunk, raw_text
from .handlers import HANDLERS, TERMINAL_TOOL_STATUSES, now_ms
from .result import RunResult
from .tree import Node, Sink, Tree, snapshot_ops

_EXECUTION_EVENTS = ("agent-execution-event-", "workflow-execution-event-", "tool-execution-event-")


class Run:
    """A pure accumulator: ``feed`` chunks, read ``result`` at any moment. No widget, no I/O."""

    def __init__(self, *, on_op: Sink | None = None, _tree: Tree | None = None, _parent: Node | None = None):
        self._tree = _tree or Tree()
        if on_op is not None:
            self._tree.sink = on_op
        self.node = self._tree.new("run", _parent, status="running", nested=_parent is not None)
        self._texts: dict[str, Node] = {}
        self._text_nodes: list[Node] = []
        self._attempt_start = 0  # index into _text_nodes where the current goal attempt begins
        self._reasoning: dict[str, Node] = {}
        self._tools: dict[str, Node] = {}
        self._children: dict[str, Run] = {}  # node id (tool call or workflow step) -> nested run
        self._output_counts: dict[tuple[str, str], int] = {}
        self._steps: list[Node] = []
        self._open_step: Node | None = None
        self._workflow_steps: dict[str, Node] = {}
        self._tasks: dict[str, Node] = {}
        self._goals: dict[str, Node] = {}  # "<type>:<iteration>" -> goal node
        self._routing_text: Node | None = None  # a network's final result, as it streams
        self._executions: dict[str, Node] = {}  # a network's primitives, by execution run id
        self._file_data: dict[str, bytes] = {}  # file node id -> bytes (kept off the view)
        self._usage_done = values.ZERO_USAGE  # usage of turns that sent a finish
        self._usage_open = values.ZERO_USAGE  # usage of steps since the last finish
        self._awaiting: set[str] = set()  # tool calls / workflow steps waiting for a human
        self._ended = False
        self._version = 0
        self._cached: tuple[int, RunResult] | None = None
        self.chunk_count = 0
        self.invalid: list[dict[str, str]] = []
        self._unsettled = True  # see _settle
        self._waiting_first_token = True

    # ---- feeding ------------------------------------------------------------------------------

    def feed(self, item: Any) -> None:
        """Fold one chunk in: a dict, one JSON text (str or bytes), or a parsed chunk. Never raises."""
        self._version += 1
        kind = type(item)
        if kind is bytes or kind is str:  # the hot path: one record of a stream
            try:
                chunk = orjson.loads(item)
            except orjson.JSONDecodeError:
                chunk = None
            if type(chunk) is dict:
                self._fold(chunk, item)
                return
        if isinstance(item, dict):
            self._fold(item)
        elif isinstance(item, (bytes, bytearray, memoryview, str)):
            raw = item if isinstance(item, (bytes, str)) else bytes(item)
            decoded = decode(raw)
            if isinstance(decoded, InvalidChunk):
                self._invalid(decoded.raw, decoded.error)
            else:
                self._fold(decoded, raw)
        elif isinstance(item, ChunkBase):
            self._fold(item.to_dict())
        elif isinstance(item, InvalidChunk):
            self._invalid(item.raw, item.error)
        else:
            self._invalid(repr(item), f"not a chunk: a {type(item).__name__}")

    def _fold(self, chunk: dict[str, Any], raw: bytes | str | None = None) -> None:
        chunk_type = chunk.get("type")
        if chunk_type is None and "error" in chunk:
            self._error_body(chunk)
            return
        error = check(chunk)
        if error is not None:
            self._invalid(raw_text(raw) if raw is not None else values.dump(chunk), error)
            return
        self.chunk_count += 1
        if self._unsettled:
            self._settle(chunk)
        handler = HANDLERS.get(chunk_type)  # type: ignore[arg-type]  # a str: check() said so
        if handler is not None:
            handler(self, chunk)
        else:
            self._other(chunk, str(chunk_type))

    def _settle(self, chunk: dict[str, Any]) -> None:
        """What only the first chunks need: a start time, a run id, carrying on a run that ended or waits."""
        if self._ended or self.node.fields["status"] == "suspended":
            self._resume()
        if "started_at" not in self.node.fields:
            self._tree.set(self.node, "started_at", now_ms())
        if self.node.fields.get("run_id") is None and isinstance(chunk.get("runId"), str):
            self._tree.set(self.node, "run_id", chunk["runId"])
        self._unsettled = self.node.fields.get("run_id") is None

    def end(self) -> None:
        """The stream ended. A run still running is ``suspended`` (waiting for a human) or ``incomplete``."""
        self._ended = True
        self._unsettled = True  # a chunk after the end carries the run on
        self._version += 1
        for child in self._children.values():
            child.end()
        if self.node.fields["status"] == "running":
            if self._awaiting:
                self._set_status("suspended")
                self._tree.set(self.node, "finish_reason", "suspended")
            else:
                self._set_status("incomplete")
        if self.node.fields.get("finished_at") is None:
            self._tree.set(self.node, "finished_at", now_ms())

    def mark_aborted(self, message: str = "stopped by the user") -> None:
        """The client stopped the stream: no ``abort`` chunk will come, so say it here."""
        self._version += 1
        if self.node.fields["status"] in ("running", "incomplete"):
            self._abort(message)

    def mark_error(self, message: str, *, status_code: int | None = None, details: Any = None) -> None:
        """A transport fault (HTTP error, refused connection, timeout) ends the run in error."""
        self._version += 1
        info: dict[str, Any] = {"message": message}
        if status_code is not None:
            info["status_code"] = status_code
        if details is not None:
            info["details"] = details
        self._fail(info)

    def note(self, level: str, message: str) -> None:
        """A remark from whoever feeds the run (a lost connection, say), shown as a banner."""
        self._version += 1
        self._banner(level, message)

    def adopt_run_id(self, run_id: str) -> None:
        """The run id is known before any chunk (a workflow run the client created)."""
        if self.node.fields.get("run_id") is None:
            self._tree.set(self.node, "run_id", run_id)

    def _resume(self) -> None:
        """A continuation (approve, decline, resume) or a new turn carries the same run on."""
        self._ended = False
        if self.node.fields["status"] in ("suspended", "incomplete", "finished"):
            self._set_status("running")
            self._tree.set(self.node, "finished_at", None)

    # ---- the view tree -----------------------------------------------------------------------

    @property
    def tree(self) -> Tree:
        return self._tree

    def snapshot(self) -> list[list[Any]]:
        """Ops that rebuild this run's whole view tree."""
        return snapshot_ops(self.node)

    def _set(self, node: Node, field: str, value: Any) -> None:
        if node.fields.get(field) != value:
            self._tree.set(node, field, value)

    def _set_status(self, status: str) -> None:
        self._set(self.node, "status", status)
        if status == "suspended":
            self._unsettled = True

    def _add(self, kind: str, **fields: Any) -> Node:
        return self._tree.new(kind, self.node, **fields)

    def _invalid(self, raw: str, error: str) -> None:
        self._version += 1
        self.invalid.append({"raw": raw, "error": error})
        self._add("invalid", raw=raw[:4000], error=error)
        self._set(self.node, "invalid_count", len(self.invalid))

    def _first_token(self) -> None:
        if self._waiting_first_token:
            self._waiting_first_token = False
            self._tree.set(self.node, "first_token_at", now_ms())

    # ---- text and reasoning ------------------------------------------------------------------

    def _text_node(self, text_id: str) -> Node:
        node = self._texts.get(text_id)
        if node is None:
            node = self._texts[text_id] = self._add("text", text="")
            self._text_nodes.append(node)
        return node

    def _reasoning_node(self, reasoning_id: str) -> Node:
        node = self._reasoning.get(reasoning_id)
        if node is None:
            node = self._reasoning[reasoning_id] = self._add(
                "reasoning", text="", started_at=now_ms(), ended_at=None, redacted=False
            )
        return node

    # ---- tools --------------------------------------------------------------------------------

    def _tool(self, payload: dict[str, Any]) -> Node:
        call_id = str(payload.get("toolCallId", ""))
        node = self._tools.get(call_id)
        if node is None:
            node = self._tools[call_id] = self._add(
                "tool",
                tool_call_id=call_id,
                tool_name=str(payload.get("toolName") or ""),
                status="streaming-args",
                args_text="",
                args=None,
                result=None,
                error=None,
                outputs=[],
                started_at=now_ms(),
                ended_at=None,
            )
        elif payload.get("toolName") and not node.fields.get("tool_name"):
            self._set(node, "tool_name", str(payload["toolName"]))
        return node

    def _tool_status(self, node: Node, status: str) -> None:
        self._set(node, "status", status)
        if status in TERMINAL_TOOL_STATUSES:
            self._set(node, "ended_at", now_ms())
            self._awaiting.discard(node.id)

    def _child(self, parent: Node) -> Run:
        child = self._children.get(parent.id)
        if child is None:
            child = self._children[parent.id] = Run(_tree=self._tree, _parent=parent)
        return child

    def _output(self, node: Node, value: Any, channel: str) -> None:
        """A value a tool or step wrote: a nested chunk for its child run, or a custom output.

        Progress of a background tool arrives both as ``tool-output`` and inside
        ``background-task-output``; each channel carries the same sequence, so it is shown once.
        """
        if is_chunk(value):
            self._child(node).feed(value)
            return
        key, other = (node.id, channel), (node.id, "task" if channel == "tool" else "tool")
        index = self._output_counts.get(key, 0)
        self._output_counts[key] = index + 1
        if index >= self._output_counts.get(other, 0):
            self._tree.push(node, "outputs", value)

    # ---- status -------------------------------------------------------------------------------

    def _banner(self, level: str, message: str, detail: Any = None) -> None:
        self._add("banner", level=level, message=message, detail=detail)

    def _fail(self, info: dict[str, Any]) -> None:
        self._set(self.node, "error", info)
        self._set_status("error")
        self._banner("error", info["message"], info.get("details"))

    def _abort(self, message: str) -> None:
        self._set_status("aborted")
        self._set(self.node, "finish_reason", "aborted")
        self._banner("abort", message)

    def _is_final(self) -> bool:
        return self.node.fields["status"] in ("error", "aborted", "tripwire")

    def _error_body(self, chunk: dict[str, Any]) -> None:
        """An HTTP error body (``{"error": ...}``) read as a stream: the run failed before it began."""
        self.chunk_count += 1
        info = values.error_info(chunk["error"])
        if "message" in chunk and isinstance(chunk["message"], str):
            info["message"] = chunk["message"]
        self._fail(info)

    def _other(self, chunk: dict[str, Any], chunk_type: str) -> None:
        if chunk_type.startswith("data-"):
            self._add("data", type=chunk_type, data=chunk.get("data"))
        elif chunk_type.startswith(_EXECUTION_EVENTS):
            self._execution_event(chunk)
        else:
            self._add("unknown", type=chunk_type, chunk=chunk)

    def _execution_event(self, chunk: dict[str, Any]) -> None:
        """A network's ``<agent|workflow|tool>-execution-event-<type>``: its payload is a whole chunk of
        the primitive the routing agent picked, whose runId names that execution."""
        inner = chunk.get("payload")
        key = inner.get("runId") if isinstance(inner, dict) else None
        node = self._executions.get(str(key))
        if node is None:  # not announced by an execution-start: the latest one, or a node of its own
            latest = list(self._executions.values())
            node = latest[-1] if latest else self._execution({"runId": key}, chunk["type"].split("-", 1)[0])
        self._child(node).feed(inner)

    def _execution(self, payload: dict[str, Any], kind: str) -> Node:
        """The node of one primitive a network runs: shown like a tool call (agent-<id>, ...)."""
        key = str(payload.get("runId") or f"{kind}-{len(self._executions)}")
        node = self._executions.get(key)
        if node is None:
            name = payload.get("agentId") or payload.get("workflowId") or payload.get("toolName") or kind
            args = payload.get("args")
            prompt = args.get("prompt") if isinstance(args, dict) else None
            node = self._executions[key] = self._add(
                "tool",
                tool_call_id=key,
                tool_name=str(name) if kind == "tool" else f"{kind}-{name}",
                status="running",
                args={"prompt": prompt} if prompt is not None else args,
                args_text="",
                result=None,
                error=None,
                outputs=[],
                started_at=now_ms(),
                ended_at=None,
            )
        return node

    # ---- reading the result -------------------------------------------------------------------

    @property
    def result(self) -> RunResult:
        """The run so far as a RunResult; cheap to call repeatedly (cached until the next chunk)."""
        if self._cached is None or self._cached[0] != self._version:
            from .reader import read_result

            self._cached = (self._version, read_result(self))
        return self._cached[1]

    @property
    def status(self) -> str:
        return str(self.node.fields["status"])
