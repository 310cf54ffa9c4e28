"""One run on a Mastra server, driving the stream of it (a view shows that stream, or none does).

A :class:`RunSession` posts the request and streams the answer into its RunStream, runs client tools
and posts their rounds, and answers the run's controls (``approve()``, ``decline()``, ``resume()``,
Stop, from Python or a view's buttons): it is attached to the stream as its
:class:`~mastra_notebook.runs.stream.RunControls`.
Every request goes through the client's :class:`~mastra_notebook.client.transport.Transport`.

Every request of a run names one Mastra trace (``tracingOptions.traceId``, made here): its first
post and each continuation (approvals, resumes, client-tool rounds) alike, so ``view.trace()`` reads
the whole run: a client-tool round is a root span of its own, a resumed run nests under the step that
waited.

Nothing raises out of a stream: an HTTP error, a refused connection, a dropped connection or a read
timeout ends the run with a clear message, keeping every chunk that arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from contextlib import aclosing
from typing import Any, Literal

from ..core.records import schema
from ..core.result import TRANSPORT_ERROR, ToolCall
from ..core.status_words import decision_word, status_word
from ..core.trace import Trace
from ..render import DEFAULT_MAX_HEIGHT
from ..render.renderers import drawer
from ..runs.loops import Work, schedule
from ..runs.stream import Breather, RunStream
from .feedback import MastraFeedback
from .observability import fetch_trace, new_trace_id, traced_body
from .scores import Scoring
from .tools import ToolSession
from .transport import NO_RETRY, MastraError, Transport, blocking

Kind = Literal["agent", "network", "workflow", "observed"]
CANCEL_TIMEOUT = 5.0  # a workflow cancel is one small POST: Stop must not wait long on it
HINT_TIMEOUT = 3.0  # the workflow's resume schemas, read beside its stream: only a hint, not waited on long
_BY = {"view": "in the view", "python": "from Python"}
_DECISIONS = {"agent": "tool-call", "network": "network-tool-call"}  # approve-tool-call, ...


class RunSession:
    """One run on a Mastra server, streamed into ``stream`` (its RunControls).

    ``kind`` says which answers the run takes: an agent's tool calls are approved, declined or
    resumed (``/approve-tool-call``, ...), a network's approved or declined
    (``/approve-network-tool-call``, ...), a workflow's suspended step resumed (``/resume-stream``);
    an observed workflow drops the repeats of Mastra's observe stream. ``cancel_path``: Stop cancels
    the workflow run on the server too. ``tools``: the client tools the run may call.
    ``scoring``: the run's scorers, their ids checked before its first post, scored after its end.
    ``overrides``: what the request overrides on purpose (``instructions``, ``model``...), by the
    name given to ``stream()``: the run keeps it (``RunResult.overrides``) and its header says so.
    ``trace_id``: the trace every request names (made here unless given; none for an observed run,
    which sends no request of its own).
    """

    def __init__(
        self,
        transport: Transport,
        stream: RunStream,
        base_path: str,
        kind: Kind = "agent",
        *,
        tools: ToolSession | None = None,
        cancel_path: str | None = None,
        scoring: Scoring | None = None,
        overrides: Mapping[str, Any] | None = None,
        trace_id: str | None = None,
    ) -> None:
        self.transport = transport
        self.stream = stream
        self.base_path = base_path  # /api/agents/<id> or /api/workflows/<id>
        self.kind: Kind = kind
        self.tools = tools
        self.cancel_path = cancel_path
        self.scoring = scoring
        self.cancelling: Work | None = None  # kept: a task nobody holds may be garbage-collected
        self._resume_schemas: asyncio.Future[dict[str, Any]] | None = None
        self.trace_id = None if kind == "observed" else (trace_id or new_trace_id())
        self.requests = 0  # requests posted: each one is a span of the trace (a root or a resumed run)
        stream.run.describe(trace_id=self.trace_id, overrides=overrides)
        # a label is sent with the run's trace id (an observed run names no trace: its labels stay here)
        labels = MastraFeedback(transport, self.trace_id, self._known_run_id) if self.trace_id else None
        stream.attach(self, labels)

    def __repr__(self) -> str:
        return f"<RunSession {self.kind} {self.base_path}>"

    def post(self, path: str, body: dict[str, Any]) -> None:
        """POST ``body`` and stream the answer into the stream, in the background."""
        self.stream.start(self.request(path, body))

    def request(self, path: str, body: dict[str, Any]) -> Callable[[], Awaitable[None]]:
        """The work of POSTing ``body`` and streaming the answer (to run when a slot is free)."""
        return lambda: self._rounds((path, body))

    async def _rounds(self, follow: tuple[str, dict[str, Any]] | None) -> None:
        """Stream; then, while the agent waits on client tools, run them and stream its continuation
        (``follow`` None: a client tool was just decided, nothing to post before running it)."""
        if self.scoring is not None and not await self.scoring.check(self.stream.run):
            return  # a scorer id the server does not know: nothing is posted
        while True:
            if follow is not None:
                await self._stream(*follow)
            follow = await self.tools.next_request(self.stream.run, self.stream.feed) if self.tools else None
            if follow is None:
                if self.scoring is not None:  # Mastra scores the run after its stream: read them
                    await self.scoring.collect(self.stream.run, self.stream.recording)
                return

    async def _stream(self, path: str, body: dict[str, Any]) -> None:
        workflow = self.kind in ("workflow", "observed")
        if workflow and self._resume_schemas is None:  # read once, beside the first stream
            self._resume_schemas = asyncio.ensure_future(self._read_resume_schemas())
        run = self.stream.run
        if self.trace_id is not None:
            body = traced_body(body, self.trace_id)
        self.requests += 1
        records = self.transport.records("POST", path, json=body)
        try:
            async with aclosing(_past_the_replay(records) if self.kind == "observed" else records) as taken:
                breather = Breather()
                async for record in taken:
                    self.stream.feed(record)
                    await breather.breathe()
        except MastraError as error:
            if error.lost is not None and run.result.chunk_count > 0:  # keep it all: nothing is sent again
                lost = "the connection to the Mastra server was lost (not retried: the run had begun)"
                run.note("warning", f"{lost}: {error.lost}")
            else:
                run.mark_error(error.problem, status_code=error.status_code, name=TRANSPORT_ERROR)
        if self._resume_schemas is not None:
            steps = self.stream.result.workflow.steps if self.stream.result.workflow else []
            if self._resume_schemas.done() or any(step.status == "suspended" for step in steps):
                run.expect_resume(await self._resume_schemas)  # waited on only when a step asks

    async def _read_resume_schemas(self) -> dict[str, Any]:
        """Each step's resume schema by step id, from ``GET /api/workflows/:id`` (Mastra's
        ``workflow-step-suspended`` chunk carries only the suspend payload). Any failure is no hint."""
        try:
            details = await self.transport.send("GET", self.base_path, timeout=HINT_TIMEOUT, retry=NO_RETRY)
        except MastraError:
            return {}
        steps = details if isinstance(details, Mapping) else {}
        schemas: dict[str, Any] = {}
        for listed in (steps.get("steps"), steps.get("allSteps")):  # allSteps: nested workflows' too
            for name, step in listed.items() if isinstance(listed, Mapping) else ():
                resume = schema(step.get("resumeSchema")) if isinstance(step, Mapping) else None
                if resume is not None:
                    schemas[str(name)] = resume
        return schemas

    # ---- the view's controls ------------------------------------------------------------------------

    def redact(self, text: str) -> str:
        """``text`` with the client's secrets hidden (its transport's ``redact``)."""
        return self.transport.redact(text)

    def trace(self, timeout: float) -> Trace:
        """Mastra's trace of this run, once the run has ended and the server's exporter has flushed
        it (``timeout`` seconds at most in all; see :func:`~.trace.fetch_trace`). A step whose
        stream body was redacted takes its request from it (``view.result.steps[i].request``)."""
        if self.trace_id is None:
            raise RuntimeError("an observed run sent no request of its own: it names no trace")
        deadline = time.monotonic() + timeout
        if self.stream.result.status == "running":
            with contextlib.suppress(TimeoutError):  # still running: the trace says it is incomplete
                self.stream.wait(timeout)
        left = max(deadline - time.monotonic(), 0.0)
        return blocking(fetch_trace(self.transport, self.trace_id, left, requests=self.requests))

    def stopping(self) -> None:
        """Stop, before the run settles: client tools still working say they were stopped, and a
        workflow run is cancelled on the server by a POST in the background (Stop does not wait)."""
        if self.tools is not None:
            for chunk in self.tools.stopped(self.stream.result):
                self.stream.feed(chunk)
        if self.cancel_path is not None:
            self.cancelling = schedule(self._cancel(self.cancel_path))

    async def _cancel(self, path: str) -> None:
        """POST the cancel; a failure is a warning on the run (which has ended by then, mostly)."""
        try:
            await self.transport.send("POST", path, timeout=CANCEL_TIMEOUT)
        except MastraError as error:
            self.stream.run.note("warning", f"could not cancel the workflow run on the server: {error}")
            if self.stream.result.status != "running":
                self.stream.end()  # it ended before the answer came: its final state again, with the warning

    def approve(self, tool_call_id: str | None, by: str) -> None:
        """Approve the waiting tool call (the latest, or ``tool_call_id``); the run continues."""
        self._answer("approve", tool_call_id, by=by)

    def decline(self, tool_call_id: str | None, reason: str | None, by: str) -> None:
        """Decline the waiting tool call; the model is told ``reason`` if given."""
        self._answer("decline", tool_call_id, by=by, reason=reason)

    def resume(self, resume_data: Any, tool_call_id: str | None, step: str | None) -> None:
        """Resume the suspended tool call, or a workflow's suspended step, with ``resume_data``."""
        if self.kind == "network":
            raise RuntimeError(
                "Mastra's HTTP API cannot resume a suspended network primitive (there is no route for it); "
                "a network approval is answered with view.approve() or view.decline()"
            )
        if self.kind in ("workflow", "observed"):
            self._resume_step(resume_data, step)
        else:
            self._answer("resume", tool_call_id, by="python", resume_data=resume_data)

    def _resume_step(self, resume_data: Any, step: str | None) -> None:
        run_id = self._run_id()
        result = self.stream.result
        steps = result.workflow.steps if result.workflow else []
        waiting = [s for s in steps if s.status == "suspended" and (step is None or s.step_name == step)]
        body: dict[str, Any] = {"resumeData": resume_data}
        if step:
            body["step"] = step
        if waiting:
            self.stream.run.decide("resume", "python", step=waiting[-1].step_name)
        self.post(f"{self.base_path}/resume-stream?runId={run_id}", body)

    def _answer(
        self, action: str, tool_call_id: str | None, *, by: str, reason: Any = None, resume_data: Any = None
    ) -> None:
        route = _DECISIONS.get(self.kind)
        if route is None:
            raise RuntimeError("a workflow step is continued with view.resume(resume_data)")
        waiting = "suspended" if action == "resume" else "awaiting-approval"
        call = self._waiting_call(waiting, tool_call_id)
        if call is None:
            return
        body: dict[str, Any] = {"runId": self._run_id(), "toolCallId": call.tool_call_id}
        self.stream.run.decide(action, by, tool_call_id=call.tool_call_id)
        if self.tools is not None and self.tools.decides(call, reason):  # a client tool: the kernel runs it
            self.stream.start(lambda: self._rounds(None))
            return
        if action == "resume":
            self.post(f"{self.base_path}/resume-stream", {**body, "resumeData": resume_data})
            return
        if action == "decline" and isinstance(reason, str) and reason:
            body["reason"] = reason
        self.post(f"{self.base_path}/{action}-{route}", body)

    def _waiting_call(self, status: str, tool_call_id: str | None) -> ToolCall | None:
        """The call to answer: the one named, else the latest undecided one with ``status``. None (and
        a message) when it was decided already; RuntimeError when no call ever waited so."""
        calls = self.stream.result.tool_calls
        named = [c for c in calls if c.tool_call_id == tool_call_id] if tool_call_id else []
        candidates = named or [c for c in calls if c.status == status or c.decision is not None]
        if tool_call_id and not named:
            raise RuntimeError(f"no tool call {tool_call_id!r} in this run")
        for call in reversed(candidates):
            if call.status == status and call.decision is None:
                return call
        decided = next((c for c in reversed(candidates) if c.decision is not None), None)
        if decided is None or decided.decision is None:
            raise RuntimeError(f"no tool call is {status_word(status)} in this run")
        print(  # a note, not an error: the next cell of a notebook often repeats a click
            f"{decided.tool_name} ({decided.tool_call_id}) was already "
            f"{decision_word(decided.decision.action)} {_BY[decided.decision.by]}: nothing sent"
        )
        return None

    def _known_run_id(self) -> str | None:
        return self.stream.result.run_id

    def _run_id(self) -> str:
        run_id = self.stream.result.run_id
        if run_id is None:
            raise RuntimeError("this run has no run id yet: nothing to continue")
        return run_id


