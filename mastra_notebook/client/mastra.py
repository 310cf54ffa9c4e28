"""A client for a real Mastra server: agents and workflows streamed into a StreamView (or, with
``view=False``, into a bare :class:`~mastra_notebook.runs.stream.RunStream`: no widget library is
imported, for a plain script).

Streams run in the background on the kernel's event loop, so the cell returns at once and a Stop
click is handled. Every request goes through the client's one :class:`~.transport.Transport`; a
run is driven by a :class:`~.session.RunSession` attached to its stream, which a view shows.
"""

from __future__ import annotations

import functools
import json
import os
import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal, overload
from urllib.parse import quote, urlencode

from ..render import DEFAULT_MAX_HEIGHT
from ..render.renderers import drawer
from ..runs.batch import Batch, Streaming
from ..runs.stream import RunStream
from . import catalogue, memory
from .bodies import AGENT_BODY, WORKFLOW_BODY, body_options, camel, checked, chosen_trace_id, messages
from .datasets import Dataset, Datasets, create_dataset, list_datasets, open_dataset
from .feedback import MastraFeedback
from .scores import KnownScorers, Scoring
from .session import Kind, RunSession
from .tools import DEFAULT_MAX_ROUNDS, ToolSession
from .transport import DEFAULT_TIMEOUT, Retry, Timeout, Transport, Wire

if TYPE_CHECKING:
    from ..runs.experiment import Experiment
    from ..widget.conversation import Conversation
    from ..widget.gallery import Gallery
    from ..widget.streamview import StreamView
    from .chat import Chat

__all__ = ["Agent", "MastraClient", "Workflow", "WorkflowRun", "body_options", "camel", "messages"]
# stream()'s options that override the agent for one run (documented in Agent.stream)
OVERRIDES = ("instructions", "system", "context", "model_settings", "request_context", "model")
DEFAULT_BASE_URL = "http://localhost:4111"


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
        timeout: float | Timeout = DEFAULT_TIMEOUT,
        *,
        token: str | None = None,
        retries: int = 3,
        backoff_ms: float = 300,
        max_backoff_ms: float = 5000,
        wire: Wire | None = None,
    ) -> None:
        self.transport = Transport(
            base_url or os.environ.get("MASTRA_BASE_URL") or DEFAULT_BASE_URL,
            headers=headers,
            token=token,
            timeout=timeout,
            retry=Retry(retries, backoff_ms, max_backoff_ms),
            wire=wire,
        )
        self.base_url = self.transport.base_url
        self.known_scorers = KnownScorers(self.transport)  # the server's scorer ids, read once

    def __repr__(self) -> str:
        return f"MastraClient({self.base_url!r})"

    @property
    def auth(self) -> Any:
        """How requests are signed (a bearer token or HTTP Basic; its repr hides the secret), or None."""
        return self.transport.auth

    @property
    def headers(self) -> dict[str, str]:
        """The headers sent with every request."""
        return self.transport.headers

    def get(self, path: str) -> Any:
        """A synchronous GET of a JSON API path (``/api/agents``), retried as streams are; raises
        MastraError (``GET /api/x answered HTTP 404: ...``) when it fails."""
        return self.transport.call("GET", path)

    def agents(self) -> catalogue.Agents:
        """The server's agents, by id; shown as a table (id, name, model, tools, instructions)."""
        return catalogue.Agents(self.get("/api/agents"), self.base_url)

    def workflows(self) -> catalogue.Workflows:
        """The server's workflows, by id; shown as a table (id, name, steps, input, description)."""
        return catalogue.Workflows(self.get("/api/workflows"), self.base_url)

    def scorers(self) -> catalogue.Scorers:
        """The server's scorers, by id (the ids ``agent.stream(..., scorers=[...])`` takes); shown as a
        table (id, name, the agents they are attached to, description)."""
        listed = self.get("/api/scores/scorers")
        self.known_scorers.remember(listed)
        return catalogue.Scorers(listed, self.base_url)

    def datasets(self) -> Datasets:
        """The server's datasets, by id; shown as a table (``.to_dataframe()``)."""
        return list_datasets(self.transport)

    def create_dataset(self, name: str, items: Any = None, description: str | None = None) -> Dataset:
        """A new Mastra dataset with ``items``: a DataFrame (``input``, and ``expected``: Mastra's
        ground truth) or a list of inputs or of ``{"input", "expected"}``."""
        return create_dataset(self.transport, self.known_scorers, name, items, description)

    def dataset(self, name_or_id: str) -> Dataset:
        """The dataset with this id or name: ``items``, ``add(items)``, ``experiment(agent=...,
        scorers=[...])`` run on the server, ``compare(a, b)``."""
        return open_dataset(self.transport, self.known_scorers, name_or_id)

    def feedback(self, trace_id: str, run_id: str | None = None) -> MastraFeedback:
        """Where a run's labels go on this server: Mastra's feedback route, with the run's trace id
        (a saved run's, labelled after it was reopened: ``mn.load_experiment(folder, client)``)."""
        return MastraFeedback(self.transport, trace_id, lambda: run_id)

    def agent(self, agent_id: str) -> Agent:
        """The agent ``agent_id`` of this server: ``stream(prompt)``, ``stream_many(prompts)``, ``chat()``."""
        return Agent(self, agent_id)

    def workflow(self, workflow_id: str) -> Workflow:
        """The workflow ``workflow_id`` of this server: ``stream(input)``, ``runs()``, ``run(run_id)``."""
        return Workflow(self, workflow_id)


