"""Conversations with an agent: turns on one Mastra memory thread, or history the chat resends.

Whether the agent has memory is asked of the server (:func:`memory.has_memory`); ``memory=True/False``
overrides the question.

What memory did in each turn is ``chat.history[i].memory`` (a :class:`~..core.turn_memory.TurnMemory`: the
messages recalled and saved, the working memory before and after), read as the turn ends;
``chat.turns[i]`` has it too, beside the turn's prompt. Once a turn has ended its trace is read, as
``view.trace()`` reads it (when the next turn is sent, or by ``chat.wait()``): the turn's view then
shows each step's request and the trace lane, and its memory sets its counts beside the trace's.
``chat.save(path)`` keeps all of it in one file, which ``mn.replay(path)`` plays turn by turn.

``chat.history`` stays one RunResult per turn (a :class:`TurnResult`, a RunResult that also carries
its turn's memory): it equals the turn's ``view.result``, and its JSON is a RunResult's (the memory
is the chat's, not the run's).
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import Field

from ..core.chat_file import SavedChat, SavedTurn, write_chat
from ..core.result import RunResult
from ..core.trace import TraceUnavailable
from ..core.turn_memory import TurnMemory, counted, traced_counts
from ..widget.conversation import Conversation, turn_panel
from ..widget.streamview import StreamView, first_line
from . import memory as memories
from .bodies import messages, refuse_unknown_to
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


TRACE_TIMEOUT = 10.0  # seconds a turn's trace is waited for, as view.trace() waits


def new_resource() -> str:
    """A resource (Mastra's owner of threads and of resource-scoped working memory) of one chat's own:
    two chats share working memory only when given the same ``resource``."""
    return f"mastra-notebook-{uuid.uuid4().hex[:12]}"


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
    is given) through the body's ``memory: {thread, resource}``; ``resource`` is the chat's own (made
    up) unless given, so a new chat starts with no working memory of another's. Without memory, the
    chat keeps the history (prompts, answers, tool calls and results) and sends it again with each
    turn. ``options`` (and ``tools=``) apply to every turn; ``send`` takes more. Shown as a cell's
    value, the chat draws every turn as one conversation.

    ``send`` waits for the turn before (so three sends in one cell are three turns in order) and
    reads its trace; ``chat.wait()`` waits for the last and reads its trace too. ``chat.save(path)``
    and ``chat.to_html(path)`` keep the chat; ``mn.replay(path)`` plays a saved one turn by turn.
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
        self.resource = resource or new_resource()
        self.thread = thread or (f"chat-{uuid.uuid4()}" if self.memory else None)
        self.options = options
        self.prompts: list[Any] = []
        self.views: list[StreamView] = []
        self._memories: list[TurnMemory | None] = []  # one per turn, set as it ends
        self._working: str | None = None  # the working memory after the last settled turn
        self._working_note: str | None = None  # why it could not be read, or is not kept
        self._traced: list[bool] = []  # one per turn: its trace was read (or could not be)
        self.trace_note: str | None = None
        """Why turns show no trace (the server keeps none, say): then no later turn waits for one."""
        self._settling = threading.Lock()  # a turn ends on the stream's thread; turns is read on any
        self._shown = Conversation(
            title=f"chat with {agent.id}" + (f" · thread {self.thread}" if self.thread else "")
        )

    @property
    def history(self) -> list[TurnResult]:
        """One RunResult per turn, in order, each with its turn's ``memory`` (``recalled``, ``saved``,
        ``working_before``, ``working_after``, the trace's counts; None while the turn runs)."""
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
        """The next turn: streams the answer into a new view (also drawn in the displayed chat). The
        turn before is waited for first (the next turn must see it, in the thread or in the history
        resent), and its trace read."""
        refuse_unknown_to(self.agent.stream, options, "chat.send()")  # before memory is read
        new = _messages(prompt)
        self.wait()
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
        self._traced.append(False)
        self._shown.add_turn(_prompt_text(prompt), view)
        view.observe(
            lambda change: None if change["new"] else self._settle(index, block=False), names="streaming"
        )
        self._settle(index)  # a turn that ended before it was observed (refused at once)
        return view

    def wait(self, timeout: float | None = None) -> list[TurnResult]:
        """Wait for every turn to end (``timeout`` seconds for each at most), then read each ended
        turn's trace (as ``view.trace()`` does: its steps' requests and the trace lane show in the
        turn's view, and its memory's counts are set beside the trace's). Returns ``history``."""
        for index, view in enumerate(self.views):
            if view.result.status == "running":
                view.wait(timeout)
            self._settle(index)
            self._read_trace(index)
        return self.history

    def _read_trace(self, index: int) -> None:
        """Turn ``index``'s trace, once, when the server keeps traces (a turn that ran no request of
        its own, refused say, has none: it is left alone)."""
        view = self.views[index]
        if self._traced[index] or view.result.trace_id is None or view.controls is None:
            return
        self._traced[index] = True
        if self.trace_note is None:
            try:
                found = view.trace(TRACE_TIMEOUT)
            except (TraceUnavailable, RuntimeError) as error:
                self.trace_note = str(error)
            else:
                memory = self._memories[index]
                if self.memory and memory is not None:
                    self._memories[index] = counted(memory, *traced_counts(found.spans))
                    self._show(index)
                return
        memory = self._memories[index]
        if self.memory and memory is not None:
            note = f"no trace to set them beside: {self.trace_note}"
            self._memories[index] = memory.model_copy(update={"counts": note})
            self._show(index)

    def _settle_all(self) -> None:
        for index in range(len(self.views)):
            self._settle(index)

    def _settle(self, index: int, block: bool = True) -> None:
        """Read what memory did in an ended turn, once: recalled messages from its finish chunk, the
        working memory through the route. Runs in a trait observer too: it raises nothing."""
        # The observer (``block=False``, on the stream's loop thread) does not wait: the holder reads
        # memory over HTTP through that loop, which a wait here would hold (a deadlock seen in CI). The
        # holder, or the next send(), wait() or fork(), settles this turn.
        if not self._settling.acquire(blocking=block):
            return
        try:
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
                    saved=memories.saved(chunks),
                    working_before=before,
                    working_after=self._working,
                    note=self._working_note,
                )
            self._memories[index] = memory
        finally:
            self._settling.release()
        self._show(index)

    def _show(self, index: int) -> None:
        """Turn ``index``'s memory under its answer (its note said once: not when the turn before said it)."""
        self._shown.show_memory(
            index, turn_panel(self._memories[index], self._memories[index - 1] if index else None)
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

    def save(self, path: str | Path) -> Path:
        """Save the chat to one file (``mn.replay(path)`` plays it turn by turn): each turn's prompt,
        its recording (chunks with their arrival times, its trace, scores and label) and what memory
        did in it. Waits for the last turn, and reads the traces, first (``wait()``)."""
        self.wait()
        turns = [
            SavedTurn(
                prompt=_prompt_text(prompt),
                title=view.title,
                subtitle=view.subtitle,
                memory=memory,
                lines=[line.decode() for line in view.stream.lines()],
            )
            for prompt, view, memory in zip(self.prompts, self.views, self._memories, strict=True)
        ]
        head = SavedChat(
            title=self._shown.title, agent=self.agent.id, thread=self.thread, resource=self.resource
        )
        return write_chat(path, head.model_copy(update={"turns": turns}))

    def to_html(self, path: str | Path | None = None) -> str:
        """One self-contained, offline page of the chat (written to ``path`` if given): each prompt,
        its turn drawn by the widget's renderer (requests, trace lane), and what memory did in it.
        Waits for the last turn, and reads the traces, first (``wait()``)."""
        self.wait()
        return self._shown.to_html(path)

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
            branch._traced.append(True)  # the trunk's turn: its trace is the trunk's to read
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
