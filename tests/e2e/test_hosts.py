"""The view in hosts that are not JupyterLab: the bundle mounted in a bare page (the export page: no
kernel, no --jp-* variables) with Tailwind's preflight injected (as marimo does), on a white page, on
a dark page, with prefers-color-scheme dark, and under a dark VS Code theme (its --vscode-* variables
and body class, and the white background VS Code gives widgets). Headings keep their weight, lists
their markers, and every piece of text reads (contrast at least 4.5 against what is behind it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.widget.export import page_html
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

MARKDOWN = """# A title

## A section

### A subsection

#### A small heading

Some **strong** text and [a link](https://example.com).

- first point
- second point
  - a nested point

1. one
2. two
"""

# Tailwind's preflight, the rules that reach a widget (v3, and v4's reset of every element).
PREFLIGHT = """
*, ::before, ::after { box-sizing: border-box; border-width: 0; border-style: solid; border-color: #e5e7eb; }
* { margin: 0; padding: 0; }
html, :host { line-height: 1.5; font-family: ui-sans-serif, system-ui, sans-serif; }
h1, h2, h3, h4, h5, h6 { font-size: inherit; font-weight: inherit; }
a { color: inherit; text-decoration: inherit; }
b, strong { font-weight: bolder; }
ol, ul, menu { list-style: none; margin: 0; padding: 0; }
blockquote, dl, dd, h1, h2, h3, h4, h5, h6, hr, figure, p, pre { margin: 0; }
button, input { font: inherit; color: inherit; background-color: transparent; }
img, svg { display: block; vertical-align: middle; }
"""

VSCODE_DARK = """
:root { --vscode-editor-foreground: #cccccc; --vscode-editor-background: #1f1f1f;
        --vscode-descriptionForeground: rgba(204, 204, 204, 0.7); }
html, body { background: #ffffff; color: #cccccc; }
"""

# name -> (page CSS, body class, emulated color scheme, the view's background should be dark)
HOSTS: dict[str, tuple[str, str, str, bool]] = {
    "white": ("html, body { background: #ffffff; color: #000000; }", "", "light", False),
    "dark-page": ("html, body { background: #111111; color: #eeeeee; }", "", "light", False),
    "prefers-dark": ("html, body { background: #111111; color: #eeeeee; }", "", "dark", True),
    "vscode-dark": (VSCODE_DARK, "vscode-dark", "dark", True),
}

# Every element with text of its own: its contrast against the colours painted behind it.
CONTRAST = """() => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext('2d', {willReadFrequently: true});
    const rgba = (colour) => {  // any CSS colour (rgb, color(srgb), color-mix) as [r, g, b, a]
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = '#000';
        ctx.fillStyle = colour;
        ctx.fillRect(0, 0, 1, 1);
        const d = ctx.getImageData(0, 0, 1, 1).data;
        return [d[0], d[1], d[2], d[3] / 255];
    };
    const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
    const behind = (el) => {
        const layers = [];
        for (let e = el; e; e = e.parentElement) layers.push(rgba(getComputedStyle(e).backgroundColor));
        return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255]);
    };
    const lum = (rgb) => {
        const [r, g, b] = rgb.map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const out = [];
    for (const el of document.querySelectorAll('.mn-root, .mn-root *')) {
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!own || !el.getClientRects().length) continue;
        const bg = behind(el);
        const fg = over(rgba(getComputedStyle(el).color), bg);
        const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
        out.push({text: el.textContent.trim().slice(0, 40), cls: el.className, ratio: (a + 0.05) / (b + 0.05)});
    }
    const root = document.querySelector('.mn-root');
    return {items: out, rootBg: lum(behind(root))};
}"""

STYLES = """() => {
    const style = (sel) => getComputedStyle(document.querySelector(sel));
    const body = parseFloat(style('.mn-root .mn-md p').fontSize);
    return {
        body,
        headings: ['h1', 'h2', 'h3', 'h4'].map((h) => {
            const s = style('.mn-root .mn-md ' + h);
            return [h, Number(s.fontWeight), parseFloat(s.fontSize)];
        }),
        ul: [style('.mn-md ul').listStyleType, parseFloat(style('.mn-md ul').paddingLeft)],
        nested: style('.mn-md ul ul').listStyleType,
        ol: [style('.mn-md ol').listStyleType, parseFloat(style('.mn-md ol').paddingLeft)],
        li: style('.mn-md li').display,
        strong: Number(style('.mn-md strong').fontWeight),
        link: style('.mn-md a').textDecorationLine,
    };
}"""


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = mn.Run()
    for chunk in [
        {"type": "start", "runId": "r", "from": "AGENT", "payload": {}},
        {"type": "text-start", "runId": "r", "from": "AGENT", "payload": {"id": "t"}},
        {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": MARKDOWN}},
        {"type": "text-end", "runId": "r", "from": "AGENT", "payload": {"id": "t"}},
        {"type": "finish", "runId": "r", "from": "AGENT",
         "payload": {"stepResult": {"reason": "stop"},
                     "output": {"usage": {"inputTokens": 12, "outputTokens": 34, "totalTokens": 46}}}},
    ]:  # fmt: skip
        run.feed(chunk)
    run.end()
    path = tmp_path_factory.mktemp("hosts") / "page.html"
    path.write_text(page_html(run, "A host test"))
    return path


@pytest.mark.parametrize("host", list(HOSTS))
def test_view_holds_in_a_bare_host(host: str, browser: Any, page_file: Path) -> None:
    css, body_class, scheme, dark = HOSTS[host]
    context = browser.new_context(offline=True, color_scheme=scheme, viewport={"width": 900, "height": 900})
    page = context.new_page()
    try:
        page.goto(page_file.as_uri())
        page.wait_for_selector("body[data-mounted='true'] .mn-root .mn-md h1")
        page.add_style_tag(content=PREFLIGHT + css)  # after the view's own stylesheet, as a host's would be
        if body_class:
            page.evaluate("(cls) => document.body.classList.add(cls)", body_class)
        styles = page.evaluate(STYLES)
        for name, weight, size in styles["headings"]:
            assert weight >= 600, (name, weight)
            assert size >= styles["body"], (name, size)
        sizes = [size for _, _, size in styles["headings"]]
        assert sizes == sorted(sizes, reverse=True), sizes
        assert sizes[0] > styles["body"] * 1.3, sizes
        assert styles["ul"][0] == "disc", styles["ul"]
        assert styles["ul"][1] > 0, styles["ul"]
        assert styles["nested"] == "circle"
        assert styles["ol"][0] == "decimal", styles["ol"]
        assert styles["ol"][1] > 0, styles["ol"]
        assert styles["li"] == "list-item"
        assert styles["strong"] >= 600
        assert styles["link"] == "underline"
        measured = page.evaluate(CONTRAST)
        texts = {item["text"] for item in measured["items"]}
        assert {"A title", "first point", "one"} <= texts, texts
        poor = [item for item in measured["items"] if item["ratio"] < 4.5]
        assert not poor, poor
        assert (measured["rootBg"] < 0.1) == dark, measured["rootBg"]
        e2e.shoot(page, f"host-{host}", full_page=True)
    finally:
        context.close()
