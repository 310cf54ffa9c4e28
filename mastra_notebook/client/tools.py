"""Python functions as Mastra client tools: their JSON schema, and running them in the kernel.

Mastra's own ``clientTools`` protocol (as ``@mastra/client-js`` speaks it): the request carries each
tool's ``{id, description, inputSchema}``; the model's call of one ends the stream with finish
reason ``tool-calls`` and no result. The client then validates the arguments, runs the function,
feeds a ``tool-result`` (or ``tool-error``) into the same run, and posts the stream again with the
messages extended by the call and its result, until the agent answers.

A tool may return any Python object (issue 21): the model is sent its JSON form (records for a
DataFrame, a description of a figure: render/rich.py ``model_form``, or the tool's ``to_model``),
its card draws the object (a bounded MIME bundle on the result chunk, ``mnDisplay``, kept by
recordings), and ``call.value`` keeps the object itself in the kernel.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pydantic
from pydantic_core import to_jsonable_python

from ..core.bounding import Bounds, bounded
from ..core.captions import human_size
from ..core.display import DISPLAY_KEY
from ..core.result import RunResult, Step, ToolCall
from ..core.run import Run
from ..core.values import written_size
from ..render.rich import MODEL_BYTES, display_of, is_rich, model_form

# What a model is sent of one result at most (about MODEL_BYTES of JSON): more is cut, said in place
MODEL = Bounds(string=8_000, value=MODEL_BYTES, whole=MODEL_BYTES, items=500)
DEFAULT_MAX_ROUNDS = 10  # model steps ending in client tool calls, per request: a runaway loop stops
RAN_IN = "notebook"  # the ``ranIn`` mark on the chunks of calls this client ran (kept in recordings)


@dataclass(frozen=True, slots=True)
class ClientTool:
    """A Python function the agent may call; made by :func:`tool` (or from a bare function)."""

    name: str
    function: Callable[..., Any]
    description: str
    arguments: type[pydantic.BaseModel]  # validates what the model sends
    whole_model: bool = False  # the function takes one pydantic model: the arguments are its fields
    require_approval: bool = False
    timeout: float | None = None
    to_model: Callable[[Any], Any] | None = None  # what the model is sent of a return value

    @property
    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the tool's arguments, made from the function's type hints."""
        return self.arguments.model_json_schema()

    def request_field(self) -> dict[str, Any]:
        """The tool as ``clientTools`` carries it."""
        return {"id": self.name, "description": self.description, "inputSchema": self.input_schema}

    def validate(self, args: Any) -> dict[str, Any]:
        """The keyword arguments for the function; raises pydantic.ValidationError."""
        model = self.arguments.model_validate(args if args is not None else {})
        if self.whole_model:
            return {"__model__": model}
        return {name: getattr(model, name) for name in type(model).model_fields}

    async def call(self, kwargs: dict[str, Any], timeout: float | None) -> Any:
        """Run the function: a coroutine on the loop, a plain function in a thread (the kernel's loop
        stays free, so Stop is handled while it works)."""
        positional = [kwargs.pop("__model__")] if "__model__" in kwargs else []
        if inspect.iscoroutinefunction(self.function):
            work = self.function(*positional, **kwargs)
        else:
            work = asyncio.to_thread(self.function, *positional, **kwargs)
        limit = self.timeout if self.timeout is not None else timeout
        return await (asyncio.wait_for(work, limit) if limit is not None else work)


def tool(
    function: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    require_approval: bool = False,
    timeout: float | None = None,
    to_model: Callable[[Any], Any] | None = None,
) -> Any:
    """A Python function as a client tool: ``mn.tool(fn, name="lookup")`` or ``@mn.tool(...)``.

    The schema comes from the type hints (pydantic: models, ``Literal``, ``Optional``, defaults);
    the description from the docstring's first paragraph. A function of one pydantic-model parameter
    takes that model's fields as its arguments. ``require_approval``: the call waits for
    ``view.approve()`` (or the view's Approve) before it runs. ``timeout``: seconds, else the
    stream's ``tool_timeout``.

    The function may return any Python object. A DataFrame, a Series, an array, a matplotlib
    figure, a PIL image, a chart or anything with IPython's ``_repr_*_`` is drawn in the call's card;
    the model is sent a JSON form (records, bounded in rows; a list; a short description), or
    ``to_model(value)`` when given (client-js's ``toModelOutput``: e.g. a summary of a table the
    person sees whole). ``call.value`` keeps what the function returned; ``call.result`` is what
    the model got.

    What the model is sent is at most about 64 KB of JSON (``render.rich.MODEL_BYTES``): a larger
    form (a plain dict of 50 MB, or ``to_model``'s) is cut, never refused, so the run goes on. Long
    lists, objects and strings end where marked, and it is sent as ``{"note": ..., "result": ...}``:
    the note says the whole size and that ``to_model=`` chooses what is sent. ``call.value`` keeps
    the whole return in the kernel.
    """

    def make(fn: Callable[..., Any]) -> ClientTool:
        called = _tool_name(name or getattr(fn, "__name__", None))
        arguments, whole = _arguments_model(fn, called)
        return ClientTool(
            name=called,
            function=fn,
            description=description if description is not None else _first_paragraph(fn),
            arguments=arguments,
            whole_model=whole,
            require_approval=require_approval,
            timeout=timeout,
            to_model=to_model,
        )

    return make if function is None else make(function)


