"""What the benchmarks in a real JupyterLab share: the bundled Mastra server, a JupyterLab holding
one notebook, headless Chromium, and a page that keeps every long task (render.py's observer)."""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from concurrency import launcher
from playwright.sync_api import sync_playwright
from render import LONGTASK_OBSERVER, jupyterlab

from tests.e2e.helpers import CHROMIUM, CHROMIUM_ARGS

T = TypeVar("T")

# The end of a notebook's first cell (a str.format template: braces doubled): the kernel's peak RSS
# and live widgets, read now and again at the end, and printed as SETUP (with json, resource and
# ipywidgets imported above it).
KERNEL_FIGURES = """def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
def widgets():
    return len(ipywidgets.widgets.widget._instances)
before = {{"peak_rss_mb": peak_rss_mb(), "widgets": widgets()}}
print("SETUP", json.dumps(before))"""


def in_lab(name: str, cells: list[str], measure: Callable[[Any, str], T], **setup: Any) -> T | None:
    """``measure(browser, url)`` of a notebook ``name`` of ``cells`` in a JupyterLab of its own, the
    first cell a template given the server's ``url`` and ``setup``; None (and why, on stderr) where
    Chromium is missing."""
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --browser`", file=sys.stderr)
        return None
    launch = launcher()
    server, mastra_url = launch.start_server(port=0, timeout=120)
    try:
        with tempfile.TemporaryDirectory(prefix=f"mn-{name}-") as tmp, jupyterlab(Path(tmp)) as lab:
            url = lab.notebook(name, [cells[0].format(url=mastra_url, **setup), *cells[1:]])
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                try:
                    return measure(browser, url)
                finally:
                    browser.close()
    finally:
        launch.stop_server(server)


def lab_page(browser: Any) -> tuple[Any, Any]:
    """A browser context of its own (the caller closes it) and its page, which keeps long tasks and
    dismisses dialogs."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_init_script(LONGTASK_OBSERVER)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.dismiss())
    return context, page


def sampled_until_reported(page: Any, sample_js: str, seconds: float) -> list[dict[str, Any]]:
    """The page sampled (``sample_js``) every half second until the measured cell has reported, or
    ``seconds`` passed."""
    samples: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        samples.append(page.evaluate(sample_js))
        if samples[-1]["reported"]:
            break
        page.wait_for_timeout(500)
    return samples
