"""One real JupyterLab per test session, driven by Debian's headless Chromium through Playwright."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip

pytestmark = pytest.mark.e2e


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))


class Lab:
    """A running JupyterLab: its URL and the folder it serves."""

    def __init__(self, url: str, root: Path) -> None:
        self.url = url
        self.root = root

    def notebook(self, name: str, cells: list[str]) -> str:
        """Write a notebook of code cells; return its URL in a workspace of its own."""
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, self.root / f"{name}.ipynb")
        return f"{self.url}/lab/workspaces/{name}/tree/{name}.ipynb"


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --browser`")
    base = tmp_path_factory.mktemp("jupyter")
    root = base / "root"
    root.mkdir()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTER_DATA_DIR": str(base / "data"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "JUPYTER_PLATFORM_DIRS": "1",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    kernel = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
              "display_name": "Python 3", "language": "python"}  # fmt: skip
    _write_json(base / "data" / "kernels" / "python3" / "kernel.json", kernel)
    settings = base / "config" / "lab" / "user-settings" / "@jupyterlab"
    _write_json(settings / "notebook-extension" / "tracker.jupyterlab-settings", {"windowingMode": "none"})
    _write_json(settings / "apputils-extension" / "notification.jupyterlab-settings",
                {"fetchNews": "false", "checkForUpdates": False})  # fmt: skip
    port = _free_port()
    log = (base / "lab.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
         "--ServerApp.allow_root=True", "--LabApp.expose_app_in_browser=True",
         f"--ServerApp.root_dir={root}", "--LabApp.news_url=", "--ServerApp.open_browser=False"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("JupyterLab did not start:\n" + (base / "lab.log").read_text()) from None
            time.sleep(0.3)
    try:
        yield Lab(url, root)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.dismiss())
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    with contextlib.suppress(Exception):  # a screenshot is a courtesy; the test's verdict stands
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


def open_notebook(page: Any, url: str) -> None:
    """Open a notebook and wait until its kernel is idle (running earlier opens a kernel dialog)."""
    page.goto(url)
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext?.session?.kernel?.status === 'idle'",
        timeout=60_000,
    )


def run_all(page: Any) -> None:
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def save(page: Any) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_timeout(500)


def assert_no_rate_limit(page: Any) -> None:
    assert "IOPub message rate exceeded" not in page.inner_text("body")
