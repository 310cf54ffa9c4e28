"""Issue 21, the static half (js/src/render/rich.ts run in the kernel, render/engine.py; the widget's
is js/test/rich.test.ts):
a tool's ``display`` bundle, built-in tables, images and files, a code argument; the XSS corpus
(tests/rich/xss-corpus.json) through every one of them; and hand-made display snapshots that both
renderers must say alike (tests/parity/hand/<case>.json, goldens beside them, which
js/test/parity.test.ts reads too; ``MN_UPDATE_PARITY=1`` rewrites them)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mastra_notebook.render.engine import engine
from mastra_notebook.render.transcript import render_ops

from .helpers import remote_addresses, start_tags
from .parity_text import UPDATE, difference, visible_text

RICH = Path(__file__).resolve().parent / "rich"
CORPUS: list[str] = json.loads((RICH / "xss-corpus.json").read_text())["entries"]
CASES = sorted((RICH.parent / "parity" / "hand").glob("*.json"))
TABLE_ROWS = 50  # js/src/render/rich.ts TABLE_ROWS


def rich_result(display: Any, result: Any) -> str | None:
    """A tool's result drawn as data, as the transcript draws it; None where it stays JSON."""
    return engine().draw("rich", display=display, result=result)


def rich_args(args_display: Any, args: Any, args_text: str | None) -> str:
    """A finished tool call's arguments, as its card in the transcript draws them."""
    tool = {"id": "c", "kind": "tool", "tool_name": "t", "status": "done", "args_display": args_display}
    html = render_ops(
        [
            ["add", None, {"id": "root", "kind": "run"}],
            ["add", "root", {**tool, "args": args, "args_text": args_text}],
        ]
    )
    return html[html.index('data-node-id="c"') :]


PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _rows(n: int) -> list[dict[str, Any]]:
    return [{"id": i + 1, "name": f"row {i + 1}", "ok": i % 2 == 0, "note": None} for i in range(n)]


def test_flat_records_draw_as_a_bounded_table_with_the_json_one_click_away() -> None:
    html = rich_result(None, _rows(60))
    assert html is not None
    tags = [tag for tag, _ in start_tags(html)]
    assert tags.count("th") == 4
    assert tags.count("tr") == TABLE_ROWS + 1
    text = visible_text(html)
    assert "idnameoknote" in text.replace(" ", "")
    assert "10 more rows (in the JSON)" in text
    assert "Result as JSON" in text
    assert '"name": "row 60"' in text


@pytest.mark.parametrize("result", [[{"a": {"b": 1}}], [], [1, 2], {"temp": 21}, "text", None])
def test_other_results_stay_json(result: Any) -> None:
    assert rich_result(None, result) is None


def test_images_files_and_data_urls() -> None:
    src = f"data:image/png;base64,{PNG}"
    for result in (
        {"type": "image", "data": PNG, "mediaType": "image/png"},
        {
            "content": [
                {"type": "text", "text": "a chart"},
                {"type": "image", "data": PNG, "mimeType": "image/png"},
            ]
        },
        src,
    ):
        html = rich_result(None, result) or ""
        assert ("img", {"src": src}) in [(tag, {"src": attrs.get("src")}) for tag, attrs in start_tags(html)]
    file = rich_result(None, {"type": "file", "url": "https://example.com/r.csv", "filename": "r.csv"}) or ""
    links = [
        {k: v for k, v in attrs.items() if k != "class"} for tag, attrs in start_tags(file) if tag == "a"
    ]
    assert links == [
        {"href": "https://example.com/r.csv", "target": "_blank", "rel": "noopener noreferrer nofollow"}
    ]
    remote = rich_result(None, {"type": "image", "url": "https://evil.example/pixel.png"}) or ""
    assert "img" not in [tag for tag, _ in start_tags(remote)]  # no remote image: a link


