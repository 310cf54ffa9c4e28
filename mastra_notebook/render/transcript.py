"""The static, script-free HTML transcript of a run, for saved notebooks (GitHub, nbviewer,
nbconvert), the export page's fallback and ``RunResult._repr_html_``.

It is drawn from the node tree the browser renders (the snapshot a view sends), by the static
renderer in ``render/static/``: the saved and the live view cannot disagree. A RunResult read from a
run carries that snapshot; one built another way (loaded from JSON, a nested run) is drawn from a
tree made of its parts.

Each step carries the request the model was given, folded and bounded (``core/request_bounded.py``,
``PAGE``): a saved notebook shows it with no kernel, and a 200 kB request does not make it 200 kB.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.request_bounded import PAGE, step_requests
from ..core.result import RunResult, view_snapshot
from ..core.result_nodes import result_ops
from ..core.tree import without_times
from .static import render_tree

__all__ = ["render_html", "requests_of"]


def requests_of(ops: list[Any], result: RunResult) -> dict[str, dict[str, Any]]:
    """Each step node's request in ``result``, as a page carries it (bounded by ``PAGE``)."""
    return {node_id: found.shown(PAGE) for node_id, found in step_requests(ops, result).items()}


def render_html(result: RunResult, title: str = "", subtitle: str = "", view_keys: Iterable[str] = ()) -> str:
    """The whole run as one self-contained, script-free HTML fragment (``title`` and ``subtitle``:
    the view's header, e.g. the agent id and the prompt's first line; ``view_keys``: the live views
    it stands for, which hide it where they draw)."""
    ops = view_snapshot(result)
    ops = ops if ops is not None else result_ops(result)
    if result.timing.untimed is not None:  # read at once (collect): its moments are the reading's
        ops = without_times(ops)
    return render_tree(ops, title, subtitle, view_keys, requests_of(ops, result))
