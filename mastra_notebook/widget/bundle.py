"""The widget's browser module and styles, evaluated and added once per page however many views load them.

anywidget imports a widget's ``_esm`` afresh for every model (a new blob URL each time), so every
view would parse and evaluate the whole 230 kB bundle again: 50 to 200 ms of the main thread per
view on two busy cores, measured. The entry each model imports instead holds the bundle as a string
(only scanned, a few milliseconds) and imports it once per page, keyed by its hash, so a new
version of the bundle is never confused with an old one.

The styles ride in the entry too, not in anywidget's ``_css``: anywidget rewrites its one <style>
element for every new model, which restyles every view on the page (20 to 80 ms each time a batch
starts a run). The bundle's ``adoptStyles`` adds them once per document or shadow root.
"""

from __future__ import annotations

import hashlib
import json


def shared_module(code: str, css: str = "") -> str:
    """An ESM entry whose ``render`` is the bundle's, the bundle being imported once per page."""
    key = "mastra_notebook:" + hashlib.sha256((code + css).encode()).hexdigest()[:16]
    return (
        f"const key = {json.dumps(key)};\n"
        f"const code = {json.dumps(code)};\n"
        f"const css = {json.dumps(css)};\n"
        "const bundle = (globalThis[key] ??= import(\n"
        '  URL.createObjectURL(new Blob([code], { type: "text/javascript" }))\n'
        "));\n"
        "export default {\n"
        "  async initialize(context) {\n"
        "    return (await bundle).default.initialize?.(context);\n"
        "  },\n"
        "  async render(context) {\n"
        "    const module = await bundle;\n"
        "    if (css) module.adoptStyles?.(context.el, css, key);\n"
        "    return module.default.render(context);\n"
        "  },\n"
        "};\n"
    )
