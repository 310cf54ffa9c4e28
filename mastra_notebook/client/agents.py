"""An agent of a Mastra server (``client.agent(id)``), as client-js's ``Agent``: ``stream`` one prompt
into a view (or, with ``view=False``, a bare :class:`~mastra_notebook.runs.stream.RunStream`: no widget
library is imported, for a plain script), ``stream_many`` into a gallery, ``experiment``, ``network``,
``chat``, its memory ``threads``, and ``info()``.

Streams run in the background on the kernel's event loop, so the cell returns at once and a Stop
click is handled. A run is driven by a :class:`~.session.RunSession` attached to its stream.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, overload

from ..core.records import ThreadRecord
from ..render import DEFAULT_MAX_HEIGHT
from ..runs.batch import Batch, Streaming
from ..runs.budget import Budget
from ..runs.stream import RunStream
from . import memory
from .bodies import AGENT_BODY, body_options, checked, chosen_trace_id, messages
from .catalogue import AgentInfo
from .resource import Resource
from .scores import Scoring
from .session import RunSession, new_run
from .tools import DEFAULT_MAX_ROUNDS, ToolSession
from .waiting import answering

if TYPE_CHECKING:
    from pathlib import Path

    from ..runs.experiment import Experiment, StartCell
    from ..widget.conversation import Conversation
    from ..widget.gallery import Gallery
    from ..widget.streamview import StreamView
    from .chat import Chat

__all__ = ["OVERRIDES", "Agent"]
# stream()'s options that override the agent for one run (documented in Agent.stream)
OVERRIDES = ("instructions", "system", "context", "model_settings", "request_context", "model")


class Agent(Resource):
    """An agent of a Mastra server (``client.agent(id)``): ``stream`` one prompt into a view,
    ``stream_many`` prompts into a gallery, ``chat`` turn after turn."""

    route = "agents"

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
        max_cost_usd: float | None = None,
        max_tokens: int | None = None,
        max_seconds: float | None = None,
        **options: Any,
    ) -> Gallery | Batch[RunStream]:
        """Stream many prompts, at most ``concurrency`` at a time, into a gallery of live views
        (``tools``, ``scorers`` and ``renderers`` as for :meth:`stream`, for every prompt),
        ``page_size`` tiles a page (48). ``view=False``: a :class:`~mastra_notebook.runs.batch.Batch`
        of RunStreams, no widget (``wait()``, ``await``, ``results``, ``counts()``, ``stop()``).

        A budget, as for :meth:`experiment`: ``max_cost_usd``, ``max_tokens``, ``max_seconds``. A run
        the transport failed pauses the queue until the server answers again."""
        budget = Budget.of(max_cost_usd, max_tokens, max_seconds)

        def start(prompt: Any, shown: bool) -> tuple[Any, Streaming]:
            # made when its turn comes: no widget per queued prompt
            made, session, path, body = self._session(
                prompt, options, view=shown, tools=tools, tool_timeout=tool_timeout,
                max_tool_rounds=max_tool_rounds, scorers=scorers, renderers=renderers,
            )  # fmt: skip
            return made, session.request(path, body)

        if not view:
            batch: Batch[RunStream] = Batch(concurrency, budget=budget, probe=self.probe)
            for prompt in prompts:
                batch.submit(functools.partial(start, prompt, False), prompt=prompt)
            return batch
        from ..widget.gallery import Gallery

        gallery = Gallery(concurrency, page_size=page_size, budget=budget, probe=self.probe)
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
        folder: str | Path | None = None,
        max_cost_usd: float | None = None,
        max_tokens: int | None = None,
        max_seconds: float | None = None,
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
        widget library is imported; shown later, the grid opens only the runs that ended).
        ``folder``: each run is written there as it ends (recording, scores, labels, its row), so
        that after a crash ``mn.load_experiment(folder)`` shows every run that ended and
        ``.resume(client)`` runs the rest. Unknown agent and Mastra scorer ids are refused here,
        before the first run.

        A budget: ``max_cost_usd`` (USD, from the runs' ``result.cost``), ``max_tokens`` (their
        tokens, nested runs' included), ``max_seconds`` (since the first run started), counted over
        the runs that ended. Once one is reached, the queued runs never start (each ``stopped``, the
        budget its reason: ``exp.resume()`` runs them) and the running ones finish; the grid,
        ``repr`` and ``summary()`` say "stopped by max_cost_usd=0.05 at $0.0612". A run whose cost
        is unknown (a model genai-prices does not price) is not counted as $0: they say the budget
        cannot be checked for it. A run the transport failed (the server down) pauses the queue
        until the server answers again ("waiting for the server"). See
        :class:`~mastra_notebook.runs.experiment.Experiment`."""
        from ..analysis.outcomes import items_of
        from ..runs.experiment import Experiment

        items = items_of(inputs)
        budget = Budget.of(max_cost_usd, max_tokens, max_seconds)  # checked before anything runs
        chosen, start = self.experiment_start(variants, scorers, view=view)
        made = Experiment(items, chosen, start=start, repeats=repeats, concurrency=concurrency, name=name,
                          agent=self.id, scorers=list(scorers), folder=folder, budget=budget,
                          probe=self.probe)  # fmt: skip
        made.agents = self.client.agent  # a pairwise judge named by its agent id is asked here
        made.client = self.client  # a review's labels go to its feedback; to_dataset makes datasets there
        return made

    def probe(self) -> Awaitable[None]:
        """Until this agent's server answers again: a batch's paused queue waits on it."""
        return answering(self.transport)

    def experiment_start(
        self, variants: Mapping[str, Mapping[str, Any]] | None, scorers: Iterable[Any], *, view: bool = True
    ) -> tuple[dict[str, dict[str, Any]], StartCell]:
        """The variants checked (and the agent and scorer ids, on the server) and how one of an
        experiment's cells runs here: what ``experiment`` and ``exp.resume(client)`` run with."""
        from .variants import variant_runs

        return variant_runs(self, variants, scorers, view=view)

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
        view, stream = new_run(True, f"network {self.id}", prompt=prompt_or_messages)
        session = RunSession(self.transport, stream, self.path, "network")
        session.post(f"{self.path}/network", self._body(prompt_or_messages, options))
        return view  # type: ignore[no-any-return]

    @checked(passes_to=stream)
    def chat(self, thread: str | None = None, resource: str | None = None, **options: Any) -> Chat:
        """A conversation (see :class:`~mastra_notebook.client.chat.Chat`): ``chat.send(prompt)``."""
        from .chat import Chat

        return Chat(self, thread=thread, resource=resource, **options)

    def threads(self, resource: str | None = None) -> list[ThreadRecord]:
        """The agent's stored memory threads (of ``resource`` if given), newest first."""
        return memory.threads(self.transport, self.id, resource)

    def thread(self, thread_id: str, resource: str | None = None) -> Conversation:
        """A stored thread's messages, drawn as a read-only conversation."""
        from .chat import stored_thread

        return stored_thread(self.transport, self.id, thread_id, resource)

    def info(self, request_context: Mapping[str, Any] | None = None) -> AgentInfo:
        """This agent in full, shown as a card: model, memory, tools with their descriptions and
        schemas, sub-agents, workflows, processors, default options, the whole instructions. With
        ``request_context``, the instructions and model the server resolves for that context
        (``GET /api/agents/:id?requestContext=<json>``): what ``stream(..., request_context=...)``
        runs with. Raises MastraError when the server cannot say (its memory, as a chat asks it,
        included)."""
        query = {"requestContext": json.dumps(dict(request_context))} if request_context else None
        details = self.transport.call("GET", self.path, params=query)
        has_memory = memory.has_memory(self.transport, self.id)
        return AgentInfo.model_validate(
            {**(details if isinstance(details, Mapping) else {}), "id": self.id, "memory": has_memory,
             "request_context": dict(request_context) if request_context else None}
        )  # fmt: skip

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
        shown, stream = new_run(
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
