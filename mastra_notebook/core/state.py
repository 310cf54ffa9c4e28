"""The state of one run (and of each run nested in it): one object, changed through its own methods.

Handlers (``handlers/``) decide what a chunk means and call these methods;
``result_from_state.py`` turns the state into a RunResult. Every change to what a user sees goes through the
view tree (``tree.py``), so a live view receives it as an op.

Identity follows what real providers send: ids are not unique across a run. A text or reasoning
part belongs to the step it arrives in (the same id in a later step, or after its ``*-end``, is a
new part), and a ``tool-call`` whose id names a call that already ended is a new call.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import captions, figures, values
from .bounding import FIELD
from .chunks import is_chunk
from .cost import Cost, combine, step_price
from .display import DISPLAY_KEY, NO_DRAWER, Drawer
from .request import NO_BODY_REASON, NO_STEP_START_REASON, ModelRequest, normalise_request
from .timing import Interval, TracedTimes, union_ms
from .tree import Node, Tree
from .waiting import Suggest, Wait, WaitKind, no_suggestion, schema_object

TERMINAL_TOOL_STATUSES = frozenset({"done", "error", "denied"})
VIEW_DEPTH = 16  # nested runs deeper than this hold their data but are not drawn (real trees: 3-5)
ARGS_REPARSE_GROWTH = 1.25  # streaming args are parsed again once they grew by a quarter: linear cost


TIME_KEY = "mnReceivedMs"  # a recording's key for a chunk's arrival (ms since the run started)


def now_ms() -> float:
    """The kernel's wall clock, in epoch milliseconds."""
    return time.time() * 1000


@dataclass(slots=True, eq=False)
class Clock:
    """A run's one clock (the kernel's, epoch ms), shared by the runs nested in it. ``moment``: when
    the chunk being folded arrived, when a recording or the view tells (else it arrives now);
    ``untimed``: why the run has no moments at all (a source read with no arrival times), or None."""

    moment: float | None = None
    untimed: str | None = None

    def now(self) -> float | None:
        """The moment of the chunk being folded (epoch ms), or None for an untimed run."""
        if self.untimed is not None:
            return None
        return time.time() * 1000 if self.moment is None else self.moment


def wait_of(node: Node, resume_schema: Any = None) -> Wait:
    """The facts of a tool call's or workflow step's request for a person (``suggest`` words them)."""
    status, step = node.fields.get("status"), node.kind == "workflow-step"
    kind: WaitKind = "approval" if status == "awaiting-approval" else "step" if step else "suspension"
    call_id, step_name = node.fields.get("tool_call_id"), node.fields.get("step_name")
    return Wait(
        kind,
        tool_call_id=None if call_id is None else str(call_id),
        step_name=None if step_name is None else str(step_name),
        resume_schema=schema_object(resume_schema),
    )


@dataclass(slots=True, eq=False)
class StepState:
    """One model step: what arrived between its ``step-start`` and ``step-finish``."""

    node: Node | None = None
    texts: list[Node] = field(default_factory=list)
    reasoning: list[Node] = field(default_factory=list)
    calls: list[Node] = field(default_factory=list)
    reported_text: str | None = None  # the step's text as its step-finish tells it
    request: dict[str, Any] | None = None  # step-start's {body}; None: no step-start (state only)
    # The body normalised, for the provider it was read for: a body never changes once its step
    # started, and a run's result is read again at every change (a 200 kB body costs ~8 ms).
    request_read: tuple[str | None, ModelRequest] | None = None

    def spans(self, end: Any) -> list[Interval]:
        """When each part streamed: text and reasoning from their start to their end chunk (which comes
        with the last delta), tool arguments until the call. A part left open ends at ``end``."""
        spans = []
        for node in (*self.texts, *self.reasoning, *self.calls):
            start = node.fields.get("started_at")
            stop = node.fields.get("called_at" if node.kind == "tool" else "ended_at")
            stop = stop if isinstance(stop, (int, float)) else end
            if isinstance(start, (int, float)) and isinstance(stop, (int, float)) and stop >= start:
                spans.append((float(start), float(stop)))
        return spans


