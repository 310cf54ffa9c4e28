"""What a Mastra server lists, drawn: tables of agents, workflows, scorers, a workflow's runs,
datasets and their experiments; one agent as a card; a dataset's items. The client returns the records
(``core/records.py``) and draws nothing; their ``_repr_html_`` and ``_repr_pretty_`` come here.

A table is data (``render/views.py``) drawn by the one renderer: everything the server sent is text,
and every label sits in ``<bdi dir=auto>``, so a name in another script (or a hostile one with bidi
controls) cannot reorder the row around it; the one palette styles it, colours inherited from the
notebook's theme, so light and dark themes both read. In a terminal each is a few short lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.captions import excerpt
from ..core.records import (
    AgentDetails,
    AgentRecord,
    DatasetRecord,
    ExperimentRecord,
    Record,
    ScorerRecord,
    WorkflowRecord,
    WorkflowRunRecord,
    fields,
    schema,
)
from . import views
from .views import DASH, Inline

__all__ = ["agent_card_html", "agent_card_text", "catalogue_html", "catalogue_text", "dataset_html", "when"]

EXCERPT = 160  # characters of instructions or a description shown in a table cell
MAX_LISTED = 12  # tools or steps listed in one cell; the rest counted
SHOWN = 200  # a dataset's items drawn in a table; its to_dataframe() has them all
VALUE = 220  # characters of an input or expected answer in a cell


# ---- the pieces ----------------------------------------------------------------------------------


def _label(text: Any) -> Inline:
    """An untrusted label, isolated."""
    return views.untrusted(text)


def _shown(text: Any) -> Inline:
    """A label, or a muted dash when there is nothing to show."""
    return _label(text) if text else _empty()


def _code(text: Any) -> Inline:
    return views.code(views.untrusted(text))


def _empty() -> Inline:
    return views.muted(DASH)


def _caption(body: Inline) -> Inline:
    return views.block(body, "mn-caption")


def _table(heads: Iterable[str] | None, rows: Iterable[Iterable[Inline]], kind: str) -> Inline:
    """A table; without ``heads``, rows of facts whose first cell names the second."""
    return views.table(list(heads or ()), [list(row) for row in rows], cls="mn-catalogue", kind=kind)


def _listed(items: list[Inline]) -> Inline:
    shown = items[:MAX_LISTED]
    more = len(items) - len(shown)
    return views.lines(shown, f"+{more} more" if more > 0 else "")


def _tool_line(name: str, description: str, approval: bool) -> Inline:
    line: list[Inline] = [_code(name)]
    if approval:
        line += [" ", views.muted("(needs approval)")]
    if description:
        line += [" ", views.muted(["— ", _label(excerpt(description, 90))])]
    return line


def _json_block(value: Any) -> Inline:
    return views.pre(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _value(value: Any, limit: int = VALUE) -> Inline:
    """An untrusted value (text, or JSON) on one line, cut and isolated; its whole text on hover."""
    text = value if isinstance(value, str) else ("" if value is None else json.dumps(value, default=str))
    short = excerpt(text, limit)
    return views.untrusted(short, text[:2000] if short != " ".join(text.split()) else None)


def when(value: Any) -> Any:
    """An ISO time as ``2026-12-01 10:52:40`` (UTC, as Mastra stores it); anything else as given."""
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?", value):
        return value[:19].replace("T", " ")
    return value


# ---- one row (and one terminal line) per record, by its type ------------------------------------------


def _agent_row(agent: AgentRecord) -> list[Inline]:
    tools = [_tool_line(*tool) for tool in agent.callable_tools]
    name = _label(agent.name or agent.id)
    if agent.description:
        name = views.lines([name, views.muted(_label(excerpt(agent.description, 90)))])
    return [
        _code(agent.id),
        name,
        _shown(agent.model),
        _listed(tools) if tools else _empty(),
        _shown(excerpt(agent.instructions, EXCERPT)),
    ]


def _agent_line(agent: AgentRecord) -> str:
    tools = ", ".join(name for name, _, _ in agent.callable_tools) or "no tools"
    return f"{agent.id}  ({agent.model or 'model ?'}; {tools})"


def _workflow_row(workflow: WorkflowRecord) -> list[Inline]:
    steps: list[Inline] = [_label(step) for step in workflow.steps]
    return [
        _code(workflow.id),
        _label(workflow.name or workflow.id),
        views.joined(steps, " → ") if steps else _empty(),
        _shown(workflow.input_fields),
        _shown(excerpt(workflow.description or "", EXCERPT)),
    ]


def _scorer_row(scorer: ScorerRecord) -> list[Inline]:
    agents: list[Inline] = [_code(agent) for agent in scorer.agent_ids]
    return [
        _code(scorer.id),
        _label(scorer.name),
        _listed(agents) if agents else _empty(),
        _shown(excerpt(scorer.description, EXCERPT)),
    ]


def _run_row(run: WorkflowRunRecord) -> list[Inline]:
    steps: list[Inline] = [[_label(step), " ", views.muted(_label(status))] for step, status in run.steps]
    return [
        _code(run.run_id),
        _label(run.status),
        _listed(steps) if steps else _empty(),
        _shown(when(run.created_at)),
        _shown(when(run.updated_at)),
        _shown(run.resource_id),
    ]


def _dataset_row(dataset: DatasetRecord) -> list[Inline]:
    return [
        views.code(_value(dataset.id)),
        _value(dataset.name or ""),
        str(dataset.version if dataset.version is not None else ""),
        _value(when(dataset.created_at) or ""),
        _value(when(dataset.updated_at) or ""),
    ]


def _experiment_row(experiment: ExperimentRecord) -> list[Inline]:
    counts = (
        f"{experiment.succeeded_count} ok, {experiment.failed_count} failed of "
        f"{experiment.total_items if experiment.total_items is not None else '?'}"
    )
    return [
        views.code(_value(experiment.id)),
        _value(experiment.name or ""),
        _value(experiment.target_id or ""),
        views.code(_value(experiment.dataset_id or "")),
        _value(experiment.status or "?"),
        counts,
        _value(when(experiment.started_at) or ""),
    ]


@dataclass(frozen=True)
class _Drawn:
    """How one type of record is drawn: the table's heads, a row, a terminal line."""

    heads: tuple[str, ...]
    row: Callable[[Any], list[Inline]]
    line: Callable[[Any], str]


