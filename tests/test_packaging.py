"""What a user installs: one version, no test tools, and widgets that show with ipywidgets 7.7 or 8.

scripts/test.sh runs this module in .venv (ipywidgets 8) and again in .venv-ipywidgets7 (7.7).
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

import pytest
import tomllib

import mastra_notebook as mn
from tests.conftest import fixture_path
from tests.helpers import execute

TOOL_CALL = fixture_path("tool-call")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_one_version_source_js_package_json() -> None:
    """js/package.json holds the version; the build writes it into the metadata Python reads."""
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["hatch"]["version"] == {"source": "nodejs", "path": "js/package.json"}
    js_version = json.loads((ROOT / "js" / "package.json").read_text())["version"]
    installed = metadata.version("mastra-notebook")
    assert installed == js_version, "js/package.json changed since the install: run scripts/setup.sh"
    assert mn.__version__ == installed
    lock = json.loads((ROOT / "js" / "package-lock.json").read_text())
    assert lock["version"] == lock["packages"][""]["version"] == js_version  # `npm install` keeps them


def test_users_install_no_test_tools() -> None:
    """`pip install mastra-notebook[pandas]` brings pandas, `[stats]` scipy, statsmodels and
    krippendorff, `[otel]` the OpenTelemetry SDK and its OTLP/HTTP exporter; the test tools and checks are dependency
    groups, which an install from an index never reads."""
    requires = metadata.requires("mastra-notebook") or []
    names = {re.split(r"[\s;<>=!~\[]", line, maxsplit=1)[0].lower() for line in requires}
    groups = PYPROJECT["dependency-groups"]
    tools = {
        re.split(r"[\s<>=!~\[]", item, maxsplit=1)[0].lower()
        for name in ("test-kernel", "test", "dev")
        for item in groups[name]
        if isinstance(item, str)
    }
    assert {"pytest", "playwright", "mypy", "ruff", "jupyterlab"} <= tools
    extras = {"pandas", "scipy", "statsmodels", "krippendorff"}
    extras |= {"opentelemetry-sdk", "opentelemetry-exporter-otlp-proto-http"}
    assert names & tools == extras, names & tools  # only through the extras
    assert set(metadata.metadata("mastra-notebook").get_all("Provides-Extra") or []) == {
        "pandas",
        "stats",
        "otel",
    }
    assert {"include-group": "test-kernel"} in groups["test"]


def test_ipywidgets_requirement_admits_7_7_and_8() -> None:
    (line,) = [r for r in PYPROJECT["project"]["dependencies"] if r.startswith("ipywidgets")]
    assert line == "ipywidgets>=7.7"


@pytest.mark.timeout(120)
def test_views_and_a_gallery_show_as_widgets_in_a_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a real kernel with whichever ipywidgets is installed (7.7 shows widgets through
    ``_ipython_display_``, 8 through ``_repr_mimebundle_``): each shows as a widget whose model is in
    the saved widget state, with no error output."""
    notebook = execute(
        [
            "import ipywidgets, mastra_notebook as mn\nprint('ipywidgets', ipywidgets.__version__)",
            f"v = mn.view({str(TOOL_CALL)!r})\nv.wait()\nv",
            f"mn.replay({str(TOOL_CALL)!r}, speed=50)",
            "from mastra_notebook.widget.gallery import Gallery\nGallery()",
        ],
        tmp_path,
        monkeypatch,
    )
    import ipywidgets

    assert notebook.cells[0].outputs[0]["text"].strip() == f"ipywidgets {ipywidgets.__version__}"
    saved = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    for cell in notebook.cells[1:]:
        assert not [o for o in cell.outputs if o["output_type"] == "error"], cell.outputs
        (view,) = [o["data"][WIDGET_VIEW] for o in cell.outputs if WIDGET_VIEW in o.get("data", {})]
        assert view["model_id"] in saved, cell.source
    assert saved[view["model_id"]]["model_name"] == "VBoxModel"  # the gallery (the last cell)
