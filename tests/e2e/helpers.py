"""What the e2e tests share (tests/e2e/conftest.py holds only the fixtures): a JupyterLab to open
notebooks in, running cells, theming, screenshots into test-artifacts/, and what a reader sees of a view.
The tests import it as one module, ``from tests.e2e import helpers as e2e``."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from html import unescape
from pathlib import Path
from typing import Any

import nbformat

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
ARTIFACTS = ROOT / "test-artifacts"
# Pictures are opt-in: `pytest -m e2e --screenshots` (or MN_SCREENSHOTS=1) takes the ones for docs/ and
# for a person's look, in both themes. Nothing compares them, so by default none is taken, the themes
# are switched only where a test asserts something in the dark one, and a page is shot only when a
# test that used it failed (test-artifacts/<test>.png). tests/e2e/conftest.py sets it from the option.
SCREENSHOTS = os.environ.get("MN_SCREENSHOTS", "") not in ("", "0")
FAILED = [0]  # e2e tests failed so far in this session (conftest.py counts them)
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip

# what Notebook 7 itself raises when it opens a notebook here (its file browser and settings plugins)
NOTEBOOK7_OWN_ERRORS = (
    "Cannot read properties of undefined (reading 'schema')",
    "Command 'filebrowser:open-path' not registered.",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))


def jupyter_env(base: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` with JupyterLab's config, data and runtime folders under ``base``, and its settings there
    as the tests want them: every cell in the DOM (no windowing), no news or update checks."""
    settings = base / "config" / "lab" / "user-settings" / "@jupyterlab"
    write_json(settings / "notebook-extension" / "tracker.jupyterlab-settings", {"windowingMode": "none"})
    write_json(settings / "apputils-extension" / "notification.jupyterlab-settings",
               {"fetchNews": "false", "checkForUpdates": False})  # fmt: skip
    folders = {f"JUPYTER_{name.upper()}_DIR": str(base / name) for name in ("config", "data", "runtime")}
    return {**env, **folders, "JUPYTER_PLATFORM_DIRS": "1"}


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


