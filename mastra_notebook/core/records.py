"""What a Mastra server lists, typed: its agents, workflows, scorers, a workflow's runs, memory
threads, datasets and their experiments. Pure data: no HTTP (the client reads them) and no drawing
(``render/catalogue.py`` draws them).

Each record is a frozen pydantic model that keeps every key the server sent (extra allowed) and reads
what this package uses as typed attributes (``agent.model``, ``workflow.steps``, ``run.status``). It is
also read by the server's own keys, as the JSON it came from (``agent["tools"]``, ``run.get("status")``):
the guide's ``client.agents()["weather"]["tools"]`` keeps working. A value the server sent with an odd
type (a list where a mapping belongs) reads as empty rather than failing the listing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import BeforeValidator, ConfigDict, Field

from .documented import Documented
from .values import json_object

__all__ = [
    "AgentDetails",
    "AgentRecord",
    "DatasetRecord",
    "ExperimentRecord",
    "Record",
    "ScorerRecord",
    "ThreadRecord",
    "WorkflowRecord",
    "WorkflowRunRecord",
    "fields",
    "instructions_text",
    "schema",
]

R = TypeVar("R", bound="Record")


# ---- reading the server's JSON ------------------------------------------------------------------


def mapping(value: Any) -> dict[str, Any]:
    """An entry as a mapping: anything else the server sent reads as empty."""
    return dict(value) if isinstance(value, Mapping) else {}


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _optional_text(value: Any) -> str | None:
    return None if value is None else str(value)


def instructions_text(value: Any) -> str:
    """Instructions as text: a string, a system message, or a list of them."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return instructions_text(value.get("content") if "content" in value else value.get("text"))
    if isinstance(value, list):
        return "\n\n".join(t for t in (instructions_text(item) for item in value) if t)
    return "" if value is None else str(value)


def schema(value: Any) -> dict[str, Any] | None:
    """A JSON schema as Mastra lists it: a string of ``{"json": schema}`` (superjson), or the schema."""
    found = json_object(value)
    inner = found.get("json") if found is not None else None
    return dict(inner) if isinstance(inner, dict) else found


def fields(value: Any) -> str:
    """``city: string, days?: integer``: the top-level fields of a JSON schema."""
    parsed = schema(value)
    properties = parsed.get("properties") if parsed else None
    if not isinstance(properties, Mapping):
        return ""
    required = set(parsed.get("required") or []) if parsed else set()
    out = []
    for name, spec in properties.items():
        kind = spec.get("type", "any") if isinstance(spec, Mapping) else "any"
        kind = "|".join(map(str, kind)) if isinstance(kind, list) else str(kind)
        out.append(f"{name}{'' if name in required else '?'}: {kind}")
    return ", ".join(out)


Entries = Annotated[dict[str, Any], BeforeValidator(mapping)]
Listed = Annotated[list[Any], BeforeValidator(_listed)]
Text = Annotated[str | None, BeforeValidator(_optional_text)]
Instructions = Annotated[str, BeforeValidator(instructions_text)]


# ---- a record ---------------------------------------------------------------------------------------


class Record(Documented):
    """One record of the server: typed attributes, every key it sent kept, readable by those keys."""

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True, protected_namespaces=())
    key: ClassVar[str] = "id"  # the server's key the record is listed by

    @classmethod
    def of(cls: type[R], key: str, entry: Any) -> R:
        """The record listed under ``key`` (an entry that is not a mapping reads as empty)."""
        return cls.model_validate({**mapping(entry), cls.key: key})

    def _sent(self) -> dict[str, str]:
        """The server's keys this record was given, each with its attribute's name."""
        given = self.model_fields_set
        return {
            (field.alias or name): name for name, field in type(self).model_fields.items() if name in given
        }

    def __getitem__(self, key: str) -> Any:
        """The value the server sent under ``key`` (typed as the attribute reads it, when one does);
        KeyError when it sent none, as its JSON would."""
        name = self._sent().get(key)
        if name is not None:
            return getattr(self, name)
        extra = self.__pydantic_extra__ or {}
        if key in extra:
            return extra[key]
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        """The value the server sent under ``key``, or ``default`` when it sent none."""
        try:
            return self[key]
        except KeyError:
            return default

    def keys(self) -> list[str]:
        """The server's keys, those read as attributes first."""
        return [*self._sent(), *(self.__pydantic_extra__ or {})]

    def __contains__(self, key: object) -> bool:
        return key in self.keys()

    def to_dict(self) -> dict[str, Any]:
        """The record as the server's JSON (its own keys)."""
        return {key: self[key] for key in self.keys()}


# ---- agents -----------------------------------------------------------------------------------------


