"""One view model, two renderers that agree: for every fixture, the static transcript (scripts off)
says what the widget's own renderer says (the bundle, mounted by the export page).

The visible text (innerText, whitespace left out) is compared twice:
- as each first shows it: the widget's folded cards against the transcript's closed <details>, whose
  summaries are the widget's folded heads. The widget keeps a long JSON's whole text in the page and
  cuts it with CSS, so the transcript's "show all" parts are opened first;
- with everything unfolded: every card, <details> and tree open. A folded card's one-line summary
  (``.mn-fold-only``, on both sides) repeats what its opened body says, and the widget hides it once
  open, while a <summary> cannot hide it without a stylesheet: that line is set aside here.
In both passes the header's panels (the timeline) are opened first: the transcript has no header
controls and shows them as sections. Controls are set aside in both passes: what carries ``data-mn-control`` (the widget's "show all"
button, the transcript's "show all" label).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from mastra_notebook.core.ingest import records
from mastra_notebook.core.run import Run
from mastra_notebook.widget.export import page_html
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

# Every fixture's unfolded text is compared without a browser (tests/test_parity.py and
# js/test/parity.test.ts, over the same golden files); here, in Chromium, the scripted server's
# fixtures and one recording per provider shape: what only a real page does (CSS, the folded first
# look, the export page's bundle).
PROVIDERS = ["anthropic-web-search", "openai-responses-reasoning", "google-tools", "router-openai-tools"]
ALL = sorted(
    [*e2e.FIXTURES.glob("*.jsonl"), *(e2e.FIXTURES / "providers" / f"{name}.jsonl" for name in PROVIDERS)]
)

CONTROLS = "[data-mn-control]"  # the one definition of what is not content, in both renderers
FOLD_ONLY = ".mn-fold-only"

# Waits until `el` is drawn and done: its HTML the same three frames in a row (the widget draws in
# frames, within a budget). A condition, not a time: on a loaded machine it simply takes more frames.
SETTLED = """async (el) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  for (let last = -1, same = 0, i = 0; same < 3 && i < 3000; i++) {
    await frame();
    const now = el.innerHTML.length;
    same = now === last ? same + 1 : 0;
    last = now;
  }
}"""

# Unfolds `root` (opening a card may show more to open inside it); the widget draws some bodies on
# their toggle event (raw JSON): with `settle`, each round waits for those events and the drawing.
UNFOLD = f"""async ([root, settle]) => {{
  const settled = {SETTLED};
  const el = document.querySelector(root);
  for (let i = 0; i < 50; i++) {{
    const closed = [...el.querySelectorAll("details:not([open])")];
    // a step's Request toggle too (its panel is the transcript's <details data-mn-request>)
    const folded = [...el.querySelectorAll(".mn-fold-head[aria-expanded='false'], .mn-request-toggle[aria-expanded='false']:not([hidden])")];
    if (!closed.length && !folded.length) break;
    const toggled = closed.map((d) => new Promise((done) => d.addEventListener("toggle", done, {{ once: true }})));
    for (const d of closed) d.open = true;
    for (const head of folded) head.click();
    if (settle) {{
      await Promise.all(toggled);
      await settled(el);
    }}
  }}
}}"""

PANELS = f"""async () => {{
  for (const toggle of document.querySelectorAll(".mn-header button[aria-expanded='false']")) toggle.click();
  await ({SETTLED})(document.querySelector(".mn-root"));
}}"""

# The text of `root` with the controls (and, unfolded, the folded-only summaries) taken out: read from a
# copy beside it, so that the page itself goes on unchanged (unfolded next, in the same page).
READ = """([root, unfold, controls, foldOnly]) => {
  const original = document.querySelector(root);
  const el = original.cloneNode(true);
  original.after(el);
  if (unfold) for (const x of el.querySelectorAll(foldOnly)) x.remove();
  else for (const d of el.querySelectorAll("details[data-mn-show-all]")) d.open = true;
  for (const x of el.querySelectorAll(controls)) x.remove();
  const text = el.innerText;
  el.remove();
  return text;
}"""

# What the widget does to draw less, not to say less: blocks out of view skip layout
# (content-visibility, which innerText then skips too) and a long text keeps only the blocks near
# view in the DOM (without IntersectionObserver it keeps them all).
ALL_DRAWN = """delete window.IntersectionObserver;
document.addEventListener("DOMContentLoaded", () => {
  const style = document.createElement("style");
  style.textContent = ".mn-root .mn-md-block { content-visibility: visible !important; }";
  document.head.append(style);
});"""


def _page(fixture: Path, out: Path) -> Path:
    run = Run()
    for item in records(fixture):
        run.feed(item)
    run.end()
    page = out / f"{fixture.stem}.html"
    page.write_text(page_html(run, fixture.stem))
    return page


def _widget_texts(browser: Any, page_file: Path) -> tuple[str, str]:
    """The widget's text as first shown, then unfolded (one page: the first read leaves it as it was)."""
    context = browser.new_context(offline=True)
    page = context.new_page()
    page.add_init_script(ALL_DRAWN)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status]", timeout=15_000)
    # drawn in frames within a budget: wait until the text stops growing
    page.wait_for_function(
        """() => { const t = document.querySelector('.mn-root').innerText;
                   const same = t === window.__mnLast; window.__mnLast = t; return same; }""",
        polling=250,
        timeout=30_000,
    )
    # the header's panels (the timeline) open: the transcript, with no header controls, shows them as sections
    page.evaluate(PANELS)
    folded = str(page.evaluate(READ, [".mn-root", False, CONTROLS, FOLD_ONLY]))
    page.evaluate(UNFOLD, [".mn-root", True])
    unfolded = str(page.evaluate(READ, [".mn-root", True, CONTROLS, FOLD_ONLY]))
    context.close()
    assert not errors
    return folded, unfolded