@contextlib.contextmanager
def serving(
    name: str, command: list[str], ready_url: str, *, cwd: Path, env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A server process, once ``ready_url`` answers (its log in the message when it does not start);
    stopped on exit."""
    with log.open("w") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT, cwd=cwd)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(ready_url, timeout=2):
                        break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"{name} did not start:\n" + log.read_text()) from None
                    time.sleep(0.3)
            yield process
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


@contextlib.contextmanager
def serving_marimo(folder: Path, app: str) -> Iterator[str]:
    """``marimo run`` on the app ``app`` written into ``folder`` (each page load runs it afresh), its
    theme following the system's; yields its URL."""
    (folder / "app.py").write_text(app)
    (folder / "pyproject.toml").write_text('[tool.marimo.display]\ntheme = "system"\n')
    port = free_port()
    command = [sys.executable, "-m", "marimo", "run", "app.py", "--headless", "--no-token",
               "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MARIMO_SKIP_UPDATE_CHECK": "1"}
    url = f"http://127.0.0.1:{port}"
    with serving("marimo", command, url, cwd=folder, env=env, log=folder / "marimo.log"):
        yield url


class PageEvents:
    """What a page did besides rendering: dialogs it opened (dismissed) and uncaught exceptions."""

    def __init__(self) -> None:
        self.dialogs: list[str] = []
        self.errors: list[str] = []  # each error's message (compared with known ones)
        self.stacks: list[str] = []  # where each was thrown (ours, anywidget, JupyterLab): said on failure


def dismiss_dialog(events: PageEvents, dialog: Any) -> None:
    events.dialogs.append(f"{dialog.type}: {dialog.message}")
    with contextlib.suppress(Exception):
        dialog.dismiss()


def new_page(browser: Any, width: int, events: Callable[[], PageEvents]) -> Any:
    """A page in a context of its own: dialogs dismissed and page errors kept in ``events()``."""
    page = browser.new_context(viewport={"width": width, "height": 1000}).new_page()
    page.on("dialog", lambda dialog: dismiss_dialog(events(), dialog))
    page.on(
        "pageerror",
        lambda error: (events().errors.append(str(error)), events().stacks.append(str(error.stack))),
    )
    return page


@contextlib.contextmanager
def shot_if_failed(page: Any, name: str, *, full_page: bool) -> Iterator[list[bool]]:
    """Around a test's use of ``page``: a screenshot ``test-artifacts/<name>.png`` after a failure (an
    error in the block, or a test that failed meanwhile), or always with ``--screenshots``. Yields a
    list that holds whether it failed, once the block is left."""
    failed_before, failed = FAILED[0], [True]
    try:
        yield failed
        failed[0] = FAILED[0] > failed_before
    finally:
        if SCREENSHOTS or failed[0]:
            ARTIFACTS.mkdir(exist_ok=True)
            with contextlib.suppress(Exception):  # a screenshot is a courtesy; the test's verdict stands
                page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


@contextlib.contextmanager
def watched_page(
    browser: Any, name: str, *, width: int = 1280, events: PageEvents | None = None, full_page: bool = False
) -> Iterator[tuple[Any, PageEvents]]:
    """A page of its own (``new_page``), shot as ``shot_if_failed`` says and closed after the block.
    For a test that needs a width or a frontend of its own, or for a module's shared notebook."""
    watched = events or PageEvents()
    page = new_page(browser, width, lambda: watched)
    try:
        with shot_if_failed(page, name, full_page=full_page):
            yield page, watched
    finally:
        page.context.close()


class SharedPage:
    """One page that a worker's tests take turns on: JupyterLab loads in it once, and each test opens
    its notebook in it (``open_notebook``), ~3 s sooner than on a page of its own. Each turn has its
    own ``PageEvents``; after a turn its notebooks are closed and their kernels shut down; a turn that
    failed closes the page (after its screenshot), so the next test starts on a fresh one."""

    def __init__(self, browser: Any, width: int = 1280) -> None:
        self._browser = browser
        self._width = width
        self._page: Any = None
        self._events = PageEvents()

    @contextlib.contextmanager
    def turn(self, name: str, events: PageEvents) -> Iterator[Any]:
        if self._page is None:
            self._page = new_page(self._browser, self._width, lambda: self._events)
        self._events = events
        page = self._page
        kept = False
        try:
            with shot_if_failed(page, name, full_page=True) as failed:
                yield page
            kept = not failed[0] and close_notebooks(page)
        finally:
            if not kept:
                self.close()

    def close(self) -> None:
        if self._page is not None:
            with contextlib.suppress(Exception):
                self._page.context.close()
            self._page = None


class Views:
    """A module's shared notebook: cell ``i + 1`` shows a view of the ``i``-th recording, run whole."""

    def __init__(self, page: Any, events: PageEvents, names: list[str]) -> None:
        self.page = page
        self.events = events
        self.names = names
        self.results: dict[str, Any] = {}  # what a last cell printed, for a module that reads it

    def root(self, name: str) -> Any:
        """The root of the view of recording ``name``."""
        return view_root(self.page, self.names.index(name) + 1)


@contextlib.contextmanager
def views_notebook(
    browser: Any, lab: Lab, name: str, recordings: dict[str, Path], *more_cells: str, width: int = 1280
) -> Iterator[Views]:
    """A page of its own (``watched_page``, screenshot ``test-artifacts/test_<name>.png``) with a notebook
    ``name`` that shows a view of each recording, then ``more_cells``, every cell run."""
    cells = ["import mastra_notebook as mn", *(f"mn.view({str(path)!r})" for path in recordings.values())]
    with watched_page(browser, f"test_{name}", width=width) as (page, events):
        open_notebook(page, lab.notebook(name, [*cells, *more_cells]))
        run_all(page)
        yield Views(page, events, list(recordings))


def printed_json(page: Any, index: int, marker: str = "RESULTS") -> Any:
    """What cell ``index`` printed as ``<marker> <json>``: Python's own reading, to compare the page with."""
    output = cell_output_text(page, index, timeout=120_000)
    match = re.search(rf"{marker} (\{{.*\}})", output, re.S)
    assert match, f"cell {index} printed: {output[:2000]}"
    return json.loads(match.group(1))


_CLOSE_NOTEBOOKS = """async () => {
    const widgets = Array.from(window.jupyterapp.shell.widgets('main'));
    await Promise.all(widgets.map(async (widget) => {
        await widget.sessionContext?.shutdown().catch(() => {});
        if (widget.context?.model) widget.context.model.dirty = false;  // no "leave the page?" later
        widget.dispose();
    }));
}"""


def in_lab(page: Any, url: str) -> bool:
    """The page shows the JupyterLab that serves ``url`` (a notebook can open in it without a reload)."""
    here, there = urllib.parse.urlsplit(page.url), urllib.parse.urlsplit(url)
    return (
        here.netloc == there.netloc
        and here.path.startswith("/lab")
        and there.path.startswith("/lab")
        and bool(page.evaluate("() => !!window.jupyterapp?.shell"))
    )


def close_notebooks(page: Any) -> bool:
    """Close what a JupyterLab page shows, its kernels shut down; False when the page is no
    JupyterLab or cannot (its next user reloads it)."""
    try:
        if not page.evaluate("() => !!window.jupyterapp?.shell"):
            return False
        page.evaluate(_CLOSE_NOTEBOOKS)
    except Exception:
        return False
    return True


def open_notebook(page: Any, url: str) -> None:
    """Open a notebook and wait until its kernel is idle (running earlier opens a kernel dialog): in
    the JupyterLab the page shows already when it serves ``url`` (what it showed is closed first),
    else by loading ``url``."""
    if in_lab(page, url):
        path = urllib.parse.unquote(urllib.parse.urlsplit(url).path.split("/tree/", 1)[1])
        page.evaluate(_CLOSE_NOTEBOOKS)
        page.evaluate(
            "async (path) => { await window.jupyterapp.commands.execute('docmanager:open', { path }); }", path
        )
    else:
        page.goto(url)
    wait_notebook_ready(page)


def open_and_run(page: Any, url: str, *indices: int) -> None:
    """Open the notebook at ``url`` (``Lab.notebook``) and run its cells ``indices`` in order."""
    open_notebook(page, url)
    run_cells(page, *indices)


def wait_notebook_ready(page: Any) -> None:
    """Wait until the notebook shown (after a goto or a reload) has an idle kernel."""
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext?.session?.kernel?.status === 'idle'",
        timeout=60_000,
    )


