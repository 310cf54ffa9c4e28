"""What a Mastra server offers, as tables: its agents, its workflows, one agent in full, a workflow's runs.

Each is the server's own JSON kept as a mapping by id (``client.agents()["weather"]["tools"]``), that
displays as a table in a notebook and as a few short lines in a terminal. The table is data (render/views.py)
drawn by the one renderer: everything the server sent is text, and every label sits in ``<bdi dir=auto>``,
so a name in another script (or a hostile one with bidi controls) cannot reorder the row around it; the
one palette styles it, colours inherited from the notebook's theme, so light and dark themes both read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..core.values import json_object
from ..render import views
from ..render.views import DASH, Inline

EXCERPT = 160  # characters of instructions or a description shown in a table cell
MAX_LISTED = 12  # tools or steps listed in one cell; the rest counted


# ---- reading the server's JSON ------------------------------------------------------------------


def _mapping(value: Any) -> Mapping[str, Any]:
    """An entry as a mapping: anything else the server sent reads as empty."""
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str:
    """Instructions as text: a string, a system message, or a list of them."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return _text(value.get("content") if "content" in value else value.get("text"))
    if isinstance(value, list):
        return "\n\n".join(t for t in (_text(item) for item in value) if t)
    return "" if value is None else str(value)


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` on one line, cut at ``limit`` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


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


def model_of(agent: Mapping[str, Any]) -> str:
    """``provider/model`` as the server names it."""
    provider, model = agent.get("provider"), agent.get("modelId")
    return "/".join(str(part) for part in (provider, model) if part)


def tools_of(agent: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """``(name, description, needs approval)`` for each tool, sub-agent (``agent-<key>``, as the model
    calls it) and workflow (``workflow-<key>``) of an agent."""
    out: list[tuple[str, str, bool]] = []
    for kind, label in (("tools", ""), ("agents", "agent-"), ("workflows", "workflow-")):
        entries = agent.get(kind)
        if not isinstance(entries, Mapping):
            continue
        for key, listed in entries.items():
            entry = _mapping(listed)
            described = entry.get("description") or (
                "" if not label else f"the {kind[:-1]} {entry.get('name', key)}"
            )
            out.append((f"{label}{key}", str(described or ""), bool(entry.get("requireApproval"))))
    return out


def steps_of(graph: Any) -> list[str]:
    """A workflow's step graph in order, one label per entry: ``a``, ``a (can suspend)``, ``a ∥ b``
    (parallel), ``a | b`` (branches), ``a (loop)``, ``sleep``."""
    labels = []
    for entry in graph if isinstance(graph, list) else []:
        if not isinstance(entry, Mapping):
            continue
        kind = entry.get("type")
        inner = [s.get("step", s) for s in entry.get("steps") or [] if isinstance(s, Mapping)]
        step = _mapping(entry.get("step"))
        name = str(step.get("id", kind))
        if kind == "parallel":
            labels.append(" ∥ ".join(str(s.get("id", "?")) for s in inner))
        elif kind == "conditional":
            labels.append(" | ".join(str(s.get("id", "?")) for s in inner))
        elif kind in ("loop", "foreach", "dountil", "dowhile"):
            labels.append(f"{name} ({kind})")
        elif kind in ("step", "waitForEvent"):
            labels.append(name + (" (can suspend)" if step.get("canSuspend") else ""))
        else:  # sleep, sleepUntil, ...
            labels.append(str(kind))
    return labels


# ---- the tables' pieces (drawn by the one renderer: render/views.py) -------------------------------


def _label(text: Any) -> Inline:
    """An untrusted label, isolated."""
    return views.label(text)


def _shown(text: Any) -> Inline:
    """A label, or a muted dash when there is nothing to show."""
    return _label(text) if text else _empty()


def _code(text: Any) -> Inline:
    return views.code(views.label(text))


def _muted(body: Inline) -> Inline:
    return views.muted(body)


def _table(heads: Iterable[str] | None, rows: Iterable[Iterable[Inline]], kind: str) -> Inline:
    """A table; without ``heads``, rows of facts whose first cell names the second."""
    return views.table(list(heads or ()), [list(row) for row in rows], cls="mn-catalogue", kind=kind)


def _caption(body: Inline) -> Inline:
    return views.block(body, "mn-caption")


def _listed(items: list[Inline]) -> Inline:
    shown = items[:MAX_LISTED]
    more = len(items) - len(shown)
    return views.lines(shown, f"+{more} more" if more > 0 else "")


def _tool_line(name: str, description: str, approval: bool) -> Inline:
    line: list[Inline] = [_code(name)]
    if approval:
        line += [" ", _muted("(needs approval)")]
    if description:
        line += [" ", _muted(["— ", _label(excerpt(description, 90))])]
    return line


def _json_block(value: Any) -> Inline:
    return views.pre(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _empty() -> Inline:
    return _muted(DASH)


# ---- the mappings ---------------------------------------------------------------------------------


class Catalogue(dict[str, Any]):
    """Entries by id, as the server listed them, shown as a table; ``source`` says where from."""

    noun = "entries"

    def __init__(self, entries: Mapping[str, Any], source: str = "") -> None:
        super().__init__(entries)
        self.source = source

    def _rows(self) -> list[list[Inline]]:
        return [self._row(entry_id, _mapping(listed)) for entry_id, listed in self.items()]

    def _row(self, entry_id: str, entry: Mapping[str, Any]) -> list[Inline]:
        """One entry's cells, in the order of ``heads``."""
        raise NotImplementedError

    heads: tuple[str, ...] = ()

    def _shown_table(self) -> Inline:
        """The caption (how many, from where) and the table."""
        where: list[Inline] = [" at ", _label(self.source)] if self.source else []
        caption = _caption([f"{len(self)} {self.noun if len(self) != 1 else self.noun[:-1]}", *where])
        return [caption, _table(self.heads, self._rows(), self.noun)]

    def _repr_html_(self) -> str:
        return views.draw(self._shown_table())

    def _lines(self) -> list[str]:
        raise NotImplementedError

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """A few short lines in a terminal (the whole JSON stays one ``dict(...)`` away)."""
        where = f" at {self.source}" if self.source else ""
        printer.text("\n".join([f"{len(self)} {self.noun}{where}:", *self._lines()]))


class Agents(Catalogue):
    """``client.agents()``: the server's agents by id (``GET /api/agents``)."""

    noun = "agents"
    heads = ("id", "name", "model", "tools", "instructions")

    def _row(self, agent_id: str, agent: Mapping[str, Any]) -> list[Inline]:
        tools = [_tool_line(*tool) for tool in tools_of(agent)]
        name = _label(agent.get("name", agent_id))
        if agent.get("description"):
            name = views.lines([name, _muted(_label(excerpt(str(agent["description"]), 90)))])
        instructions = excerpt(_text(agent.get("instructions")))
        return [
            _code(agent_id),
            name,
            _shown(model_of(agent)),
            _listed(tools) if tools else _empty(),
            _shown(instructions),
        ]

    def _lines(self) -> list[str]:
        lines = []
        for agent_id, listed in self.items():
            agent = _mapping(listed)
            tools = ", ".join(name for name, _, _ in tools_of(agent)) or "no tools"
            lines.append(f"  {agent_id}  ({model_of(agent) or 'model ?'}; {tools})")
        return lines


class Workflows(Catalogue):
    """``client.workflows()``: the server's workflows by id (``GET /api/workflows``)."""

    noun = "workflows"
    heads = ("id", "name", "steps", "input", "description")

    def _row(self, workflow_id: str, workflow: Mapping[str, Any]) -> list[Inline]:
        steps: list[Inline] = [_label(step) for step in steps_of(workflow.get("stepGraph"))]
        described = excerpt(str(workflow.get("description") or ""))
        return [
            _code(workflow_id),
            _label(workflow.get("name", workflow_id)),
            views.joined(steps, " → ") if steps else _empty(),
            _shown(fields(workflow.get("inputSchema"))),
            _shown(described),
        ]

    def _lines(self) -> list[str]:
        return [
            f"  {workflow_id}  ({' → '.join(steps_of(w.get('stepGraph'))) if isinstance(w, Mapping) else ''})"
            for workflow_id, w in self.items()
        ]


class Scorers(Catalogue):
    """``client.scorers()``: the server's scorers by id (``GET /api/scores/scorers``), the ids that
    ``agent.stream(..., scorers=[...])`` takes."""

    noun = "scorers"
    heads = ("id", "name", "agents", "description")

    def _row(self, scorer_id: str, entry: Mapping[str, Any]) -> list[Inline]:
        config = _mapping(_mapping(entry.get("scorer")).get("config"))
        agents: list[Inline] = [_code(agent) for agent in entry.get("agentIds") or ()]
        return [
            _code(scorer_id),
            _label(config.get("name", scorer_id)),
            _listed(agents) if agents else _empty(),
            _shown(excerpt(str(config.get("description") or ""))),
        ]

    def _lines(self) -> list[str]:
        return [
            f"  {scorer_id}  ({_mapping(_mapping(_mapping(s).get('scorer')).get('config')).get('name', '')})"
            for scorer_id, s in self.items()
        ]


class AgentInfo(dict[str, Any]):
    """``client.agent(id).info()``: one agent in full (``GET /api/agents/:id``), shown as a card:
    model, memory, every tool with its description and input schema, sub-agents, workflows,
    processors, default options and the whole instructions. With a ``request_context``, the
    instructions and model are those the server resolves for it (``.instructions``, ``.model``)."""

    def __init__(
        self,
        agent_id: str,
        details: Mapping[str, Any],
        memory: bool | None = None,
        request_context: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(details)
        self.id = agent_id
        self.memory = memory  # from /api/memory/status (supportsMemory is true for every agent)
        self.request_context = dict(request_context) if request_context else None

    @property
    def instructions(self) -> str:
        """The agent's instructions as the server resolved them (for ``request_context``, if given)."""
        return _text(self.get("instructions"))

    @property
    def model(self) -> str:
        """``provider/model`` as the server resolved it (for ``request_context``, if given)."""
        return model_of(self)

    def _repr_html_(self) -> str:
        facts: list[tuple[str, Inline]] = [
            ("name", _label(self.get("name", self.id))),
            ("description", _shown(self.get("description"))),
            ("model", _shown(model_of(self))),
            ("memory", {True: "yes", False: "no", None: _empty()}[self.memory]),
        ]
        if self.request_context is not None:  # what the model and instructions were resolved for
            facts.append(("request context", _json_block(self.request_context)))
        for kind, label in (
            ("inputProcessors", "input processors"),
            ("outputProcessors", "output processors"),
        ):
            entries = self.get(kind) or []
            names = [
                _code(p.get("name") or p.get("id")) if isinstance(p, Mapping) else _code(p) for p in entries
            ]
            if names:
                facts.append((label, views.joined(names, ", ")))
        card: list[Inline] = [
            _caption(["agent ", _code(self.id)]),
            _table(None, [[_muted(k), v] for k, v in facts], "agent"),
        ]
        tools: list[list[Inline]] = []
        for name, listed in _mapping(self.get("tools")).items():
            tool = _mapping(listed)
            parsed = schema(tool.get("inputSchema"))
            full: list[Inline] = [views.details("schema", _json_block(parsed))] if parsed else []
            approval: list[Inline] = [" ", _muted("(needs approval)")] if tool.get("requireApproval") else []
            tools.append(
                [
                    [_code(name), *approval],
                    _shown(tool.get("description")),
                    [_shown(fields(parsed)), *full],
                ]
            )
        for name, described, _ in tools_of({k: self.get(k) for k in ("agents", "workflows")}):
            tools.append([_code(name), _label(described), _empty()])
        card.append(_caption(f"{len(tools)} tool{'s' if len(tools) != 1 else ''}"))
        if tools:
            card.append(_table(("tool", "description", "input"), tools, "tools"))
        if self.get("defaultOptions"):
            card += [_caption("default options"), _json_block(self["defaultOptions"])]
        instructions = _text(self.get("instructions"))
        card.append(
            _caption("instructions" + (" (for this request context)" if self.request_context else ""))
        )
        card.append(views.pre(instructions, isolated=True) if instructions else _empty())
        return views.draw(card, "mn-agent-info")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        tools = ", ".join(name for name, _, _ in tools_of(self)) or "no tools"
        instructions = excerpt(_text(self.get("instructions")))
        printer.text(f"agent {self.id} ({model_of(self) or 'model ?'}; {tools})\n  {instructions}")


def _snapshot(run: Mapping[str, Any]) -> Mapping[str, Any]:
    snapshot = run.get("snapshot")
    if isinstance(snapshot, str):  # some storages keep it as JSON text
        try:
            snapshot = json.loads(snapshot)
        except ValueError:
            snapshot = None
    return snapshot if isinstance(snapshot, Mapping) else {}


def _when(value: Any) -> Any:
    """An ISO time as ``2026-12-01 10:52:40`` (UTC, as Mastra stores it); anything else as given."""
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", value):
        return value[:19].replace("T", " ")
    return value


def run_status(run: Mapping[str, Any]) -> str:
    return str(run.get("status") or _snapshot(run).get("status") or "?")


def run_steps(run: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(step, status)`` for each step the run reached, in order."""
    context = _snapshot(run).get("context")
    if not isinstance(context, Mapping):
        return []
    return [
        (str(k), str(v.get("status", "?")))
        for k, v in context.items()
        if k != "input" and isinstance(v, Mapping)
    ]


class WorkflowRuns(Catalogue):
    """``client.workflow(id).runs()``: a workflow's runs by run id, newest first
    (``GET /api/workflows/:id/runs``); ``total`` is the server's count."""

    noun = "runs"
    heads = ("run id", "status", "steps", "created (UTC)", "updated (UTC)", "resource")

    def __init__(self, entries: Mapping[str, Any], source: str = "", total: int | None = None) -> None:
        super().__init__(entries, source)
        self.total = len(self) if total is None else total

    def _row(self, run_id: str, run: Mapping[str, Any]) -> list[Inline]:
        steps: list[Inline] = [[_label(step), " ", _muted(_label(status))] for step, status in run_steps(run)]
        return [
            _code(run_id),
            _label(run_status(run)),
            _listed(steps) if steps else _empty(),
            _shown(_when(run.get("createdAt"))),
            _shown(_when(run.get("updatedAt"))),
            _shown(run.get("resourceId")),
        ]

    def _lines(self) -> list[str]:
        return [f"  {run_id}  {run_status(run)}" for run_id, run in self.items() if isinstance(run, Mapping)]
