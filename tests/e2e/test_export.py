"""The exported page: one self-contained file, opened offline in Chromium, renders the run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e


def export(name: str, out: Path, source: Path | None = None) -> Path:
    page = out / f"{name}.html"
    source = source or e2e.FIXTURES / f"{name}.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "mastra_notebook", "render", str(source), "-o", str(page)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return page


@pytest.mark.parametrize("name", ["agent-as-tool", "sources-files", "workflow-as-tool"])
def test_exported_page_renders_offline(name: str, browser: Any, tmp_path: Path) -> None:
    page_file = export(name, tmp_path)
    html = page_file.read_text()
    assert "<script src" not in html  # nothing is loaded from anywhere
    assert "<link" not in html
    context = browser.new_context(offline=True)
    requests: list[str] = []
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status='finished']", timeout=15_000)
    text = page.inner_text(".mn-root")
    if name == "agent-as-tool":
        assert "agent-researcher" in text
        assert "getForecast" in text
        assert "Here is what I found" in text
    if name == "sources-files":
        assert page.locator(".mn-root img[src^='data:image/png;base64,']").count() == 1
        hrefs = page.eval_on_selector_all(".mn-root a[href]", "els => els.map(e => e.getAttribute('href'))")
        assert hrefs
        assert all(href.startswith("https://") for href in hrefs)
    if name == "workflow-as-tool":
        assert "fetch-forecast" in text
        assert "write-report" in text
    assert not errors
    assert all(url.startswith(("file:", "blob:", "data:")) for url in requests), requests
    e2e.shoot(page, f"export-{name}", full_page=True)
    context.close()


HOSTILE = "a <!--<script> b </script> c <script>document.title='owned'</script> d"


def test_model_text_cannot_keep_the_boot_script_from_running(browser: Any, tmp_path: Path) -> None:
    """``<!--<script>`` in the embedded data would hold the data element open past its end tag."""
    chunks = [
        {"type": "start", "runId": "r", "from": "AGENT", "payload": {}},
        {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": HOSTILE}},
        {"type": "finish", "runId": "r", "from": "AGENT", "payload": {"stepResult": {"reason": "stop"}}},
    ]
    source = tmp_path / "hostile.jsonl"
    source.write_text("".join(json.dumps(chunk) + "\n" for chunk in chunks))
    page_file = export("hostile", tmp_path, source)
    context = browser.new_context(offline=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status='finished']", timeout=15_000)
    assert HOSTILE in page.inner_text(".mn-root")  # shown as text
    assert page.title() != "owned"
    assert not errors
    context.close()


def test_render_refuses_what_is_not_a_stream(tmp_path: Path) -> None:
    bogus = tmp_path / "image.png"
    bogus.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    done = subprocess.run([sys.executable, "-m", "mastra_notebook", "result", str(bogus)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {bogus}: not a Mastra stream")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_exported_page_is_headed_by_the_prompt(scheme: str, browser: Any, tmp_path: Path) -> None:
    """Issue 17: the page's header said only the agent; the prompt's first line heads it too."""
    from mastra_notebook.core.ingest import records
    from mastra_notebook.core.run import Run
    from mastra_notebook.widget.export import page_html

    run = Run()
    for item in records(e2e.FIXTURES / "tool-call.jsonl"):
        run.feed(item)
    run.end()
    prompt = "What is the weather in Paris, and should I take an umbrella tomorrow?"
    page_file = tmp_path / "prompt.html"
    page_file.write_text(page_html(run, "agent weather", prompt))
    context = browser.new_context(offline=True, color_scheme=scheme, viewport={"width": 900, "height": 700})
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status='finished']", timeout=15_000)
    subtitle = page.locator(".mn-root .mn-header .mn-subtitle")
    assert subtitle.is_visible()
    assert subtitle.text_content() == prompt
    assert page.title() == f"agent weather · {prompt}"
    e2e.shoot(page.locator(".mn-root"), f"export-prompt-{scheme}")
    context.close()
