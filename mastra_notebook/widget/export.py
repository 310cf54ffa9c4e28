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
  const el = document.getElementById("mn-view");
  el.replaceChildren();
  const {title, subtitle, requests} = data;
  module.mountStatic(el, data.snapshot, {title, subtitle, requests});
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
    nonce = secrets.token_urlsafe(16)  # only our boot script runs: no inline handler, ever
    snapshot = message("snapshot", 0, run.snapshot())
    requests = requests_of(snapshot["ops"], run.result)  # each step's, folded: the page has no kernel
    data: dict[str, Any] = {"snapshot": snapshot, "title": title, "subtitle": subtitle, "requests": requests}
    bundle = base64.b64encode((_STATIC / "widget.js").read_bytes()).decode()  # code is not text to escape
    css = (_STATIC / "widget.css").read_text() if (_STATIC / "widget.css").exists() else ""
    heading = " · ".join(filter(None, [title, subtitle]))
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        f"script-src 'nonce-{nonce}' blob:; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{escape(heading or 'Mastra run')}</title><style>{css}</style></head><body>"
        f'<div id="mn-view">{render_ops(snapshot["ops"], title, subtitle, (), requests)}</div>'
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
