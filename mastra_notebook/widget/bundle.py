"""The widget's browser module, evaluated once per page however many views load it.

anywidget imports a widget's ``_esm`` afresh for every model (a new blob URL each time), so every
view would parse and evaluate the whole 230 kB bundle again: 50 to 200 ms of the main thread per
view on two busy cores, measured. The entry each model imports instead holds the bundle as a string
(only scanned, a few milliseconds) and imports it once per page, keyed by its hash, so a new
version of the bundle is never confused with an old one.
"""

from __future__ import annotations

import hashlib
import json


def shared_module(code: str) -> str:
    """An ESM entry whose ``render`` is the bundle's, the bundle being imported once per page."""
    key = "mastra_notebook:" + hashlib.sha256(code.encode()).hexdigest()[:16]
    return (
        f"const key = {json.dumps(key)};\n"
        f"const code = {json.dumps(code)};\n"
        "const bundle = (globalThis[key] ??= import(\n"
        '  URL.createObjectURL(new Blob([code], { type: "text/javascript" }))\n'
        "));\n"
        "export default {\n"
        "  async initialize(context) {\n"
        "    return (await bundle).default.initialize?.(context);\n"
        "  },\n"
        "  async render(context) {\n"
        "    return (await bundle).default.render(context);\n"
        "  },\n"
        "};\n"
    )