class _OnServer:
    """An agent or a workflow of a server: its id, its API path, and the client that reaches it."""

    _route: ClassVar[str]  # its collection under /api/

    def __init__(self, client: MastraClient, name: str) -> None:
        self.client = client
        self.transport = client.transport
        self.id = name
        self.path = f"/api/{self._route}/{name}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r} at {self.client.base_url}>"


class Agent(_OnServer):
    """An agent of a Mastra server (``client.agent(id)``): ``stream`` one prompt into a view,
    ``stream_many`` prompts into a gallery, ``chat`` turn after turn."""

    _route = "agents"

    @overload
    def stream(
        self, prompt_or_messages: Any, *, view: Literal[True] = True, **options: Any
    ) -> StreamView: ...

    @overload
    def stream(self, prompt_or_messages: Any, *, view: Literal[False], **options: Any) -> RunStream: ...

    @checked(AGENT_BODY)
    def stream(
        self,
        prompt_or_messages: Any,
        *,
        view: bool = True,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        tool_timeout: float | None = None,
        max_tool_rounds: int = DEFAULT_MAX_ROUNDS,
        max_height: str | float | None = DEFAULT_MAX_HEIGHT,
        scorers: Iterable[Any] = (),
        renderers: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> StreamView | RunStream:
        """Stream the agent's answer into a new view (returns at once; ``await`` it or ``.wait()``;
        ``view.approve()``, ``decline()``, ``resume()`` continue the run; ``view.trace()`` reads
        Mastra's trace of it).

        ``view=False``: no view, a :class:`~mastra_notebook.runs.stream.RunStream` of the run (the
        same ``result``, ``wait()``, ``await``, ``stop()``, ``approve()``, ``label()``, ``save()``),
        for a plain script: no widget library is imported.

        Other keyword options go as Mastra's body fields, snake_case to camelCase (``max_steps`` ->
        ``maxSteps``): those of ``bodies.AGENT_BODY``. An option neither here nor there raises
        ``UnknownOption`` (a TypeError) before anything is sent, naming the closest one (Mastra
        would ignore it silently); a body field this package does not know yet goes in
        ``extra_body={"fieldName": ...}``, sent as given.

        These override the agent for this run only, on purpose: the run keeps them
        (``result.overrides``), its header says the instructions were overridden, and each shows in
        what the model was given (``result.steps[i].request``):

        - ``instructions``: replaces the agent's instructions (a string, a list of them, or a system
          message): ``request.system``;
        - ``system``: a system message added to them: ``request.system`` too;
        - ``context``: messages (``[{"role": ..., "content": ...}]``) put before the prompt:
          ``request.messages``;
        - ``model_settings``: the model call's settings (``{"temperature": 0.2,
          "max_output_tokens": 200}``, keys in snake_case or camelCase): ``request.settings``;
        - ``request_context``: Mastra's request context (``{"style": "pirate"}``), which instructions,
          models and tools that are functions of it read: ``agent.info(request_context=...)`` shows
          what it resolves to;
        - ``model``: ``"provider/model"`` through Mastra's model router: ``request.settings.model``.
          The server needs that provider's API key; without it the run ends with Mastra's message.

        Every request of the run names one trace (``tracingOptions.traceId``: ``result.trace_id``);
        ``tracing_options={"trace_id": ...}`` chooses the id (32 lowercase hex digits).

        ``tools``: Python functions the agent may call (``[fn, ...]``, ``{name: fn}``, ``mn.tool(...)``),
        run in the kernel (``tool_timeout`` seconds at most each; ``max_tool_rounds`` model steps that
        end in them) with their results fed into this same run. ``max_height``: the view's own
        height limit, not a Mastra option.

        ``scorers``: Mastra scorer ids (``client.scorers()`` lists them; they replace the agent's own
        scorers for this run) and Python scorers (``fn(result, *, input=None, expected=None)`` returning
        a float, a bool or a ``mn.Score``; ``mn.scorer(fn, threshold=...)``). An unknown id ends the
        run before it is posted. After the stream the view says "scoring…" until Mastra's scores are
        read and the Python scorers ran: ``result.scores``, ``result.score(name)``. Without
        ``scorers``, the scores of the scorers the server attached to the agent (those that score
        every run) are read the same way.

        ``renderers``: ``{tool name: fn}``, each ``fn(result)`` drawing that tool's JSON result as
        data in this view (a DataFrame, a figure...), before those of ``mn.renderer``.
        """
        shown, session, path, body = self._session(
            prompt_or_messages, options, view=view, tools=tools, tool_timeout=tool_timeout,
            max_tool_rounds=max_tool_rounds, max_height=max_height, scorers=scorers, renderers=renderers,
        )  # fmt: skip
        session.post(path, body)
        return shown  # type: ignore[no-any-return]

    @overload
    def stream_many(
        self, prompts: Iterable[Any], *, view: Literal[True] = True, **options: Any
    ) -> Gallery: ...

    @overload
    def stream_many(
        self, prompts: Iterable[Any], *, view: Literal[False], **options: Any
    ) -> Batch[RunStream]: ...

    @checked(AGENT_BODY)
    def stream_many(
        self,
        prompts: Iterable[Any],
        *,
        view: bool = True,
        concurrency: int = 4,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        tool_timeout: float | None = None,
        max_tool_rounds: int = DEFAULT_MAX_ROUNDS,
        page_size: int | None = None,
        scorers: Iterable[Any] = (),
        renderers: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> Gallery | Batch[RunStream]:
        """Stream many prompts, at most ``concurrency`` at a time, into a gallery of live views
        (``tools``, ``scorers`` and ``renderers`` as for :meth:`stream`, for every prompt),
        ``page_size`` tiles a page (48). ``view=False``: a :class:`~mastra_notebook.runs.batch.Batch`
        of RunStreams, no widget (``wait()``, ``await``, ``results``, ``counts()``, ``stop()``)."""

        def start(prompt: Any, shown: bool) -> tuple[Any, Streaming]:
            # made when its turn comes: no widget per queued prompt
            made, session, path, body = self._session(
                prompt, options, view=shown, tools=tools, tool_timeout=tool_timeout,
                max_tool_rounds=max_tool_rounds, scorers=scorers, renderers=renderers,
            )  # fmt: skip
            return made, session.request(path, body)

        if not view:
            batch: Batch[RunStream] = Batch(concurrency)
            for prompt in prompts:
                batch.submit(functools.partial(start, prompt, False), prompt=prompt)
            return batch
        from ..widget.gallery import Gallery

        gallery = Gallery(concurrency, page_size=page_size)
        for prompt in prompts:
            gallery.submit(functools.partial(start, prompt, True), prompt=prompt, title=f"agent {self.id}")
        return gallery

    @checked()
    def experiment(
        self,
        inputs: Any,
        variants: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        scorers: Iterable[Any] = (),
        repeats: int = 1,
        concurrency: int = 8,
        name: str | None = None,
        view: bool = True,
    ) -> Experiment:
        """Run every input with every variant, ``repeats`` times, ``concurrency`` runs at a time,
        scored by ``scorers`` (as for :meth:`stream`; Python scorers get ``input=`` and
        ``expected=``). Shown, a live grid (inputs are rows, variants columns) with the summary.

        ``inputs``: a list of prompts, a DataFrame (``input``, and ``expected`` when present), or a
        dataset (``.items`` with ``.input`` and ``.expected``). ``variants``: a name for each
        variant's :meth:`stream` options (``instructions``, ``model_settings``, ``model``,
        ``request_context``, ``tools``, ``scorers``, ...), plus ``agent=`` another agent's id and
        ``prompt=`` a template with ``{input}`` or a function of the input; None is one variant,
        ``baseline``. ``view=False``: each run a bare RunStream, no widget (a plain script: no
        widget library is imported; shown later, the grid opens only the runs that ended). See
        :class:`~mastra_notebook.runs.experiment.Experiment`."""
        from ..analysis.experiment import items_of
        from ..runs.experiment import Experiment
        from .experiment import variant_runs

        items = items_of(inputs)
        chosen, start = variant_runs(self, variants, scorers, view=view)
        made = Experiment(items, chosen, start=start, repeats=repeats, concurrency=concurrency, name=name,
                          agent=self.id)  # fmt: skip
        made.agents = self.client.agent  # a pairwise judge named by its agent id is asked here
        made.client = self.client  # a review's labels go to its feedback; to_dataset makes datasets there
        return made

    @checked(AGENT_BODY)
    def prepare(
        self,
        prompt_or_messages: Any,
        *,
        input: Any = None,
        expected: Any = None,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        tool_timeout: float | None = None,
        max_tool_rounds: int = DEFAULT_MAX_ROUNDS,
        scorers: Iterable[Any] = (),
        renderers: Mapping[str, Any] | None = None,
        view: bool = True,
        **options: Any,
    ) -> tuple[StreamView | RunStream, Streaming]:
        """A run made, not started: its view (its bare RunStream when not ``view``) and the work that
        streams into it (a batch starts it when its turn comes). Options as for :meth:`stream`; the
        Python scorers get ``input`` (the prompt when None) and ``expected``."""
        made, session, path, body = self._session(
            prompt_or_messages, options, view=view, tools=tools, tool_timeout=tool_timeout,
            max_tool_rounds=max_tool_rounds, scorers=scorers, renderers=renderers,
            scored=(prompt_or_messages if input is None else input, expected),
        )  # fmt: skip
        return made, session.request(path, body)

    def network(self, prompt_or_messages: Any, **options: Any) -> StreamView:
        """Run the agent as a network (``/network``), streamed into a new view; its approvals are
        answered with ``view.approve()`` and ``view.decline()`` (a network cannot be resumed)."""
        view, stream = _made(True, f"network {self.id}", prompt=prompt_or_messages)
        session = RunSession(self.transport, stream, self.path, "network")
        session.post(f"{self.path}/network", self._body(prompt_or_messages, options))
        return view  # type: ignore[no-any-return]

    @checked(passes_to=stream)
    def chat(self, thread: str | None = None, resource: str | None = None, **options: Any) -> Chat:
        """A conversation (see :class:`~mastra_notebook.client.chat.Chat`): ``chat.send(prompt)``."""
        from .chat import Chat

        return Chat(self, thread=thread, resource=resource, **options)

    def threads(self, resource: str | None = None) -> list[dict[str, Any]]:
        """The agent's stored memory threads (of ``resource`` if given), newest first."""
        return memory.threads(self.transport, self.id, resource)

    def thread(self, thread_id: str, resource: str | None = None) -> Conversation:
        """A stored thread's messages, drawn as a read-only conversation."""
        from .chat import stored_thread

        return stored_thread(self.transport, self.id, thread_id, resource)

    def info(self, request_context: Mapping[str, Any] | None = None) -> catalogue.AgentInfo:
        """This agent in full, shown as a card: model, memory, tools with their descriptions and
        schemas, sub-agents, workflows, processors, default options, the whole instructions. With
        ``request_context``, the instructions and model the server resolves for that context
        (``GET /api/agents/:id?requestContext=<json>``): what ``stream(..., request_context=...)``
        runs with. Raises MastraError when the server cannot say (its memory, as a chat asks it,
        included)."""
        query = {"requestContext": json.dumps(dict(request_context))} if request_context else None
        details = self.transport.call("GET", self.path, params=query)
        has_memory = memory.has_memory(self.transport, self.id)
        return catalogue.AgentInfo(self.id, details, has_memory, request_context)

    def _session(
        self,
        prompt: Any,
        options: Mapping[str, Any],
        *,
        view: bool = True,
        tools: Iterable[Any] | Mapping[str, Any] | None,
        tool_timeout: float | None,
        max_tool_rounds: int,
        max_height: str | float | None = DEFAULT_MAX_HEIGHT,
        renderers: Mapping[str, Any] | None = None,
        scorers: Iterable[Any] = (),
        scored: tuple[Any, Any] | None = None,
    ) -> tuple[Any, RunSession, str, dict[str, Any]]:
        """A new view of one prompt's run (its bare stream when not ``view``), its session, and what
        to post (``scored``: the input and expected answer the Python scorers get, when not the
        prompt and None)."""
        shown, stream = _made(
            view, f"agent {self.id}", prompt=prompt, max_height=max_height, renderers=renderers
        )
        path, body = f"{self.path}/stream", self._body(prompt, options)
        given, expected = scored if scored is not None else (prompt, None)
        scoring = Scoring.make(  # no scorers given: the scores of the agent's own, when it has some
            self.transport, self.client.known_scorers, scorers, agent=self.id, input=given, expected=expected
        )
        if scoring is not None:
            body = scoring.body(body)
        client_tools = None
        if tools is not None:
            client_tools, body = ToolSession.make(
                tools, body, path, timeout=tool_timeout, max_rounds=max_tool_rounds
            )
        overrides = {name: options[name] for name in OVERRIDES if name in options}
        session = RunSession(
            self.transport, stream, self.path, "agent", tools=client_tools, overrides=overrides,
            trace_id=chosen_trace_id(body), scoring=scoring,
        )  # fmt: skip
        return shown, session, path, body

    def _body(self, prompt: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"messages": messages(prompt), **body_options(options)}


class Workflow(_OnServer):
    """A workflow of a Mastra server (``client.workflow(id)``): ``stream`` a run into a view, list its
    ``runs``, or watch one with ``run(run_id)``."""

    _route = "workflows"

    @checked(WORKFLOW_BODY)
    def stream(
        self,
        input_data: Any = None,
        *,
        run_id: str | None = None,
        max_height: str | float | None = DEFAULT_MAX_HEIGHT,
        **options: Any,
    ) -> StreamView:
        """Start a run (a new run id unless given) and stream it into a new view: a suspended step
        is resumed with ``view.resume(resume_data, step=None)``; Stop cancels the run on the server."""
        run_id = run_id or str(uuid.uuid4())
        cancel = f"{self.path}/runs/{quote(run_id)}/cancel"
        view, session = _workflow_session(self, "workflow", max_height, run_id, cancel)
        body = {"inputData": input_data if input_data is not None else {}, **body_options(options)}
        session.post(f"{self.path}/stream?{urlencode({'runId': run_id})}", body)
        return view

    def runs(self, **filters: Any) -> catalogue.WorkflowRuns:
        """This workflow's runs, by run id, newest first; shown as a table. Filters as Mastra's
        (``status="running"``, ``resource_id=...``, ``page``, ``per_page``) in snake_case."""
        if filters.get("per_page") is not None:  # Mastra's storage pages only when given both
            filters.setdefault("page", 0)
        query = {camel(k): v for k, v in filters.items() if v is not None}
        listed = self.client.transport.call("GET", f"{self.path}/runs", params=query)
        runs = listed.get("runs", []) if isinstance(listed, Mapping) else []
        by_id = {str(run.get("runId") or run.get("run_id")): run for run in runs if isinstance(run, Mapping)}
        total = listed.get("total") if isinstance(listed, Mapping) else None
        return catalogue.WorkflowRuns(by_id, f"workflow {self.id}", total)

    def run(self, run_id: str) -> WorkflowRun:
        """An existing run of this workflow (started here or by anyone else), to watch or inspect."""
        return WorkflowRun(self, run_id)


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

    def view(self, *, max_height: str | float | None = DEFAULT_MAX_HEIGHT) -> StreamView:
        """Watch the run (Mastra's observe stream: what it did so far, then live until it ends) in a
        new view. Stop stops watching; the run itself goes on."""
        view, session = _workflow_session(self.workflow, "observed", max_height, self.id)
        view.subtitle = f"observing run {self.id}"
        session.post(f"{self.workflow.path}/observe?{urlencode({'runId': self.id})}", {})
        return view


def _workflow_session(
    workflow: Workflow,
    kind: Kind,
    max_height: str | float | None,
    run_id: str,
    cancel_path: str | None = None,
) -> tuple[StreamView, RunSession]:
    """A new view of a workflow's run ``run_id`` (known before any chunk), and its session."""
    view, stream = _made(True, f"workflow {workflow.id}", max_height=max_height)
    stream.run.adopt_run_id(run_id)
    return view, RunSession(workflow.client.transport, stream, workflow.path, kind, cancel_path=cancel_path)


def _made(
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
