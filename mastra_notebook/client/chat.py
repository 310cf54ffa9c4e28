"""Conversations with an agent: turns on one Mastra memory thread, or history the chat resends.

Whether the agent has memory is asked of the server (:func:`memory.has_memory`); ``memory=True/False``
overrides the question.

What memory did in each turn is ``chat.history[i].memory`` (a :class:`~.memory.TurnMemory`: the
messages recalled, the working memory before and after), read as the turn ends; ``chat.turns[i]``
has it too, beside the turn's prompt. ``chat.history`` stays one RunResult per turn (a
:class:`TurnResult`, a RunResult that also carries its turn's memory): it equals the turn's
``view.result``, and its JSON is a RunResult's (the memory is the chat's, not the run's).
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import Field

from ..core.result import RunResult
from ..widget.conversation import Conversation, memory_panel
from ..widget.streamview import StreamView, first_line
from . import memory as memories
from .bodies import messages, refuse_unknown_to
from .memory import TurnMemory
from .tools import step_messages
from .transport import MastraError, Transport


class ChatAgent(Protocol):
    """What a chat needs of an agent (``client.agent(id)``): its id, its server, and its streams."""

    @property
    def id(self) -> str:
        """The agent's id on the server."""

    @property
    def transport(self) -> Transport:
        """The server's transport (memory requests)."""

    def stream(self, prompt_or_messages: Any, **options: Any) -> StreamView:
        """Stream one turn into a new view."""


DEFAULT_RESOURCE = "mastra-notebook"  # Mastra needs a resource (an owner) for every thread


@dataclass(frozen=True)
class Turn:
    """One chat turn: its prompt, its run's result, and what memory did in it (None while it runs)."""

    prompt: Any
    result: RunResult
    memory: TurnMemory | None


class TurnResult(RunResult):
    """A chat turn's RunResult (``chat.history[i]``), with what memory did in that turn."""

    memory: TurnMemory | None = Field(default=None, exclude=True)
    """The messages recalled from memory into the turn, and the working memory before and after it
    (None while the turn runs). Not written with the run's JSON: it is the chat's, not the run's."""

    @classmethod
    def of(cls, result: RunResult, memory: TurnMemory | None) -> TurnResult:
        """``result`` as it is (no copy of its values, no validation again: the view it keeps
        too, which draws its transcript), with ``memory``."""
        made = cls.model_construct(result.model_fields_set, **dict(result), memory=memory)
        made.__pydantic_private__ = dict(result.__pydantic_private__ or {})
        return made

    def __eq__(self, other: object) -> bool:
        """Equal to the turn's own RunResult (``view.result``): memory is beside the run, not in it."""
        if isinstance(other, RunResult) and type(other) is not type(self):
            return dict(self) == {**dict(other), "memory": self.memory}
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # as a RunResult: mutable, not hashable