def client_tools(tools: Iterable[Any] | Mapping[str, Any]) -> dict[str, ClientTool]:
    """``tools=[fn, ...]`` or ``{name: fn}`` as client tools by name."""
    items: list[tuple[str | None, Any]]
    if isinstance(tools, Mapping):
        items = [(str(key), value) for key, value in tools.items()]
    else:
        items = [(None, value) for value in tools]
    found: dict[str, ClientTool] = {}
    for key, value in items:
        if isinstance(value, ClientTool):
            made = value if key is None or key == value.name else _renamed(value, _tool_name(key))
        elif callable(value):
            made = tool(value, name=key)
        else:
            raise TypeError(f"a tool must be a function or mn.tool(...), not {type(value).__name__}")
        if made.name in found:
            raise ValueError(f"two tools are named {made.name!r}: give one another name ({{name: fn}})")
        found[made.name] = made
    return found


_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what model providers accept as a tool's name


def _tool_name(name: str | None) -> str:
    if name is None or not _NAME.fullmatch(name):
        raise ValueError(
            f"{name!r} cannot name a tool (letters, digits, _ and -, at most 64): "
            "give it one with {name: fn} or mn.tool(fn, name=...)"
        )
    return name


def _renamed(value: ClientTool, name: str) -> ClientTool:
    return ClientTool(
        name, value.function, value.description, value.arguments, value.whole_model,
        value.require_approval, value.timeout, value.to_model,
    )  # fmt: skip


