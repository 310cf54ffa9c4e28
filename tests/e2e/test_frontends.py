"""The view in the frontends besides JupyterLab, for real, in headless Chromium: Notebook 7, marimo
(the view as a cell's last expression and in ``mo.ui.anywidget``), Voila, and nbconvert's HTML of an
executed notebook. Each renders and streams; where a reader can act, Stop and folding work.

Notebook 7 and Voila are served by the session's JupyterLab server (the `notebook` and `voila`
packages add themselves to it); marimo runs a generated app with ``marimo run``, once for the module.
Screenshots (light and dark) go to ``test-artifacts/frontends-*.png``.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

LONG_TEXT = e2e.FIXTURES / "long-text.jsonl"  # 5,000 chunks: at 10 ms each, long enough to stop
TOOL_CALL = e2e.FIXTURES / "tool-call.jsonl"
FINAL_WORDS = "partly cloudy, humidity 64%"  # the tool-call run's last sentence
TEXT_OF = "(el) => [...el.querySelectorAll('.mn-text')].map((t) => t.textContent).join('')"


# ---- what every frontend must do -----------------------------------------------------------------


def streams_then_stops(root: Any) -> None:
    """The long run arrives piece by piece; Stop ends it, keeping what arrived (``aborted``)."""
    handle = root.element_handle(timeout=60_000)
    root.page.wait_for_function(
        f"(el) => el.dataset.status === 'running' && ({TEXT_OF})(el).length > 300", arg=handle, timeout=60_000
    )
    root.locator("button.mn-stop").click()
    assert e2e.wait_status(root, "finished", "aborted", timeout=20_000) == "aborted"
    expect(root.locator("button.mn-stop")).to_be_hidden()
    expect(root.locator(".mn-banner-abort")).to_have_text("stopped by the user")
    shown = root.evaluate(TEXT_OF)
    assert 300 < len(shown) < 200_000  # far from the 3 MB the whole run holds


def folds(root: Any) -> None:
    """The finished tool card is one folded line that opens and closes on its head."""
    assert e2e.wait_status(root, "finished", timeout=60_000) == "finished"
    expect(root.locator(".mn-text").last).to_contain_text(FINAL_WORDS)
    card = root.locator(".mn-tool")
    head, body = card.locator(":scope > .mn-card-head"), card.locator(":scope > .mn-card-body")
    expect(head).to_have_attribute("aria-expanded", "false")
    expect(body).to_be_hidden()
    head.locator(".mn-kind-label").click()
    expect(head).to_have_attribute("aria-expanded", "true")
    expect(body.locator(".mn-args pre")).to_have_text('{"city": "Paris"}')
    head.locator(".mn-kind-label").click()
    expect(head).to_have_attribute("aria-expanded", "false")


def styles_intact(page: Any) -> None:
    """A host's reset does not reach the views: headings keep their weight, lists their markers."""
    heading = page.locator(".mn-root .mn-text h2").first  # the long text's sections
    assert int(heading.evaluate("(el) => getComputedStyle(el).fontWeight")) >= 600
    item = page.locator(".mn-root .mn-text li").first  # the tool run's answer
    assert item.evaluate("(el) => getComputedStyle(el).display") == "list-item"
    assert item.evaluate("(el) => getComputedStyle(el.parentElement).listStyleType") in ("disc", "decimal")


# ---- Notebook 7 ----------------------------------------------------------------------------------

CELLS = [
    "import mastra_notebook as mn",
    f"stop = mn.view({str(LONG_TEXT)!r}, delay=0.01)\nstop",
    f"tool = mn.view({str(TOOL_CALL)!r}, delay=0.03)\ntool",
]


