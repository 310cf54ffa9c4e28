"""Human labels in a real JupyterLab with the real Mastra server (issue 20 item 5): a click on a
thumb, a score and a comment typed in the view's footer reach ``result.feedback`` and Mastra (the
footer says "sent to Mastra"); a view of a recording keeps its label in the notebook and says so.
Screenshots in light and dark."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import fixture_path
from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

LIVE = 'view = client.agent("reasoning").stream("Is Paris the capital of France?")\nview'
# The footer's last label (its comment) as the kernel holds it once Mastra answered: the note may still
# say "sent to Mastra" of the label before it, and the send runs on the kernel's loop, which an
# awaiting cell lets run.
READ = """import asyncio
while view.result.feedback.comment is None or view.result.feedback.sent_to_mastra is None:
    await asyncio.sleep(0.05)
print("LABEL", view.result.feedback.model_dump_json())"""


def test_a_label_given_in_the_footer_reaches_python_and_mastra(client_notebook: e2e.ClientNotebook) -> None:
    recording = f"kept = mn.view({str(fixture_path('plain-text'))!r}, max_height=260)\nkept"
    page = client_notebook.open("feedback", LIVE, READ, recording, run=(0, 1))
    root = e2e.view_root(page, 1)
    assert e2e.wait_status(root, "finished") == "finished"

    control = root.locator(".mn-footer .mn-feedback")
    up = control.locator('[data-thumbs="up"]')
    up.click()
    expect(up).to_have_attribute("aria-pressed", "true")
    control.locator(".mn-feedback-score").fill("4")
    control.locator(".mn-feedback-score").press("Enter")
    control.locator(".mn-feedback-comment").fill("Right, and short.")
    control.locator(".mn-feedback-comment").press("Enter")
    note = control.locator(".mn-feedback-note")
    expect(note).to_have_text("sent to Mastra", timeout=30_000)
    expect(control.locator(".mn-feedback-comment")).to_have_value("Right, and short.")

    e2e.run_cells(page, 2)
    output = e2e.cell_output_text(page, 2)
    assert '"thumbs":"up"' in output
    assert '"score":4.0' in output
    assert '"comment":"Right, and short."' in output
    assert '"sent_to_mastra":true' in output

    e2e.run_cells(page, 3)
    kept = e2e.view_root(page, 3)
    assert e2e.wait_status(kept, "finished") == "finished"
    kept_control = kept.locator(".mn-footer .mn-feedback")
    kept_control.locator('[data-thumbs="down"]').click()
    expect(kept_control.locator(".mn-feedback-note")).to_contain_text(
        "kept in the notebook: this run names no Mastra trace", timeout=30_000
    )
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(root, f"feedback-view-{theme}")
        e2e.screenshot(root.locator(".mn-footer"), f"feedback-footer-{theme}")
        e2e.screenshot(kept.locator(".mn-footer"), f"feedback-kept-{theme}")
    e2e.set_theme(page, "light")


def test_a_gallery_tile_is_labelled_with_the_same_control(client_notebook: e2e.ClientNotebook) -> None:
    prompts = ["Is Paris the capital of France?", "Is Lyon the capital of France?"]
    page = client_notebook.open(
        "feedback-gallery",
        f"batch = client.agent('reasoning').stream_many({prompts!r}, concurrency=2)\nbatch",
        "batch.wait(60)\nframe = mn.to_dataframe(batch)\n"
        "print('LABELS', frame[['feedback_thumbs', 'feedback_sent']].to_dict('records'))",
        run=(0, 1),
    )
    grid = e2e.cell(page, 1)
    tiles = grid.locator(".mn-gallery .mn-grid-tile")  # the live grid (not its saved copy)
    expect(tiles).to_have_count(len(prompts), timeout=30_000)
    tile = tiles.nth(1)
    expect(tile).to_have_attribute("data-status", "finished", timeout=60_000)
    tile.locator("button.mn-grid-open").click()  # the run's own view, below the grid
    opened = grid.locator(".mn-grid-detail .mn-root")
    assert e2e.wait_status(opened, "finished") == "finished"
    control = opened.locator(".mn-footer .mn-feedback")
    control.locator('[data-thumbs="down"]').click()
    expect(control.locator(".mn-feedback-note")).to_have_text("sent to Mastra", timeout=30_000)
    expect(tile.locator(".mn-grid-label")).to_have_text("👎", timeout=30_000)  # and its tile says so

    e2e.run_cells(page, 2)
    output = e2e.cell_output_text(page, 2)
    assert "'feedback_thumbs': 'down', 'feedback_sent': True" in output
    assert output.count("'feedback_thumbs'") == len(prompts)
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(tile, f"feedback-tile-{theme}")
    e2e.set_theme(page, "light")
