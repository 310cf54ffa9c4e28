"""The built wheel, installed in a fresh venv, in that venv's own JupyterLab: what a user installs, not
the editable tree. scripts/check-wheel.sh builds the wheel and the venv (once); here that venv gets
JupyterLab, and a notebook in it streams a recording to its end."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

RECORDING = e2e.ROOT / "tests" / "fixtures" / "tool-call.jsonl"
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the built wheel (checked by check-wheel.sh) and JupyterLab."""
    out = tmp_path_factory.mktemp("wheel")
    script = e2e.ROOT / "scripts" / "check-wheel.sh"
    subprocess.run(["bash", str(script), str(out), "jupyterlab"], check=True, timeout=900)
    return out / "venv"


@pytest.fixture(scope="module")
def wheel_lab(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[e2e.Lab]:
    """That venv's JupyterLab and kernel, with nothing of the source tree on their path."""
    base = tmp_path_factory.mktemp("wheel-lab")
    root = base / "root"
    root.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env = e2e.jupyter_env(base, {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"})
    port = e2e.free_port()
    url = f"http://127.0.0.1:{port}"
    # the venv's own python3 kernelspec (ipykernel's): its kernel is the venv's python
    command = [str(venv / "bin" / "jupyter"), "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
               "--ServerApp.allow_root=True", "--LabApp.expose_app_in_browser=True",
               f"--ServerApp.root_dir={root}", "--LabApp.news_url="]  # fmt: skip
    with e2e.serving(
        "the wheel's JupyterLab", command, f"{url}/api/status", cwd=root, env=env, log=base / "lab.log"
    ):
        yield e2e.Lab(url, root)


@pytest.mark.timeout(1200)
def test_the_installed_wheel_streams_a_recording_in_jupyterlab(
    venv: Path, wheel_lab: e2e.Lab, browser: Any
) -> None:
    shutil.copy(RECORDING, wheel_lab.root / RECORDING.name)
    url = wheel_lab.notebook(
        "wheel",
        [
            "import sys, mastra_notebook as mn\nprint('FILE', mn.__file__, 'PREFIX', sys.prefix, 'VERSION', mn.__version__)",
            f"mn.view({RECORDING.name!r}, delay=0.02)",
        ],
    )
    with e2e.watched_page(browser, "wheel-jupyterlab") as (page, events):
        e2e.open_notebook(page, url)
        e2e.run_cells(page, 0, 1)
        printed = e2e.cell_output_text(page, 0)
        file, prefix = printed.split()[1], printed.split()[3]
        assert Path(file).is_relative_to(venv), printed  # the installed package, not the editable tree
        assert Path(prefix) == venv, printed
        assert not Path(file).is_relative_to(e2e.ROOT), printed
        root = e2e.view_root(page, 1)
        assert e2e.wait_status(root, "finished") == "finished"
        assert "Here is what I found" in root.inner_text()
        assert "getWeather" in root.inner_text()
        for theme, label in THEMES.items() if e2e.SCREENSHOTS else ():  # pictures only
            page.evaluate(
                f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{label}'}})"
            )
            page.wait_for_function(
                "dark => document.body.dataset.jpThemeLight === (dark ? 'false' : 'true')",
                arg=theme == "dark",
            )
            e2e.painted(page)  # in the new theme
            path = e2e.screenshot(root, f"wheel-view-{theme}")
            assert path is not None
            assert path.stat().st_size > 3_000
        assert not events.errors, events.errors