def test_notebook7_renders_streams_stops_and_folds(lab: e2e.Lab, browser: Any) -> None:
    lab.notebook("frontends-nb7", CELLS)
    with e2e.watched_page(browser, "frontends-notebook7", full_page=True) as (page, events):
        page.goto(f"{lab.url}/notebooks/frontends-nb7.ipynb")
        e2e.wait_notebook_ready(page)
        e2e.run_cells(page, 0, 1, 2)
        stop, tool = e2e.view_root(page, 1), e2e.view_root(page, 2)
        streams_then_stops(stop)
        folds(tool)
        styles_intact(page)
        expect(page.locator(".jp-Notebook .mastra-notebook-transcript")).to_have_count(2)
        for transcript in page.locator(".jp-Notebook .mastra-notebook-transcript").all():
            expect(transcript).to_be_hidden()  # beside their drawn views
        for dark in e2e.shot_darks():
            e2e.theme(page, dark)
            e2e.screenshot(tool, f"frontends-notebook7-{'dark' if dark else 'light'}")
        e2e.theme(page, False)
        assert not [error for error in events.errors if error not in e2e.NOTEBOOK7_OWN_ERRORS], events.errors


# ---- Voila -----------------------------------------------------------------------------------------


def test_voila_renders_streams_and_applies_the_final_state(lab: e2e.Lab, browser: Any) -> None:
    cells = ["import mastra_notebook as mn", f"mn.view({str(TOOL_CALL)!r}, delay=0.12)"]  # about 3.5 s
    lab.notebook("frontends-voila", cells)
    for dark in (False, True):
        name = f"frontends-voila-{'dark' if dark else 'light'}"
        with e2e.watched_page(browser, name, full_page=True) as (page, events):
            page.goto(f"{lab.url}/voila/render/frontends-voila.ipynb{'?theme=dark' if dark else ''}")
            root = page.locator(".mn-root").first
            root.wait_for(timeout=60_000)
            if not dark:  # it streams: seen running with part of its text, then as it ended
                assert e2e.wait_status(root, "running", "finished") == "running"
                expect(root.locator(".mn-text").first).to_contain_text("Let me look up", timeout=30_000)
            folds(root)
            expect(root.locator(".mn-tool")).to_have_attribute("data-tool-status", "done")
            expect(root).to_contain_text("112 tokens")  # the final usage
            expect(page.locator(".mastra-notebook-transcript")).to_be_hidden()
            assert not events.errors, events.errors


# ---- marimo -------------------------------------------------------------------------------------

MARIMO_APP = """import marimo

app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import mastra_notebook as mn
    return mn, mo


@app.cell
def _(mn):
    stop = mn.view({long!r}, delay=0.01)
    stop  # a view as the cell's last expression
    return (stop,)


@app.cell
def _(mn):
    tool = mn.view({tool!r}, delay=0.03)
    tool
    return (tool,)


@app.cell
def _(mn, mo):
    wrapped_stop = mo.ui.anywidget(mn.view({long!r}, delay=0.01))  # a view in marimo's own wrapper
    wrapped_stop
    return (wrapped_stop,)


@app.cell
def _(mn, mo):
    wrapped_tool = mo.ui.anywidget(mn.view({tool!r}, delay=0.03))
    wrapped_tool
    return (wrapped_tool,)


@app.cell
def _(mn):
    mn.collect({tool!r})  # a RunResult: its transcript, through marimo's display of _repr_html_
    return
"""