def test_a_bundle_draws_its_richest_type_its_preview_and_the_json() -> None:
    display = {
        "data": {"text/html": "<table><tr><td>1</td></tr></table>", "text/plain": "plain"},
        "preview": "first 50 of 1,000,000 rows",
    }
    text = visible_text(rich_result(display, [{"a": 1}]) or "")
    assert "plain" not in text
    assert "first 50 of 1,000,000 rows" in text
    assert '[{"a": 1}]' in text


def test_a_renderer_error_shows_with_the_json() -> None:
    text = visible_text(rich_result({"error": "KeyError: 'rows'"}, {"rows": 3}) or "")
    assert "The renderer failed: KeyError: 'rows'" in text
    assert '{"rows": 3}' in text


def test_a_code_argument_reads_from_args_or_their_unfinished_text() -> None:
    shown = {"field": "query", "language": "sql"}
    unfinished = visible_text(rich_args(shown, None, '{"query": "SELECT *\\nFROM t WHERE a = \\"x'))
    assert 'SELECT * FROM t WHERE a = "x' in unfinished  # the text as read: whitespace is not compared
    text = visible_text(rich_args(shown, {"query": "SELECT 1"}, None))
    assert "Arguments · query" in text
    assert "SELECT 1" in text


def _places(text: str) -> list[str | None]:
    return [
        rich_result({"data": {"text/html": text}, "preview": text}, text),
        rich_result({"data": {"image/svg+xml": text}}, text),
        rich_result({"data": {"text/markdown": text}}, text),
        rich_result({"data": {"image/png": text, "text/plain": text}}, text),
        rich_result({"error": text}, text),
        rich_result(None, [{text: text, "n": 1}, {text: text, "n": 2}]),
        rich_result(None, {"type": "file", "url": text, "data": text, "mediaType": text, "filename": text}),
        rich_result(None, {"type": "image", "image": text, "mimeType": "image/png"}),
        rich_result(None, text),
        rich_args(
            {"field": "q", "language": "sql", "display": {"data": {"text/html": text}}}, {"q": text}, None
        ),
        rich_args({"field": "q", "language": "markdown"}, {"q": text}, None),
    ]


ACTIVE = {
    *("script", "iframe", "frame", "object", "embed", "form", "input", "style", "link", "meta", "base"),
    *("svg", "math", "button", "textarea", "select"),
}
IMAGE_SRC = r"^data:image/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]*={0,2}$"


@pytest.mark.parametrize("entry", CORPUS)
def test_the_xss_corpus_leaves_nothing_active(entry: str) -> None:
    drawn = _places(entry)
    assert all(html is not None for html in drawn[:7])
    for html in drawn:
        for tag, attrs in start_tags(html or ""):
            assert tag not in ACTIVE, (tag, html)
            assert not any(name.startswith("on") for name in attrs), (tag, attrs)
            if tag == "a" and attrs.get("href") is not None:
                assert re.match(r"^(https?:|mailto:)", attrs["href"] or ""), attrs
            if tag == "img":
                assert re.match(IMAGE_SRC, attrs.get("src") or ""), attrs
            style = (attrs.get("style") or "").lower()
            assert not any(word in style for word in ("url(", "javascript", "fixed")), attrs
        assert remote_addresses(html or "") == [], html
    sanitised = engine().sanitize(entry)
    assert remote_addresses(sanitised) == [], sanitised
    for tag, attrs in start_tags(sanitised):
        assert not {"style", "class", "id"} & set(attrs), (
            tag,
            attrs,
        )  # a tool's HTML never restyles the page


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_hand_made_displays_say_the_golden(case: Path) -> None:
    data = json.loads(case.read_text())
    text = visible_text(render_ops(data["snapshot"]["ops"], data["title"]))
    golden = case.with_suffix(".txt")
    if UPDATE:
        golden.write_text(text)
    report = difference(golden.read_text(), text, "the static renderer")
    assert report is None, report
