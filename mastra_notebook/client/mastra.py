"""A client for a real Mastra server: agents and workflows streamed into a StreamView.

Streams run in the background on the kernel's event loop, so the cell returns at once and a Stop
click is handled. Nothing raises out of a stream: an HTTP error, a refused connection, a dropped
connection or a read timeout ends the view with a clear message, keeping every chunk that arrived.
"""

from __future__ import annotations

import asyncio
import functools
import os
import ssl
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx
import orjson

from ..core.framing import aiter_records
from ..core.result import ToolCall
from ..core.status_words import decision_word, status_word
from ..widget.loops import Work, schedule
from ..widget.streamview import DEFAULT_MAX_HEIGHT, Breather, StreamView, css_length, first_line
from . import catalogue, transport
from .tools import DEFAULT_MAX_ROUNDS, ToolSession

if TYPE_CHECKING:
    from ..widget.conversation import Conversation
    from ..widget.gallery import Gallery
    from .chat import Chat

DEFAULT_BASE_URL = "http://localhost:4111"
DEFAULT_TIMEOUT = httpx.Timeout(30.0, read=120.0)
CANCEL_TIMEOUT = 5.0  # a workflow cancel is one small POST: Stop must not wait long on it
HINT_TIMEOUT = 3.0  # the workflow's resume schemas, read beside its stream: only a hint, not waited on long
NO_RETRY = transport.Retry(0, 0, 0)
ERROR_BODY_LIMIT = 64 * 1024  # an HTTP error's body is read only this far


def camel(name: str) -> str:
    """``max_steps`` -> ``maxSteps``; a name already in camelCase is left alone."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _schema(value: Any) -> Any:
    """A pydantic model class becomes its JSON schema; anything else is passed as given."""
    if isinstance(value, type) and hasattr(value, "model_json_schema"):
        return value.model_json_schema()
    return value


def body_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """snake_case keyword options as Mastra's camelCase body fields (unknown ones passed through)."""
    body = {camel(name): value for name, value in options.items()}
    output = options.get("structured_output")
    if isinstance(output, Mapping):
        body["structuredOutput"] = {camel(k): (_schema(v) if k == "schema" else v) for k, v in output.items()}
    elif output is not None:  # a bare model class or JSON schema
        body["structuredOutput"] = {"schema": _schema(output)}
    return body


def messages(prompt: Any) -> Any:
    """A prompt as Mastra's ``messages``; what is neither text nor messages goes as given, for the
    server to judge (its 400 names the field)."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    if isinstance(prompt, Mapping):
        return [dict(prompt)]
    return list(prompt) if isinstance(prompt, (list, tuple)) else prompt


def _server_message(response: httpx.Response, body: bytes) -> str:
    """The server's own message for an HTTP error (Mastra answers JSON ``{"error": ...}``)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        message = data.get("error") or data.get("message")
        if isinstance(message, dict):
            message = message.get("message")
        if message:
            issues = data.get("issues")
            if isinstance(issues, list) and issues:
                details = "; ".join(
                    f"{i.get('field', '?')}: {i.get('message', '')}" if isinstance(i, dict) else str(i)
                    for i in issues
                )
                return f"{message}: {details}"
            return str(message)
    text = body.decode("utf-8", "replace").strip()
    return text[:500] or f"HTTP {response.status_code} {response.reason_phrase}"


def _without_credentials(url: str) -> tuple[str, httpx.BasicAuth | None]:
    """``url`` without its ``user:password@`` part, and that part as HTTP Basic auth (or None).

    Credentials never stay in a URL that could be shown: in a message, a repr or a saved view.
    """
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as error:  # its message names the fault, never the whole URL
        raise ValueError(f"not a valid Mastra base URL: {error}") from None
    if not parsed.userinfo:
        return url, None
    return str(parsed.copy_with(userinfo=b"")), httpx.BasicAuth(parsed.username, parsed.password)