@dataclass(slots=True, eq=False)
class RunState:
    """Everything the reducer knows about one run; nested runs are RunStates of their own."""

    tree: Tree
    node: Node
    clock: Clock = field(default_factory=Clock)
    parent: RunState | None = None
    depth: int = 0
    anchor: Node | None = None  # for a run below VIEW_DEPTH: the deepest drawn node above it
    chunk_count: int = 0
    invalid: list[dict[str, str]] = field(default_factory=list)
    open_texts: dict[str, Node] = field(default_factory=dict)  # this step's text parts by id
    closed_texts: set[str] = field(default_factory=set)  # ids whose text ended in this step
    open_reasoning: dict[str, Node] = field(default_factory=dict)
    text_nodes: list[Node] = field(default_factory=list)  # the run's text parts, in order
    attempt_start: int = 0  # index into text_nodes where the current goal attempt begins
    reasoning_nodes: list[Node] = field(default_factory=list)
    reasoning_details: dict[str, dict[str, Any]] = field(default_factory=dict)  # signatures, encrypted
    calls: dict[str, Node] = field(default_factory=dict)  # the LATEST call for each tool call id
    args_length: dict[str, int] = field(default_factory=dict)  # call node id -> streamed args length
    args_next_parse: dict[str, int] = field(default_factory=dict)  # ... -> length that parses again
    children: dict[str, RunState] = field(default_factory=dict)  # node id -> nested run
    output_counts: dict[tuple[str, str], int] = field(default_factory=dict)
    steps: list[StepState] = field(default_factory=list)
    open_step: StepState | None = None
    loose: StepState = field(default_factory=StepState)  # content outside any open step
    workflow_steps: dict[str, Node] = field(default_factory=dict)  # latest node per step name
    tasks: dict[str, Node] = field(default_factory=dict)
    goals: dict[str, Node] = field(default_factory=dict)  # "<type>:<iteration>" -> goal node
    routing_text: Node | None = None  # a network's final result, as it streams
    executions: dict[str, Node] = field(default_factory=dict)  # a network's primitives by run id
    sources_by_url: dict[str, Node] = field(default_factory=dict)
    file_data: dict[str, bytes] = field(default_factory=dict)  # file node id -> bytes (off the view)
    provider_events: list[Any] = field(default_factory=list)  # provider lifecycle ``custom`` chunks
    usage_done: dict[str, int] = field(default_factory=lambda: values.ZERO_USAGE)  # finished turns
    usage_open: dict[str, int] = field(default_factory=lambda: values.ZERO_USAGE)  # steps since then
    awaiting: set[str] = field(default_factory=set)  # tool calls / workflow steps waiting for a human
    resume_schemas: dict[str, Any] = field(default_factory=dict)  # step name -> schema (Run.expect_resume)
    traced: list[ModelRequest] = field(default_factory=list)  # each step's request from the trace
    # each nested run's steps' requests from the trace, by the tool call it runs in: one dict, shared
    # by the runs nested in this one (``caption_nested``)
    nested_traced: dict[str, list[ModelRequest]] = field(default_factory=dict)
    # the server's spans of the run's calls, steps and nested runs (Mastra's trace), once known:
    # one object, shared by the runs nested in this one (``time_by``)
    spans: TracedTimes = field(default_factory=TracedTimes)
    call_id: str = ""  # the tool call this run is nested in ("" for the root): its key in ``spans``
    notes: dict[int, str] = field(default_factory=dict)  # a teacher's note by step number (from 1)
    ended: bool = False
    unsettled: bool = True  # see settle()
    waiting_first_token: bool = True
    suggest: Suggest = no_suggestion  # words the call that answers a wait (core/waiting.py)
    draw: Drawer = NO_DRAWER  # draws tool calls as data (core/display.py)
    # call node id -> the Python object a client tool returned (off the view, as file_data)
    kept: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def root(cls, tree: Tree, clock: Clock, suggest: Suggest, draw: Drawer) -> RunState:
        """The state of a run whose root node is made now in ``tree``."""
        node = tree.new("run", None, status="running", nested=False)
        return cls(tree=tree, node=node, clock=clock, suggest=suggest, draw=draw)

    def now(self) -> float | None:
        """When what is being folded happened, on the run's one clock (None: the run is untimed)."""
        return self.clock.now()

    # ---- writing to the view tree -------------------------------------------------------------

    @property
    def status(self) -> str:
        """The run node's status (``running``, ``finished``, ``error``...)."""
        return str(self.node.fields["status"])

    def set(self, node: Node, name: str, value: Any) -> None:
        """Write a field of ``node`` when it changes, and what depends on it: its captions, and a tool's
        arguments as a renderer draws them."""
        if node.fields.get(name) != value:
            self.tree.set(node, name, value)
            if name in captions.inputs_of(node.kind):
                self.recaption(node)
            if name == "args" and node.kind == "tool":
                self.set(node, "args_display", self.draw.args(str(node.fields.get("tool_name") or ""), value))

    def set_result(self, node: Node, value: Any) -> None:
        """A tool's result. One the view shows cut for its size (core/bounding.py ``FIELD``) says so
        on its card, with where the whole value is (``result_cut``)."""
        self.set(node, "result", value)
        size = node.cut_size("result")
        returned = node.fields.get("ran_in") is not None  # a client tool: the object is its .value
        where = self.call_path(node)
        if where is not None:
            where += ".value" if returned else ".result"
        self.set(node, "result_cut", captions.value_cut(size, FIELD.value, where, returned) if size else None)

    def call_path(self, node: Node) -> str | None:
        """Where a tool call of this run is in its RunResult, as Python (``result.tool_call('c1')``,
        through the calls its run is nested in); None below a workflow step."""
        path = f".tool_call({str(node.fields.get('tool_call_id') or '')!r})"
        state = self
        while state.parent is not None:
            if not state.call_id:
                return None
            path = f".tool_call({state.call_id!r}).children{path}"
            state = state.parent
        return "result" + path

    def draw_result(self, node: Node, payload: dict[str, Any]) -> None:
        """A tool's result arrived: its display, a renderer's (core/display.py) or the one its client
        made from the Python value (on the chunk); none: it draws as JSON."""
        made = self.draw.result(str(node.fields.get("tool_name") or ""), payload.get("result"))
        if made is None and isinstance(payload.get(DISPLAY_KEY), dict):
            made = payload[DISPLAY_KEY]
        self.set(node, "display", made)

    def add(self, kind: str, **fields: Any) -> Node:
        """A new node of ``kind`` under the run node, with its captions."""
        shown = {
            name: value for name, value in captions.captions_of(kind, fields).items() if value is not None
        }
        return self.tree.new(kind, self.node, **fields, **shown)

    def recaption(self, node: Node) -> None:
        """Write the node's captions again (core/captions.py): what its card shows, formatted once here."""
        nested = bool(node.fields.get("hidden_levels")) or any(child.kind == "run" for child in node.children)
        for name, value in captions.captions_of(node.kind, node.fields, nested).items():
            if node.fields.get(name) != value:
                self.tree.set(node, name, value)

    def set_status(self, status: str) -> None:
        """The run's status; a suspended run is resumed by its next chunk (``settle``)."""
        self.set(self.node, "status", status)
        if status == "suspended":
            self.unsettled = True

    def banner(self, level: str, message: str, detail: Any = None) -> None:
        """A line across the run (``error``, ``abort``, ``tripwire``...) with its detail."""
        self.add("banner", level=level, message=message, detail=detail)

    def add_invalid(self, raw: str, error: str) -> None:
        """A line that was not a chunk: kept whole for the result, cut for the view, and counted."""
        self.invalid.append({"raw": raw, "error": error})
        self.add("invalid", raw=raw[:4000], error=error)
        self.set(self.node, "invalid_count", len(self.invalid))

    def first_token(self) -> None:
        """The run's first token came now (once): the time to first token."""
        if self.waiting_first_token:
            self.waiting_first_token = False
            self.tree.set(self.node, "first_token_at", self.now())
            self.update_figures()

    # ---- the run's life -------------------------------------------------------------------------

    def settle(self, chunk: dict[str, Any]) -> None:
        """What only the first chunks need: a start time, a run id, carrying on a run that ended or waits."""
        if self.ended or self.status == "suspended":
            self.resume()
        if "started_at" not in self.node.fields:
            self.tree.set(self.node, "started_at", self.now())
        if self.node.fields.get("run_id") is None and isinstance(chunk.get("runId"), str):
            self.tree.set(self.node, "run_id", chunk["runId"])
        self.unsettled = self.node.fields.get("run_id") is None

    def resume(self) -> None:
        """A continuation (approve, decline, resume) or a new turn carries the same run on."""
        self.ended = False
        if self.status in ("suspended", "incomplete", "finished"):
            self.set_status("running")
            self.tree.set(self.node, "finished_at", None)

    def end(self) -> None:
        """This run's stream ended (its nested runs are ended by the caller, without recursion)."""
        self.ended = True
        self.unsettled = True  # a chunk after the end carries the run on
        if self.status == "running":
            if self.awaiting:
                self.set_status("suspended")
                self.tree.set(self.node, "finish_reason", "suspended")
            else:
                self.set_status("incomplete")
        if self.node.fields.get("finished_at") is None:
            self.finished()
        self.update_figures()

    def finished(self) -> None:
        """The run ended now (its finish chunk, or the end of its stream)."""
        self.set(self.node, "finished_at", self.now())
        self.update_figures()

    def update_figures(self) -> None:
        """The run's figures as the header and footer show them (``figures``: one rule each, here)."""
        self.set(self.node, "figures", figures.run_figures(self.node.fields))

    def is_final(self) -> bool:
        """The run already ended in an error, an abort or a tripwire: the first ending stands."""
        return self.status in ("error", "aborted", "tripwire")

    def fail(self, info: dict[str, Any]) -> None:
        """The run ended in error (``info``: ``values.error_info``), with its banner."""
        self.set(self.node, "error", info)
        self.set_status("error")
        self.banner("error", info["message"], info.get("details"))

    def abort(self, message: str) -> None:
        """The run was stopped, with its banner."""
        self.set_status("aborted")
        self.set(self.node, "finish_reason", "aborted")
        self.banner("abort", message)

    def turn_ended(self, usage: dict[str, int]) -> None:
        """A turn (an agent's finish, a workflow's, a network's) adds its usage to the run's total."""
        self.usage_done = values.add_usage(self.usage_done, usage)
        self.usage_open = values.ZERO_USAGE
        self.set_usage(self.usage_done)

    def set_usage(self, usage: dict[str, int]) -> None:
        """This run's own usage; the runs holding it count it as nested (``nested_usage``, upwards)."""
        self.set(self.node, "usage", usage)
        state: RunState | None = self
        while state is not None:
            if state is not self:
                nested = values.ZERO_USAGE
                for child in state.children.values():
                    nested = values.add_usage(nested, figures.usage_with_nested(child.node.fields))
                state.set(state.node, "nested_usage", nested)
            state.update_figures()
            state = state.parent

    # ---- steps ----------------------------------------------------------------------------------

    def start_step(self, warnings: Any, request: dict[str, Any] | None = None) -> None:
        """A model step begins: ids seen before it name parts of earlier steps."""
        read, about = self._read_request(request)
        step = StepState(
            node=self.add(
                "step",
                index=len(self.steps) + 1,
                finish_reason=None,
                usage=None,
                started_at=self.now(),
                ended_at=None,
                **about,
            )
        )
        step.request = request
        step.request_read = read
        self.steps.append(step)
        self.show_note(len(self.steps))
        if read is None and len(self.steps) <= len(self.traced):  # a replay whose trace came first
            self.caption_traced(self.traced)
        self._place_step(len(self.steps) - 1, step)
        self.open_step = step
        self.open_texts.clear()
        self.closed_texts.clear()
        self.open_reasoning.clear()
        if warnings:
            self.tree.set(step.node, "warnings", warnings)  # type: ignore[arg-type]

    def _read_request(
        self, request: dict[str, Any] | None
    ) -> tuple[tuple[str | None, ModelRequest] | None, dict[str, str]]:
        """A starting step's body normalised once (kept for its result, read for the provider of the
        step before it: the same model, mostly) and its toggle's label, or why it has none."""
        body = request.get("body") if request is not None else None
        if body is None or body == {}:
            return None, {"request_reason": NO_BODY_REASON}
        previous = self.steps[-1] if self.steps else None
        hint = previous.node.fields.get("provider") if previous is not None and previous.node else None
        hint = hint if isinstance(hint, str) else None
        read = normalise_request(body, hint)
        before = previous.request_read[1] if previous is not None and previous.request_read else None
        history = captions.new_messages_from(read, before)
        return (hint, read), {"request_summary": captions.request_summary(read, history)}

    def keep_note(self, step: int, text: str | None) -> None:
        """A teacher's note on step ``step`` (from 1; None clears it): on the step's divider now, or
        when the step starts (a replay that read its notes before its chunks)."""
        if text is None:
            self.notes.pop(step, None)
        else:
            self.notes[step] = text
        self.show_note(step)

    def show_note(self, step: int) -> None:
        """Step ``step``'s divider shows its note (or none), if the step has started."""
        node = self.steps[step - 1].node if 0 < step <= len(self.steps) else None
        if node is not None and node.fields.get("note") != self.notes.get(step):
            self.tree.set(node, "note", self.notes.get(step))

    def caption_traced(self, traced: list[ModelRequest]) -> None:
        """Each step whose stream carried no body, captioned from the request Mastra's trace holds for
        it (``traced``, the steps' in order): its toggle opens on that request now, and on those of
        steps that start later (a replay that read its trace before its chunks)."""
        self.traced = traced
        previous: ModelRequest | None = None
        for position, step in enumerate(self.steps):
            own = step.request_read[1] if step.request_read is not None else None
            found = traced[position] if position < len(traced) else None
            if own is None and found is not None and step.node is not None:
                history = captions.new_messages_from(found, previous)
                self.tree.set(step.node, "request_summary", captions.request_summary(found, history))
                self.tree.set(step.node, "request_reason", None)
            previous = own or found

    def finish_step(self, fields: dict[str, Any], usage: dict[str, int], reported_text: Any = None) -> None:
        """The open step ends (a continuation finishes the step its first stream began: what arrived
        since the last step makes it up)."""
        step = self.open_step
        if step is None:
            step, self.loose = self.loose, StepState()
            step.node = self.add(
                "step",
                index=len(self.steps) + 1,
                finish_reason=None,
                usage=None,
                ended_at=None,
                request_reason=NO_STEP_START_REASON,
            )
            self.steps.append(step)
            self.show_note(len(self.steps))
        self.open_step = None
        self.open_texts.clear()
        self.closed_texts.clear()
        self.open_reasoning.clear()
        step.reported_text = reported_text if isinstance(reported_text, str) else None
        self.usage_open = values.add_usage(self.usage_open, usage)
        assert step.node is not None
        for name, value in fields.items():
            self.set(step.node, name, value)
        self.set(step.node, "usage", usage)
        self.set(step.node, "ended_at", self.now())
        price = step_price(step.node.fields["index"], fields.get("model_id"), fields.get("provider"), usage)
        self.tree.set(step.node, "cost_usd", price if isinstance(price, float) else None)  # genai-prices
        self.tree.set(step.node, "cost_reason", price if isinstance(price, str) else None)
        streaming_ms = union_ms(step.spans(step.node.fields["ended_at"]))
        self.set(step.node, "streaming_ms", streaming_ms)
        if streaming_ms > 0 and usage.get("output_tokens"):  # the run's tokens/s: its steps' spans only
            self.set(self.node, "streaming_ms", (self.node.fields.get("streaming_ms") or 0) + streaming_ms)
            self.set(
                self.node,
                "streamed_tokens",
                (self.node.fields.get("streamed_tokens") or 0) + usage["output_tokens"],
            )
        self.set(self.node, "steps", len(self.steps))
        self.update_costs()
        self.set_usage(values.add_usage(self.usage_done, self.usage_open))

    def update_costs(self) -> None:
        """This run's cost (node field ``cost``) and its parents', which include it (a loop upwards)."""
        state: RunState | None = self
        while state is not None:
            priced = [
                step.node.fields for step in state.steps if step.node and "cost_usd" in step.node.fields
            ]
            prices = [fields.get("cost_reason") or float(fields.get("cost_usd") or 0.0) for fields in priced]
            nested = [
                Cost(**child.node.fields["cost"])
                for child in state.children.values()
                if "cost" in child.node.fields
            ]
            state.set(state.node, "cost", combine(prices, nested).model_dump())
            state.update_figures()
            state = state.parent

    @property
    def step(self) -> StepState:
        """Where content arriving now belongs."""
        return self.open_step or self.loose

    def new_attempt(self) -> None:
        """A goal sent the agent back to work: its text replaces the last attempt's in result.text."""
        self.attempt_start = len(self.text_nodes)
        self.open_texts.clear()
        self.closed_texts.clear()
        self.open_reasoning.clear()

    # ---- text and reasoning -------------------------------------------------------------------

    def text_part(self, text_id: str) -> Node:
        """The open text part with this id in this step, or a new one.

        A block with a new id that follows the step's last text directly flows on in that part:
        providers split one answer into blocks (Anthropic at each citation), and markdown cut
        between them would lose its lists. An id seen before starts a part of its own.
        """
        node = self.open_texts.get(text_id)
        if node is None:
            texts = self.step.texts
            last = self.node.children[-1] if self.node.children else None
            flows_on = texts and texts[-1] is last and len(self.text_nodes) > self.attempt_start
            if last is not None and flows_on and text_id not in self.closed_texts:
                node = last
                self.set(node, "ended_at", None)  # the part streams on
            else:
                node = self.add("text", text="", started_at=self.now(), ended_at=None)
                self.text_nodes.append(node)
                texts.append(node)
            self.open_texts[text_id] = node
        return node

    def add_text(self, text_id: Any, text: str) -> Node:
        """A delta of text part ``text_id`` (opened on its first delta; an id not a string is named
        by its ``str``)."""
        if type(text_id) is not str:
            text_id = str(text_id)
        node = self.open_texts.get(text_id) or self.text_part(text_id)
        if self.waiting_first_token:
            self.first_token()
        self.tree.append(node, "text", text)
        return node

    def close_text(self, text_id: str) -> Node | None:
        """A text part ends; its end chunk comes with its last delta, so it times the part."""
        self.closed_texts.add(text_id)
        node = self.open_texts.pop(text_id, None)
        if node is not None:
            self.set(node, "ended_at", self.now())
        return node

    def reasoning_part(self, reasoning_id: str) -> Node:
        """The open reasoning part ``reasoning_id``, made on first use."""
        node = self.open_reasoning.get(reasoning_id)
        if node is None:
            node = self.open_reasoning[reasoning_id] = self.add(
                "reasoning", text="", started_at=self.now(), ended_at=None, redacted=False, done=False
            )
            self.reasoning_nodes.append(node)
            self.step.reasoning.append(node)
        return node

    def keep_reasoning_details(self, node: Node, details: dict[str, Any]) -> None:
        """Signatures and encrypted reasoning: kept for the result, never shown as text."""
        kept = self.reasoning_details.setdefault(node.id, {})
        kept.update({key: value for key, value in details.items() if value is not None})

    def close_reasoning(self, reasoning_id: str) -> Node:
        """Reasoning part ``reasoning_id`` ends now."""
        node = self.open_reasoning.get(reasoning_id) or self.reasoning_part(reasoning_id)
        del self.open_reasoning[reasoning_id]
        self.set(node, "ended_at", self.now())
        self.set(node, "done", True)  # said apart from its time: an untimed run has none
        return node

    # ---- sources ------------------------------------------------------------------------------

    def source(self, fields: dict[str, Any], cited_text: str | None = None) -> Node:
        """A source, once per URL; a citation adds the text it cites."""
        url = fields.get("url")
        node = self.sources_by_url.get(url) if isinstance(url, str) else None
        if node is None:
            node = self.add("source", citations=[], **fields)
            if isinstance(url, str):
                self.sources_by_url[url] = node
        if cited_text and cited_text not in node.fields["citations"]:
            self.tree.push(node, "citations", cited_text)
        return node

    # ---- tool calls ---------------------------------------------------------------------------

    def open_call(self, payload: dict[str, Any]) -> Node:
        """The call a ``tool-call`` (or its streaming) is about: a new one unless the latest call
        with this id is still under way."""
        call_id = str(payload.get("toolCallId", ""))
        node = self.calls.get(call_id)
        if node is None or node.fields["status"] in TERMINAL_TOOL_STATUSES:
            return self.new_call(payload, status="streaming-args")
        if payload.get("toolName") and not node.fields.get("tool_name"):
            self.set(node, "tool_name", str(payload["toolName"]))
        return node

    def call_for(self, payload: dict[str, Any], status: str) -> Node:
        """The latest call with the payload's id (outputs, results, approvals go there); a call this
        stream never announced is made, with ``status``, so what it carries is kept and shown."""
        node = self.calls.get(str(payload.get("toolCallId", "")))
        if node is None:
            node = self.new_call(payload, status=status, orphan=True)
        return node

    def new_call(self, payload: dict[str, Any], *, status: str, orphan: bool = False) -> Node:
        """A tool call of the current step, from its chunk's payload (``orphan``: its call chunk was not
        in this stream)."""
        call_id = str(payload.get("toolCallId", ""))
        node = self.calls[call_id] = self.add_tool(
            call_id,
            str(payload.get("toolName") or ""),
            status,
            provider_executed=payload.get("providerExecuted") is True,
            orphan=orphan,
        )
        self.step.calls.append(node)
        return node

    def add_tool(
        self,
        call_id: str,
        name: str,
        status: str,
        args: Any = None,
        *,
        provider_executed: bool = False,
        orphan: bool = False,
    ) -> Node:
        """A tool card: a call of this run, or a primitive a network runs."""
        node = self.add(
            "tool",
            tool_call_id=call_id,
            tool_name=name,
            status=status,
            args_text="",
            args=args,
            result=None,
            error=None,
            outputs=[],
            started_at=self.now(),
            ended_at=None,
            provider_executed=provider_executed,
            orphan=orphan,
        )
        self._place(node, self.spans.tools.get(call_id))
        return node

    def grow_args(self, node: Node, delta: str) -> None:
        """Streaming arguments: the text grows at once; its parse follows at a bounded rate (again
        each time the text grew by a quarter), so 40k deltas cost a linear, not quadratic, time."""
        self.tree.append(node, "args_text", delta)
        length = self.args_length.get(node.id, 0) + len(delta)
        self.args_length[node.id] = length
        if length >= self.args_next_parse.get(node.id, 0):
            self.set(node, "args", values.partial_json(node.text("args_text")))
            self.args_next_parse[node.id] = int(length * ARGS_REPARSE_GROWTH) + 1

    def parse_args_now(self, node: Node) -> None:
        """The arguments stopped streaming: their last parse is of the whole text."""
        if self.args_next_parse.pop(node.id, None) is not None:
            self.set(node, "args", values.partial_json(node.text("args_text")))

    def fill_args(self, node: Node, args: Any) -> None:
        """Arguments a later chunk repeats fill a call that came without them."""
        if node.fields.get("args") is None and args is not None:
            self.set(node, "args", args)

    def call_status(self, node: Node, status: str) -> None:
        """A tool call's status: when its arguments are complete it is called; once it ends it waits
        for no one."""
        self.set(node, "status", status)
        if node.fields.get("called_at") is None and status != "streaming-args":
            self.set(node, "called_at", self.now())  # the arguments are complete: the tool runs
        if status in TERMINAL_TOOL_STATUSES:
            self.set(node, "ended_at", self.now())
            self.human_done(node)

    def wait_for_human(self, node: Node, resume_schema: Any = None) -> None:
        """A tool call or workflow step asks a person (approval, resume data); a request after a
        decision is a new one. ``continue_with``: the call that answers it, as the run's ``suggest``
        words it (core names none)."""
        if node.id not in self.awaiting or node.fields.get("decision") is not None:
            self.set(node, "decision", None)
            self.set(node, "waiting_since", self.now())
        self.awaiting.add(node.id)
        if resume_schema is None and node.kind == "workflow-step":  # Mastra's chunk does not carry it
            resume_schema = self.resume_schemas.get(str(node.fields.get("step_name")))
        self.set(node, "continue_with", self.suggest(wait_of(node, resume_schema)))
        self.say_waiting()

    def say_waiting(self) -> None:
        """The run's own ``continue_with``: the call that answers the latest request still waiting
        (its suspension banner says it), or None."""
        waiting = [
            node.fields["continue_with"]
            for node in (*self.calls.values(), *self.workflow_steps.values())
            if node.id in self.awaiting and node.fields.get("continue_with")
        ]
        self.set(self.node, "continue_with", waiting[-1] if waiting else None)

    def expect_resume(self, schemas: dict[str, Any]) -> None:
        """What each workflow step expects when resumed (its resume schema, by step name), told from
        outside the stream; a step waiting already says it at once."""
        self.resume_schemas.update(schemas)
        for node in self.workflow_steps.values():
            if node.id in self.awaiting and node.fields.get("decision") is None:
                self.wait_for_human(node)

    def decide(self, node: Node, action: str, by: str) -> None:
        """A person answered (``by``: "view" or "python"). The time they took is a human wait: kept
        apart from the tool's own time, and out of tokens/s (``human_waits`` on the run node)."""
        at = self.now()
        since = node.fields.get("waiting_since")
        # never negative: the wall clock may step back between the two moments (as span_ms says too)
        waited = max(at - since, 0.0) if isinstance(since, (int, float)) and at is not None else None
        decision = {
            "action": action,
            "by": by,
            "at": at,
            "waited_ms": waited,
            "waited": captions.waited(waited),
        }
        self.set(node, "decision", decision)
        self.set(node, "continue_with", None)
        self.say_waiting()
        if waited is not None:
            self.tree.push(self.node, "human_waits", [since, at])

    def human_done(self, node: Node) -> None:
        """``node`` waits for a person no more; the run's suggested call is worded again."""
        self.awaiting.discard(node.id)
        if node.fields.get("continue_with") is not None:
            self.set(node, "continue_with", None)
            self.say_waiting()

    # ---- the server's spans (Mastra's trace) ------------------------------------------------------

    def caption_nested(self, traced: Mapping[str, list[ModelRequest]]) -> None:
        """What each step of each run nested in a tool call was given, by Mastra's trace (by the
        call's id): those runs' steps whose stream carried no body take their requests from it, now
        and for the runs nested later (a replay whose trace came first)."""
        self.nested_traced.update(traced)  # one dict, shared
        for state in self.nested():
            if state.parent is not None and state.call_id in traced:
                state.caption_traced(traced[state.call_id])

    def time_by(self, spans: TracedTimes) -> None:
        """The server's spans of this run's calls, steps and nested runs (core/trace.py
        ``traced_times``): their durations and bars come from them now, and for nodes made later (a
        replay whose trace came first)."""
        for field_name in TracedTimes.model_fields:
            setattr(self.spans, field_name, getattr(spans, field_name))  # one object, shared
        for state in self.nested():
            state.place_spans()

    def place_spans(self) -> None:
        """Write the server's span on this run's node, its steps and its tool calls, where known."""
        spans = self.spans
        self._place(self.node, spans.request if self.parent is None else spans.runs.get(self.call_id))
        for position, step in enumerate(self.steps):
            self._place_step(position, step)
        for node in self.calls.values():
            self._place(node, spans.tools.get(str(node.fields.get("tool_call_id"))))

    def _place_step(self, position: int, step: StepState) -> None:
        steps = self.spans.steps.get(self.call_id, [])
        if step.node is not None and position < len(steps):
            self._place(step.node, steps[position])

    def _place(self, node: Node, span: Interval | None) -> None:
        if span is not None:
            self.set(node, "trace_start", span[0])
            self.set(node, "trace_end", span[1])

    # ---- nesting ------------------------------------------------------------------------------

    def child(self, parent: Node) -> RunState:
        """The run nested under a tool call, workflow step or network primitive (made on first use)."""
        child = self.children.get(parent.id)
        if child is None:
            depth = self.depth + 1
            hidden = depth > VIEW_DEPTH
            anchor = self.anchor if self.anchor is not None else (parent if hidden else None)
            node = self.tree.new("run", parent, hidden=hidden, status="running", nested=True)
            child = self.children[parent.id] = RunState(
                tree=self.tree,
                node=node,
                clock=self.clock,
                parent=self,
                depth=depth,
                anchor=anchor,
                suggest=self.suggest,
                draw=self.draw,
                spans=self.spans,
                nested_traced=self.nested_traced,
                call_id=str(parent.fields.get("tool_call_id") or ""),
            )
            child.traced = self.nested_traced.get(child.call_id, [])
            child.place_spans()
            if anchor is not None:  # the view says how much it leaves out
                levels = depth - VIEW_DEPTH
                if levels > (anchor.fields.get("hidden_levels") or 0):
                    self.tree.set(anchor, "hidden_levels", levels)
                    self.recaption(anchor)
            self.recaption(parent)  # a tool holding a run says its answer's text
        return child

    def output(self, node: Node, value: Any, channel: str) -> RunState | None:
        """A value a tool or step wrote: a nested chunk for its child run (returned, for the caller to
        fold there), or a custom output kept on the node.

        Progress of a background tool arrives both as ``tool-output`` and inside
        ``background-task-output``; each channel carries the same sequence, so it is shown once.
        """
        if is_chunk(value):
            return self.child(node)
        key, other = (node.id, channel), (node.id, "task" if channel == "tool" else "tool")
        index = self.output_counts.get(key, 0)
        self.output_counts[key] = index + 1
        if index >= self.output_counts.get(other, 0):
            self.tree.push(node, "outputs", value)
        return None

    def execution(self, payload: dict[str, Any], kind: str) -> Node:
        """The node of one primitive a network runs: shown like a tool call (agent-<id>, ...)."""
        key = str(payload.get("runId") or f"{kind}-{len(self.executions)}")
        node = self.executions.get(key)
        if node is None:
            name = payload.get("agentId") or payload.get("workflowId") or payload.get("toolName") or kind
            args = payload.get("args")
            prompt = args.get("prompt") if isinstance(args, dict) else None
            node = self.executions[key] = self.add_tool(
                key,
                str(name) if kind == "tool" else f"{kind}-{name}",
                "running",
                {"prompt": prompt} if prompt is not None else args,
            )
        return node

    def latest_execution(self, key: Any, kind: str) -> Node:
        """The primitive an execution event belongs to: by its run id, else the latest one."""
        node = self.executions.get(str(key))
        if node is None:
            latest = list(self.executions.values())
            node = latest[-1] if latest else self.execution({"runId": key}, kind)
        return node

    def nested(self) -> list[RunState]:
        """This run and every run nested in it, parents before children (no recursion)."""
        order: list[RunState] = []
        stack = [self]
        while stack:
            state = stack.pop()
            order.append(state)
            stack.extend(reversed(state.children.values()))
        return order