@pytest.fixture(scope="module")
def marimo_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``marimo run`` on a generated app (each page load runs it afresh); its theme follows the system."""
    app = MARIMO_APP.format(long=str(LONG_TEXT), tool=str(TOOL_CALL))
    with e2e.serving_marimo(tmp_path_factory.mktemp("marimo"), app) as url:
        yield url


def test_marimo_renders_streams_stops_and_folds_with_its_styles_intact(marimo_url: str, browser: Any) -> None:
    with e2e.watched_page(browser, "frontends-marimo", full_page=True) as (page, events):
        page.goto(marimo_url)
        roots = page.locator(".mn-root")
        expect(roots).to_have_count(4, timeout=60_000)
        for first in (0, 2):  # as the last expression, then in mo.ui.anywidget
            streams_then_stops(roots.nth(first))
            folds(roots.nth(first + 1))
        tool = roots.nth(3)
        styles_intact(page)
        # a finished RunResult shows its transcript, as it does in a saved Jupyter notebook
        transcript = page.locator(".mastra-notebook-transcript")
        expect(transcript).to_be_visible()
        expect(transcript).to_contain_text(FINAL_WORDS)
        expect(transcript).to_contain_text("finished")
        marker = transcript.locator("li").first.evaluate(
            "(el) => getComputedStyle(el.parentElement).listStyleType"
        )
        assert marker == "disc"  # RunResult._mime_ restates what Tailwind's reset takes away
        for dark in e2e.shot_darks():
            page.emulate_media(color_scheme="dark" if dark else "light")
            e2e.painted(page)  # in the new color scheme
            suffix = "dark" if dark else "light"
            tool.scroll_into_view_if_needed()
            e2e.shoot(tool, f"frontends-marimo-anywidget-{suffix}")
            e2e.shoot(transcript, f"frontends-marimo-result-{suffix}")
        assert not events.errors, events.errors


# ---- nbconvert's HTML of an executed notebook --------------------------------------------------------


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A notebook executed headless with its widget state, exported by nbconvert's HTML exporter in
    its light and dark themes."""
    from nbconvert import HTMLExporter

    folder = tmp_path_factory.mktemp("nbconvert")
    cells = [f"import mastra_notebook as mn\nv = mn.view({str(TOOL_CALL)!r}, delay=0.01)\nv", "r = v.wait()"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    NotebookClient(notebook, timeout=60, kernel_name="python3", store_widget_state=True).execute()
    pages = {}
    for theme_name in ("light", "dark"):
        body, _ = HTMLExporter(theme=theme_name).from_notebook_node(notebook)
        pages[theme_name] = folder / f"executed-{theme_name}.html"
        pages[theme_name].write_text(body)
    return pages


@pytest.mark.parametrize("theme_name", ["light", "dark"])
def test_nbconvert_html_without_scripts_shows_the_final_transcript(
    exported: dict[str, Path], browser: Any, theme_name: str
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(exported[theme_name].as_uri())
        transcript = page.locator(".mastra-notebook-transcript")
        expect(transcript).to_have_count(1)
        expect(transcript).to_be_visible()
        expect(transcript).to_contain_text(FINAL_WORDS)
        expect(transcript).to_contain_text("finished")
        expect(transcript).not_to_contain_text("running")
        expect(page.locator(".mn-root")).to_have_count(0)
        e2e.shoot(transcript, f"frontends-nbconvert-no-scripts-{theme_name}")
    finally:
        context.close()


HTML_MANAGER = "@jupyter-widgets/html-manager@1.0.15"  # what nbconvert's page loads from unpkg
SHARE = Path(sys.prefix) / "share" / "jupyter"


@pytest.fixture(scope="module")
def page_scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The scripts nbconvert's page asks of CDNs, from here (the test machine has no internet but
    npm's registry): require.js (Voila ships it), the widgets' HTML manager (its npm package, fetched
    once) and anywidget's AMD bundle (the anywidget package ships it)."""
    folder = tmp_path_factory.mktemp("html-manager")
    subprocess.run(["npm", "pack", HTML_MANAGER, "--silent"], cwd=folder, check=True, timeout=120)
    (tarball,) = folder.glob("*.tgz")
    with tarfile.open(tarball) as archive:
        archive.extract("package/dist/embed-amd.js", folder, filter="data")
    return {
        "require.min.js": SHARE / "voila" / "templates" / "base" / "static" / "require.min.js",
        "html-manager": folder / "package" / "dist" / "embed-amd.js",
        "anywidget@": SHARE / "nbextensions" / "anywidget" / "index.js",
    }


@pytest.mark.parametrize("theme_name", ["light", "dark"])
def test_nbconvert_html_with_scripts_draws_the_view_from_its_saved_state(
    exported: dict[str, Path], browser: Any, page_scripts: dict[str, Path], theme_name: str
) -> None:
    def serve(route: Any) -> None:
        for part, path in page_scripts.items():
            if part in route.request.url:
                route.fulfill(path=str(path), content_type="application/javascript")
                return
        route.abort()  # MathJax: not needed here

    name = f"frontends-nbconvert-scripts-{theme_name}"
    with e2e.watched_page(browser, name, full_page=True) as (page, events):
        page.context.route(lambda url: not url.startswith("file:"), serve)
        page.goto(exported[theme_name].as_uri())
        root = page.locator(".mn-root")
        expect(root).to_have_count(1, timeout=30_000)
        assert e2e.wait_status(root, "finished", timeout=30_000) == "finished"
        expect(root.locator(".mn-text").last).to_contain_text(FINAL_WORDS)
        expect(root.locator(".mn-tool")).to_have_attribute("data-tool-status", "done")
        expect(page.locator(".mastra-notebook-transcript")).to_be_hidden()  # beside its drawn view
        assert not events.errors, events.errors


# ---- VS Code's output webview, by shape --------------------------------------------------------------

# VS Code is not here: its notebook webview's layout is (a cell's container, one container an output,
# each holding the renderer's element), the shape its preload script builds. In cell 1 two views: the
# first drew, the second could not; cell 2 shows a RunResult, cell 3 a transcript alone.
DRAWN_KEY = "0123456789abcdef0123456789abcdef"
UNDRAWN_KEY = "fedcba9876543210fedcba9876543210"
VSCODE_SHAPED = f"""<div id="container">
  <div class="cell_container" id="c1">
    <div class="output_container"><div class="output"><div class="widget" id="w1"></div></div></div>
    <div class="output_container"><div class="output">
      <div class="mastra-notebook-transcript mn-transcript-of-{DRAWN_KEY}" id="t1">transcript 1</div></div></div>
    <div class="output_container"><div class="output"><pre>&lt;StreamView run: its transcript
      follows&gt;</pre></div></div>
  </div>
  <div class="cell_container" id="c2">
    <div class="output_container"><div class="output"><div class="mastra-notebook-transcript" id="t3">
      a RunResult</div></div></div>
  </div>
  <div class="cell_container" id="c3">
    <div class="output_container"><div class="output">
      <div class="mastra-notebook-transcript mn-transcript-of-{UNDRAWN_KEY}" id="t4">a view that could not draw</div>
    </div></div>
  </div>
</div>"""

# The real bundle renders a view into #w1 with a model as anywidget passes it (get/on/off/send).
MOUNT = """async ([bundle, key]) => {
  const url = URL.createObjectURL(new Blob([bundle], {type: "text/javascript"}));
  const module = await import(url);
  const traits = {view_key: key, title: "agent weather", streaming: false, _final: ""};
  const model = {get: (name) => traits[name], on() {}, off() {}, send() {}};
  module.default.render({model, el: document.getElementById("w1")});
}"""


def test_vscode_shaped_outputs_hide_only_the_transcript_of_the_view_that_drew(browser: Any) -> None:
    """Hiding goes by the view's key, not by a host's layout: in a page shaped like VS Code's output
    webview, the drawn view hides its own transcript; a RunResult's and an undrawn view's stay."""
    static = e2e.ROOT / "mastra_notebook" / "static"
    page = browser.new_page()
    try:
        page.set_content(
            f"<!doctype html><html><head><style>{(static / 'widget.css').read_text()}</style></head>"
            f"<body>{VSCODE_SHAPED}</body></html>"
        )
        for shown in ("#t1", "#t3", "#t4"):  # before any view draws, every transcript is read
            expect(page.locator(shown)).to_be_visible()
        page.evaluate(MOUNT, [(static / "widget.js").read_text(), DRAWN_KEY])
        expect(page.locator("#w1 .mn-root")).to_be_visible()
        expect(page.locator("#t1")).to_be_hidden()
        for shown in ("#t3", "#t4"):
            expect(page.locator(shown)).to_be_visible()
    finally:
        page.close()
