"""The generated types bite: a node field renamed in the Python schema fails ``tsc`` in the renderer
that reads it. A scratch copy of js/src is type-checked against TypeScript generated from a schema
whose ``ToolNode.tool_name`` is renamed (scripts/contract.py, as a developer would run it). The real
tree passing ``tsc`` is ``npm run check``'s; here every error must be the rename's, so the copy
passed before it."""

from __future__ import annotations

import re
import runpy
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pydantic import create_model

from mastra_notebook.core import nodes

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "js"
TSC = JS / "node_modules" / "typescript" / "bin" / "tsc"
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "contract.py"))

pytestmark = pytest.mark.js


def renamed(model: type[nodes.NodeBase], old: str, new: str) -> type[nodes.NodeBase]:
    """``model`` as Python would declare it with its own field ``old`` called ``new``."""
    (base,) = model.__bases__
    own = {
        (new if name == old else name): (info.annotation, info)
        for name, info in model.model_fields.items()
        if name not in base.model_fields
    }
    patched: type[nodes.NodeBase] = create_model(model.__name__, __base__=base, __doc__=model.__doc__, **own)  # type: ignore[call-overload]
    return patched


def scratch_js(tmp: Path) -> Path:
    """js/src copied to ``tmp`` (with what it imports from outside), checked alone (no tests)."""
    js = tmp / "js"
    shutil.copytree(JS / "src", js / "src")
    (js / "node_modules").symlink_to(JS / "node_modules")
    (js / "tsconfig.json").write_text(
        re.sub(r'"include": \[[^\]]*\]', '"include": ["src"]', (JS / "tsconfig.json").read_text())
    )
    words = tmp / "mastra_notebook" / "core" / "status_words.json"
    words.parent.mkdir(parents=True)
    shutil.copy(ROOT / "mastra_notebook" / "core" / "status_words.json", words)
    return js


def tsc(js: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    assert node is not None, "node is needed (scripts/setup.sh)"
    assert TSC.exists(), "js/node_modules is needed: run scripts/setup.sh"
    return subprocess.run(  # from the copy: errors name its files as src/...
        [node, str(TSC), "--noEmit", "-p", "."],
        cwd=js,
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_a_renamed_node_field_fails_tsc_in_the_renderer_that_reads_it(tmp_path: Path) -> None:
    js = scratch_js(tmp_path)
    schema: list[Any] = [
        renamed(model, "tool_name", "tool_title") if model is nodes.ToolNode else model
        for model in nodes.NODE_MODELS
    ]
    generated = SCRIPT["typescript"](schema)
    assert "tool_title?: string | null;" in generated
    (js / "src" / "contract.generated.ts").write_text(generated)

    checked = tsc(js)

    errors = [line for line in checked.stdout.splitlines() if "error TS" in line]
    assert checked.returncode != 0, "tsc passed with ToolNode.tool_name renamed"
    assert any(line.startswith("src/render/tool.ts(") for line in errors), checked.stdout
    # nothing else is wrong with the copy: the unpatched tree compiles (npm run check says so too)
    assert all("'tool_name'" in line for line in errors), checked.stdout