class AgentRecord(Record):
    """An agent as ``GET /api/agents`` lists it."""

    id: str
    """The agent's id (the key it is listed by)."""
    name: Text = None
    """Its name, as the server gives it."""
    description: Text = None
    """What it is for, if the server says."""
    instructions: Instructions = ""
    """Its instructions as text (a system message's, or a list of them joined)."""
    provider: Text = None
    """The model's provider (``openai``, ...)."""
    model_id: Text = Field(None, alias="modelId")
    """The model's id at that provider (``modelId``)."""
    tools: Entries = {}
    """Its tools by name, each as the server describes it (``description``, ``inputSchema``, ...)."""
    agents: Entries = {}
    """Its sub-agents by key (the model calls each as ``agent-<key>``)."""
    workflows: Entries = {}
    """Its workflows by key (the model calls each as ``workflow-<key>``)."""

    @property
    def model(self) -> str:
        """``provider/model`` as the server names it (resolved for a request context, if given one)."""
        return "/".join(part for part in (self.provider, self.model_id) if part)

    @property
    def callable_tools(self) -> list[tuple[str, str, bool]]:
        """``(name, description, needs approval)`` for each tool, sub-agent (``agent-<key>``, as the
        model calls it) and workflow (``workflow-<key>``) of the agent."""
        out: list[tuple[str, str, bool]] = []
        for kind, prefix in (("tools", ""), ("agents", "agent-"), ("workflows", "workflow-")):
            for key, listed in getattr(self, kind).items():
                entry = mapping(listed)
                described = entry.get("description") or (
                    "" if not prefix else f"the {kind[:-1]} {entry.get('name', key)}"
                )
                out.append((f"{prefix}{key}", str(described or ""), bool(entry.get("requireApproval"))))
        return out


class AgentDetails(AgentRecord):
    """One agent in full (``GET /api/agents/:id``): its tools with their schemas, processors and
    default options too; ``memory`` is whether it keeps threads (asked of ``/api/memory/status``:
    ``supportsMemory`` is true for every agent), ``request_context`` what it was resolved for."""

    memory: bool | None = Field(None, exclude=True)
    """Whether it keeps threads (None when the server could not say)."""
    request_context: dict[str, Any] | None = Field(None, exclude=True)
    """The request context its instructions and model were resolved for, if one was given."""
    default_options: Any = Field(None, alias="defaultOptions")
    """The options every run of it starts from (``defaultOptions``)."""
    input_processors: Listed = Field([], alias="inputProcessors")
    """Its input processors (``inputProcessors``)."""
    output_processors: Listed = Field([], alias="outputProcessors")
    """Its output processors (``outputProcessors``)."""


# ---- workflows and their runs --------------------------------------------------------------------


def steps_of(graph: list[Any]) -> list[str]:
    """A workflow's step graph in order, one label per entry: ``a``, ``a (can suspend)``, ``a ∥ b``
    (parallel), ``a | b`` (branches), ``a (loop)``, ``sleep``."""
    lines = []
    for entry in graph:
        if not isinstance(entry, Mapping):
            continue
        kind = entry.get("type")
        inner = [s.get("step", s) for s in entry.get("steps") or [] if isinstance(s, Mapping)]
        step = mapping(entry.get("step"))
        name = str(step.get("id", kind))
        if kind == "parallel":
            lines.append(" ∥ ".join(str(s.get("id", "?")) for s in inner))
        elif kind == "conditional":
            lines.append(" | ".join(str(s.get("id", "?")) for s in inner))
        elif kind in ("loop", "foreach", "dountil", "dowhile"):
            lines.append(f"{name} ({kind})")
        elif kind in ("step", "waitForEvent"):
            lines.append(name + (" (can suspend)" if step.get("canSuspend") else ""))
        else:  # sleep, sleepUntil, ...
            lines.append(str(kind))
    return lines


class WorkflowRecord(Record):
    """A workflow as ``GET /api/workflows`` lists it."""

    id: str
    """The workflow's id (the key it is listed by)."""
    name: Text = None
    """Its name, as the server gives it."""
    description: Text = None
    """What it does, if the server says."""
    step_graph: Listed = Field([], alias="stepGraph")
    """Its steps' graph as the server sends it (``stepGraph``); ``steps`` reads it in order."""
    input_schema: Any = Field(None, alias="inputSchema")
    """Its input's JSON schema (``inputSchema``, often as JSON text); ``input_fields`` reads it."""

    @property
    def steps(self) -> list[str]:
        """Its steps in order (``fetch-forecast``, ``a ∥ b``, ``request (can suspend)``, ...)."""
        return steps_of(self.step_graph)

    @property
    def input_fields(self) -> str:
        """Its input's top-level fields: ``city: string, days?: integer``."""
        return fields(self.input_schema)