async def _past_the_replay(records: AsyncGenerator[bytes, None]) -> AsyncGenerator[bytes, None]:
    """Observing a running run, Mastra sends what happened so far, then the whole run again from its
    start, live: the second pass is taken only past what the first one held."""
    seen: list[bytes] = []
    replayed: int | None = None  # how far the second pass has repeated the first
    async with aclosing(records):
        async for record in records:
            if replayed is None and seen and record == seen[0]:
                replayed = 0
            if replayed is None:
                seen.append(record)
            elif replayed < len(seen) and record == seen[replayed]:
                replayed += 1
                continue
            else:
                replayed = len(seen)  # past the first pass (or away from it): take everything
            yield record


def new_run(
    view: bool,
    title: str,
    *,
    prompt: Any = None,
    max_height: str | float | None = DEFAULT_MAX_HEIGHT,
    renderers: Mapping[str, Any] | None = None,
) -> tuple[Any, RunStream]:
    """A new run's stream and what shows it: a StreamView (titled, its subtitle the prompt's first
    line), or, when not ``view``, the stream itself (no widget library is imported then)."""
    if not view:
        made = RunStream(prompt=prompt, draw=drawer(renderers) if renderers else None)
        return made, made
    from ..widget.streamview import StreamView, first_line

    shown = StreamView(
        title=title,
        subtitle=first_line(prompt) if prompt is not None else "",
        prompt=prompt,
        max_height=max_height,
        renderers=renderers,
    )
    return shown, shown.stream