_DRAWN: dict[type[Record], _Drawn] = {
    AgentRecord: _Drawn(("id", "name", "model", "tools", "instructions"), _agent_row, _agent_line),
    WorkflowRecord: _Drawn(
        ("id", "name", "steps", "input", "description"),
        _workflow_row,
        lambda w: f"{w.id}  ({' → '.join(w.steps)})",
    ),
    ScorerRecord: _Drawn(
        ("id", "name", "agents", "description"), _scorer_row, lambda s: f"{s.id}  ({s.name})"
    ),
    WorkflowRunRecord: _Drawn(
        ("run id", "status", "steps", "created (UTC)", "updated (UTC)", "resource"),
        _run_row,
        lambda r: f"{r.run_id}  {r.status}",
    ),
    DatasetRecord: _Drawn(
        ("id", "name", "version", "created (UTC)", "updated (UTC)"),
        _dataset_row,
        lambda d: f"{d.id}  {d.name or ''}",
    ),
    ExperimentRecord: _Drawn(
        ("id", "name", "agent", "dataset", "status", "items", "started (UTC)"),
        _experiment_row,
        lambda e: f"{e.id}  {e.name or ''}  {e.status or '?'}",
    ),
}


def _drawn(kind: type[Record]) -> _Drawn:
    return next(drawn for known, drawn in _DRAWN.items() if issubclass(kind, known))


def _count(count: int, noun: str) -> str:
    return f"{count} {noun if count != 1 else noun[:-1]}"


def catalogue_html(kind: type[Record], records: Iterable[Record], noun: str, source: str = "") -> str:
    """A caption (how many ``noun``, from where) and a table of ``records`` of type ``kind``."""
    drawn = _drawn(kind)
    rows = [drawn.row(record) for record in records]
    where: list[Inline] = [" at ", _label(source)] if source else []
    caption = _caption([_count(len(rows), noun), *where])
    return views.draw([caption, _table(drawn.heads, rows, noun)])


