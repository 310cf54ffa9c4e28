"""One self-contained, offline HTML page of a run: the widget's own renderer, no kernel, no CDN."""

from __future__ import annotations

import base64
import secrets
from html import escape
from pathlib import Path
from typing import Any

import orjson

from ..core.ingest import records
from ..core.run import Run
from ..render.transcript import render_ops, requests_of
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
    const {title, subtitle, requests} = shown;
    module.mountStatic(el, shown.snapshot, {title, subtitle, requests});
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


def page_html(run: Run, title: str = "", subtitle: str = "") -> str:
    """The page for a finished ``run``: the rendered run, with a static transcript until it mounts.
    ``title`` and ``subtitle`` head it as they head the view (the agent id, the prompt's first line)."""
    shown = _mounted(run, title, subtitle)
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
        shown = {"id": f"mn-view-{len(views)}", **_mounted(*part)}
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
    output.write_text(page_html(run, title or (Path(source).name if isinstance(source, (str, Path)) else "")))
