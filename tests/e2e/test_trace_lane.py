"""Mastra's trace as a lane of the timeline, in a real JupyterLab against the bundled server (issue 19,
item 4): after ``view.trace()`` the timeline opens and draws the trace's spans under the run; a click on
the model generation shows its input, output and attributes, as text, its JSON folded. Screenshots
of the lane with a span opened, light and dark (test-artifacts/trace-lane-*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e


def test_the_trace_draws_under_the_run_and_a_span_opens(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "trace-lane",
        "import uuid\n"
        'memory = {"thread": f"e2e-{uuid.uuid4()}", "resource": "e2e-trace"}\n'
        'view = client.agent("weatherMemory").stream("Weather in <b>Paris</b>?", memory=memory)\n'
        "view",
        "view.wait(60)\ntrace = view.trace(timeout=30)\nprint('SPANS', len(trace.spans))",
        run=(0, 1),
    )
    root = e2e.view_root(page, 1)
    assert e2e.wait_status(root, "finished", "error", "aborted") == "finished"
    panel = root.locator(".mn-timeline")
    expect(panel).to_be_hidden()
    e2e.run_cells(page, 2)
    assert "SPANS" in e2e.cell_output_text(page, 2)
    expect(panel).to_be_visible()  # the trace arrived: the timeline opens on its lane
    expect(root.locator(".mn-timeline-toggle")).to_have_attribute("aria-expanded", "true")

    spans = panel.locator(".mn-tl-row[data-span-ref]")
    expect(panel.locator(".mn-tl-lane-title")).to_have_text("Mastra's trace", timeout=30_000)
    labels = spans.locator(".mn-tl-label")
    expect(labels.first).to_have_text("agent run: 'weatherMemory'")
    shown = labels.all_text_contents()
    assert {"memory: recall", "memory: save", "tool: 'getWeather'", "llm: 'mock-weatherMemory'"} <= set(shown)
    phases = panel.locator(".mn-tl-row[data-span-ref] .mn-tl-seg").evaluate_all(
        "els => els.map(e => e.dataset.phase)"
    )
    assert {"run", "model", "memory", "tool"} <= set(phases)

    viewport = page.viewport_size
    page.set_viewport_size({"width": viewport["width"], "height": 1400})  # room for the lane and a span
    e2e.painted(page)
    generation = panel.locator(".mn-tl-row[data-span-ref]", has_text="llm: 'mock-weatherMemory'")
    generation.click()
    detail = panel.locator(".mn-tl-span-detail")
    expect(detail.locator(".mn-tl-span-name")).to_have_text("llm: 'mock-weatherMemory'")
    expect(detail.locator(".mn-label")).to_have_text(["Input", "Output", "Attributes"])
    expect(detail.locator("b")).to_have_count(0)  # the prompt's markup is text
    expect(detail).to_contain_text("<b>Paris</b>")
    first_level = detail.locator("details.mn-tree").first
    expect(first_level).to_have_attribute("open", "")
    expect(detail.locator("details.mn-tree:not([open])").first).to_be_attached()  # deeper JSON folded
    # its details under its row; read once both are laid out (the lane may be redrawn meanwhile: a
    # redraw replaces the rows, and a row read in between has no box)
    row = shown_detail = None
    for _ in range(3):
        expect(generation).to_be_visible()
        expect(detail).to_be_visible()
        row, shown_detail = generation.bounding_box(), detail.bounding_box()
        if row is not None and shown_detail is not None:
            break
    assert row is not None
    assert shown_detail is not None
    assert row["y"] + row["height"] <= shown_detail["y"] + 1

    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.painted(page)
        e2e.screenshot(panel, f"trace-lane-{theme}")
    e2e.set_theme(page, "light")
    page.set_viewport_size(viewport)