def _transcript_texts(browser: Any, page_file: Path) -> tuple[str, str]:
    """The static transcript's text (scripts off) as first shown, then unfolded."""
    context = browser.new_context(offline=True, java_script_enabled=False)
    page = context.new_page()
    page.goto(page_file.as_uri())
    assert page.locator("body[data-mounted]").count() == 0  # the bundle did not run
    assert page.locator(".mn-root").count() == 0
    root = "#mn-view > .mastra-notebook-transcript"
    folded = str(page.evaluate(READ, [root, False, CONTROLS, FOLD_ONLY]))
    page.evaluate(UNFOLD, [root, False])
    unfolded = str(page.evaluate(READ, [root, True, CONTROLS, FOLD_ONLY]))
    context.close()
    return folded, unfolded


def _same(widget: str, transcript: str, what: str) -> None:
    ours, theirs = (re.sub(r"\s+", "", text) for text in (widget, transcript))
    if ours == theirs:
        return
    at = next(
        (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs))
    )
    pytest.fail(
        f"{what}: the transcript's text differs from the widget's at character {at} (whitespace left out)\n"
        f"widget:     …{ours[max(0, at - 120) : at + 120]}…\n"
        f"transcript: …{theirs[max(0, at - 120) : at + 120]}…"
    )


@pytest.mark.parametrize("fixture", ALL, ids=[f.relative_to(e2e.FIXTURES).as_posix() for f in ALL])
def test_transcript_says_what_the_widget_says(fixture: Path, browser: Any, tmp_path: Path) -> None:
    page_file = _page(fixture, tmp_path)
    widget = _widget_texts(browser, page_file)
    transcript = _transcript_texts(browser, page_file)
    for what, ours, theirs in zip(("as first shown", "unfolded"), widget, transcript, strict=True):
        assert len(re.sub(r"\s+", "", ours)) > 20  # the run was drawn, not a placeholder
        _same(ours, theirs, what)


# GitHub's page colours, light and dark: the transcript keeps the page's text colour.
THEMES = {"light": ("#ffffff", "#1f2328"), "dark": ("#0d1117", "#e6edf3")}
SHOWN = ["tool-call", "tool-approval", "workflow-stream", "agent-as-tool", "structured-output", "long-text"]


@pytest.mark.screenshots  # pictures only: the text is compared above
@pytest.mark.parametrize("name", SHOWN)
def test_transcript_screenshots(name: str, browser: Any, tmp_path: Path) -> None:
    """The transcript alone, scripts off, on a light and a dark page (looked at: test-artifacts/)."""
    run = Run()
    for item in records(e2e.FIXTURES / f"{name}.jsonl"):
        run.feed(item)
    run.end()
    for theme, (background, colour) in THEMES.items():
        page_file = tmp_path / f"{name}-{theme}.html"
        body = f'<body style="background:{background};color:{colour};font-family:system-ui,sans-serif;font-size:14px">'
        page_file.write_text(f'<!doctype html><meta charset="utf-8">{body}{run.result._repr_html_()}</body>')
        context = browser.new_context(java_script_enabled=False, viewport={"width": 900, "height": 700})
        page = context.new_page()
        page.goto(page_file.as_uri())
        transcript = page.locator(".mastra-notebook-transcript")
        assert transcript.is_visible()
        box = transcript.bounding_box()
        assert box is not None
        clip = {**box, "height": min(box["height"], 1400)}  # a long text: its first screens
        e2e.shoot(page, f"transcript-{name}-{theme}", clip=clip, full_page=True)
        context.close()