def catalogue_text(kind: type[Record], records: Sequence[Record], noun: str, source: str = "") -> str:
    """A few short lines for a terminal: how many, from where, and one line per record."""
    where = f" at {source}" if source else ""
    line = _drawn(kind).line
    return "\n".join([f"{len(records)} {noun}{where}:", *(f"  {line(record)}" for record in records)])


# ---- one agent in full --------------------------------------------------------------------------------


def agent_card_html(agent: AgentDetails) -> str:
    """One agent as a card: model, memory, each tool with its description and input schema,
    sub-agents, workflows, processors, default options, the whole instructions."""
    facts: list[tuple[str, Inline]] = [
        ("name", _label(agent.name or agent.id)),
        ("description", _shown(agent.description)),
        ("model", _shown(agent.model)),
        ("memory", {True: "yes", False: "no", None: _empty()}[agent.memory]),
    ]
    if agent.request_context is not None:  # what the model and instructions were resolved for
        facts.append(("request context", _json_block(agent.request_context)))
    for title, entries in (
        ("input processors", agent.input_processors),
        ("output processors", agent.output_processors),
    ):
        names = [_code(p.get("name") or p.get("id")) if isinstance(p, Mapping) else _code(p) for p in entries]
        if names:
            facts.append((title, views.joined(names, ", ")))
    card: list[Inline] = [
        _caption(["agent ", _code(agent.id)]),
        _table(None, [[views.muted(k), v] for k, v in facts], "agent"),
    ]
    tools: list[list[Inline]] = []
    for name, listed in agent.tools.items():
        tool = listed if isinstance(listed, Mapping) else {}
        parsed = schema(tool.get("inputSchema"))
        full: list[Inline] = [views.details("schema", _json_block(parsed))] if parsed else []
        approval: list[Inline] = [" ", views.muted("(needs approval)")] if tool.get("requireApproval") else []
        tools.append(
            [[_code(name), *approval], _shown(tool.get("description")), [_shown(fields(parsed)), *full]]
        )
    others = AgentRecord(id=agent.id, agents=agent.agents, workflows=agent.workflows)
    for name, described, _ in others.callable_tools:
        tools.append([_code(name), _label(described), _empty()])
    card.append(_caption(f"{len(tools)} tool{'s' if len(tools) != 1 else ''}"))
    if tools:
        card.append(_table(("tool", "description", "input"), tools, "tools"))
    if agent.default_options:
        card += [_caption("default options"), _json_block(agent.default_options)]
    card.append(_caption("instructions" + (" (for this request context)" if agent.request_context else "")))
    card.append(views.pre(agent.instructions, isolated=True) if agent.instructions else _empty())
    return views.draw(card, "mn-agent-info")


def agent_card_text(agent: AgentDetails) -> str:
    tools = ", ".join(name for name, _, _ in agent.callable_tools) or "no tools"
    head = f"agent {agent.id} ({agent.model or 'model ?'}; {tools})"
    return f"{head}\n  {excerpt(agent.instructions, EXCERPT)}"


# ---- a dataset's items ----------------------------------------------------------------------------


def dataset_html(name: str, dataset_id: str, items: Sequence[tuple[Any, Any]]) -> str:
    """A dataset's ``(input, expected)`` items as a table (the first SHOWN of them), under its name."""
    rows: list[list[Inline]] = [
        [_value(given), _value(expected) if expected is not None else _empty()] for given, expected in items
    ]
    shown = rows[:SHOWN]
    more = len(rows) - len(shown)
    body: list[Inline] = [
        _caption(["dataset ", views.untrusted(name), " ", views.muted(f"id {dataset_id}")]),
        _caption(_count(len(shown), "items")),
        views.table(["input", "expected"], shown, cls="mn-catalogue", kind="items"),
        views.muted(f"+{more} more: to_dataframe() has them all") if more > 0 else "",
    ]
    return views.draw(body, "mn-dataset")
