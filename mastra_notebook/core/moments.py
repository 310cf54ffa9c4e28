"""The moments of a recording a lesson pauses before (``mn.replay(path, pause_at=...)``): where each
model step, each tool call and each sub-agent begins, as chunk indexes.

Index ``i`` is the chunk whose folding brings the moment into the view: a replay at position ``i``
(the first ``i`` chunks folded) is held just before it, and at ``i + 1`` shows it begun. They are
found by folding the recording into a Run of their own, so they are what the view draws, whatever
chunk types a provider streams.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, get_args

from .run import Run
from .tree import Op

Moment = Literal["step", "tool-call", "sub-agent"]
MOMENTS: tuple[Moment, ...] = get_args(Moment)


def moments(items: Iterable[Any]) -> dict[Moment, list[int]]:
    """For each kind of moment, the indexes of the chunks that begin one, in order: ``step`` a step
    of the run itself (a sub-agent's steps are inside its tool call), ``tool-call`` any tool call (a
    sub-agent's too), ``sub-agent`` a nested run (an agent or workflow a tool streamed)."""
    found: dict[Moment, list[int]] = {moment: [] for moment in MOMENTS}
    index = -1

    def seen(op: Op) -> None:
        if op[0] != "add" or index < 0:
            return
        kind, parent = op[2]["kind"], op[1]
        moment: Moment | None = (
            "step"
            if kind == "step" and parent == root
            else "tool-call"
            if kind == "tool"
            else "sub-agent"
            if kind == "run" and parent is not None
            else None
        )
        if moment is not None and (not found[moment] or found[moment][-1] != index):
            found[moment].append(index)

    run = Run(on_op=seen)
    root = run.state.node.id
    run.start(recorded=True)
    for index, item in enumerate(items):  # noqa: B007 (seen reads it)
        run.feed(item)
    return found
