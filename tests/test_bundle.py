"""The module each view's model imports: the bundle as a string, imported once per page."""

from __future__ import annotations

import json

from mastra_notebook.widget.bundle import shared_module
from mastra_notebook.widget.streamview import StreamView


def test_the_entry_holds_the_bundle_as_a_string_keyed_by_its_hash() -> None:
    code = 'export default { render() { return () => {}; } }; // "quoted" </script>'
    entry = shared_module(code)
    assert json.dumps(code) in entry  # a string literal: scanned, not parsed as code, per model
    assert entry.count("import(") == 1
    assert "globalThis[key] ??=" in entry  # once per page
    assert shared_module(code) == entry
    other = shared_module(code + " ")
    key = entry.split("\n", 1)[0]
    assert key.startswith('const key = "mastra_notebook:')
    assert other.split("\n", 1)[0] != key  # a new bundle is never taken for an old one
    assert "async render(context)" in entry
    assert "async initialize(context)" in entry


def test_the_entry_adds_the_styles_once_per_page_itself() -> None:
    css = ".mn-root { color: red; } /* </style> */"
    entry = shared_module("export default {};", css)
    assert f"const css = {json.dumps(css)};" in entry
    assert (
        "module.adoptStyles?.(context.el, css, key)" in entry
    )  # the bundle's: once per document or shadow root
    assert shared_module("export default {};", css + " ").split("\n", 1)[0] != entry.split("\n", 1)[0]


def test_views_load_the_shared_entry_with_the_styles_and_no_css_trait() -> None:
    esm = StreamView.class_traits()["_esm"].default_value
    assert esm.startswith('const key = "mastra_notebook:')
    assert "mountStatic" in esm  # the whole bundle rides inside it
    assert ".mn-gallery-slot" in esm  # and the styles
    # anywidget rewrites its one <style> for every new model's `_css`: that restyled every view on the page
    assert "_css" not in StreamView().get_state()
