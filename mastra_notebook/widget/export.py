"""One self-contained, offline HTML page of a run: the widget's own renderer, no kernel, no CDN."""

from __future__ import annotations

import base64
import secrets
from html import escape
from pathlib import Path
from typing import Any

import orjson

from ..core.display import Drawer
from ..core.ingest import records
from ..core.moments import moments
from ..core.recording import Recording
from ..core.run import Run
from ..core.tree import Op
from ..render.transcript import render_ops, requests_of
from ..runs.stream import RunStream, Watcher
from .wire import message

_STATIC = Path(__file__).parent.parent / "static"

# The bundle is an ES module; importing it from a Blob URL works offline and from file://.
_BOOT = """
const code = Uint8Array.from(atob(document.getElementById("mn-bundle").textContent), (c) => c.charCodeAt(0));
const data = JSON.parse(document.getElementById("mn-data").textContent);
const url = URL.createObjectURL(new Blob([code], {type: "text/javascript"}));
import(url).then((module) => {
  for (const shown of data.views ?? [{...data, id: "mn-view"}]) {  // a chat's page: several views
    const el = document.getElementById(shown.id);
    el.replaceChildren();
    const {title, subtitle, requests, present, snapshot, replay} = shown;
    if (replay) module.mountReplay(el, snapshot, replay, {title, subtitle, requests, present});
    else module.mountStatic(el, snapshot, {title, subtitle, requests, present});
  }
  document.body.dataset.mounted = "true";
});
"""


# ``<`` opens "</script>" and "<!--<script>" (which keeps the element open past its end tag, so the
# boot script never runs); outside strings JSON has none of these, inside them the escape is the same
# string. ``>`` and ``&`` go too, harmlessly. (str.replace: translate is slow on megabytes.)


def _json_in_script(value: Any) -> str:
    """JSON that is safe as the text of a <script> element: no ``<``, ``>`` or ``&`` at all."""
    text = orjson.dumps(value).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def replay_of(recording: Recording, draw: Drawer | None = None) -> dict[str, Any]:
    """What the page's replay bar plays with no kernel (js/src/widget.ts ``mountReplay``): the ops of a
    fresh run before any chunk (its root, its trace's requests, its notes), then the ops each chunk
    made, its arrival time (ms, None when untimed), and where each moment begins (core/moments.py)."""
    groups: list[list[Any]] = [[]]

    def keep(op: Op, _folding: bool) -> None:
        groups[-1].append(orjson.loads(orjson.dumps(op)))  # as it was then: a later op may change it

    stream = RunStream(recording=recording, draw=draw, watcher=Watcher(keep, _none, _none, _none))
    stream.run.start(recorded=True)
    stream.read_recorded()
    for _ in range(len(recording)):
        groups.append([])  # this chunk's ops
        stream.fold_next()
    start, *chunks = groups
    times = [stream.chunk_ms(index) for index in range(len(recording))]
    return {"start": start, "chunks": chunks, "times": times, "marks": moments(recording.items)}


def _none() -> None:
    """A watcher's hook this page needs not."""


def page_html(
    run: Run,
    title: str = "",
    subtitle: str = "",
    recording: Recording | None = None,
    *,
    present: bool = False,
) -> str:
    """The page for a finished ``run``: the rendered run, with a static transcript until it mounts.
    ``title`` and ``subtitle`` head it as they head the view (the agent id, the prompt's first line).
    With its ``recording``, the page has the replay bar: play, pause, step, the scrubber. ``present``:
    in present mode (``view.present()``)."""
    shown = {**_mounted(run, title, subtitle), "present": present}
    if recording is not None and len(recording):
        shown["replay"] = replay_of(recording, run.state.draw)
    body = f'<div id="mn-view">{shown.pop("drawn")}</div>'
    return _page(body, shown, " · ".join(filter(None, [title, subtitle])))


Part = tuple[Run, str, str] | str
"""A page's part: a run with its title and subtitle (drawn by the widget's renderer), or inert HTML
(a chat's prompt or memory, drawn by the kernel)."""


def parts_html(parts: list[Part], heading: str = "") -> str:
    """One page of several parts in order: each run mounted by the widget's renderer (a static
    transcript until it mounts), each HTML part as it is: a chat's page (``chat.to_html``)."""
    views: list[dict[str, Any]] = []
    body: list[str] = []
    for part in parts:
        if isinstance(part, str):
            body.append(part)
            continue
        shown = {"id": f"mn-view-{len(views)}", **_mounted(*part), "present": False}
        body.append(f'<div id="{shown["id"]}">{shown.pop("drawn")}</div>')
        views.append(shown)
    return _page("".join(body), {"views": views}, heading)


def _mounted(run: Run, title: str, subtitle: str) -> dict[str, Any]:
    """What the page mounts a run from (its snapshot, heading and requests), and ``drawn``: its
    static transcript, shown until it mounts."""
    snapshot = message("snapshot", 0, run.snapshot())
    requests = requests_of(snapshot["ops"], run.result)  # each step's, folded: the page has no kernel
    drawn = render_ops(snapshot["ops"], title, subtitle, (), requests)
    return {"snapshot": snapshot, "title": title, "subtitle": subtitle, "requests": requests, "drawn": drawn}


def _page(body: str, data: dict[str, Any], heading: str) -> str:
    nonce = secrets.token_urlsafe(16)  # only our boot script runs: no inline handler, ever
    bundle = base64.b64encode((_STATIC / "widget.js").read_bytes()).decode()  # code is not text to escape
    css = (_STATIC / "widget.css").read_text() if (_STATIC / "widget.css").exists() else ""
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        f"script-src 'nonce-{nonce}' blob:; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{escape(heading or 'Mastra run')}</title><style>{css}</style></head><body>{body}"
        f'<script type="text/plain" id="mn-bundle">{bundle}</script>'
        f'<script type="application/json" id="mn-data">{_json_in_script(data)}</script>'
        f'<script type="module" nonce="{nonce}">{_BOOT}</script></body></html>\n'
    )


def write_page(source: Any, output: Path, title: str = "") -> None:
    """Read a recorded stream and write its page to ``output``."""
    run = Run()
    for item in records(source):
        run.feed(item)
    run.end()
    recording = Recording.load(source)
    name = title or (Path(source).name if isinstance(source, (str, Path)) else "")
    output.write_text(page_html(run, name, recording=recording))
