"""The static, script-free HTML transcript of a run, for saved notebooks (GitHub, nbviewer,
nbconvert), the export page's fallback and ``RunResult._repr_html_``.

It is drawn from the node tree the browser renders (the snapshot a view sends) by the widget's own
renderers, run in the kernel (``engine.py``): the saved and the live view cannot disagree. A RunResult
read from a run carries that snapshot; one built another way (loaded from JSON, a nested run) is drawn
from a tree made of its parts.

Each step carries the request the model was given, folded and bounded (``core/request_bounded.py``,
``PAGE``): a saved notebook shows it with no kernel, and a 200 kB request does not make it 200 kB.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from ..core.request_bounded import PAGE, requests_by_node
from ..core.result import RunResult, view_snapshot
from ..core.result_nodes import result_ops
from ..core.tree import without_times
from .engine import engine

__all__ = ["render_html", "render_ops", "requests_of", "transcript_class", "transcript_input"]

# A live view's key (StreamView.view_key, a uuid4 hex): it becomes a class name, so nothing else.
VIEW_KEY = re.compile(r"[0-9a-f]{32}")


def transcript_class(view_keys: Iterable[str] = ()) -> str:
    """The transcript's classes: one per live view it stands for (``mn-transcript-of-<key>``). A view
    that draws hides the transcripts of its own key (js/src/transcripts.ts), so a transcript is hidden
    only beside its own drawn view; where no view draws (no kernel, an untrusted notebook, GitHub) no
    rule exists and the transcript is read. A class, not an attribute: notebook sanitizers keep classes."""
    keys = [key for key in view_keys if VIEW_KEY.fullmatch(key)]
    return " ".join(["mastra-notebook-transcript", *(f"mn-transcript-of-{key}" for key in keys)])


def requests_of(ops: list[Any], result: RunResult) -> dict[str, dict[str, Any]]:
    """Each step node's request in ``result``, as a page carries it (bounded by ``PAGE``)."""
    return {node_id: found.shown(PAGE) for node_id, found in requests_by_node(ops, result).items()}


def render_ops(
    ops: list[Any],
    title: str = "",
    subtitle: str = "",
    view_keys: Iterable[str] = (),
    requests: dict[str, dict[str, Any]] | None = None,
) -> str:
    """A snapshot's ops (``["add", parent, node]``, as the view sends them) as one HTML fragment;
    ``title`` and ``subtitle`` as the view's header shows them; ``view_keys``: the live views this
    transcript stands for (see ``transcript_class``); ``requests``: each step node's request, bounded
    (``StepRequest.shown``), drawn folded under its step."""
    classes = transcript_class(view_keys)
    try:
        return engine().render(
            ops, title=title, subtitle=subtitle, requests=requests, classes=classes.split()
        )
    except Exception as error:  # no engine here (a platform without its wheel), or a renderer's bug
        reason = html.escape(f"{type(error).__name__}: {error}"[:300])
        return (
            f'<div class="{classes}">{html.escape(title)} {html.escape(subtitle)}<br>'
            f"This run's saved transcript could not be drawn here ({reason}). The run itself is whole: "
            "view.result, or view.save(path) to keep it.</div>"
        )


def transcript_input(
    result: RunResult, title: str = "", subtitle: str = "", view_keys: Iterable[str] = ()
) -> dict[str, Any]:
    """What the transcript view draws ``result`` from (js/src/static/transcript.ts ``TranscriptInput``):
    its ops, header, bounded requests and classes (see ``render_html``)."""
    ops = view_snapshot(result)
    ops = ops if ops is not None else result_ops(result)
    if result.timing.untimed is not None:  # read at once (collect): its moments are the reading's
        ops = without_times(ops)
    return {
        "ops": ops,
        "title": title,
        "subtitle": subtitle,
        "requests": requests_of(ops, result),
        "classes": transcript_class(view_keys).split(),
    }


def render_html(result: RunResult, title: str = "", subtitle: str = "", view_keys: Iterable[str] = ()) -> str:
    """The whole run as one self-contained, script-free HTML fragment (``title`` and ``subtitle``:
    the view's header, e.g. the agent id and the prompt's first line; ``view_keys``: the live views
    it stands for, which hide it where they draw)."""
    drawn = transcript_input(result, title, subtitle, view_keys)
    return render_ops(drawn["ops"], title, subtitle, view_keys, drawn["requests"])
