"""Issue 11, item 6 in a real JupyterLab with the real Mastra server: a batch of 120 prompts at
concurrency 8 keeps the page to one page of tiles (48), pages, filters (errors first), jumps,
shows queued tiles as queued (no Stop) and counts done/running/queued/error with the tokens."""

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
    "widgets": sum(tile.view is not None for tile in batch.tiles),
    "errors": [tile.index for tile in batch.tiles if tile.job.group == "error"],
    "texts": [r.text[:40] for r in results[:3]],
}))"""

# Tiles in the gallery's DOM: live views and queued placeholders alike.
TILES_IN_DOM = "el => el.querySelectorAll('.mn-gallery-slot > *').length"
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

    # while it runs: the page's queued tiles are lines under its started ones (no view, no Stop)
    waiting = gallery.locator(".mn-gallery-waiting")
    expect(waiting).to_contain_text("queued on this page", timeout=30_000)
    expect(waiting.locator(".mn-gallery-queued").first).to_have_attribute("data-status", "queued")
    assert waiting.locator("button").count() == 0
    shot_taken = False
    most_tiles, most_running = 0, _running(first_seen)
    handle = gallery.element_handle()
    while "queued" in summary.inner_text():
        most_tiles = max(most_tiles, page.evaluate(TILES_IN_DOM, handle))
        most_running = max(most_running, _running(summary.inner_text()))
        if not shot_taken and waiting.locator(".mn-gallery-queued").count() >= 12:
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
    assert report["widgets"] <= PAGE  # the kernel holds widgets for the page's tiles only
    expect(summary).to_contain_text(f"{done} done · {len(BROKEN)} error · ", timeout=30_000)
    expect(summary).to_contain_text("tokens", timeout=30_000)
    expect(summary).not_to_contain_text("queued")
    tiles = gallery.locator(".mn-gallery-slot .mn-root")
    expect(tiles).to_have_count(PAGE, timeout=30_000)
    expect(tiles.first).to_have_attribute("data-status", "finished", timeout=30_000)
    expect(tiles.first).to_contain_text("City0", timeout=30_000)
    pager = gallery.locator(".mn-gallery-pager")
    expect(pager).to_contain_text("1\N{EN DASH}48 of 120", timeout=30_000)

    # the next page: its ended runs drawn again from what they kept, at once
    gallery.locator(".mn-gallery-next").click()
    expect(pager).to_contain_text("49\N{EN DASH}96 of 120", timeout=30_000)
    expect(tiles.first).to_contain_text("What is the weather in City48?", timeout=30_000)
    expect(tiles.first).to_have_attribute("data-status", "finished", timeout=30_000)
    expect(tiles.first.locator(".mn-tool").first).to_be_visible()
    assert page.evaluate(TILES_IN_DOM, handle) <= PAGE
    gallery.locator(".mn-gallery-next").click()
    expect(pager).to_contain_text("97\N{EN DASH}120 of 120", timeout=30_000)
    expect(tiles).to_have_count(COUNT - 96, timeout=30_000)
    gallery.locator(".mn-gallery-previous").click()
    gallery.locator(".mn-gallery-previous").click()
    expect(pager).to_contain_text("1\N{EN DASH}48 of 120", timeout=30_000)
    expect(tiles.first).to_contain_text("City0", timeout=30_000)
    expect(tiles.first.locator(".mn-text").last).to_contain_text("Here is what I found", timeout=30_000)

    # errors first, then errors only
    gallery.locator(".mn-gallery-filter select").select_option(label="errors first")
    for index in range(len(BROKEN)):
        expect(tiles.nth(index)).to_have_attribute("data-status", "error", timeout=30_000)
    expect(tiles.first).to_contain_text("Broken prompt 7", timeout=30_000)
    expect(tiles.first).to_contain_text("Unsupported role", timeout=30_000)
    expect(tiles.nth(len(BROKEN))).to_have_attribute("data-status", "finished", timeout=30_000)
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(gallery, f"gallery-scale-errors-first-{theme}", max_height=1400)
    e2e.set_theme(page, "light")
    gallery.locator(".mn-gallery-filter select").select_option(label="errors only")
    expect(tiles).to_have_count(len(BROKEN), timeout=30_000)
    expect(pager).to_contain_text(f"1\N{EN DASH}{len(BROKEN)} of {len(BROKEN)} (errors only)", timeout=30_000)

    # jump by prompt text, then by index: the tile first on the page, outlined
    jump = gallery.locator(".mn-gallery-jump input")
    jump.fill("city100")
    jump.press("Enter")
    expect(pager).to_contain_text("101\N{EN DASH}120 of 120", timeout=30_000)
    expect(gallery.locator(".mn-gallery-filter select")).to_have_value("all, in prompt order", timeout=30_000)
    expect(tiles.first).to_contain_text("What is the weather in City100?", timeout=30_000)
    expect(gallery.locator(".mn-gallery-slot").first).to_have_class(
        re.compile("mn-gallery-target"), timeout=30_000
    )
    jump.fill("#57")
    jump.press("Enter")
    expect(tiles.first).to_contain_text("What is the weather in City57?", timeout=30_000)
    assert gallery.locator(".mn-gallery-target").count() == 1
    jump.fill("Atlantis")
    jump.press("Enter")
    expect(pager).to_contain_text("no prompt contains 'Atlantis'", timeout=30_000)
    expect(tiles.first).to_contain_text("City57")  # nothing else moved
    e2e.screenshot(gallery, "gallery-scale-jump-light", max_height=1400)
    nodes = page.evaluate(DOM_NODES, handle)
    assert nodes < 20_000, nodes


def test_the_queued_prompts_of_a_page_are_one_list_under_its_started_tiles(
    client_notebook: e2e.ClientNotebook,
) -> None:
    """Slow runs two at a time, six tiles a page: the page shows its two started runs as tiles and its
    four queued prompts as lines under them (no view, no Stop); as each starts, its line becomes a tile."""
    page = client_notebook.open(
        "gallery-waiting",
        "slow = [f'Run {i}: deltas=150 delay=20' for i in range(10)]\n"
        "batch = client.agent('slow').stream_many(slow, concurrency=2, page_size=6)\nbatch",
        setup=PROMPTS,
    )  # every cell run
    gallery = e2e.cell(page, 1).locator(".mn-gallery")
    waiting = gallery.locator(".mn-gallery-waiting")
    expect(waiting).to_contain_text("4 queued on this page", timeout=30_000)
    lines = waiting.locator(".mn-gallery-queued")
    expect(lines).to_have_count(4)
    expect(lines.first).to_contain_text("Run 2")
    expect(lines.last).to_contain_text("Run 5")  # the page's own: Run 6 on is the next page's
    assert waiting.locator("button").count() == 0
    expect(gallery.locator(".mn-gallery-slot")).to_have_count(2)  # the started tiles alone
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(gallery, f"gallery-scale-queued-{theme}")
    e2e.set_theme(page, "light")
    expect(waiting).to_contain_text("2 queued on this page", timeout=60_000)  # two more started
    expect(gallery.locator(".mn-gallery-slot")).to_have_count(4)
    expect(waiting).to_be_hidden(timeout=60_000)  # the page's last prompt started
    expect(gallery.locator(".mn-gallery-slot")).to_have_count(6)