class Chat:
    """``agent.chat(thread=None, resource=None, memory=None, **options)``: ``chat.send(prompt)``.

    With an agent that has memory every turn goes to one thread (``chat.thread``, made up when none
    is given) through the body's ``memory: {thread, resource}``; without, the chat keeps the history
    (prompts, answers, tool calls and results) and sends it again with each turn. ``options`` (and
    ``tools=``) apply to every turn; ``send`` takes more. Shown as a cell's value, the chat draws
    every turn as one conversation.
    """

    def __init__(
        self,
        agent: ChatAgent,
        *,
        thread: str | None = None,
        resource: str | None = None,
        memory: bool | None = None,
        **options: Any,
    ) -> None:
        refuse_unknown_to(agent.stream, options, "chat()")  # before the server is asked
        self.agent = agent
        self.memory = has_memory(agent) if memory is None else memory
        self.resource = resource or DEFAULT_RESOURCE
        self.thread = thread or (f"chat-{uuid.uuid4()}" if self.memory else None)
        self.options = options
        self.prompts: list[Any] = []
        self.views: list[StreamView] = []
        self._memories: list[TurnMemory | None] = []  # one per turn, set as it ends
        self._working: str | None = None  # the working memory after the last settled turn
        self._working_note: str | None = None  # why it could not be read, or is not kept
        self._settling = threading.Lock()  # a turn ends on the stream's thread; turns is read on any
        self._shown = Conversation(
            title=f"chat with {agent.id}" + (f" · thread {self.thread}" if self.thread else "")
        )

    @property
    def history(self) -> list[TurnResult]:
        """One RunResult per turn, in order, each with its turn's ``memory`` (``recalled``,
        ``working_before``, ``working_after``; None while the turn runs)."""
        return [TurnResult.of(turn.result, turn.memory) for turn in self.turns]

    @property
    def turns(self) -> list[Turn]:
        """One Turn per turn, in order: its prompt, result and memory (``memory`` None while it runs)."""
        self._settle_all()
        return [
            Turn(prompt, view.result, memory)
            for prompt, view, memory in zip(self.prompts, self.views, self._memories, strict=True)
        ]

    @property
    def working_memory(self) -> str | None:
        """The thread's working memory now, read through Mastra's route (None when there is none, or
        the agent has no memory: ``chat.turns[i].memory.note`` says what to turn on)."""
        if not self.memory or self.thread is None:
            return None
        return memories.working_memory(self.agent.transport, self.agent.id, self.thread, self.resource).text

    def send(self, prompt: Any, **options: Any) -> StreamView:
        """The next turn: streams the answer into a new view (also drawn in the displayed chat)."""
        refuse_unknown_to(self.agent.stream, options, "chat.send()")  # before memory is read
        running = [i + 1 for i, view in enumerate(self.views) if view.result.status == "running"]
        if running:  # the next turn must see this one (in the thread, or in the history resent)
            raise RuntimeError(f"turn {running[-1]} is still running: wait for it (view.wait()) first")
        new = _messages(prompt)
        self._settle_all()  # the turns so far keep the working memory they left
        if self.memory and not self.views:
            self._read_working()  # before the first turn
        if self.memory:
            body_messages, extra = new, {"memory": {"thread": self.thread, "resource": self.resource}}
        else:
            body_messages, extra = self._resent() + new, {}
        view = self.agent.stream(body_messages, **{**self.options, **extra, **options})
        view.prompt = prompt
        index = len(self.views)
        self.prompts.append(prompt)
        self.views.append(view)
        self._memories.append(None)
        self._shown.add_turn(_prompt_text(prompt), view)
        view.observe(lambda change: None if change["new"] else self._settle(index), names="streaming")
        self._settle(index)  # a turn that ended before it was observed (refused at once)
        return view

    def _settle_all(self) -> None:
        for index in range(len(self.views)):
            self._settle(index)

    def _settle(self, index: int) -> None:
        """Read what memory did in an ended turn, once: recalled messages from its finish chunk, the
        working memory through the route. Runs in a trait observer too: it raises nothing."""
        with self._settling:
            view = self.views[index]
            if self._memories[index] is not None or view.result.status == "running":
                return
            before = self._working
            if not self.memory:
                memory = TurnMemory(note=memories.NO_MEMORY.format(agent=self.agent.id))
            else:
                chunks = [view.recording.chunk(i) for i in range(len(view.recording))]
                self._read_working()
                memory = TurnMemory(
                    recalled=memories.recalled(chunks),
                    working_before=before,
                    working_after=self._working,
                    note=self._working_note,
                )
            self._memories[index] = memory
        previous = self._memories[index - 1] if index else None
        shown_note = memory.note if previous is None or previous.note != memory.note else None  # said once
        recalled = [(message.role, message.text) for message in memory.recalled]
        self._shown.show_memory(
            index, memory_panel(recalled, memory.working_before, memory.working_after, shown_note)
        )

    def _read_working(self) -> None:
        assert self.thread is not None  # a chat with memory has a thread
        try:
            found = memories.working_memory(self.agent.transport, self.agent.id, self.thread, self.resource)
        except MastraError as error:
            self._working_note = f"working memory could not be read: {error}"
            return
        self._working = found.text
        self._working_note = None if found.enabled else memories.NO_WORKING_MEMORY.format(agent=self.agent.id)

    def _resent(self) -> list[dict[str, Any]]:
        """The conversation so far as messages: each turn's prompt, then what the agent did."""
        out: list[dict[str, Any]] = []
        for prompt, view in zip(self.prompts, self.views, strict=True):
            out += _messages(prompt) + step_messages(view.result.steps)
        return out

    def fork(self) -> Chat:
        """A branch of this conversation: the same turns so far, then its own. With memory the
        thread is cloned on the server (``/api/memory/threads/:id/clone``)."""
        thread = None
        if self.memory and self.thread is not None:
            thread = f"{self.thread}-fork-{uuid.uuid4().hex[:8]}"
            memories.clone(self.agent.transport, self.agent.id, self.thread, thread, self.resource)
        branch = Chat(self.agent, thread=thread, resource=self.resource, memory=self.memory, **self.options)
        self._settle_all()  # the branch shares what memory did in the turns so far
        for prompt, view, memory in zip(self.prompts, self.views, self._memories, strict=True):
            branch.prompts.append(prompt)
            branch.views.append(view)
            branch._memories.append(memory)
            branch._shown.add_turn(_prompt_text(prompt), view)
            branch._shown.show_memory(len(branch.views) - 1, self._shown.panel_of(len(branch.views) - 1))
        branch._working, branch._working_note = self._working, self._working_note
        return branch

    def __repr__(self) -> str:
        where = f"thread {self.thread!r}" if self.thread else "history resent each turn"
        return f"<Chat with {self.agent.id!r}: {len(self.views)} turns, {where}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def _ipython_display_(self) -> None:
        self._shown._ipython_display_()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython (marimo)
        return self._shown._repr_mimebundle_(**kwargs)

    @property
    def widget(self) -> Conversation:
        """The conversation widget (for frontends that show widgets themselves, e.g. marimo)."""
        return self._shown


