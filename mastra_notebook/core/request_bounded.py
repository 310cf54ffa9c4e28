"""A step's request as a view shows it: bounded, so a 200 kB request stays cheap to send and draw.

The widget's "Request" toggle asks the kernel for one step's request when it opens (never before);
the transcript and the export page carry each step's, folded. Both get :func:`bounded_request`: the
request as plain JSON in which every long string is cut, every long list or object is cut, each
value (an argument, a result, a schema) has a budget, and the whole has one. What was cut is marked
(``cut``), and ``where`` says where the whole request is (``result.steps[1].request``).

Messages are filled in the order a reader needs them: this step's new messages first, then the
tools, then the history, newest first; what no longer fits is counted in ``omitted``. Inline image
and file data are never carried: only their media type and size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from .bounding import Bounds, Budget
from .captions import human_size, new_messages_from
from .request import FilePart, ImagePart, ModelRequest, RequestMessage, RequestPart, TextPart
from .result import RunResult, Step

WIRE = Bounds(string=4_000, value=16_000, whole=64_000)  # a reply to the widget's toggle
PAGE = Bounds(string=1_000, value=2_000, whole=12_000)  # each step in a transcript or export page


def _size(value: Any) -> int:
    return len(orjson.dumps(value))


def _part(part: RequestPart, budget: Budget) -> dict[str, Any]:
    if isinstance(part, (ImagePart, FilePart)):  # inline data is never carried: its size says it
        shown = part.model_dump(exclude={"data"}, exclude_none=True)
        if part.url is not None:
            shown["url"] = budget.string(part.url)
        if part.data is not None:  # base64 (or a text document's text): about its size in bytes
            shown["size_label"] = f"{human_size(len(part.data) * 3 // 4)} inline"
        return shown
    if isinstance(part, TextPart):
        return {"type": "text", "text": budget.string(part.text)}
    dumped: dict[str, Any] = budget.value(part.model_dump(mode="json", exclude_none=True))
    return dumped


def _message(index: int, message: RequestMessage, new: bool, bounds: Bounds) -> tuple[dict[str, Any], bool]:
    budget = Budget(bounds)
    shown = {
        "i": index,
        "role": budget.string(message.role),
        "new": new,
        "parts": [_part(part, budget) for part in message.parts[: bounds.items]],
    }
    if len(message.parts) > bounds.items:
        budget.cut = True
        shown["more_parts"] = len(message.parts) - bounds.items
    return shown, budget.cut


def bounded_request(
    request: ModelRequest, new_from: int = 0, where: str = "result.steps[i].request", bounds: Bounds = WIRE
) -> dict[str, Any]:
    """``request`` as plain JSON within ``bounds`` (see the module's text); ``new_from``: where this
    step's new messages begin (they draw open, the history before them folded)."""
    cut = False
    budget = Budget(bounds)
    settings = request.settings.model_dump(mode="json", exclude_none=True)
    if not settings.get("other"):
        settings.pop("other", None)
    shown: dict[str, Any] = {
        "system": None if request.system is None else budget.string(request.system),
        "settings": budget.value(settings),
        "provider": request.provider,
        "source": request.source,
        "new_from": new_from,
        "message_count": len(request.messages),
        "tool_count": len(request.tools),
        "where": where,
    }
    if len(request.system_messages) > 1 or any(m.agent for m in request.system_messages):
        shown["system_messages"] = [  # each apart, with the agent it came from
            {"text": budget.string(m.text), "agent": m.agent} for m in request.system_messages
        ]
    if request.provider is None:  # a body of no known shape: as sent
        shown["raw"] = budget.value(request.raw)
    cut = budget.cut
    room = bounds.whole - _size(shown) - 200  # the marks added below

    def fits(piece: Any) -> bool:
        nonlocal room
        size = _size(piece) + 1
        if size > room:
            return False
        room -= size
        return True

    messages: dict[int, dict[str, Any]] = {}
    omitted_messages = 0

    def add_messages(indexes: Iterable[int]) -> None:
        nonlocal cut, omitted_messages
        for index in indexes:
            piece, piece_cut = _message(index, request.messages[index], index >= new_from, bounds)
            if fits(piece):
                messages[index] = piece
                cut = cut or piece_cut
            else:
                omitted_messages += 1

    add_messages(range(new_from, len(request.messages)))  # this step's new messages first
    tools, tools_cut = _tools(request, bounds, fits)
    cut = cut or tools_cut
    add_messages(reversed(range(min(new_from, len(request.messages)))))  # then history, newest first
    shown["messages"] = [messages[index] for index in sorted(messages)]
    shown["tools"] = tools
    omitted = {"messages": omitted_messages, "tools": len(request.tools) - len(tools)}
    shown["omitted"] = {key: count for key, count in omitted.items() if count}
    shown["cut"] = cut or bool(shown["omitted"])
    return shown


def _tools(
    request: ModelRequest, bounds: Bounds, fits: Callable[[Any], bool]
) -> tuple[list[dict[str, Any]], bool]:
    tools, cut = [], False
    for tool in request.tools:
        budget = Budget(bounds)
        piece = budget.value(tool.model_dump(mode="json", exclude_none=True))
        if fits(piece):
            tools.append(piece)
            cut = cut or budget.cut
    return tools, cut


# ---- which step a view's step node is ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepRequest:
    """A step node's step in a RunResult, the step before it, and where its request is."""

    step: Step
    previous: Step | None
    where: str

    def shown(self, bounds: Bounds = WIRE) -> dict[str, Any]:
        """What a view shows of it: ``request`` bounded, or None and the ``reason``; ``where``."""
        request = self.step.request
        if request is None:
            return {"request": None, "reason": self.step.request_reason, "where": self.where}
        before = self.previous.request if self.previous is not None else None
        new_from = new_messages_from(request, before)
        return {"request": bounded_request(request, new_from, self.where, bounds), "where": self.where}


def requests_by_node(ops: Iterable[Any], result: RunResult) -> dict[str, StepRequest]:
    """Each step node of a snapshot (``["add", parent, node]`` ops) with its step in ``result``,
    nested runs (under tool calls and workflow steps) included."""
    children: dict[str | None, list[Mapping[str, Any]]] = {}
    for op in ops:
        if isinstance(op, (list, tuple)) and len(op) >= 3 and op[0] == "add" and isinstance(op[2], dict):
            children.setdefault(op[1], []).append(op[2])
    found: dict[str, StepRequest] = {}
    roots = [node for node in children.get(None, ()) if node.get("kind") == "run"]
    if roots:
        _walk(children, roots[0], result, "result", found)
    return found


def _walk(
    children: Mapping[str | None, list[Mapping[str, Any]]],
    run: Mapping[str, Any],
    result: RunResult,
    where: str,
    found: dict[str, StepRequest],
) -> None:
    by_index = {step.index: position for position, step in enumerate(result.steps)}
    workflow_steps = result.workflow.steps if result.workflow is not None else []
    tools = 0
    flows = 0
    for node in children.get(run.get("id"), ()):
        kind, node_id = node.get("kind"), node.get("id")
        nested: RunResult | None = None
        if kind == "step" and node.get("index") in by_index and isinstance(node_id, str):
            position = by_index[node["index"]]
            previous = result.steps[position - 1] if position > 0 else None
            path = f"{where}.steps[{position}].request"
            found[node_id] = StepRequest(result.steps[position], previous, path)
        elif kind == "tool":
            if tools < len(result.tool_calls):
                nested, inner = result.tool_calls[tools].children, f"{where}.tool_calls[{tools}].children"
            tools += 1
        elif kind == "workflow-step":
            if flows < len(workflow_steps):
                nested, inner = workflow_steps[flows].children, f"{where}.workflow.steps[{flows}].children"
            flows += 1
        if nested is not None:
            for child in children.get(node_id, ()):
                if child.get("kind") == "run":
                    _walk(children, child, nested, inner, found)


def request_reply(ops: Iterable[Any], result: RunResult, node_id: str) -> dict[str, Any]:
    """The answer to a view asking for the request of its step node ``node_id`` (bounded by
    :data:`WIRE`): ``{request, reason, where}``."""
    found = requests_by_node(ops, result).get(node_id)
    if found is None:
        return {"request": None, "reason": "This step is not in the run's result.", "where": None}
    return found.shown(WIRE)
