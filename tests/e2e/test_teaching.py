"""Teaching and prompt iteration in a real JupyterLab: the replay scrubber (the state at chunk N is
the state of a Run fed the first N chunks), the chunk inspector, compare, and a live batch gallery."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import mastra_notebook as mn
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

TOOL_CALL = e2e.FIXTURES / "tool-call.jsonl"
NESTED = e2e.FIXTURES / "agent-as-tool.jsonl"

# Every rendered node: its id and kind, as the DOM holds them.
NODES_OF = (
    "el => Array.from(el.querySelectorAll('[data-node-id]')).map(n => [n.dataset.nodeId, n.dataset.kind])"
)


def expected_nodes(path: Path, count: int) -> list[list[str]]:
    """The nodes of a Run fed the first ``count`` chunks, in document order."""
    run = mn.Run()
    for item in list(mn.read_chunks(path))[:count]:
        run.feed(item)
    return [[op[2]["id"], op[2]["kind"]] for op in run.snapshot()]


def scrub_to(root: Any, position: int) -> None:
    root.locator("input.mn-scrubber").evaluate(
        "(el, value) => { el.value = String(value); el.dispatchEvent(new Event('input')); }", position
    )
    wait_position(root, position)


def wait_position(root: Any, position: int) -> None:
    root.page.wait_for_function(
        "([el, position]) => el.querySelector('.mn-replay')?.dataset.position === String(position)"
        " && el.dataset.status !== undefined",
        arg=[root.element_handle(), position],
        timeout=20_000,
    )
    e2e.painted(root.page)  # the frame that applies the snapshot


def expect_nodes(root: Any, expected: list[list[str]], position: int) -> None:
    """The view comes to hold exactly ``expected`` (drawing is adaptive: under load an update may
    wait up to 250 ms for its turn)."""
    try:
        root.page.wait_for_function(
            f"([el, expected]) => JSON.stringify(({NODES_OF})(el)) === JSON.stringify(expected)",
            arg=[root.element_handle(), expected],
            timeout=5_000,
        )
    except Exception:
        assert root.evaluate(NODES_OF) == expected, position
        raise


def test_scrubber_shows_the_state_after_chunk_n(lab: e2e.Lab, page: Any) -> None:
    cells = [f"import mastra_notebook as mn\nv = mn.replay({str(TOOL_CALL)!r}, autoplay=False)\nv"]
    e2e.open_and_run(page, lab.notebook("scrubber", cells), 0)
    root = e2e.view_root(page, 0)
    for position in (6, 17, 30, 6, 0, 22):
        scrub_to(root, position)
        expect_nodes(root, expected_nodes(TOOL_CALL, position), position)
    scrub_to(root, 6)
    # the position and the run's snapshot come in two messages: the text may follow a frame later
    expect(root.locator(".mn-text").first).to_have_text("Let me look up the curren")
    expect(root.locator(".mn-tool")).to_have_count(0)
    root.locator("button.mn-step-forward").click()
    wait_position(root, 7)
    root.locator("button.mn-step-back").click()
    root.locator("button.mn-step-back").click()
    wait_position(root, 5)
    expect_nodes(root, expected_nodes(TOOL_CALL, 5), 5)
    root.locator("button.mn-play").click()
    e2e.wait_status(root, "finished", timeout=30_000)
    expect_nodes(root, expected_nodes(TOOL_CALL, 30), 30)
    assert "getWeather" in root.inner_text()
    e2e.screenshot(root, "replay-scrubber")


def test_inspector_lists_chunks_and_highlights_what_built_a_part(lab: e2e.Lab, page: Any) -> None:
    cells = [f"import mastra_notebook as mn\nmn.view({str(NESTED)!r})"]
    e2e.open_and_run(page, lab.notebook("inspector", cells), 0)
    root = e2e.view_root(page, 0)
    e2e.wait_status(root, "finished")
    root.locator("button.mn-inspect").click()
    rows = root.locator(".mn-inspector .mn-chunk")
    page.wait_for_function("el => el.querySelectorAll('.mn-chunk').length === 65", arg=root.element_handle())
    assert "tool-call-delta" in rows.nth(9).inner_text()
    nested = root.locator(".mn-tool .mn-run .mn-text").first  # the researcher's own text
    nested.click()
    hits = root.locator(".mn-chunk.mn-hit")
    assert hits.count() == 10  # its text-start and 9 deltas (untimed: the text-end sets no ended_at)
    assert all("agent-researcher" in hits.nth(i).inner_text() for i in range(hits.count()))
    rows.nth(3).click()
    json_text = root.locator(".mn-chunk-json").first
    json_text.wait_for()
    assert '"type": "text-delta"' in json_text.inner_text()
    e2e.screenshot(root, "inspector")


def test_compare_two_runs(lab: e2e.Lab, page: Any) -> None:
    a, b = e2e.FIXTURES / "tool-call.jsonl", e2e.FIXTURES / "tool-error.jsonl"
    cells = [
        f"import mastra_notebook as mn\nmn.compare({str(a)!r}, {str(b)!r}, labels=['weather', 'stocks'])"
    ]
    e2e.open_and_run(page, lab.notebook("compare", cells), 0)
    table = e2e.cell(page, 0).locator(".mastra-notebook-compare")
    table.wait_for()
    text = table.inner_text()
    assert "weather" in text
    assert "stocks" in text
    assert "getWeather" in text
    assert "Stock service unavailable" in text
    diff = table.locator(".mn-word-diff")
    assert diff.count() == 1
    assert diff.locator("del").count() >= 1  # a word-level diff: what changed is marked, as words
    assert diff.locator("ins").count() >= 1
    e2e.screenshot(table, "compare")


def test_batch_gallery_live(lab: e2e.Lab, page: Any, mastra_url: str) -> None:
    cities = ["Paris", "Berlin", "Tokyo", "Lisbon", "Madrid", "Oslo"]
    cells = [
        f"import os\nos.environ['MASTRA_BASE_URL'] = {mastra_url!r}\nimport mastra_notebook as mn\n"
        f"batch = mn.MastraClient().agent('weather').stream_many("
        f"[f'What is the weather in {{c}}?' for c in {cities!r}], concurrency=2)\nbatch",
        "print(mn.to_dataframe(batch)[['status', 'tool_call_count']].to_string())",
    ]
    e2e.open_and_run(page, lab.notebook("gallery", cells), 0)
    # the runs stream into the grid's tiles (data the kernel sends as they grow), then end
    tiles = e2e.cell(page, 0).locator(".mn-gallery .mn-grid-tile")  # the live grid (not its saved copy)
    page.wait_for_function(
        "el => { const t = el.querySelectorAll('.mn-gallery .mn-grid-tile'); return t.length === 6 &&"
        " [...t].every(x => x.dataset.status === 'finished' && x.querySelector('.mn-grid-answer')); }",
        arg=e2e.cell(page, 0).element_handle(),
        timeout=60_000,
    )
    assert tiles.count() == 6
    page.wait_for_function(  # the summary follows the runs (drawn anew: looked up each time)
        "el => (el.querySelector('.mn-gallery-summary')?.innerText || '').includes('6 done')",
        arg=e2e.cell(page, 0).element_handle(),
        timeout=10_000,
    )
    # "open" shows the run's full view below the grid, drawn from what it kept
    tiles.nth(1).locator("button.mn-grid-open").click()
    detail = e2e.cell(page, 0).locator(".mn-grid-detail .mn-root")
    detail.wait_for(timeout=20_000)
    page.wait_for_function(
        "el => el.dataset.status === 'finished'", arg=detail.element_handle(), timeout=20_000
    )
    assert "Berlin" in detail.inner_text()
    e2e.run_cells(page, 1)
    table = e2e.cell_output_text(page, 1)
    assert table.count("finished") == 6
    e2e.assert_no_rate_limit(page)
    e2e.screenshot(e2e.cell(page, 0), "gallery")


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


# the dark run repeats the light run's checks (a theme is CSS variables): its picture, on demand
@pytest.mark.parametrize(
    "dark", [False, pytest.param(True, marks=pytest.mark.screenshots)], ids=["light", "dark"]
)
def test_the_teaching_notebook_under_run_all_holds_its_lesson_before_the_first_tool_call(
    dark: bool, lab: e2e.Lab, page: Any
) -> None:
    """Issue 17: under Run All the lesson jumped to its end (the cells after it moved the same replay).
    They use a second replay: once every cell ran, the lesson (pause_at="tool-call") is held before the
    supervisor's call to its researcher, the call not drawn, and Reveal plays it."""
    import shutil

    name = f"teaching-{'dark' if dark else 'light'}"
    folder = lab.root / name
    shutil.copytree(EXAMPLES / "recordings", folder / "recordings")
    shutil.copy(EXAMPLES / "teaching.ipynb", folder / "teaching.ipynb")
    page.goto(f"{lab.url}/lab/workspaces/{name}/tree/{name}/teaching.ipynb")
    e2e.wait_notebook_ready(page)
    e2e.theme(page, dark)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    last = page.locator(".jp-Notebook .jp-CodeCell").last
    last.locator(".mn-root").wait_for(timeout=60_000)  # every cell ran: the last one shows a replay
    lesson = page.locator(".jp-Notebook .jp-CodeCell").first.locator(".mn-root")
    held = lesson.locator(".mn-held")
    expect(held).to_contain_text("Paused before a tool call", timeout=30_000)
    expect(lesson.locator(".mn-tool")).to_have_count(0)  # predict it: the call is not drawn yet
    expect(lesson.locator(".mn-step-note:not([hidden])")).to_contain_text("hands the question")
    bar = lesson.locator(".mn-replay")
    total = int((bar.locator(".mn-replay-position").text_content() or "").split("/")[1].split()[0])
    assert 0 < int(bar.get_attribute("data-position") or -1) < total
    # the explorations below it read the same recording, apart
    explored = page.locator(".jp-Notebook .jp-CodeCell").filter(has_text="steps.seek(20)")
    assert f"20 of {total} chunks" in explored.locator(".jp-OutputArea-output").first.inner_text()
    e2e.screenshot(lesson, f"teaching-run-all-{'dark' if dark else 'light'}")
    lesson.locator("button.mn-reveal").click()
    expect(lesson.locator(".mn-tool").first).to_contain_text("agent-researcher", timeout=20_000)