async def _read_bounded(response: httpx.Response, limit: int = ERROR_BODY_LIMIT) -> bytes:
    """At most ``limit`` bytes of a body: an error page can be huge (or endless)."""
    body = bytearray()
    async for piece in response.aiter_bytes():
        body += piece
        if len(body) >= limit:
            break
    return bytes(body[:limit])


def _redirect_message(response: httpx.Response) -> str:
    """Where a 3xx answer points: redirects are not followed (a POST body would not be resent)."""
    location = response.headers.get("location")
    status = f"HTTP {response.status_code} {response.reason_phrase}".strip()
    if not location:
        return f"the Mastra server answered {status}, a redirect without a Location"
    target, _ = _without_credentials(str(response.url.join(location)))
    return f"the Mastra server answered {status}, a redirect to {target} (not followed: check the base URL)"


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """One TLS context for every stream: building one costs tens of milliseconds of the loop's time."""
    import certifi  # httpx's own CA bundle

    return ssl.create_default_context(cafile=certifi.where())


class MastraClient:
    """``MastraClient(base_url=None, headers=None, token=None, timeout=..., retries=3, backoff_ms=300,
    max_backoff_ms=5000)``; base URL from ``$MASTRA_BASE_URL``.

    ``token`` is sent as ``Authorization: Bearer <token>``; credentials in the URL
    (``http://user:password@host``) as HTTP Basic auth, taken out of ``base_url``. Tokens and header
    values are sent, never shown. A request is retried (``retries`` times, backoff doubling from
    ``backoff_ms`` to ``max_backoff_ms``) on a failed connection or a 502/503/504, never once a stream
    has begun: a retry cannot start a second run.
    """

    def __init__(
        self,
        base_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        *,
        token: str | None = None,
        retries: int = 3,
        backoff_ms: float = 300,
        max_backoff_ms: float = 5000,
    ) -> None:
        url, url_auth = _without_credentials(
            base_url or os.environ.get("MASTRA_BASE_URL") or DEFAULT_BASE_URL
        )
        self.base_url = url.rstrip("/")
        self.headers = dict(headers or {})
        self.auth = transport.authorization(token, url_auth, self.headers)
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self.retry = transport.Retry(retries, backoff_ms, max_backoff_ms)

    def __repr__(self) -> str:
        return f"MastraClient({self.base_url!r})"

    def http(self, timeout: float | httpx.Timeout | None = None) -> httpx.AsyncClient:
        """A new httpx.AsyncClient for this server: its base URL, headers, auth and timeout."""
        return httpx.AsyncClient(
            base_url=self.base_url,
            headers=self.headers,
            auth=self.auth,
            timeout=self.timeout if timeout is None else timeout,
            verify=_ssl_context(),
        )

    def get(self, path: str) -> Any:
        """A synchronous GET of a JSON API path (``/api/agents``), retried as streams are; raises on
        HTTP errors."""
        with httpx.Client(
            base_url=self.base_url, headers=self.headers, auth=self.auth, timeout=self.timeout
        ) as http:
            response = transport.get(http, path, self.retry)
            response.raise_for_status()
            return response.json()

    def agents(self) -> catalogue.Agents:
        """The server's agents, by id; shown as a table (id, name, model, tools, instructions)."""
        return catalogue.Agents(self.get("/api/agents"), self.base_url)

    def workflows(self) -> catalogue.Workflows:
        """The server's workflows, by id; shown as a table (id, name, steps, input, description)."""
        return catalogue.Workflows(self.get("/api/workflows"), self.base_url)

    def agent(self, agent_id: str) -> Agent:
        """The agent ``agent_id`` of this server: ``stream(prompt)``, ``stream_many(prompts)``, ``chat()``."""
        return Agent(self, agent_id)

    def workflow(self, workflow_id: str) -> Workflow:
        """The workflow ``workflow_id`` of this server: ``stream(input)``, ``runs()``, ``run(run_id)``."""
        return Workflow(self, workflow_id)


