"""Issue 9 in a real JupyterLab with the real Mastra server: the batch's grid (its tiles, a run opened
below it), compare's word diff, and approvals decided by a click and then by a cell (light and dark
screenshots)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

PROMPTS = ["What is the weather in Paris?", "And in Lisbon?", "Berlin, please", "Tokyo?"]


def test_gallery_and_compare_layouts(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "gallery-compare",
        f"batch = client.agent('weather').stream_many({PROMPTS!r}, concurrency=2, max_steps=3)\nbatch",
        "results = batch.wait(60)\nprint('DONE', [r.status for r in results])",
        "mn.compare(batch.tiles[0], batch.tiles[1], labels=['Paris', 'Lisbon'])",
        run=(0, 1),
    )
    gallery = e2e.cell(page, 1)
    tiles = gallery.locator(".mn-gallery .mn-grid-tile")  # the live grid (not its saved copy)
    expect(tiles).to_have_count(len(PROMPTS), timeout=30_000)
    e2e.run_cell(page, 2)
    expect(e2e.cell(page, 2).locator(".jp-OutputArea-output")).to_contain_text("DONE", timeout=60_000)
    assert e2e.cell_output_text(page, 2).split("DONE", 1)[1].count("finished") == len(PROMPTS)
    for index, prompt in enumerate(PROMPTS):
        tile = tiles.nth(index)
        expect(tile).to_have_attribute("data-status", "finished", timeout=30_000)
        expect(tile).to_contain_text(prompt)  # titled by its prompt
        answer = tile.locator(".mn-grid-answer")
        answer.wait_for()
        # the answer's first lines in view: inside the tile's own box
        box, shown = tile.bounding_box(), answer.bounding_box()
        assert box is not None
        assert shown is not None
        assert box["y"] - 1 <= shown["y"] <= shown["y"] + shown["height"] <= box["y"] + box["height"] + 1, (
            prompt
        )
        assert box["height"] <= 240  # compact tiles: a few lines each
    # a tile's "open": the run's full view under the grid
    tiles.nth(1).locator("button.mn-grid-open").click()
    detail = gallery.locator(".mn-grid-detail .mn-root")
    expect(detail).to_contain_text("Lisbon", timeout=30_000)
    assert e2e.wait_status(detail, "finished") == "finished"
    summary = gallery.locator(".mn-gallery-summary")
    expect(summary).to_contain_text(f"{len(PROMPTS)} done")
    expect(summary).to_contain_text("tokens")

    e2e.run_cell(page, 3)
    diff = e2e.cell(page, 3).locator(".mn-word-diff")
    expect(diff).to_be_visible(timeout=30_000)
    expect(diff.locator("ins").first).to_be_visible()
    expect(diff.locator("del").first).to_be_visible()
    assert diff.evaluate("el => getComputedStyle(el).textAlign") in ("left", "start")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(gallery.locator(".jp-OutputArea").first, f"gallery-{theme}", max_height=2400)
        e2e.screenshot(e2e.cell(page, 3).locator(".jp-OutputArea").first, f"compare-{theme}", max_height=2400)
    e2e.set_theme(page, "light")


def test_approval_click_then_cell(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "approval-click-then-cell",
        'v = client.agent("approver").stream("Delete record abc-123")\nv',
        "v.approve()  # after the click: a note, not an error",
        "r = v.wait(60)\nc = r.tool_calls[0]\nprint('RESULT', r.status, c.status, c.decision.action, c.decision.by)",
        'trip = client.agent("suspender").stream("Plan a trip for me")\ntrip',
        run=(0, 1),
    )
    root = e2e.view_root(page, 1)
    card = e2e.awaiting_approval(root, "deleteRecord")
    assert e2e.wait_status(root, "suspended", "finished", "error") == "suspended"
    expect(card.locator(".mn-continue-code")).to_have_text(
        'view.approve("call_delete_1")  or  view.decline("call_delete_1", reason="...")'
    )
    card.locator("button.mn-approve").click()
    e2e.run_cell(page, 2)
    expect(e2e.cell(page, 2).locator(".jp-OutputArea-output")).to_contain_text(
        "already approved in the view: nothing sent", timeout=30_000
    )
    expect(e2e.cell(page, 2).locator(".jp-OutputArea-output-error, [data-mime-type*='error']")).to_have_count(
        0
    )
    assert e2e.wait_status(root, "finished", "error", timeout=30_000) == "finished"
    expect(card.locator(".mn-decision")).to_contain_text("Approved in the view")
    expect(card.locator(".mn-decision")).to_contain_text("for a person")
    e2e.run_cell(page, 3)
    expect(e2e.cell(page, 3).locator(".jp-OutputArea-output")).to_contain_text("RESULT", timeout=30_000)
    assert e2e.cell_output_text(page, 3).split("RESULT", 1)[1].split() == [
        "finished",
        "done",
        "approve",
        "view",
    ]

    e2e.run_cell(page, 4)
    trip = e2e.view_root(page, 4)
    assert e2e.wait_status(trip, "suspended", "finished", "error") == "suspended"
    asking = e2e.tool_card(trip, "askUser")
    expect(asking.locator(".mn-suspended")).to_contain_text("Which city")
    expect(asking.locator(".mn-continue-code")).to_contain_text("view.resume(")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(root, f"approval-decided-{theme}")
        e2e.screenshot(trip, f"suspended-resume-hint-{theme}")
    e2e.set_theme(page, "light")


CITIES = ["Lisbon", "Paris", "Rio de Janeiro", "Oslo", "Ho Chi Minh City", "Cape Town"]


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and (a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])
    )


def test_tiles_show_what_tells_their_prompts_apart_and_come_back_after_a_reload(
    client_notebook: e2e.ClientNotebook,
) -> None:
    """Issue 17: prompts alike but for a city are titled "…Lisbon…" (the whole prompt on hover), the
    status and badges under the title, never over it; after the page reloads, the grid is drawn again
    from the kernel, every tile finished and labelled."""
    prompts = [f"What is the weather in {city} today?" for city in CITIES]
    page = client_notebook.open(
        "gallery-labels",
        f"batch = client.agent('weather').stream_many({prompts!r}, concurrency=3, max_steps=3)\nbatch",
        "results = batch.wait(60)\nprint('DONE', [r.status for r in results])",
    )  # every cell run
    expect(e2e.cell(page, 2).locator(".jp-OutputArea-output")).to_contain_text("DONE", timeout=60_000)
    gallery = e2e.cell(page, 1)

    def check_tiles() -> None:
        tiles = gallery.locator(".mn-gallery .mn-grid-tile")
        expect(tiles).to_have_count(len(CITIES), timeout=60_000)
        for index, city in enumerate(CITIES):
            tile = tiles.nth(index)
            expect(tile).to_have_attribute("data-status", "finished", timeout=30_000)
            title = tile.locator(".mn-grid-title")
            expect(title).to_have_text(f"\N{HORIZONTAL ELLIPSIS}{city}\N{HORIZONTAL ELLIPSIS}")
            expect(title).to_have_attribute("title", prompts[index])  # the whole prompt on hover
            expect(tile.locator(".mn-grid-subtitle")).to_have_text(f"#{index + 1} · agent weather")
            # the title is drawn whole, and nothing of the tile's is drawn over it
            assert title.evaluate("el => el.scrollWidth <= el.clientWidth"), city
            title_box = title.bounding_box()
            assert title_box is not None
            for other in tile.locator(".mn-grid-badge, button").all():
                box = other.bounding_box()
                if box is not None and other.is_visible():
                    assert not _overlap(title_box, box), (city, other.inner_text())

    check_tiles()
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(gallery.locator(".mn-gallery").first, f"gallery-labels-{theme}", max_height=2400)
    e2e.set_theme(page, "light")

    e2e.save(page)
    page.reload()
    e2e.wait_notebook_ready(page)
    check_tiles()  # the gallery is back: every tile drawn from the kernel, finished and labelled
    e2e.screenshot(gallery.locator(".mn-gallery").first, "gallery-labels-reloaded-light", max_height=2400)