class WorkflowRunRecord(Record):
    """A workflow's run as ``GET /api/workflows/:id/runs`` lists it (or ``.../runs/:runId`` gives it)."""

    key: ClassVar[str] = "runId"
    run_id: Text = Field(None, alias="runId")
    """The run's id (``runId``)."""
    snapshot: Any = None
    """The run's state as the server keeps it: a mapping, or its JSON text in some storages."""
    created_at: Any = Field(None, alias="createdAt")
    """When it started (``createdAt``, UTC)."""
    updated_at: Any = Field(None, alias="updatedAt")
    """When it last changed (``updatedAt``, UTC)."""
    resource_id: Text = Field(None, alias="resourceId")
    """Whom it ran for (``resourceId``), if anyone."""

    @property
    def state(self) -> dict[str, Any]:
        """The run's snapshot as a mapping (parsed when the storage kept it as JSON text)."""
        snapshot = self.snapshot
        if isinstance(snapshot, str):
            try:
                snapshot = json.loads(snapshot)
            except ValueError:
                snapshot = None
        return mapping(snapshot)

    @property
    def status(self) -> str:
        """``running``, ``success``, ``failed``, ``suspended``, ... (``?`` when the server does not say)."""
        extra = self.__pydantic_extra__ or {}
        return str(extra.get("status") or self.state.get("status") or "?")

    @property
    def steps(self) -> list[tuple[str, str]]:
        """``(step, status)`` for each step the run reached, in order."""
        context = self.state.get("context")
        if not isinstance(context, Mapping):
            return []
        return [
            (str(k), str(v.get("status", "?")))
            for k, v in context.items()
            if k != "input" and isinstance(v, Mapping)
        ]


# ---- scorers, memory threads, datasets -------------------------------------------------------------


class ScorerRecord(Record):
    """A scorer as ``GET /api/scores/scorers`` lists it: its id is what ``scorers=[...]`` takes."""

    id: str
    """The scorer's id: what ``scorers=[...]`` takes."""
    scorer: Entries = {}
    """The scorer as the server describes it (``config.name``, ``config.description``, ...)."""
    agent_ids: Annotated[list[str], BeforeValidator(lambda v: [str(a) for a in _listed(v)])] = Field(
        [], alias="agentIds"
    )
    """The agents it is attached to (``agentIds``): it scores their every run."""

    @property
    def name(self) -> str:
        """Its name (its id when its config has none)."""
        return str(mapping(self.scorer.get("config")).get("name") or self.id)

    @property
    def description(self) -> str:
        """What it scores, as its config says."""
        return str(mapping(self.scorer.get("config")).get("description") or "")


class ThreadRecord(Record):
    """A stored memory thread, as ``GET /api/memory/threads`` lists it."""

    id: str
    """The thread's id: what ``agent.thread(id)`` and ``agent.chat(thread=...)`` take."""
    title: Text = None
    """Its title, if it has one."""
    resource_id: Text = Field(None, alias="resourceId")
    """Whose it is (``resourceId``)."""
    created_at: Any = Field(None, alias="createdAt")
    """When it began (``createdAt``, UTC)."""
    updated_at: Any = Field(None, alias="updatedAt")
    """When it last changed (``updatedAt``, UTC)."""


class DatasetRecord(Record):
    """A dataset as ``GET /api/datasets`` lists it."""

    id: str
    """The dataset's id."""
    name: Text = None
    """Its name: ``client.dataset(name)`` opens it by it."""
    description: Text = None
    """What it holds, if given."""
    version: Any = None
    """Its version, which each change of its items raises."""
    created_at: Any = Field(None, alias="createdAt")
    """When it was made (``createdAt``, UTC)."""
    updated_at: Any = Field(None, alias="updatedAt")
    """When it last changed (``updatedAt``, UTC)."""


class ExperimentRecord(Record):
    """An experiment run on the server, as ``GET /api/experiments`` (``client.experiments()``) or
    ``GET /api/datasets/:id/experiments`` (``dataset.experiments()``) lists it."""

    id: str
    """The experiment's id: what ``client.experiment(id)`` and ``dataset.compare(a, b)`` take."""
    name: Text = None
    """Its name, if given."""
    dataset_id: Text = Field(None, alias="datasetId")
    """The dataset it runs (``datasetId``)."""
    target_id: Text = Field(None, alias="targetId")
    """The agent it ran (``targetId``)."""
    status: Text = None
    """``pending``, ``running``, ``completed``, ``failed``, ..."""
    succeeded_count: Any = Field(0, alias="succeededCount")
    """How many items ran without an error (``succeededCount``)."""
    failed_count: Any = Field(0, alias="failedCount")
    """How many items failed (``failedCount``)."""
    total_items: Any = Field(None, alias="totalItems")
    """How many items it runs (``totalItems``)."""
    started_at: Any = Field(None, alias="startedAt")
    """When it started (``startedAt``, UTC)."""
