"""``agent.experiment(...)``: each variant's stream options turned into runs of an agent on its server.

The experiment itself (its batch, numbers and folder) is runs/experiment.py's, its grid
widget/experiment_view.py's; this module only knows how a variant runs one input: which agent, which
prompt, which options, and whether a view shows the run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from ..analysis.outcomes import BASELINE, Item
from ..runs.experiment import ExperimentRun, StartCell
from ..runs.stream import Streaming
from .bodies import known_options, refuse_unknown
from .scores import split
from .transport import MastraError


class Runs(Protocol):
    """What an experiment runs on: a client's Agent, named here by its shape (mastra.py imports this
    module)."""

    id: str
    client: Any

    def prepare(self, prompt_or_messages: Any, **options: Any) -> tuple[ExperimentRun, Streaming]:
        """A run made, not started: its view (or bare stream) and the work that streams into it."""


# a variant's own options, not stream()'s
VARIANT_OPTIONS = ("agent", "prompt")


def prompt_for(template: Any, given: Any) -> Any:
    """What a variant sends for input ``given``: the input itself (no template), ``template(given)``
    for a function, or the template with ``{input}`` replaced (other braces are left as they are:
    a template may hold JSON)."""
    if template is None:
        return given
    if callable(template):
        return template(given)
    if isinstance(template, str):
        if "{input}" not in template:
            raise ValueError(f"a prompt template names the input as {{input}}: {template!r}")
        return template.replace("{input}", str(given))
    raise TypeError(
        f"prompt= is a template string with {{input}} or a function of the input, not {template!r}"
    )


def refuse_unknown_ids(client: Any, agent_ids: list[str], scorers: list[Any]) -> None:
    """Before the first run, as ``dataset.experiment`` does: ValueError naming what the server has
    when an agent id or a Mastra scorer id is not there (a server that cannot list them is not
    refused: each run says so)."""
    ids, _ = split(scorers)
    known = getattr(client, "known_scorers", None)
    try:
        if ids and known is not None:
            known.refuse_unknown(ids)
        listed = client.transport.call("GET", "/api/agents")
    except MastraError:
        return
    missing = [agent_id for agent_id in agent_ids if isinstance(listed, Mapping) and agent_id not in listed]
    if missing:
        there = ", ".join(sorted(map(str, listed))) or "none"
        names = ", ".join(map(repr, missing))
        raise ValueError(f"no agent {names} on this server (its agents: {there}; GET /api/agents)")


def variant_runs(
    agent: Runs,
    variants: Mapping[str, Mapping[str, Any]] | None,
    scorers: Iterable[Any],
    *,
    view: bool = True,
) -> tuple[dict[str, dict[str, Any]], StartCell]:
    """The variants by name (None is one, ``baseline``), checked now rather than once per run, and
    how a variant runs an input's repeat: its agent, its prompt, ``scorers`` and its own options,
    into a view, or, when not ``view``, a bare RunStream (no widget library is imported)."""
    chosen = {str(key): dict(options) for key, options in (variants or {BASELINE: {}}).items()}
    scorers = list(scorers)
    agents = {agent.id: agent}
    takes = known_options(agent.prepare)  # prepare's input=, expected= are the experiment's to give
    mine = {"prompt_or_messages", "input", "expected"}
    known = None if takes is None else {*VARIANT_OPTIONS, *takes} - mine
    for variant, options in chosen.items():
        if known is not None:
            refuse_unknown(options, known, f"variant {variant!r}")
        if "agent" in options and not isinstance(options["agent"], str):
            raise TypeError(f"variant {variant!r}: agent= is another agent's id (a str)")
        if isinstance(options.get("prompt"), str):  # a template without {input} says so now
            prompt_for(options["prompt"], "")
        if "agent" in options:
            agents.setdefault(options["agent"], agent.client.agent(options["agent"]))
    refuse_unknown_ids(
        agent.client, list(agents), [*scorers, *(s for o in chosen.values() for s in o.get("scorers", ()))]
    )

    def start(item: Item, variant: str, repeat: int) -> tuple[ExperimentRun, Streaming]:
        options = dict(chosen[variant])
        target = agents[options.pop("agent", agent.id)]
        prompt = prompt_for(options.pop("prompt", None), item.input)
        extra = list(options.pop("scorers", ()))
        return target.prepare(
            prompt, input=item.input, expected=item.expected, scorers=[*scorers, *extra], view=view, **options
        )

    return chosen, start
