"""The static renderer: the node tree the browser draws, as script-free HTML.

One module per js/src/render/*.ts file (``workflow-step.ts`` is ``workflow_step.py``, ``text.ts`` is
``text_part.py``, ``json.ts`` is ``json_view.py``), drawing the same labels, order, banners and caps
(docs/view-protocol.md): a card the widget folds is a ``<details>`` whose summary is the widget's
folded head, open where the widget opens it. Each renderer takes the tree and a node and returns
HTML. This module is the registry (index.ts): :data:`RENDERERS` maps kinds to renderers,
:data:`RUN_SECTIONS` lists what a run draws below its parts and :data:`VIEW_BARS` what a view draws
above its root run, so a new kind or section is one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..timeline import run_section as run_timeline
from .background_task import render_background_task
from .banner import render_banner
from .common import ROOT_ID, Renderer, SnapshotTree
from .data import render_data
from .file import render_file
from .goal import render_goal
from .header import render_header
from .html import CARD, MUTED, tag
from .invalid import render_invalid
from .reasoning import render_reasoning
from .run import RUN_SECTIONS, render_run
from .source import render_source
from .step import render_step
from .text_part import render_text
from .tool import render_tool
from .unknown import render_unknown
from .workflow_step import render_workflow_step

__all__ = [
    "RENDERERS",
    "RUN_SECTIONS",
    "VIEW_BARS",
    "VIEW_KEY",
    "SnapshotTree",
    "render_tree",
    "transcript_class",
]

RENDERERS: dict[str, Renderer] = {
    "run": render_run,
    "text": render_text,
    "reasoning": render_reasoning,
    "tool": render_tool,
    "workflow-step": render_workflow_step,
    "source": render_source,
    "file": render_file,
    "step": render_step,
    "background-task": render_background_task,
    "goal": render_goal,
    "banner": render_banner,
    "data": render_data,
    "unknown": render_unknown,
    "invalid": render_invalid,
}

# What a view draws between its header and the root run (view.ts ``addBar``): the timeline's panel.
VIEW_BARS: list[Renderer] = [run_timeline]

# A live view's key (StreamView.view_key, a uuid4 hex): it becomes a class name, so nothing else.
VIEW_KEY = re.compile(r"[0-9a-f]{32}")


def _behind_toggle(bar: str) -> str:
    """A bar's first <summary> is the transcript's twin of the header toggle that shows the bar in
    the widget (a control: the widget's button carries ``data-mn-control`` too)."""
    return (
        bar.replace("<summary", "<summary data-mn-control", 1) if bar.lstrip().startswith("<details") else bar
    )


def transcript_class(view_keys: Iterable[str] = ()) -> str:
    """The transcript's classes: one per live view it stands for (``mn-transcript-of-<key>``). A view
    that draws hides the transcripts of its own key (widget.ts), so a transcript is hidden only
    beside its own drawn view; where no view draws (no kernel, an untrusted notebook, GitHub) no rule
    exists and the transcript is read. A class, not an attribute: notebook sanitizers keep classes."""
    keys = [key for key in view_keys if VIEW_KEY.fullmatch(key)]
    return " ".join(["mastra-notebook-transcript", *(f"mn-transcript-of-{key}" for key in keys)])


def render_tree(
    ops: Iterable[Any],
    title: str = "",
    subtitle: str = "",
    view_keys: Iterable[str] = (),
    requests: Mapping[str, dict[str, Any]] | None = None,
) -> str:
    """A snapshot's ops (``["add", parent, node]``, as the view sends them) as one HTML fragment;
    ``title`` and ``subtitle`` as the view's header shows them (its traits); ``view_keys``: the live
    views this transcript stands for (see ``transcript_class``); ``requests``: each step node's
    request, bounded (``StepRequest.shown``), drawn folded under its step."""
    tree = SnapshotTree.from_ops(ops, RENDERERS)
    tree.requests = requests or {}
    root = tree.nodes.get(ROOT_ID)
    if root is None:
        body = tag("div", "Waiting for the run…", style=MUTED)
    else:
        body = "".join(_behind_toggle(bar(tree, root)) for bar in VIEW_BARS) + tree.draw(root)
    return tag(
        "div",
        render_header(tree, root, title, subtitle),
        body,
        class_=transcript_class(view_keys),
        style=CARD + ";padding:6px 10px",
    )
