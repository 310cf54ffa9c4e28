"""Issue 11, item 6 in a real JupyterLab with the real Mastra server: a batch of 120 prompts at
concurrency 8 keeps the page to one page of tiles (48), pages (the pager above and below the tiles),
filters (errors first), jumps, shows queued tiles as queued (nothing to open) and counts
done/running/queued/error with the tokens. The tiles' words are checked in tests/test_gallery.py and
js/test/grid.test.ts; here what needs a real frontend."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

COUNT, CONCURRENCY, PAGE = 120, 8, 48
BROKEN = {i for i in range(COUNT) if i % 15 == 7}  # the server answers 400: an unsupported role


_BROKEN_PROMPT = '[{"role": "user", "content": f"Broken prompt {i}"}, {"role": "wizard", "content": "x"}]'
# the first cell's setup, after its client: the prompts (a few the server refuses)
PROMPTS = (
    "import json\n"
    f"prompts = [{_BROKEN_PROMPT} if i in {sorted(BROKEN)!r} else f'What is the weather in City{{i}}?'"
    f" for i in range({COUNT})]"
)


REPORT = """results = batch.wait(300)
print('RESULTS', json.dumps({
    "counts": batch.counts(), "summary": batch.summary(),
    "views": sum(tile.view is not None for tile in batch.tiles),
    "errors": [tile.index for tile in batch.tiles if tile.job.group == "error"],
    "texts": [r.text[:40] for r in results[:3]],
}))"""

# Tiles in the gallery's DOM, queued ones too.
TILES_IN_DOM = "el => el.querySelectorAll('.mn-grid-tile').length"
DOM_NODES = "el => el.querySelectorAll('*').length"


def _running(summary: str) -> int:
    match = re.search(r"(\d+) running", summary)
    return int(match.group(1)) if match else 0


def test_a_batch_of_120_pages_filters_and_jumps(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "gallery-scale",
        f"batch = client.agent('weather').stream_many(prompts, concurrency={CONCURRENCY})\nbatch",
        REPORT,
        setup=PROMPTS,
        run=(0, 1),
    )
    gallery = e2e.cell(page, 1).locator(".mn-gallery")
    summary = gallery.locator(".mn-gallery-summary")
    expect(summary).to_contain_text("queued", timeout=30_000)
    first_seen = summary.inner_text()  # sampled at once: on a quiet host the batch is quick

    # while it runs: the page's queued tiles say so, with nothing to open
    queued = gallery.locator('.mn-grid-tile[data-status="queued"]')
    expect(queued.first).to_be_visible(timeout=30_000)
    expect(queued.first.locator("button.mn-grid-open")).to_be_disabled()
    shot_taken = False
    most_tiles, most_running = 0, _running(first_seen)
    handle = gallery.element_handle()
    while "queued" in summary.inner_text():
        most_tiles = max(most_tiles, page.evaluate(TILES_IN_DOM, handle))
        most_running = max(most_running, _running(summary.inner_text()))
        if not shot_taken and queued.count() >= 12:
            for theme in e2e.shot_themes():
                e2e.set_theme(page, theme)
                e2e.screenshot(gallery, f"gallery-scale-running-{theme}", max_height=1400)
            e2e.set_theme(page, "light")
            shot_taken = True
        e2e.painted(page, frames=10)  # the next sample
    assert 1 <= most_running <= CONCURRENCY
    assert most_tiles <= PAGE

    e2e.run_cell(page, 2)
    report = e2e.printed_json(page, 2)
    done = COUNT - len(BROKEN)
    assert report["counts"] == {"queued": 0, "running": 0, "done": done, "stopped": 0, "error": len(BROKEN)}
    assert report["errors"] == sorted(BROKEN)
    assert report["views"] == 0  # the kernel holds no run's view once they ended (none is open)
    expect(summary).to_contain_text(f"{done} done · {len(BROKEN)} error · ", timeout=30_000)
    expect(summary).to_contain_text("tokens", timeout=30_000)
    expect(summary).not_to_contain_text("queued")
    tiles = gallery.locator(".mn-grid-tile")
    expect(tiles).to_have_count(PAGE, timeout=30_000)
    expect(tiles.first).to_have_attribute("data-status", "finished", timeout=30_000)
    expect(tiles.first).to_contain_text("City0", timeout=30_000)
    top, bottom = gallery.locator(".mn-grid-pager-top"), gallery.locator(".mn-grid-pager-bottom")
    for pager in (top, bottom):
        expect(pager.locator(".mn-grid-where")).to_have_text("1\N{EN DASH}48 of 120", timeout=30_000)

    # the next page, from the pager under the tiles, then the one above them
    bottom.locator(".mn-grid-next").click()
    expect(top).to_contain_text("49\N{EN DASH}96 of 120", timeout=30_000)
    expect(tiles.first).to_contain_text("What is the weather in City48?", timeout=30_000)
    expect(tiles.first).to_have_attribute("data-status", "finished", timeout=30_000)
    assert page.evaluate(TILES_IN_DOM, handle) <= PAGE
    top.locator(".mn-grid-next").click()
    expect(top).to_contain_text("97\N{EN DASH}120 of 120", timeout=30_000)
    expect(tiles).to_have_count(COUNT - 96, timeout=30_000)
    expect(top.locator(".mn-grid-next")).to_be_disabled()
    top.locator(".mn-grid-previous").click()
    expect(top).to_contain_text("49\N{EN DASH}96 of 120", timeout=30_000)
    top.locator(".mn-grid-previous").click()
    expect(top).to_contain_text("1\N{EN DASH}48 of 120", timeout=30_000)
    expect(tiles.first).to_contain_text("City0", timeout=30_000)
    expect(tiles.first.locator(".mn-grid-answer")).to_contain_text("Here is what I found", timeout=30_000)

    # errors first, then errors only
    top.locator("select.mn-grid-filter").select_option(label="errors first")
    for index in range(len(BROKEN)):
        expect(tiles.nth(index)).to_have_attribute("data-status", "error", timeout=30_000)
    expect(tiles.first).to_contain_text("Broken prompt 7", timeout=30_000)
    expect(tiles.first).to_contain_text("Unsupported role", timeout=30_000)
    expect(tiles.nth(len(BROKEN))).to_have_attribute("data-status", "finished", timeout=30_000)
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(gallery, f"gallery-scale-errors-first-{theme}", max_height=1400)
    e2e.set_theme(page, "light")
    top.locator("select.mn-grid-filter").select_option(label="errors only")
    expect(tiles).to_have_count(len(BROKEN), timeout=30_000)
    expect(top).to_contain_text(f"1\N{EN DASH}{len(BROKEN)} of {len(BROKEN)} (errors only)", timeout=30_000)

    # jump by prompt text, then by number: the tile first on the page, outlined
    jump = top.locator("input.mn-grid-jump")
    jump.fill("city100")
    jump.press("Enter")
    expect(top).to_contain_text("101\N{EN DASH}120 of 120", timeout=30_000)
    expect(top.locator("select.mn-grid-filter")).to_have_value("all", timeout=30_000)
    expect(tiles.first).to_contain_text("What is the weather in City100?", timeout=30_000)
    expect(tiles.first).to_have_class(re.compile("mn-grid-target"), timeout=30_000)
    jump = top.locator("input.mn-grid-jump")  # the pager is drawn again with the page
    jump.fill("#58")
    jump.press("Enter")
    expect(tiles.first).to_contain_text("What is the weather in City57?", timeout=30_000)
    assert gallery.locator(".mn-grid-target").count() == 1
    jump = top.locator("input.mn-grid-jump")
    jump.fill("Atlantis")
    jump.press("Enter")
    expect(top).to_contain_text("no prompt contains 'Atlantis'", timeout=30_000)
    expect(tiles.first).to_contain_text("City57")  # nothing else moved
    nodes = page.evaluate(DOM_NODES, handle)
    assert nodes < 20_000, nodes