def has_memory(agent: ChatAgent) -> bool:
    """Whether the agent keeps threads (Mastra's memory status for it); raises MastraError when the
    server cannot say."""
    return memories.has_memory(agent.transport, agent.id)


def stored_thread(
    transport: Transport, agent_id: str, thread_id: str, resource: str | None = None
) -> Conversation:
    """A stored thread's messages as a read-only conversation (user turns, then the answers)."""
    stored = memories.messages(transport, agent_id, thread_id, resource)
    shown = Conversation(title=f"thread {thread_id} of {agent_id}", read_only=True)
    prompt: str | None = None
    answer: StreamView | None = None
    for message in stored:
        if not isinstance(message, dict):
            continue
        if message.get("role") == "user":
            if answer is not None or prompt is not None:
                shown.add_turn(prompt or "", _ended(answer))
            prompt, answer = _parts_text(message), None
        elif message.get("role") == "assistant":
            answer = answer or StreamView(title=f"agent {agent_id}", subtitle=first_line(prompt or ""))
            for chunk in _assistant_chunks(message):
                answer.feed(chunk)
    if answer is not None or prompt is not None:
        shown.add_turn(prompt or "", _ended(answer))
    return shown


def _ended(view: StreamView | None) -> StreamView:
    view = view or StreamView()
    view.feed({"type": "finish", "payload": {"stepResult": {"reason": "stop"}}})
    view.end()
    return view


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, dict) and isinstance(content.get("parts"), list):  # Mastra's stored format 2
        return [p for p in content["parts"] if isinstance(p, dict)]
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [p for p in content if isinstance(p, dict)] if isinstance(content, list) else []


def _parts_text(message: dict[str, Any]) -> str:
    return "".join(str(p.get("text", "")) for p in _parts(message) if p.get("type") == "text")


def _assistant_chunks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored assistant message as the chunks that would have drawn it."""
    chunks: list[dict[str, Any]] = []
    for index, part in enumerate(_parts(message)):
        kind = part.get("type")
        if kind == "text" and part.get("text"):
            chunks.append(
                {
                    "type": "text-delta",
                    "payload": {"id": f"{message.get('id')}-{index}", "text": part["text"]},
                }
            )
        elif kind == "tool-invocation" and isinstance(part.get("toolInvocation"), dict):
            call = part["toolInvocation"]
            ids = {"toolCallId": call.get("toolCallId"), "toolName": call.get("toolName")}
            chunks.append({"type": "tool-call", "payload": {**ids, "args": call.get("args")}})
            if call.get("state") == "result":
                chunks.append({"type": "tool-result", "payload": {**ids, "result": call.get("result")}})
    return chunks


def _messages(prompt: Any) -> list[dict[str, Any]]:
    made = messages(prompt)
    if not isinstance(made, list):
        raise TypeError(f"a chat turn is text or messages, not {type(prompt).__name__}")
    return made


def _prompt_text(prompt: Any) -> str:
    if isinstance(prompt, str):
        return prompt
    return first_line(prompt, limit=2000) or str(prompt)
