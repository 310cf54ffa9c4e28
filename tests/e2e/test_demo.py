"""scripts/demo.sh as a newcomer uses it: its JupyterLab up, the notebooks run and saved, then stopped
with SIGTERM. The Mastra server's log is in the demo's output, the test command's frontends (voila,
Notebook 7) stay out of its JupyterLab, the repository is left as it was, no temporary file is left
behind, and nothing the demo started is still running.

The script's own setup step is skipped (MASTRA_DEMO_SETUP=0): the test command ran it first, and
running it again would reinstall node_modules under every other test.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

DEMO_COPY = e2e.ROOT / ".demo"
DEMO_REACH = ("examples/", "server/", "scripts/")  # what the demo reads or runs from
NOTEBOOKS = ["quickstart.ipynb", "prompt-iteration.ipynb"]  # the demo's own, and the one that writes files

_ALL_CELLS_RAN = """() => {
    const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
    return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent))
        && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle';
}"""


def git_status() -> set[str]:
    result = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=e2e.ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return set(result.stdout.splitlines())


def processes_marked(marker: str) -> dict[int, str]:
    """Live processes whose environment holds ``marker`` (the demo's descendants): pid -> command line."""
    found = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if marker.encode() in (proc / "environ").read_bytes():
                found[int(proc.name)] = (
                    (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                )
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


@pytest.mark.timeout(900)
def test_the_demo_leaves_the_repository_clean_and_stops_everything_on_sigterm(
    browser: Any, tmp_path: Path
) -> None:
    if DEMO_COPY.exists():
        pytest.fail(f"{DEMO_COPY} exists: it may hold your own changes; move it away to run this test")
    marker = f"MN_DEMO_TEST={uuid.uuid4().hex}"
    name, value = marker.split("=")
    temp = tmp_path / "tmp"  # the demo's TMPDIR: empty once it stopped
    temp.mkdir()
    env = {
        **os.environ,
        name: value,
        "TMPDIR": str(temp),
        "MASTRA_DEMO_SETUP": "0",
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    env.pop("PYTHONPATH", None)
    notices = tmp_path / "config" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    notices.mkdir(parents=True)
    (notices / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}'
    )
    before = git_status()
    port = e2e.free_port()
    url = f"http://127.0.0.1:{port}"
    command = ["bash", str(e2e.ROOT / "scripts" / "demo.sh"), "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
               "--LabApp.expose_app_in_browser=True", "--LabApp.news_url="]  # fmt: skip
    log = tmp_path / "demo.log"
    try:
        with e2e.serving("the demo", command, f"{url}/api/status", cwd=e2e.ROOT, env=env, log=log) as demo:
            run_and_stop(demo, url, log, marker, browser)
        new = git_status() - before  # in a fresh clone (CI) `before` is empty: the status is clean
        if not os.environ.get("CI"):  # a shared checkout: others edit sources meanwhile; the demo adds files
            new = {line for line in new if line.startswith("??") or line[3:].startswith(DEMO_REACH)}
        assert not new, f"the demo changed the repository: {sorted(new)}"
        assert not list(temp.iterdir()), "the demo left temporary files behind"
    finally:
        for pid in processes_marked(marker):  # a failed run leaves nothing behind either
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(DEMO_COPY, ignore_errors=True)


def run_and_stop(demo: subprocess.Popen[bytes], url: str, log: Path, marker: str, browser: Any) -> None:
    """Run and save the notebooks in the demo's JupyterLab, then stop the demo with SIGTERM."""
    wait_for_line(log, "==> Mastra server at http://127.0.0.1:")  # it starts beside JupyterLab
    assert "voila" not in log.read_text().lower()  # its server extension says when it loads
    for notebook in NOTEBOOKS:
        with e2e.watched_page(browser, f"demo-{notebook.removesuffix('.ipynb')}") as (page, events):
            e2e.open_notebook(
                page, f"{url}/lab/workspaces/demo-{notebook.removesuffix('.ipynb')}/tree/{notebook}"
            )
            plugins = page.evaluate("() => window.jupyterapp.listPlugins()")
            assert not [p for p in plugins if p.startswith(("@voila-dashboards/", "@jupyter-notebook/"))]
            # run_all's check looks at the first cell's prompt: here a markdown cell, never numbered
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
            page.wait_for_function(_ALL_CELLS_RAN, timeout=300_000)
            e2e.save(page)
            assert not events.errors, events.errors
    assert (DEMO_COPY / "paris.html").exists()  # the notebooks did write: into the copy
    assert processes_marked(marker)  # the scan sees the demo's processes while they run

    demo.send_signal(signal.SIGTERM)
    assert demo.wait(timeout=60) == 143
    deadline = time.monotonic() + 30
    while (left := processes_marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not left, f"still running after the demo stopped: {left}"
    # The server's log is in the demo's output: its last line, written as it stopped, came through.
    assert "mastra | [mastra-test-server] SIGTERM: shutting down" in log.read_text().splitlines()


def wait_for_line(log: Path, start: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not any(line.startswith(start) for line in log.read_text().splitlines()):
        assert time.monotonic() < deadline, f"no line {start!r} in:\n{log.read_text()}"
        time.sleep(0.2)  # a poll of the log, not a wait for time to pass