def saved_view(page: Any, output: Any) -> Any:
    """The view that ``output``'s saved widget state draws, once drawn. JupyterLab's widget manager can
    lose a saved state's models when the kernel comes up while it restores them ("Error displaying
    widget: model not found", seen on a loaded machine): then the page is reloaded once, as a person
    would; the saved state is the same."""
    root = output.locator(".mn-root").first
    lost = output.get_by_text("Error displaying widget: model not found")
    root.or_(lost).first.wait_for(timeout=60_000)
    if not root.is_visible():
        page.reload()
        wait_notebook_ready(page)
        root.wait_for(timeout=60_000)
    return root


_FIRST_CELL_STARTED = """() => {
    const prompt = document.querySelector('.jp-Notebook .jp-Cell .jp-InputPrompt');
    return !!prompt && /\\[(\\*|\\d+)\\]/.test(prompt.textContent);
}"""


def run_all(page: Any) -> None:
    """Run every cell; make sure the run really started (a command sent too early is lost)."""
    for attempt in range(2):
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        try:
            page.wait_for_function(_FIRST_CELL_STARTED, timeout=15_000)
            return
        except Exception:
            if attempt:
                raise


def save(page: Any) -> None:
    """Save the notebook: returns once it is written (evaluate waits for the command's promise)."""
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")


