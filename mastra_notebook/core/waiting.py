"""What waits for a person, as facts: core names no call that answers it.

A tool call waiting for approval, a tool call suspended, or a workflow step suspended: the reducer
writes a :class:`Wait` when one starts and hands it to the run's ``suggest`` callable, which words
the call that answers it (``continue_with`` on the node and on the RunResult). The words are the
notebook's (``view.approve(...)``, ``view.resume(...)``: mastra_notebook/widget/suggest.py); the
package wires them in when it is imported (``suggest_with``), and whoever makes a ``Run`` may pass
its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .values import json_object

WaitKind = Literal["approval", "suspension", "step"]


@dataclass(frozen=True, slots=True)
class Wait:
    """One request for a person: its ``kind`` (a tool call's approval, a tool call's suspension, a
    workflow step's suspension), the ids that name it, and the resume schema (a JSON schema object)
    when one is known."""

    kind: WaitKind
    tool_call_id: str | None = None
    step_name: str | None = None
    resume_schema: dict[str, Any] | None = None


Suggest = Callable[[Wait], "str | None"]
"""Words the call that answers a wait (None: say nothing)."""


def schema_object(value: Any) -> dict[str, Any] | None:
    """Mastra sends a resume schema as an object or as its JSON text; anything else is no schema."""
    return json_object(value)


def no_suggestion(wait: Wait) -> None:
    """Core alone suggests nothing."""
    return


_wired: list[Suggest] = []


def suggest_with(suggest: Suggest) -> None:
    """Set the suggester a ``Run`` uses when it is given none (the package sets the notebook's at
    import: mastra_notebook/__init__.py)."""
    _wired[:] = [suggest]


def wired_suggester() -> Suggest:
    """The suggester set by ``suggest_with``, or one that says nothing."""
    return _wired[0] if _wired else no_suggestion
