"""One real JupyterLab per test session, driven by Debian's headless Chromium through Playwright: the
fixtures. What the tests share besides fixtures is in tests/e2e/helpers.py."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import helpers
from tests.e2e.helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    ClientNotebook,
    Lab,
    PageEvents,
    SharedPage,
    free_port,
    jupyter_env,
    serving,
    write_json,
)
from tests.server.conftest import mastra_url  # noqa: F401 - the bundled real Mastra server, once a session

UNMET_LAB_PLUGINS = [
    "completer", "console", "csvviewer", "debugger", "extensionmanager", "fileeditor", "htmlviewer", "hub",
    "imageviewer", "inspector", "launcher", "logconsole", "lsp", "markdownviewer", "metadataform", "running",
    "settingeditor", "celltags", "terminal", "toc", "tooltip", "workspaces",
]  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("screenshots", default=False):
        helpers.SCREENSHOTS = True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test (or a parameter) marked ``screenshots`` only takes pictures: skipped without them."""
    if helpers.SCREENSHOTS:
        return
    skip = pytest.mark.skip(reason="takes pictures only: run with --screenshots")
    for item in items:
        if item.get_closest_marker("screenshots") is not None:
            item.add_marker(skip)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Failures counted, so a page open while a test failed is shot when it closes (shot_if_failed)."""
    if report.failed:
        helpers.FAILED[0] += 1


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --browser`")
    base = tmp_path_factory.mktemp("jupyter")
    root = base / "root"
    root.mkdir()
    env = jupyter_env(base, {**os.environ, "PYTHONPATH": str(ROOT)})
    kernel = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
              "display_name": "Python 3", "language": "python"}  # fmt: skip
    write_json(base / "data" / "kernels" / "python3" / "kernel.json", kernel)
    # JupyterLab's plugins that no test meets: each page opens ~1.7 s sooner (7.8 -> 6.1 s, measured
    # side by side). The wheel's JupyterLab (test_wheel.py) keeps them all, as a user has them.
    disabled = {f"@jupyterlab/{name}-extension": True for name in UNMET_LAB_PLUGINS}
    write_json(base / "config" / "labconfig" / "page_config.json", {"disabledExtensions": disabled})
    port = free_port()
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
               "--ServerApp.allow_root=True", "--LabApp.expose_app_in_browser=True",
               "--JupyterNotebookApp.expose_app_in_browser=True",  # Notebook 7, served by the same server
               f"--ServerApp.root_dir={root}", "--LabApp.news_url=", "--ServerApp.open_browser=False"]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    with serving("JupyterLab", command, f"{url}/api/status", cwd=root, env=env, log=base / "lab.log"):
        yield Lab(url, root)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page_events() -> PageEvents:
    return PageEvents()


@pytest.fixture(scope="session")
def shared_page(browser: Any) -> Iterator[SharedPage]:
    shared = SharedPage(browser)
    yield shared
    shared.close()


@pytest.fixture
def page(shared_page: SharedPage, request: pytest.FixtureRequest, page_events: PageEvents) -> Iterator[Any]:
    """The worker's shared page, this test's turn on it (``SharedPage``)."""
    with shared_page.turn(request.node.name, page_events) as page:
        yield page


@pytest.fixture
def client_notebook(
    lab: Lab,
    page: Any,
    page_events: PageEvents,
    mastra_url: str,  # noqa: F811 - the fixture imported above
) -> Iterator[ClientNotebook]:
    """The test's page, to open notebooks of the real Mastra server's client in; after the test, the
    page raised no error and JupyterLab dropped no output (a failure here names the errors)."""
    notebook = ClientNotebook(lab, page, page_events, mastra_url)
    yield notebook
    notebook.check_clean()