def painted(page: Any, frames: int = 2) -> None:
    """Returns once the browser has drawn ``frames`` more frames: what changed before (a theme, the
    window's size) is laid out and painted."""
    page.evaluate(
        "n => new Promise(done => { const next = () => (n-- > 0 ? requestAnimationFrame(next) : done()); next(); })",
        frames,
    )


def steady(
    element: Any,
    measure: str = "el => el.getElementsByTagName('*').length + ':' + el.scrollHeight",
    frames: int = 10,
    timeout: float = 30_000,
) -> None:
    """Waits until ``measure`` (a JS function of ``element``; null: not yet) gives the same value
    ``frames`` frames in a row: the element is done with what its observers and frames had to do."""
    element.page.wait_for_function(
        f"""([el, token, frames]) => {{
            const value = ({measure})(el);
            const seen = ((window.__mnSteady ??= {{}})[token] ??= {{ value: null, frames: 0 }});
            seen.frames = value !== null && value === seen.value ? seen.frames + 1 : 0;
            seen.value = value;
            return seen.frames >= frames;
        }}""",
        arg=[element.element_handle(), os.urandom(8).hex(), frames],
        polling="raf",
        timeout=timeout,
    )


def assert_no_rate_limit(page: Any) -> None:
    assert "IOPub message rate exceeded" not in page.inner_text("body")


def shot_themes() -> tuple[str, ...]:
    """The themes a loop that only takes pictures goes through: both with ``--screenshots``, else none."""
    return tuple(THEMES) if SCREENSHOTS else ()


def shot_darks() -> tuple[bool, ...]:
    """``shot_themes`` as ``dark`` flags (for ``theme(page, dark)``)."""
    return tuple(name == "dark" for name in shot_themes())


def shoot(target: Any, name: str, **options: Any) -> Path | None:
    """``target.screenshot`` (a page or a locator) into test-artifacts/<name>.png with ``--screenshots``;
    nothing otherwise (returns None)."""
    if not SCREENSHOTS:
        return None
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    target.screenshot(path=str(path), **options)
    return path


def screenshot(locator: Any, name: str, max_height: int = 5000) -> Path | None:
    """Screenshot one element into test-artifacts/<name>.png, whole even when taller than the notebook
    (up to about ``max_height`` pixels: the top of a taller one); only with ``--screenshots`` (else
    nothing is done, and None returned).

    JupyterLab scrolls the notebook inside a fixed-height panel, so an element taller than that panel
    would be cut (and the page around it captured instead): the viewport is grown for the shot.
    """
    if not SCREENSHOTS:
        return None
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page = locator.page
    viewport = page.viewport_size
    box = locator.bounding_box()
    grow = box is not None and viewport is not None and box["height"] + 250 > viewport["height"]
    if grow:
        page.set_viewport_size(
            {"width": viewport["width"], "height": min(int(box["height"]) + 300, max_height)}
        )
        painted(page)  # JupyterLab lays the panels out again (Lumino, in the next frame)
    try:
        box = locator.bounding_box()
        panel = page.locator(".jp-NotebookPanel-notebook").first.bounding_box()
        if box is not None and panel is not None and box["height"] > panel["height"]:  # too tall: its top
            locator.evaluate("el => el.scrollIntoView({block: 'start'})")
            box = locator.bounding_box()
            top = max(box["y"], panel["y"])
            clip = {
                "x": box["x"],
                "y": top,
                "width": box["width"],
                "height": panel["y"] + panel["height"] - top,
            }
            page.screenshot(path=str(path), clip=clip)
        else:
            locator.scroll_into_view_if_needed()
            locator.screenshot(path=str(path))
    finally:
        if grow:
            page.set_viewport_size(viewport)
    return path