class LiveView(StreamView):
    """A StreamView fed by a Mastra server, which can continue its run (approve, decline, resume)."""

    _decision_route = "tool-call"  # approve-tool-call, decline-tool-call

    def __init__(self, client: MastraClient, base_path: str, *, title: str, prompt: Any = None) -> None:
        super().__init__(title=title, can_approve=True, subtitle=first_line(prompt))
        self.prompt = prompt  # what was asked (kept for batches and DataFrames)
        self._client = client
        self._base_path = base_path  # /api/agents/<id> or /api/workflows/<id>
        self._cancel_path: str | None = None
        self._cancelling: Work | None = None  # kept: a task nobody holds may be garbage-collected
        self.tools: ToolSession | None = None  # client tools (agent.stream(tools=...)) the run may call

    def post(self, path: str, body: dict[str, Any]) -> LiveView:
        """POST ``body`` and stream the answer into this view, in the background."""
        self.start(self.request(path, body))
        return self

    def request(self, path: str, body: dict[str, Any]) -> Callable[[], Awaitable[None]]:
        """The work of POSTing ``body`` and streaming the answer here (to run when a slot is free)."""
        return lambda: self._stream_rounds((path, body))

    async def _stream_rounds(self, follow: tuple[str, dict[str, Any]] | None) -> None:
        """Stream; then, while the agent waits on client tools, run them and stream its continuation
        (``follow`` None: a client tool was just decided, nothing to post before running it)."""
        while True:
            if follow is not None:
                await self._stream(*follow)
            follow = await self.tools.next_request(self) if self.tools is not None else None
            if follow is None:
                return

    async def _stream(self, path: str, body: dict[str, Any]) -> None:
        run = self.run
        tried = transport.Attempts()
        try:
            async with (
                self._client.http() as http,
                transport.stream(http, "POST", path, self._client.retry, tried, json=body) as response,
            ):
                if 300 <= response.status_code < 400:  # a redirect page is not a stream
                    run.mark_error(_redirect_message(response), status_code=response.status_code)
                    return
                if response.status_code >= 400:
                    raw = await _read_bounded(response)
                    message = _server_message(response, raw) + tried.suffix()
                    run.mark_error(message, status_code=response.status_code)
                    return
                breather = Breather()
                async for record in self._records(aiter_records(response.aiter_bytes())):
                    self._take(record)
                    await breather.breathe()
        except httpx.ConnectError as error:
            where = f"{self._client.base_url}{tried.suffix()}"
            run.mark_error(f"cannot connect to the Mastra server at {where}: {error}")
        except httpx.TimeoutException as error:
            kind = type(error).__name__  # ReadTimeout, ConnectTimeout, ...
            run.mark_error(f"the Mastra server at {self._client.base_url} timed out ({kind}){tried.suffix()}")
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as error:
            if run.result.chunk_count == 0:  # it went before any chunk (on every attempt, if before the head)
                message = (
                    f"the Mastra server at {self._client.base_url} closed the connection{tried.suffix()}"
                )
                run.mark_error(f"{message}: {error}")
            else:  # dropped mid-stream: keep it all; nothing is sent again (no second run)
                run.note(
                    "warning",
                    f"the connection to the Mastra server was lost (not retried: the run had begun): {error}",
                )

    def _records(self, records: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        """The records to take from a response (a hook: an observed run drops its repeats)."""
        return records

    def _before_stop(self) -> None:
        """Client tools still working: each card says it was stopped, before the run settles."""
        if self.tools is not None:
            for chunk in self.tools.stopped(self.result):
                self.feed(chunk)

    def stop(self) -> None:
        """Close the HTTP stream (the server then aborts the run); a workflow is cancelled too, by a
        POST in the background on the view's loop (Stop is handled on the kernel's loop: no wait)."""
        loop = self._loop
        if self._cancel_path is not None and not self._ended.is_set() and loop is not None:
            self._cancelling = schedule(self._cancel_workflow(self._cancel_path), loop)
        super().stop()

    async def _cancel_workflow(self, path: str) -> None:
        """POST the cancel; a failure is a warning on the run (which has ended by then, mostly)."""
        try:
            async with (
                self._client.http(timeout=CANCEL_TIMEOUT) as http,
                http.stream("POST", path) as response,
            ):
                if response.is_success:
                    return
                message = _server_message(response, await _read_bounded(response))
                problem = f"HTTP {response.status_code}: {message}"
        except httpx.TimeoutException as error:
            problem = f"no answer within {CANCEL_TIMEOUT:g} s ({type(error).__name__})"
        except httpx.HTTPError as error:
            problem = f"{type(error).__name__}: {error}"
        self.run.note("warning", f"could not cancel the workflow run on the server: {problem}")
        if self._ended.is_set():
            self.end()  # the run ended before the answer came: send its final state again, with the warning

    # ---- continuations: the same view, the same run ----------------------------------------------

    def approve(self, tool_call_id: str | None = None) -> None:
        """Approve the tool call that waits for approval (the latest one, or ``tool_call_id``).

        The run continues in this same view. If that call was already decided (a click on Approve
        in the view, say), nothing is sent and a message says so.
        """
        self._answer("approve", tool_call_id, by="python")

    def decline(self, tool_call_id: str | None = None, reason: str | None = None) -> None:
        """Decline the tool call that waits for approval (the latest one, or ``tool_call_id``); the
        agent is told ``reason`` if given. A call already decided is left alone, with a message."""
        self._answer("decline", tool_call_id, by="python", reason=reason)

    def resume(self, resume_data: Any, tool_call_id: str | None = None) -> None:
        """Resume the suspended tool call (the latest one, or ``tool_call_id``) with ``resume_data``,
        whose shape the tool's resume schema gives (a waiting call's ``continue_with`` shows it,
        e.g. ``view.resume({"answer": ...})``). The run continues in this same view."""
        self._answer("resume", tool_call_id, by="python", resume_data=resume_data)

    def _handle_browser_message(self, content: Any) -> None:
        """The view's Approve and Decline buttons decide as the person in the view."""
        kind = content.get("t") if isinstance(content, dict) else None
        if kind == "approve":
            self._answer("approve", content.get("tool_call_id"), by="view")
        elif kind == "decline":
            self._answer("decline", content.get("tool_call_id"), by="view", reason=content.get("reason"))
        else:
            super()._handle_browser_message(content)

    def _answer(
        self, action: str, tool_call_id: str | None, *, by: str, reason: Any = None, resume_data: Any = None
    ) -> None:
        waiting = "suspended" if action == "resume" else "awaiting-approval"
        call = self._waiting_call(waiting, tool_call_id)
        if call is None:
            return
        body: dict[str, Any] = {"runId": self._run_id(), "toolCallId": call.tool_call_id}
        self.run.decide(action, by, tool_call_id=call.tool_call_id)
        if self.tools is not None and self.tools.decides(call, reason):  # a client tool: the kernel runs it
            self.start(lambda: self._stream_rounds(None))
            return
        if action == "resume":
            self.post(f"{self._base_path}/resume-stream", {**body, "resumeData": resume_data})
            return
        if action == "decline" and isinstance(reason, str) and reason:
            body["reason"] = reason
        self.post(f"{self._base_path}/{action}-{self._decision_route}", body)

    def _waiting_call(self, status: str, tool_call_id: str | None) -> ToolCall | None:
        """The call to answer: the one named, else the latest undecided one with ``status``. None (and
        a message) when it was decided already; RuntimeError when no call ever waited so."""
        calls = self.result.tool_calls
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

    def _run_id(self) -> str:
        run_id = self.result.run_id
        if run_id is None:
            raise RuntimeError("this run has no run id yet: nothing to continue")
        return run_id


_BY = {"view": "in the view", "python": "from Python"}


class NetworkView(LiveView):
    """A live agent-network run: approve and decline (in Python or with the view's buttons) go to
    ``/approve-network-tool-call`` and ``/decline-network-tool-call``, as client-js sends them."""

    _decision_route = "network-tool-call"

    def resume(self, resume_data: Any, tool_call_id: str | None = None) -> None:
        """Not for networks: Mastra's HTTP API (and client-js) has no route that resumes a suspended
        network primitive; approvals are answered with ``approve()``/``decline()``."""
        raise RuntimeError(
            "Mastra's HTTP API cannot resume a suspended network primitive (there is no route for it); "
            "a network approval is answered with view.approve() or view.decline()"
        )


class WorkflowView(LiveView):
    """A live workflow run: a suspended step is resumed with ``resume(resume_data, step=None)``;
    Stop cancels the run on the server."""

    _resume_schemas: asyncio.Future[dict[str, Any]] | None = None

    async def _stream(self, path: str, body: dict[str, Any]) -> None:
        """Stream, and read once (beside the first stream) what each step expects when resumed: a
        suspended step's ``continue_with`` shows it (``view.resume({"approved": True}, ...)``)."""
        if self._resume_schemas is None:
            self._resume_schemas = asyncio.ensure_future(self._read_resume_schemas())
        await super()._stream(path, body)
        steps = self.result.workflow.steps if self.result.workflow else []
        if self._resume_schemas.done() or any(step.status == "suspended" for step in steps):
            self.run.expect_resume(await self._resume_schemas)  # waited on only when a step asks

    async def _read_resume_schemas(self) -> dict[str, Any]:
        """Each step's resume schema by step id, from ``GET /api/workflows/:id`` (Mastra's
        ``workflow-step-suspended`` chunk carries only the suspend payload). Any failure is no hint."""
        try:
            async with (
                self._client.http(timeout=HINT_TIMEOUT) as http,
                transport.stream(http, "GET", self._base_path, NO_RETRY) as response,
            ):
                details = orjson.loads(await response.aread()) if response.is_success else None
        except (httpx.HTTPError, ValueError):
            return {}
        steps = details if isinstance(details, Mapping) else {}
        schemas: dict[str, Any] = {}
        for listed in (steps.get("steps"), steps.get("allSteps")):  # allSteps: nested workflows' too
            for name, step in listed.items() if isinstance(listed, Mapping) else ():
                schema = catalogue.schema(step.get("resumeSchema")) if isinstance(step, Mapping) else None
                if schema is not None:
                    schemas[str(name)] = schema
        return schemas

    def resume(self, resume_data: Any, tool_call_id: str | None = None, *, step: str | None = None) -> None:
        """Resume the suspended step (the latest one, or ``step`` by name) with ``resume_data``; the
        run continues in this same view. A waiting step's ``continue_with`` shows the call."""
        run_id = self._run_id()
        steps = self.result.workflow.steps if self.result.workflow else []
        waiting = [s for s in steps if s.status == "suspended" and (step is None or s.step_name == step)]
        body: dict[str, Any] = {"resumeData": resume_data}
        if step:
            body["step"] = step
        if waiting:
            self.run.decide("resume", "python", step=waiting[-1].step_name)
        self.post(f"{self._base_path}/resume-stream?runId={run_id}", body)

    def approve(self, tool_call_id: str | None = None) -> None:
        """Not for workflows: a suspended workflow step is continued with ``view.resume(resume_data)``."""
        raise RuntimeError("a workflow step is continued with view.resume(resume_data)")

    def decline(self, tool_call_id: str | None = None, reason: str | None = None) -> None:
        """Not for workflows: a suspended workflow step is continued with ``view.resume(resume_data)``."""
        raise RuntimeError("a workflow step is continued with view.resume(resume_data)")


class Agent:
    """An agent of a Mastra server (``client.agent(id)``): ``stream`` one prompt into a view,
    ``stream_many`` prompts into a gallery, ``chat`` turn after turn."""

    def __init__(self, client: MastraClient, agent_id: str) -> None:
        self.client = client
        self.id = agent_id
        self.path = f"/api/agents/{agent_id}"

    def __repr__(self) -> str:
        return f"<Agent {self.id!r} at {self.client.base_url}>"

    def stream(
        self,
        prompt_or_messages: Any,
        *,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        tool_timeout: float | None = None,
        max_tool_rounds: int = DEFAULT_MAX_ROUNDS,
        max_height: str | float | None = DEFAULT_MAX_HEIGHT,
        **options: Any,
    ) -> LiveView:
        """Stream the agent's answer into a new view (returns at once; ``await`` it or ``.wait()``).

        ``tools``: Python functions the agent may call (``[fn, ...]``, ``{name: fn}``, ``mn.tool(...)``),
        run in the kernel (``tool_timeout`` seconds at most each; ``max_tool_rounds`` model steps that
        end in them) with their results fed into this same run.
        """
        view = self._view(prompt_or_messages)
        view.max_height = css_length(max_height)  # the view's own height limit, not a Mastra option
        body = self._body(prompt_or_messages, options)
        if tools is not None:
            body = ToolSession.attach(
                view, tools, body, f"{self.path}/stream", timeout=tool_timeout, max_rounds=max_tool_rounds
            )
        return view.post(f"{self.path}/stream", body)

    def stream_many(
        self,
        prompts: Iterable[Any],
        *,
        concurrency: int = 4,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        tool_timeout: float | None = None,
        max_tool_rounds: int = DEFAULT_MAX_ROUNDS,
        page_size: int | None = None,
        **options: Any,
    ) -> Gallery:
        """Stream many prompts, at most ``concurrency`` at a time, into a gallery of live views
        (``tools`` as for :meth:`stream`, for every prompt), ``page_size`` tiles a page (48)."""
        from ..widget.gallery import Gallery

        batch = Gallery(concurrency, page_size=page_size)
        path = f"{self.path}/stream"

        def start(prompt: Any) -> tuple[LiveView, Callable[[], Awaitable[None]]]:
            view = self._view(prompt)  # made when its turn comes: no widget per queued prompt
            body = self._body(prompt, options)
            if tools is not None:
                body = ToolSession.attach(
                    view, tools, body, path, timeout=tool_timeout, max_rounds=max_tool_rounds
                )
            return view, view.request(path, body)

        for prompt in prompts:
            batch.submit(functools.partial(start, prompt), prompt=prompt, title=f"agent {self.id}")
        return batch

    def chat(self, thread: str | None = None, resource: str | None = None, **options: Any) -> Chat:
        """A conversation (see :class:`~mastra_notebook.client.chat.Chat`): ``chat.send(prompt)``."""
        from .chat import Chat

        return Chat(self, thread=thread, resource=resource, **options)

    def threads(self, resource: str | None = None) -> list[dict[str, Any]]:
        """The agent's stored memory threads (of ``resource`` if given), newest first."""
        from .chat import list_threads

        return list_threads(self, resource)

    def thread(self, thread_id: str, resource: str | None = None) -> Conversation:
        """A stored thread's messages, drawn as a read-only conversation."""
        from .chat import stored_thread

        return stored_thread(self, thread_id, resource)

    def _view(self, prompt: Any, kind: str = "agent", cls: type[LiveView] = LiveView) -> LiveView:
        return cls(self.client, self.path, title=f"{kind} {self.id}", prompt=prompt)

    def _body(self, prompt: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"messages": messages(prompt), **body_options(options)}

    def network(self, prompt_or_messages: Any, **options: Any) -> LiveView:
        """Run the agent as a network (``/network``), streamed into a new view."""
        view = self._view(prompt_or_messages, kind="network", cls=NetworkView)
        return view.post(f"{self.path}/network", self._body(prompt_or_messages, options))

    def info(self) -> catalogue.AgentInfo:
        """This agent in full, shown as a card: model, memory, tools with their descriptions and
        schemas, sub-agents, workflows, processors, default options, the whole instructions."""
        try:  # which agents really have memory (every agent says supportsMemory)
            memory = bool(self.client.get(f"/api/memory/status?agentId={quote(self.id)}").get("result"))
        except (httpx.HTTPError, ValueError, AttributeError):
            memory = None
        return catalogue.AgentInfo(self.id, self.client.get(self.path), memory)


class Workflow:
    """A workflow of a Mastra server (``client.workflow(id)``): ``stream`` a run into a view, list its
    ``runs``, or watch one with ``run(run_id)``."""

    def __init__(self, client: MastraClient, workflow_id: str) -> None:
        self.client = client
        self.id = workflow_id
        self.path = f"/api/workflows/{workflow_id}"

    def __repr__(self) -> str:
        return f"<Workflow {self.id!r} at {self.client.base_url}>"

    def stream(
        self,
        input_data: Any = None,
        *,
        run_id: str | None = None,
        max_height: str | float | None = DEFAULT_MAX_HEIGHT,
        **options: Any,
    ) -> WorkflowView:
        """Start a run (a new run id unless given) and stream it into a new view."""
        run_id = run_id or str(uuid.uuid4())
        view = WorkflowView(self.client, self.path, title=f"workflow {self.id}")
        view.max_height = css_length(max_height)
        view._cancel_path = f"{self.path}/runs/{run_id}/cancel"
        body = {"inputData": input_data if input_data is not None else {}, **body_options(options)}
        view.run.adopt_run_id(run_id)
        return view.post(f"{self.path}/stream?runId={run_id}", body)

    def runs(self, **filters: Any) -> catalogue.WorkflowRuns:
        """This workflow's runs, by run id, newest first; shown as a table. Filters as Mastra's
        (``status="running"``, ``resource_id=...``, ``page``, ``per_page``) in snake_case."""
        if filters.get("per_page") is not None:  # Mastra's storage pages only when given both
            filters.setdefault("page", 0)
        query = httpx.QueryParams({camel(k): v for k, v in filters.items() if v is not None})
        listed = self.client.get(f"{self.path}/runs" + (f"?{query}" if query else ""))
        runs = listed.get("runs", []) if isinstance(listed, Mapping) else []
        by_id = {str(run.get("runId") or run.get("run_id")): run for run in runs if isinstance(run, Mapping)}
        return catalogue.WorkflowRuns(by_id, f"workflow {self.id}", listed.get("total"))

    def run(self, run_id: str) -> WorkflowRun:
        """An existing run of this workflow (started here or by anyone else), to watch or inspect."""
        return WorkflowRun(self, run_id)


class ObservedView(WorkflowView):
    """A workflow run watched through Mastra's observe stream. Stop stops watching; the run goes on."""

    async def _records(self, records: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        """Observing a running run, Mastra sends what happened so far, then the whole run again from
        its start, live: the second pass is taken only past what the first one held."""
        seen: list[bytes] = []
        replayed: int | None = None  # how far the second pass has repeated the first
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


class WorkflowRun:
    """``client.workflow(id).run(run_id)``: ``view()`` watches it, ``info()`` is the server's record."""

    def __init__(self, workflow: Workflow, run_id: str) -> None:
        self.workflow = workflow
        self.id = run_id
        self.path = f"{workflow.path}/runs/{quote(run_id)}"

    def __repr__(self) -> str:
        return f"<WorkflowRun {self.id!r} of {self.workflow.id!r}>"

    def info(self) -> dict[str, Any]:
        """The server's record of the run: status, result, steps, ... (``GET .../runs/:runId``)."""
        return dict(self.workflow.client.get(self.path))

    def view(self, *, max_height: str | float | None = DEFAULT_MAX_HEIGHT) -> ObservedView:
        """Watch the run (Mastra's observe stream: what it did so far, then live until it ends) in a
        new view. Stop stops watching; the run itself goes on."""
        client, workflow = self.workflow.client, self.workflow
        view = ObservedView(client, workflow.path, title=f"workflow {workflow.id}")
        view.subtitle = f"observing run {self.id}"
        view.max_height = css_length(max_height)
        view.run.adopt_run_id(self.id)
        return view.post(f"{workflow.path}/observe?runId={quote(self.id)}", {})
