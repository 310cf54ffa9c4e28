"""The chunk inspector and the replay keys in a real JupyterLab, light and dark: columns that cut
nothing (a nested chunk's path under its type; an envelope's row names its outer chunk), readable
highlights, the first highlighted chunk scrolled into view inside the panel (the
notebook does not move), replay times, arrow keys that step the replay and not the notebook, and the
list again after a page reload; after a kernel restart it says that no kernel answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

NESTED = Path(__file__).resolve().parents[1] / "fixtures" / "agent-as-tool.jsonl"
TOTAL = 65

# The contrast of an element's text against the colours painted behind it (alpha composited).
CONTRAST = """(el) => {
    const ctx = Object.assign(document.createElement('canvas'), {width: 1, height: 1})
        .getContext('2d', {willReadFrequently: true});
    const rgba = (c) => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = c;
        ctx.fillRect(0, 0, 1, 1); const d = ctx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255]; };
    const over = (t, u) => t.slice(0, 3).map((c, i) => c * t[3] + u[i] * (1 - t[3]));
    const layers = [];
    for (let e = el; e; e = e.parentElement) layers.push(rgba(getComputedStyle(e).backgroundColor));
    const bg = layers.reverse().reduce((u, t) => over(t, u), [255, 255, 255]);
    const fg = over(rgba(getComputedStyle(el).color), bg);
    const lum = (rgb) => { const [r, g, b] = rgb.map((c) => { c /= 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
}"""

# Every scrolling box above the view: a click in the view must not move any of them.
SCROLLS = """(el) => { const out = []; for (let e = el.parentElement; e; e = e.parentElement) out.push(e.scrollTop);
    return out.concat([document.scrollingElement.scrollTop]); }"""


def position(root: Any) -> int:
    return int(root.locator(".mn-replay").get_attribute("data-position") or -1)


def wait_position(root: Any, value: int) -> None:
    root.page.wait_for_function(
        "([el, v]) => el.querySelector('.mn-replay').dataset.position === String(v)",
        arg=[root.element_handle(), value],
        timeout=20_000,
    )


def active_cell(page: Any) -> int:
    return int(page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"))


def open_inspector(root: Any) -> Any:
    root.locator("button.mn-inspect").click()
    root.page.wait_for_function(
        "([el, n]) => el.querySelectorAll('.mn-chunks .mn-chunk').length === n",
        arg=[root.element_handle(), TOTAL],
        timeout=20_000,
    )
    return root.locator(".mn-inspector")


# the dark run repeats the light run's checks (a theme is CSS variables): its picture, on demand
@pytest.mark.parametrize(
    "theme", ["JupyterLab Light", pytest.param("JupyterLab Dark", marks=pytest.mark.screenshots)]
)
def test_inspector_layout_keys_and_reload(theme: str, lab: e2e.Lab, page: Any) -> None:
    name = "inspector-" + theme.rsplit(maxsplit=1)[-1].lower()
    cells = [f"import mastra_notebook as mn\nv = mn.replay({str(NESTED)!r}, autoplay=False)\nv", "1 + 1"]
    e2e.open_notebook(page, lab.notebook(name, cells))
    page.evaluate("(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})", theme)
    page.wait_for_function(
        "(light) => document.body.dataset.jpThemeLight === String(light)", arg=theme.endswith("Light")
    )
    e2e.run_cells(page, 0)
    root = e2e.view_root(page, 0)
    wait_position(root, 0)

    # arrow keys step the replay; the notebook's active cell and the focus stay where they were
    scrubber = root.locator("input.mn-scrubber")
    scrubber.focus()
    before = active_cell(page)
    for key, expected in [("ArrowRight", 1), ("ArrowRight", 2), ("ArrowDown", 1), ("End", TOTAL)]:
        page.keyboard.press(key)
        wait_position(root, expected)
    root.locator("button.mn-step-back").focus()
    page.keyboard.press("ArrowLeft")
    wait_position(root, TOTAL - 1)
    page.keyboard.press("End")
    wait_position(root, TOTAL)
    assert active_cell(page) == before
    assert root.evaluate("el => el.contains(document.activeElement)")

    # columns that cut nothing: every type, from and path reads whole (issue 17: "tool-call-in…",
    # "agent-researc…"); a nested chunk's path on a line under its type; times from the replay
    panel = open_inspector(root)
    rows = panel.locator(".mn-chunks .mn-chunk")
    cut = rows.evaluate_all(
        """rows => rows.flatMap(r => [...r.querySelectorAll('span')].filter(c => c.offsetParent !== null
            && c.scrollWidth > c.clientWidth + 1).map(c => `${r.dataset.i}: ${c.textContent}`))"""
    )
    assert cut == [], cut
    # the recording has no arrival times: no time is made up from the replay's pace (issue 17)
    times = panel.locator(".mn-chunks .mn-chunk-time").all_text_contents()
    assert times == [""] * TOTAL, times[:5]
    nested = panel.locator(".mn-chunks .mn-chunk:has(.mn-chunk-path[title='agent-researcher'])").first
    assert nested.locator(".mn-chunk-path").text_content() == "agent-researcher"
    # an envelope's row names what its JSON shows first, then what it carries
    assert nested.locator(".mn-chunk-type").text_content() == "tool-output › start"
    assert nested.locator(".mn-chunk-from").text_content().endswith("› AGENT")
    type_box = nested.locator(".mn-chunk-type").bounding_box()
    path_box = nested.locator(".mn-chunk-path").bounding_box()
    assert path_box["y"] >= type_box["y"] + type_box["height"] - 1, "the path is on a line of its own"
    assert abs(path_box["x"] - type_box["x"]) < 1, "under the type"
    nested.click()
    json_text = nested.locator(".mn-chunk-json").inner_text(timeout=10_000)
    assert '"type": "tool-output"' in json_text.split("\n", 3)[1], json_text[:200]
    nested.click()
    lefts = rows.evaluate_all(
        "rows => rows.map(r => [...r.children].slice(0, 4).map(c => Math.round(c.offsetLeft)))"
    )
    assert all(left == lefts[0] for left in lefts), "every row has the same columns"

    # a click on the researcher's text: its chunks highlighted, the first scrolled into view in the panel
    panel.evaluate("el => { el.scrollTop = el.scrollHeight; }")
    part = root.locator(".mn-tool .mn-run .mn-text").first
    part.scroll_into_view_if_needed()
    scrolls = root.evaluate(SCROLLS)
    part.click()
    hits = panel.locator(".mn-chunk.mn-hit")
    assert hits.count() == 10  # text-start and 9 deltas (untimed: the text-end sets no ended_at)
    assert root.evaluate(SCROLLS) == scrolls, "the page and the notebook did not scroll"
    box, first = panel.bounding_box(), hits.first.bounding_box()
    head = panel.locator(".mn-inspector-top").bounding_box()
    assert head["y"] + head["height"] <= first["y"] + 1, "below the panel's sticky head"
    assert first["y"] + first["height"] <= box["y"] + box["height"] + 1, "above the panel's bottom"
    for cell_name in ("type", "path", "i"):
        ratio = hits.first.locator(f".mn-chunk-{cell_name}").evaluate(CONTRAST)
        assert ratio >= 4.5, (cell_name, ratio)
    assert "10 of 65 chunks built the selected part" in panel.inner_text()
    e2e.screenshot(root, name)

    # a page reload draws the view again: opening the inspector asks the kernel again
    e2e.save(page)
    page.reload()
    e2e.wait_notebook_ready(page)
    root = e2e.view_root(page, 0)
    panel = open_inspector(root)
    assert panel.get_attribute("data-state") == "ready"
    assert panel.locator(".mn-chunks .mn-chunk-type").nth(1).text_content() == "step-start"  # listed again

    # a restarted kernel has no chunk list: the panel says so instead of an empty table
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()")
    e2e.wait_notebook_ready(page)
    root = e2e.view_root(page, 0)
    root.locator("button.mn-inspect").click()  # closes it
    if root.locator(".mn-inspector").get_attribute("data-state") == "closed":
        root.locator("button.mn-inspect").click()
    page.wait_for_function(
        "el => el.querySelector('.mn-inspector').dataset.state === 'no-kernel'",
        arg=root.element_handle(),
        timeout=15_000,
    )
    assert "No kernel answers" in root.locator(".mn-inspector").inner_text()
    assert root.locator(".mn-chunks .mn-chunk").count() == 0
    e2e.screenshot(root, name + "-no-kernel")
