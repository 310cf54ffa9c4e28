"""The module each view's model imports: the bundle as a string, imported once per page; a gallery's
tiles carry only its key, and one hidden carrier per gallery the bundle."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.widget.bundle import Bundle, Carrier, packaged, shared_module
from mastra_notebook.widget.gallery import Gallery
from mastra_notebook.widget.streamview import StreamView, opened_when_shown

from .conftest import RecordingComm

LOADER = Path(__file__).with_name("bundle_loader.mjs")


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
    assert esm == packaged().module
    assert esm.startswith('const key = "mastra_notebook:')
    assert "mountStatic" in esm  # the whole bundle rides inside it
    assert ".mn-gallery-summary" in esm  # and the styles
    # anywidget rewrites its one <style> for every new model's `_css`: that restyled every view on the page
    assert "_css" not in StreamView().get_state()


def test_a_tile_entry_is_the_key_alone_and_the_carrier_holds_the_bundle() -> None:
    bundle = packaged()
    assert len(bundle.tile) < 1000
    assert bundle.key in bundle.tile
    assert "mountStatic" not in bundle.tile
    assert "import(" not in bundle.tile  # it never loads the bundle itself
    assert bundle.key in bundle.carrier
    assert "mountStatic" in bundle.carrier
    assert ".mn-gallery-summary" in bundle.carrier
    assert Carrier.class_traits()["_esm"].default_value == bundle.carrier


def _fake_gallery(count: int, page_size: int) -> Gallery:
    gallery = Gallery(3, page_size=page_size)

    def starter(index: int) -> Any:
        def start() -> tuple[StreamView, Any]:
            view = mn.StreamView(title="agent test")

            async def work() -> None:
                view.feed({"type": "text-delta", "runId": "r", "from": "AGENT",
                           "payload": {"id": "t", "text": f"answer {index}"}})  # fmt: skip
                view.feed({"type": "finish", "runId": "r", "from": "AGENT", "payload": {"output": {}}})

            return view, work

        return start

    for index in range(count):
        gallery.submit(starter(index), prompt=f"prompt number {index}", title="agent test")
    return gallery


async def test_a_gallery_sends_its_grid_as_data_and_no_run_s_bundle_until_one_is_open(
    recording_comm: RecordingComm,
) -> None:
    """What a page reload fetches of a gallery: the grid's one model (its small module and the page's
    tiles as data), and the views' bundle only once a run is opened below the grid."""
    gallery = _fake_gallery(10, page_size=4)
    await gallery
    gallery.next_page()
    gallery.previous_page()
    opened = [m["data"]["state"] for m in recording_comm.messages if m["type"] == "comm_open"]
    assert not [state for state in opened if "mountStatic" in json.dumps(state)]  # no view's bundle
    (grid,) = [state for state in opened if "page" in state]
    assert len(grid["_esm"]) < 20_000  # the grid's own module, not the views' bundle
    assert len(json.dumps(gallery.view.grid.get_state())) < 20_000  # 4 tiles' data
    view = gallery.open(0)
    assert view is not None
    assert view.comm is not None  # the one run open has a model


def test_a_single_view_keeps_the_whole_entry(recording_comm: RecordingComm) -> None:
    view = mn.StreamView(title="on its own")
    opened = [m["data"]["state"] for m in recording_comm.messages if m["type"] == "comm_open"]
    assert [state["_esm"] for state in opened if state.get("view_key") == view.view_key] == [
        packaged().module
    ]


def test_only_a_view_not_yet_opened_that_carries_the_packaged_bundle_is_lightened(
    recording_comm: RecordingComm,
) -> None:
    from mastra_notebook.widget.bundle import carry_lightly

    opened = mn.StreamView()
    carry_lightly(opened)  # its model has the whole entry: changing it would load the bundle again
    assert opened._esm == packaged().module
    with opened_when_shown():
        waiting = mn.StreamView()
    carry_lightly(waiting)
    assert waiting._esm == packaged().tile
    with opened_when_shown():
        other = mn.StreamView()
    other._esm = "export default { render() {} };"  # anywidget's hot reload: its own module
    carry_lightly(other)
    assert other._esm == "export default { render() {} };"


FAKE_CODE = """globalThis.evaluated = (globalThis.evaluated ?? 0) + 1;
export default {
  initialize({ model }) { model.initialized = true; },
  render({ el }) { el.drawn = true; return () => {}; },
};
export function adoptStyles(el, css, key) { el.styles = [css, key]; }
"""


@pytest.mark.parametrize(
    "order",
    [
        "tile,tile,carrier",  # a reload that makes the tiles' models first
        "carrier,tile,tile",
        "tile,carrier,tile",
        "module,tile,carrier,tile",  # a single view on the page too: one bundle still
        "carrier,carrier,tile",  # two galleries
        "tile,tile",  # no carrier: the tiles wait (and say nothing wrong)
        "module",  # a single view, as ever
    ],
)
def test_tiles_draw_with_the_one_bundle_whichever_model_comes_first(tmp_path: Path, order: str) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    bundle = Bundle(FAKE_CODE, ".mn-root { color: red; }")
    for name in ("module", "carrier", "tile"):
        (tmp_path / f"{name}.mjs").write_text(getattr(bundle, name))
    facts = json.dumps({"key": bundle.key, "css": bundle.css})
    done = subprocess.run([node, str(LOADER), str(tmp_path), order, facts],
                          check=False, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode != 13, "a view waited for the bundle for ever (node's unsettled top-level await)"
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
