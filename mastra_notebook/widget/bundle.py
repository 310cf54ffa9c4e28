"""The widget's browser module and styles, evaluated and added once per page however many views load them.

anywidget imports a widget's ``_esm`` afresh for every model (a new blob URL each time), so every
view would parse and evaluate the whole 270 kB bundle again: 50 to 200 ms of the main thread per
view on two busy cores, measured. The entry each model imports instead holds the bundle as a string
(only scanned, a few milliseconds) and imports it once per page, keyed by its hash, so a new
version of the bundle is never confused with an old one.

A gallery's tiles carry less still: a model's state holds its ``_esm``, and a page reload fetches
the state of every live model, so 48 tiles each holding the bundle were 14 MB for the kernel to
encode and the page to decode. A tile's entry is the key alone (``Bundle.tile``); one hidden
:class:`Carrier` per gallery holds the bundle and imports it when its model is made
(``Bundle.carrier``). Models are made in any order on a reload, so the page's promise of the bundle
is made by whichever entry runs first, and resolved by the first that holds the code.

The styles ride in the entry too, not in anywidget's ``_css``: anywidget rewrites its one <style>
element for every new model, which restyles every view on the page (20 to 80 ms each time a batch
starts a run). The bundle's ``adoptStyles`` adds them once per document or shadow root.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anywidget
import traitlets

_STATIC = Path(__file__).parent.parent / "static"
# How the entries share the bundle (below), hashed into the key: entries of another way, saved in an
# older notebook, never take this way's promise for theirs
_PROTOCOL = "deferred-1"

# The page's promise of {module, css} under the key: made by whichever entry runs first
_SLOT = """const slot = (globalThis[key] ??= (() => {
  let resolve;
  const promise = new Promise((done) => { resolve = done; });
  return { promise, resolve, loading: false };
})());
"""

# An entry that holds the bundle: the first one asked imports it (once per page) into the promise
_LOAD = """function load() {
  if (!slot.loading) {
    slot.loading = true;
    const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
    slot.resolve(import(url).then((module) => ({ module, css })));
  }
  return slot.promise;
}
"""

_RENDER = """  async render(context) {
    const { module, css } = await slot.promise;
    if (css) module.adoptStyles?.(context.el, css, key);
    return module.default.render(context);
  },
"""


@dataclass(frozen=True)
class Bundle:
    """The widget's code and styles, and the entries models load them through."""

    code: str
    css: str = ""

    @functools.cached_property
    def key(self) -> str:
        """Names this version of the bundle on the page (``globalThis[key]``, the styles' element)."""
        digest = hashlib.sha256(f"{_PROTOCOL}\0{self.code}{self.css}".encode()).hexdigest()
        return f"mastra_notebook:{digest[:16]}"

    def _head(self) -> str:
        return f"const key = {json.dumps(self.key)};\n{_SLOT}"

    def _loader(self) -> str:
        return f"const code = {json.dumps(self.code)};\nconst css = {json.dumps(self.css)};\n{_LOAD}"

    @functools.cached_property
    def module(self) -> str:
        """A view's entry: the bundle as a string, imported once per page, its ``render`` the bundle's."""
        return (
            f"{self._head()}{self._loader()}load();\n"
            "export default {\n"
            "  async initialize(context) {\n"
            "    const { module } = await load();\n"
            "    return module.default.initialize?.(context);\n"
            "  },\n"
            f"{_RENDER}}};\n"
        )

    @functools.cached_property
    def carrier(self) -> str:
        """The :class:`Carrier`'s entry: the bundle, imported when the model is made; it draws nothing."""
        return (
            f"{self._head()}{self._loader()}"
            "export default {\n"
            "  initialize() {\n"
            '    load().catch((error) => console.error("mastra_notebook: no widget bundle", error));\n'
            "  },\n"
            "  render() {},\n"
            "};\n"
        )

    @functools.cached_property
    def tile(self) -> str:
        """A gallery tile's entry: the key, and a ``render`` that waits for a carrier's bundle."""
        # initialize does not wait: anywidget drops the messages of a model not initialized within 2 s,
        # and the carrier may come later (the bundle's own initialize runs once it is here)
        return (
            f"{self._head()}"
            "export default {\n"
            "  initialize(context) {\n"
            "    slot.promise.then(({ module }) => module.default.initialize?.(context), () => {});\n"
            "  },\n"
            f"{_RENDER}}};\n"
        )


@functools.cache
def packaged() -> Bundle:
    """The bundle this package ships (built from js/)."""
    return Bundle((_STATIC / "widget.js").read_text(), (_STATIC / "widget.css").read_text())


def shared_module(code: str, css: str = "") -> str:
    """An ESM entry whose ``render`` is the bundle's, the bundle being imported once per page."""
    return Bundle(code, css).module


def carry_lightly(widget: Any) -> None:
    """Give ``widget`` (a view whose browser model is not open yet) the tile entry, in place of the
    packaged bundle it would carry: its state is then a few hundred bytes, not 270 kB. A view that
    loads another module (anywidget's hot reload) keeps it."""
    if widget.comm is None and widget._esm == packaged().module:
        widget._esm = packaged().tile


class Carrier(anywidget.AnyWidget):
    """A gallery's hidden model holding the packaged bundle, for its tiles' light entries.

    It is one of the gallery's children, so it lives as long as the gallery, and a notebook saved with
    its widgets' state (JupyterLab, nbconvert) holds it beside the tiles.
    """

    _esm = traitlets.Unicode(packaged().carrier).tag(sync=True)
