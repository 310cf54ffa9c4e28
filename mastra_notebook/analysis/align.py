"""Align the trajectories of N runs, and diff what they did: pure functions, no HTML.

Steps and tool calls are compared by a key, the tool's name and its canonical arguments (JSON with sorted
keys). Two sequences are aligned by a longest common subsequence that counts an exact match above any
number of near ones (the same tool, other arguments), so a changed argument still lines up with its
counterpart and shows as a diff. N runs are aligned progressively: each next run against the rows so far,
a row matching an item by its best cell.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from ..core.request import ModelRequest
from ..core.result import Step, ToolCall

T = TypeVar("T")
Key = tuple[str, str]  # (tool name, canonical arguments)
Row = list[int | None]  # one index per run (None: a gap in that run)

NONE, NEAR, SAME = 0, 1, 2  # how alike two items are: unrelated, comparable (diff them), equal


def canonical(value: Any) -> str:
    """``value`` as JSON with sorted keys: equal arguments give equal text whatever their key order."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr)


def call_key(call: ToolCall) -> Key:
    return (call.tool_name, canonical(call.args))


def step_key(step: Step) -> tuple[Key, ...]:
    """A step's tool calls' keys, in order; ``()`` for a step that answers (its text is diffed elsewhere)."""
    return tuple(call_key(call) for call in step.tool_calls)


def call_likeness(a: Key, b: Key) -> int:
    """Two calls' keys: the same call, the same tool with other arguments, or unrelated."""
    if a == b:
        return SAME
    return NEAR if a[0] == b[0] else NONE


def step_likeness(a: tuple[Key, ...], b: tuple[Key, ...]) -> int:
    """Two steps' keys: the same calls, some tool in common (or both answer), or unrelated."""
    if a == b:
        return SAME
    return NEAR if {name for name, _ in a} & {name for name, _ in b} else NONE


def pair(n: int, m: int, likeness: Callable[[int, int], int]) -> list[tuple[int | None, int | None]]:
    """Align ``n`` items with ``m`` items, order kept: the common subsequence with the most exact
    (``SAME``) matches, then the most ``NEAR`` ones. Unmatched items come as ``(i, None)`` / ``(None, j)``,
    the first sequence's before the second's in a gap."""
    # equal ends are matched as they are (an optimal alignment can always match them): the table is only
    # for the middle, where runs differ (usually a few steps of many)
    head = 0
    while head < min(n, m) and likeness(head, head) == SAME:
        head += 1
    tail = 0
    while tail < min(n, m) - head and likeness(n - 1 - tail, m - 1 - tail) == SAME:
        tail += 1
    middle = pair_table(n - head - tail, m - head - tail, lambda i, j: likeness(head + i, head + j))
    shifted = [(None if i is None else head + i, None if j is None else head + j) for i, j in middle]
    return [(k, k) for k in range(head)] + shifted + [(n - tail + k, m - tail + k) for k in range(tail)]


def pair_table(n: int, m: int, likeness: Callable[[int, int], int]) -> list[tuple[int | None, int | None]]:
    """``pair`` by dynamic programming over the whole table."""
    heavy = min(n, m) + 1  # one exact match outweighs every near one together
    weights = [[0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            alike = likeness(i, j)
            weights[i][j] = heavy if alike == SAME else alike
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            matched = best[i + 1][j + 1] + weights[i][j] if weights[i][j] else -1
            best[i][j] = max(best[i + 1][j], best[i][j + 1], matched)
    out: list[tuple[int | None, int | None]] = []
    left: list[int] = []
    right: list[int] = []
    i = j = 0
    while i < n and j < m:
        if weights[i][j] and best[i][j] == best[i + 1][j + 1] + weights[i][j]:
            out += [(a, None) for a in left] + [(None, b) for b in right] + [(i, j)]
            left, right = [], []
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            left.append(i)
            i += 1
        else:
            right.append(j)
            j += 1
    left += range(i, n)
    right += range(j, m)
    return out + [(a, None) for a in left] + [(None, b) for b in right]


def align(sequences: Sequence[Sequence[T]], likeness: Callable[[T, T], int]) -> list[Row]:
    """Rows of one index per sequence (``None`` for a gap): items in a row are aligned."""
    if not sequences:
        return []
    rows: list[Row] = [[i] for i in range(len(sequences[0]))]
    for seq_index, sequence in enumerate(sequences[1:], start=1):

        def alike(row: int, item: int, *, sequence: Sequence[T] = sequence, rows: list[Row] = rows) -> int:
            cells = [sequences[k][i] for k, i in enumerate(rows[row]) if i is not None]
            return max((likeness(cell, sequence[item]) for cell in cells), default=NONE)

        gap: Row = [None] * seq_index
        rows = [
            [*(gap if row is None else rows[row]), item]
            for row, item in pair(len(rows), len(sequence), alike)
        ]
    return rows


@dataclass(frozen=True)
class ArgChange:
    """One argument, before and after: ``kind`` is ``same``, ``added``, ``removed`` or ``changed``."""

    kind: Literal["same", "added", "removed", "changed"]
    key: str  # "" for arguments that are not an object
    before: Any = None
    after: Any = None


def arg_diff(before: Any, after: Any) -> list[ArgChange]:
    """Key by key for two objects (sorted keys); otherwise the whole value, same or changed."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        kind: Literal["same", "changed"] = "same" if canonical(before) == canonical(after) else "changed"
        return [ArgChange(kind, "", before, after)]
    changes = []
    for key in sorted(set(before) | set(after), key=str):
        if key not in after:
            changes.append(ArgChange("removed", str(key), before[key], None))
        elif key not in before:
            changes.append(ArgChange("added", str(key), None, after[key]))
        elif canonical(before[key]) == canonical(after[key]):
            changes.append(ArgChange("same", str(key), before[key], after[key]))
        else:
            changes.append(ArgChange("changed", str(key), before[key], after[key]))
    return changes


@dataclass
class RequestDiff:
    """What changed between two steps' model requests."""

    system: list[str] = field(default_factory=list)  # the system prompt's changed lines, "-old" / "+new"
    tools_added: list[str] = field(default_factory=list)
    tools_removed: list[str] = field(default_factory=list)
    settings: list[tuple[str, Any, Any]] = field(default_factory=list)  # (name, before, after)

    def __bool__(self) -> bool:
        return bool(self.system or self.tools_added or self.tools_removed or self.settings)


def request_diff(before: ModelRequest, after: ModelRequest) -> RequestDiff:
    old_system, new_system = (before.system or "").splitlines(), (after.system or "").splitlines()
    system = [
        line
        for line in difflib.unified_diff(old_system, new_system, lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    old_tools, new_tools = [t.name for t in before.tools], [t.name for t in after.tools]
    old_settings = before.settings.model_dump(exclude_none=True)
    new_settings = after.settings.model_dump(exclude_none=True)
    settings = [
        (name, old_settings.get(name), new_settings.get(name))
        for name in sorted(set(old_settings) | set(new_settings))
        if canonical(old_settings.get(name)) != canonical(new_settings.get(name))
    ]
    return RequestDiff(
        system=system,
        tools_added=[name for name in new_tools if name not in old_tools],
        tools_removed=[name for name in old_tools if name not in new_tools],
        settings=settings,
    )