def cell(page: Any, index: int) -> Any:
    """The locator of the notebook's code cell ``index`` (0-based)."""
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def run_cell(page: Any, index: int) -> None:
    """Run one cell (0-based) of the current notebook; returns once its execution is over (a view's
    cell returns at once: its stream goes on in the background)."""
    page.evaluate(
        """(index) => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = index;
            return window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        index,
    )


def run_cells(page: Any, *indices: int) -> None:
    """Run some cells in order (the first one is retried once if the kernel did not take it)."""
    for position, index in enumerate(indices):
        run_cell(page, index)
        prompt = cell(page, index).locator(".jp-InputPrompt")
        try:
            expect_prompt(prompt, 15_000 if position == 0 else 60_000)
        except Exception:
            if position:
                raise
            run_cell(page, index)
            expect_prompt(prompt, 60_000)


def expect_prompt(prompt: Any, timeout: float) -> None:
    from playwright.sync_api import expect

    expect(prompt).to_have_text(re.compile(r"\[\d+\]"), timeout=timeout)


def view_root(page: Any, index: int, nth: int = 0, timeout: float = 60_000) -> Any:
    """The ``.mn-root`` of the widget shown by cell ``index``, once it is rendered."""
    root = cell(page, index).locator(".mn-root").nth(nth)
    try:
        root.wait_for(state="attached", timeout=timeout)
    except Exception as error:  # say what the cell shows instead
        shown = cell(page, index).evaluate("el => el.innerText.slice(0, 2000)")
        raise AssertionError(
            f"cell {index} shows no widget after {timeout / 1000:.0f} s; it shows:\n{shown}"
        ) from error
    return root


def tool_card(scope: Any, name: str) -> Any:
    """The tool card(s) named ``name`` (exactly) under ``scope``."""
    return scope.locator(f".mn-tool:has(> .mn-card-head .mn-name:text-is('{name}'))")


def wait_status(root: Any, *statuses: str, timeout: float = 60_000) -> str:
    """Wait until the view's ``data-status`` is one of ``statuses``; return it."""
    handle = root.element_handle(timeout=timeout)
    root.page.wait_for_function(
        "([el, statuses]) => statuses.includes(el.dataset.status)",
        arg=[handle, list(statuses)],
        timeout=timeout,
    )
    return str(root.get_attribute("data-status"))


def cell_output_text(page: Any, index: int, timeout: float = 60_000) -> str:
    """The text of a cell's (stream/print) output, once there is some."""
    output = cell(page, index).locator(".jp-OutputArea-output")
    output.first.wait_for(timeout=timeout)
    return str(output.first.inner_text())


# ---- theming, and what the e2e tests share of a view -----------------------------------------------

THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
# A view scrolls inside itself under a sticky header: bring an element to its top, below that header
# (``locator.evaluate(SHOW_BELOW_HEADER)``, before a screenshot of what it shows).
SHOW_BELOW_HEADER = """el => {
  el.scrollIntoView({block: 'start'});
  let scroller = el.parentElement;
  while (scroller && scroller.scrollHeight <= scroller.clientHeight) scroller = scroller.parentElement;
  if (scroller) scroller.scrollTop -= 80;
}"""
ENDED = ("finished", "error", "aborted", "tripwire", "suspended", "incomplete")
AT_END = "el => el.scrollHeight - el.scrollTop - el.clientHeight <= 30"
# The text of a view's root run. textContent, not innerText: closed markdown blocks out of view have
# `content-visibility: auto`, and Chromium leaves skipped content out of innerText.
TEXT_OF = "el => Array.from(el.querySelectorAll('.mn-run-root > .mn-parts > .mn-text')).map(t => t.textContent).join('\\n')"


def theme(page: Any, dark: bool) -> None:
    """Switch JupyterLab to its light or dark theme, and wait until the page is painted in it."""
    label = THEMES["dark" if dark else "light"]
    if page.evaluate("() => document.body.dataset.jpThemeLight") == ("false" if dark else "true"):
        return  # in it already: nothing to switch (the light theme put back after a loop that took no pictures)
    page.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{label}'}})")
    page.wait_for_function(
        "dark => document.body.dataset.jpThemeLight === (dark ? 'false' : 'true')", arg=dark
    )
    # JupyterLab shows its splash while a theme loads and removes it 200 ms after; a second switch
    # before then removes the same splash twice (a page error in JupyterLab's own code): wait it out
    page.wait_for_selector("#jupyterlab-splash", state="detached")
    painted(page)  # in the new theme


def set_theme(page: Any, name: str) -> None:
    """``theme`` by name: "light" or "dark"."""
    theme(page, name == "dark")


def screenshots_light_and_dark(page: Any, locator: Any, name: str, max_height: int = 5000) -> None:
    """A picture of ``locator`` in each theme, ``<name>-light.png`` and ``<name>-dark.png`` (a test run
    with ``--screenshots`` only), the page left light."""
    for name_of_theme in THEMES:
        set_theme(page, name_of_theme)
        assert screenshot(locator, f"{name}-{name_of_theme}", max_height=max_height) is not None
    set_theme(page, "light")


def cells(url: str, *code: str, setup: str = "") -> list[str]:
    """A notebook's cells: a client of the server at ``url`` (then ``setup``, in the same first cell:
    the tools the later cells pass), then ``code``."""
    client = f"import mastra_notebook as mn\nclient = mn.MastraClient({url!r})"
    return [f"{client}\n{setup}" if setup else client, *code]


def live_cells(url: str, *code: str) -> list[str]:
    """As ``cells``, the client finding the server through $MASTRA_BASE_URL as a user's would."""
    return [
        f"import os\nos.environ['MASTRA_BASE_URL'] = {url!r}",
        "import mastra_notebook as mn\nclient = mn.MastraClient()",
        *code,
    ]


def open_live_view(page: Any, lab: Lab, name: str, url: str, view_cell: str, *later: str) -> Any:
    """A notebook ``name`` of ``live_cells``: a client of the server at ``url``, ``view_cell`` (cell 2,
    which shows a view) and the ``later`` cells (3, ...), left for the test to run. Runs cells 0-2 and
    returns the view's root."""
    open_and_run(page, lab.notebook(name, live_cells(url, view_cell, *later)), 0, 1, 2)
    return view_root(page, 2)


class ClientNotebook:
    """A test's page, and notebooks to open in it that talk to the real Mastra server at ``url`` (the
    ``client_notebook`` fixture: after the test it checks ``check_clean``)."""

    def __init__(self, lab: Lab, page: Any, events: PageEvents, url: str) -> None:
        self.lab = lab
        self.page = page
        self.events = events
        self.url = url

    def open(
        self, name: str, *code: str, setup: str = "", run: Sequence[int] | None = None, live: bool = False
    ) -> Any:
        """Write the notebook ``name`` of ``cells(url, *code, setup=setup)`` (of ``live_cells`` when
        ``live``: the client found through $MASTRA_BASE_URL), open it, run its cells ``run`` in order
        (every cell when None; the rest are the test's to run) and return the page."""
        assert not (live and setup), "live_cells has no setup cell"
        notebook = live_cells(self.url, *code) if live else cells(self.url, *code, setup=setup)
        open_and_run(
            self.page, self.lab.notebook(name, notebook), *(range(len(notebook)) if run is None else run)
        )
        return self.page

    def check_clean(self) -> None:
        """The page raised no error (named when it did) and JupyterLab dropped no output."""
        errors = self.events.errors
        assert not errors, f"the page raised {len(errors)} error(s):\n" + "\n".join(
            self.events.stacks or errors
        )
        assert_no_rate_limit(self.page)


def awaiting_approval(root: Any, tool: str) -> Any:
    """The card of the tool call ``tool`` in a view, once it waits for a person's approval."""
    from playwright.sync_api import expect

    card = tool_card(root, tool)
    expect(card).to_have_attribute("data-tool-status", "awaiting-approval", timeout=30_000)
    return card


def shown_text(root: Any) -> str:
    return str(root.evaluate(TEXT_OF))


def wait_text(root: Any, min_chars: int, *, status: str | None = "running", timeout: float = 30_000) -> int:
    """Wait until the view shows more than ``min_chars`` characters of text (while ``status``);
    return how many it shows then."""
    handle = root.element_handle()
    root.page.wait_for_function(
        f"([el, min, status]) => (status === null || el.dataset.status === status) && ({TEXT_OF})(el).length > min",
        arg=[handle, min_chars, status],
        timeout=timeout,
    )
    return len(shown_text(root))


def rendered_words(markdown: str) -> list[str]:
    """The words a reader sees of ``markdown`` (rendered by markdown-it-py, as markdown-it does in js/)."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").render(markdown)
    return re.findall(r"\w+", unescape(re.sub(r"<[^>]+>", " ", html)))


# ---- reading a view's whole text by scrolling it ------------------------------------------------
# Reading a view's whole text as a reader would, by scrolling it: a long text keeps only the blocks
# near view in the DOM (js/src/render/block-window.ts), so its textContent holds only that window.

# Scrolls a view from top to bottom as a reader would, two box heights a step, each step until the
# window has settled, and gathers what every block of the run's text parts showed: the whole text
# (parts joined by a newline, as their textContent would be without windowing) and its h2 headings.
READ_BY_SCROLLING = """async (el) => {
    const settle = async () => {
        let last = '';
        for (let i = 0; i < 20; i++) {
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
            const now = [...el.querySelectorAll('[data-block]')].map((b) => b.dataset.block).join(',');
            if (now === last) return;
            last = now;
        }
    };
    const parts = [...el.querySelectorAll('.mn-run-root > .mn-parts > .mn-text')];
    const seen = parts.map(() => new Map());
    el.scrollTop = 0;
    for (;;) {
        await settle();
        parts.forEach((part, i) => {
            for (const b of part.querySelectorAll('.mn-md-block[data-block]')) {
                seen[i].set(Number(b.dataset.block), [b.textContent, b.querySelectorAll('h2').length]);
            }
        });
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
        el.scrollTop += 2 * el.clientHeight;
    }
    const texts = parts.map((part, i) => {
        const blocks = [...seen[i].entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
        const tail = part.querySelector('.mn-md-tail');
        return {text: blocks.map((b) => b[0]).join('') + (tail ? tail.textContent : ''),
                h2: blocks.reduce((n, b) => n + b[1], 0) + (tail ? tail.querySelectorAll('h2').length : 0),
                missing: blocks.length === 0 ? 0 : Math.max(...seen[i].keys()) + 1 - blocks.length};
    });
    return {text: texts.map((t) => t.text).join('\\n'), h2: texts.reduce((n, t) => n + t.h2, 0),
            missing: texts.reduce((n, t) => n + t.missing, 0)};
}"""


def read_by_scrolling(root: Any) -> dict[str, Any]:
    """``{text, h2, missing}`` of a view's root text parts, read by scrolling it end to end (blocks far
    from view are not in the DOM: textContent alone has only the window)."""
    found: dict[str, Any] = root.evaluate(READ_BY_SCROLLING)
    assert found["missing"] == 0, f"{found['missing']} blocks never came back while scrolling"
    return found


def opened(card: Any) -> Any:
    """The card, unfolded (a finished tool starts folded to one line)."""
    from playwright.sync_api import expect

    head = card.locator(":scope > .mn-card-head")
    if head.get_attribute("aria-expanded") == "false":
        head.click()
    expect(head).to_have_attribute("aria-expanded", "true")
    return card