def _first_paragraph(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


def _arguments_model(fn: Callable[..., Any], name: str) -> tuple[type[pydantic.BaseModel], bool]:
    """A pydantic model of the function's parameters (or the one model it takes), and which it is."""
    signature = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except TypeError:  # a callable object or functools.partial: the hints of what it calls
        target = getattr(fn, "func", None) or type(fn).__call__
        hints = typing.get_type_hints(target, include_extras=True)
    fields: dict[str, Any] = {}
    for parameter in signature.parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue  # *args / **kwargs: the model is told of named parameters only
        if parameter.kind is parameter.POSITIONAL_ONLY:
            raise TypeError(f"{name}: positional-only parameters cannot be named by the model")
        hint = hints.get(parameter.name, Any)
        default = ... if parameter.default is parameter.empty else parameter.default
        fields[parameter.name] = (hint, default)
    if len(fields) == 1:
        (hint, default), = fields.values()  # fmt: skip
        if inspect.isclass(hint) and issubclass(hint, pydantic.BaseModel) and default is ...:
            return hint, True
    model = pydantic.create_model(name, __config__=pydantic.ConfigDict(extra="forbid"), **fields)
    return model, False


def jsonable(value: Any) -> Any:
    """A tool's return value as JSON: pydantic's rules, then DataFrames as records, numpy scalars as
    numbers, anything else as its text."""

    def fallback(item: Any) -> Any:
        for method, kwargs in (("to_dict", {"orient": "records"}), ("to_dict", {}), ("item", {})):
            try:
                return to_jsonable_python(getattr(item, method)(**kwargs), fallback=str)
            except (AttributeError, TypeError, ValueError):
                continue
        return str(item)

    return to_jsonable_python(value, fallback=fallback)


def error_text(error: BaseException, tool_name: str, timeout: float | None = None) -> str:
    """What the model (and the view) are told when a tool could not give a result."""
    if isinstance(error, pydantic.ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in error.errors()
        )
        return f"invalid arguments for {tool_name}: {problems}"
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return f"{tool_name} did not finish within {timeout:g} s" if timeout else f"{tool_name} timed out"
    return f"{type(error).__name__}: {error}"


# ---- the conversation as Mastra's messages -------------------------------------------------------


def step_messages(steps: Iterable[Step]) -> list[dict[str, Any]]:
    """Model steps as AI SDK messages: the assistant's text and calls, then the tools' results."""
    out: list[dict[str, Any]] = []
    for step in steps:
        calls = [
            c for c in step.tool_calls if isinstance(c, ToolCall) and c.status in ("done", "error", "denied")
        ]
        content: list[dict[str, Any]] = [{"type": "text", "text": step.text}] if step.text else []
        content += [
            {
                "type": "tool-call",
                "toolCallId": c.tool_call_id,
                "toolName": c.tool_name,
                "input": c.args or {},
            }
            for c in calls
        ]
        if content:
            out.append({"role": "assistant", "content": content})
        if calls:
            out.append({"role": "tool", "content": [_tool_result(c) for c in calls]})
    return out


def _tool_result(call: ToolCall) -> dict[str, Any]:
    """A call's outcome as the model is told it; a failure as ``{"error": message}``, as client-js does."""
    if call.status == "done":
        value = jsonable(call.result)
    elif call.status == "denied":
        value = {"error": f"declined by the user: {call.denied_reason or 'no reason given'}"}
    else:
        value = {"error": call.error.message if call.error else "the tool failed"}
    output = {"type": "json", "value": value}
    return {
        "type": "tool-result",
        "toolCallId": call.tool_call_id,
        "toolName": call.tool_name,
        "output": output,
    }


# ---- one run's client tools ---------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class ToolSession:
    """The client tools of one run: what was asked (to post again), and the rounds so far."""

    tools: dict[str, ClientTool]
    body: dict[str, Any]  # the first request's body (messages and options)
    stream_path: str  # where a continuation is posted (/api/agents/<id>/stream)
    memory: bool = False  # the thread keeps the history: a continuation sends only what is new
    timeout: float | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS
    rounds: int = 0
    sent_steps: int = 0  # steps already sent back (or made by the server from its thread)
    messages: list[dict[str, Any]] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # declined call id -> the reason given
    approve_all: bool = False  # the request's requireToolApproval: Mastra asks only for its own tools
    working: list[ToolCall] = field(default_factory=list)  # the calls of this round not yet done

    def __post_init__(self) -> None:
        self.messages = [] if self.memory else list(self.body.get("messages") or [])

    @classmethod
    def make(
        cls,
        tools: Iterable[Any] | Mapping[str, Any],
        body: dict[str, Any],
        stream_path: str,
        *,
        timeout: float | None = None,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
    ) -> tuple[ToolSession, dict[str, Any]]:
        """These client tools for one run, and the body to post first, with Mastra's ``clientTools``.

        With ``memory`` in the body the thread keeps the history, so a continuation sends only the
        new call and result (as client-js does); without, it sends the whole conversation again.
        """
        if max_rounds < 1:
            raise ValueError(f"max_tool_rounds must be at least 1, not {max_rounds!r}")
        session = cls(client_tools(tools), body, stream_path, "memory" in body, timeout, max_rounds)
        session.approve_all = body.get("requireToolApproval") is True
        return session, {**body, "clientTools": session.request_field()}

    def decides(self, call: ToolCall, reason: Any) -> bool:
        """A person answered a waiting call: True when it is one of these client tools (the kernel
        runs it, or tells the model it was declined), False for the server's own tools."""
        if call.tool_name not in self.tools:
            return False
        if isinstance(reason, str) and reason:
            self.reasons[call.tool_call_id] = reason
        return True

    def stopped(self, result: RunResult) -> list[dict[str, Any]]:
        """Stop came while client tools work: an error chunk for each call of the round not yet done
        (once: the list is then empty)."""
        calls, self.working = self.working, []
        return [_chunk("tool-error", result, call, error=_stopped(call)) for call in calls]

    def request_field(self) -> dict[str, Any]:
        """The tools as a request's ``clientTools`` carries them, by name."""
        return {name: t.request_field() for name, t in self.tools.items()}

    def pending(self, result: RunResult) -> list[ToolCall]:
        """This run's calls of client tools that have no result yet."""
        return [
            c
            for c in result.tool_calls
            if c.tool_name in self.tools and c.status in ("running", "awaiting-approval")
        ]

    async def next_request(
        self, run: Run, feed: Callable[[dict[str, Any]], None]
    ) -> tuple[str, dict[str, Any]] | None:
        """After a stream ended: run the pending client calls, ``feed`` their chunks (into the view
        of ``run``), and say what to post next (None: the run is done, waits for a person, or went
        wrong)."""
        result = run.result
        calls = self.pending(result)
        if not calls or result.status not in ("finished", "suspended"):
            return None
        waiting = [c for c in calls if self._needs_approval(c) and c.decision is None]
        if waiting:
            run.running_in_notebook([])  # nothing runs yet; the run goes on, and ends suspended
            for call in waiting:
                if call.status != "awaiting-approval":
                    feed(_chunk("tool-call-approval", result, call, ran=False, resumeSchema=None))
            return None
        if self.rounds >= self.max_rounds:
            message = f"not run: the agent called client tools {self.max_rounds} times (max_tool_rounds)"
            run.running_in_notebook([])
            for call in calls:
                error = {"name": "MaxToolRounds", "message": message}
                feed(_chunk("tool-error", result, call, ran=False, error=error))
            run.note("warning", f"stopped: {message}")
            return None
        self.rounds += 1
        run.running_in_notebook([c.tool_call_id for c in calls if not _declined(c)])
        for index, call in enumerate(calls):
            self.working = calls[index:]
            try:
                outcome = await self._outcome(result, call)
            except asyncio.CancelledError:  # Stop while it works: its card says so, then the run is aborted
                for chunk in self.stopped(result):  # none left when the view's stop told it already
                    feed(chunk)
                raise
            feed(outcome.chunk)
            if outcome.ran:
                run.keep_value(call.tool_call_id, outcome.value)
        self.working = []
        steps = run.result.steps
        self.messages += step_messages(steps[self.sent_steps :])
        self.sent_steps = len(steps)
        return self.stream_path, {
            **self.body,
            "messages": list(self.messages),
            "clientTools": self.request_field(),
        }

    def _needs_approval(self, call: ToolCall) -> bool:
        return self.approve_all or self.tools[call.tool_name].require_approval

    async def _outcome(self, result: RunResult, call: ToolCall) -> ToolOutcome:
        """The chunk that ends one client call (its result, its error, or its denial) and what the
        function returned."""
        client_tool = self.tools[call.tool_name]
        if _declined(call):
            approval = {
                "id": call.tool_call_id,
                "approved": False,
                "reason": self.reasons.get(call.tool_call_id),
            }
            return ToolOutcome(_chunk("tool-output-denied", result, call, ran=False, approval=approval))
        try:
            value = await client_tool.call(client_tool.validate(call.args), self.timeout)
            sent = await asyncio.to_thread(_for_model, value, client_tool.to_model)
        except Exception as error:  # the model is told, and the run goes on
            limit = client_tool.timeout if client_tool.timeout is not None else self.timeout
            message = error_text(error, call.tool_name, limit)
            error_info = {"name": type(error).__name__, "message": message}
            return ToolOutcome(_chunk("tool-error", result, call, error=error_info))
        shown = await asyncio.to_thread(display_of, value, "value") if is_rich(value) else None
        drawn: dict[str, Any] = {DISPLAY_KEY: shown} if shown is not None else {}
        chunk = _chunk("tool-result", result, call, result=sent, isError=False, **drawn)
        return ToolOutcome(chunk, value, ran=True)


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """How one client call ended: the chunk that says it, and what the function returned
    (``ran``: it returned; ``call.value`` keeps it)."""

    chunk: dict[str, Any]
    value: Any = None
    ran: bool = False


def _for_model(value: Any, to_model: Callable[[Any], Any] | None) -> Any:
    """What the model is sent of a tool's return: ``to_model``'s form of it, else its own JSON
    form (render/rich.py ``model_form``); cut to :data:`MODEL` with a note when larger."""
    sent = jsonable(to_model(value)) if to_model is not None else model_form(value, jsonable)
    return within_model_limit(sent)


def within_model_limit(sent: Any) -> Any:
    """``sent`` when its JSON is within :data:`MODEL`; else cut (core/bounding.py), with a note
    that says so, for the model and for whoever reads ``call.result``."""
    size = written_size(sent)
    if size is not None and size <= MODEL.whole:
        return sent
    note = (
        f"[mastra-notebook] This tool's result is {human_size(size or 0)} of JSON: only about "
        f"{human_size(MODEL.value)} of it is sent, cut where marked. The notebook's user can choose "
        "what a model is sent with mn.tool(..., to_model=...)."
    )
    return {"note": note, "result": bounded(sent, MODEL)[0]}  # not "value": the AI SDK's {type, value}


def _declined(call: ToolCall) -> bool:
    return call.decision is not None and call.decision.action == "decline"


def _stopped(call: ToolCall) -> dict[str, str]:
    # a thread cannot be killed: a plain function runs on to its end, its result unused
    return {"name": "Stopped", "message": f"stopped before {call.tool_name} finished"}


def _chunk(kind: str, run: RunResult, call: ToolCall, *, ran: bool = True, **payload: Any) -> dict[str, Any]:
    """A chunk as Mastra's client makes it for a client tool; ``ran``: marked as run in the notebook."""
    base = {"toolCallId": call.tool_call_id, "toolName": call.tool_name, "args": call.args}
    extra = {"providerExecuted": False, "clientTool": True, **({"ranIn": RAN_IN} if ran else {})}
    return {"type": kind, "runId": run.run_id, "from": "AGENT", "payload": {**base, **payload, **extra}}
