"""The timeline in real pages: live while a replay streams and finished, in JupyterLab's light and dark
themes; in the exported page (offline); in the static transcript with scripts off. Screenshots in
test-artifacts/timeline-*.png."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e


# A pace like a real model's: a first token after a pause, deltas 40 ms apart, a tool that works.
GAPS_MS = {"text-delta": 40, "tool-call-delta": 35, "tool-output": 260, "tool-result": 280, "step-start": 60}
FIRST_TOKEN_MS = 320


def timed_recording(name: str, out: Path) -> Path:
    """A fixture as a recording (``mnReceivedMs``) paced like a real run, as ``view.save`` writes it."""
    at, previous, lines = 0.0, "", []
    for raw in (e2e.FIXTURES / f"{name}.jsonl").read_text().splitlines():
        chunk = json.loads(raw)
        inner, kind = chunk, chunk["type"]
        while kind == "tool-output" and isinstance(inner.get("payload", {}).get("output"), dict):
            inner = inner["payload"]["output"]  # a sub-agent's chunk: paced as what it carries
            kind = inner.get("type", kind)
            if "from" not in inner:
                kind = "tool-output"  # a value the tool wrote: progress while it works
                break
        gap = FIRST_TOKEN_MS if previous == "step-start" else GAPS_MS.get(kind, 15)
        at += gap if lines else 0
        previous = kind
        lines.append(json.dumps({**chunk, "mnReceivedMs": at}))
    path = out / f"{name}-timed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def bars(root: Any) -> list[dict[str, Any]]:
    return list(
        root.evaluate(
            """el => [...el.querySelectorAll('.mn-timeline .mn-tl-row:not(.mn-tl-axis)')].map(row => ({
                id: row.dataset.nodeRef, kind: row.dataset.bar, label: row.querySelector('.mn-tl-label').textContent,
                depth: parseInt(row.querySelector('.mn-tl-label').style.paddingLeft) / 12,
                left: parseFloat(row.querySelector('.mn-tl-bar').style.left),
                width: parseFloat(row.querySelector('.mn-tl-bar').style.width),
                phases: [...row.querySelectorAll('.mn-tl-seg')].map(s => s.dataset.phase),
                open: row.querySelector('.mn-tl-bar').dataset.open === 'true',
            }))"""
        )
    )


def open_replay(page: Any, lab: e2e.Lab, name: str, code: str, *, dark: bool) -> Any:
    """A notebook ``name`` whose cell 1 shows the view ``code`` makes, run in a theme; the view's root."""
    e2e.open_notebook(page, lab.notebook(name, ["import mastra_notebook as mn", code]))
    e2e.theme(page, dark=dark)
    e2e.run_cells(page, 0, 1)
    return e2e.view_root(page, 1)


def test_the_timeline_grows_live_and_stays_when_the_run_ends(lab: e2e.Lab, page: Any, tmp_path: Path) -> None:
    recording = timed_recording("agent-as-tool", lab.root)
    root = open_replay(page, lab, "timeline-live", f"view = mn.replay({recording.name!r})\nview", dark=False)
    toggle = root.locator(".mn-header .mn-timeline-toggle")
    expect(toggle).to_have_text("Timeline")
    panel = root.locator(".mn-timeline")
    expect(panel).to_be_hidden()
    toggle.click()
    expect(panel).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "true")

    # live: the sub-agent streams; what is under way is drawn to now, and grows
    page.wait_for_function(
        "el => [...el.querySelectorAll('.mn-tl-label')].some(l => l.textContent === 'sub-agent researcher')",
        arg=root.element_handle(),
        timeout=20_000,
    )
    live = bars(root)
    assert panel.get_attribute("data-live") == "true"
    assert any(bar["open"] for bar in live)
    e2e.screenshot(panel, "timeline-live-light")
    page.wait_for_function(  # an open bar grows (or closes) as the run goes on
        """([el, widths]) => [...el.querySelectorAll('.mn-timeline .mn-tl-row')].some(row => {
            const bar = row.querySelector('.mn-tl-bar'), was = widths[row.dataset.nodeRef];
            return was !== undefined && (bar.dataset.open !== 'true' || parseFloat(bar.style.width) > was);
        })""",
        arg=[root.element_handle(), {b["id"]: b["width"] for b in live if b["open"] and b["id"] != "root"}],
        timeout=20_000,
    )
    grown = {bar["id"]: bar for bar in bars(root)}
    assert grown["root"]["width"] == pytest.approx(100)
    still_open = [bar for bar in live if bar["open"] and bar["id"] in grown and bar["id"] != "root"]
    assert still_open
    assert any(grown[bar["id"]]["width"] > bar["width"] or not grown[bar["id"]]["open"] for bar in still_open)

    e2e.wait_status(root, "finished", timeout=30_000)
    page.wait_for_function("el => el.dataset.live === 'false'", arg=panel.element_handle(), timeout=5_000)
    done = bars(root)
    assert [(bar["label"], bar["depth"]) for bar in done] == [
        ("supervisor", 0),
        ("step 1", 1),
        ("text", 2),
        ("agent-researcher", 2),
        ("sub-agent researcher", 3),
        ("step 1", 4),
        ("getForecast", 5),
        ("step 2", 4),
        ("text", 5),
        ("step 2", 1),
        ("text", 2),
    ]
    assert not any(bar["open"] for bar in done)
    forecast = next(bar for bar in done if bar["label"] == "getForecast")
    assert forecast["phases"] == ["args", "exec"]  # its arguments streamed, then it worked
    delegate = next(bar for bar in done if bar["label"] == "agent-researcher")
    assert delegate["left"] + delegate["width"] <= 100.5
    e2e.screenshot(panel, "timeline-finished-light")
    e2e.screenshot(root, "timeline-view-light")

    # a hover outlines the part a bar covers; a click selects it in the run
    row = root.locator(".mn-tl-row[data-bar='tool']").first
    row.hover()
    tool_id = row.get_attribute("data-node-ref")
    expect(root.locator(f".mn-body [data-node-id='{tool_id}']")).to_have_class(re.compile(r"\bmn-outlined\b"))
    row.click()
    expect(root.locator(f".mn-body [data-node-id='{tool_id}']")).to_have_class(
        re.compile(r"\bmn-inspected\b")
    )

    root.evaluate("el => { el.scrollTop = 0; }")  # the click scrolled the run to the part
    page.mouse.move(0, 0)
    e2e.theme(page, dark=True)
    e2e.screenshot(panel, "timeline-finished-dark")
    e2e.screenshot(root, "timeline-view-dark")
    e2e.theme(page, dark=False)


def test_a_person_deciding_is_drawn_apart_from_the_tool_running(
    lab: e2e.Lab, page: Any, mastra_url: str
) -> None:
    root = e2e.open_live_view(
        page,
        lab,
        "timeline-approval",
        mastra_url,
        'v = client.agent("approver").stream("Delete record abc-123")\nv',
        "import json\nc = v.wait(30).tool_calls[0]\n"
        "print('WAIT', json.dumps({'waited': c.decision.waited, 'span': (c.finished_at - c.started_at).total_seconds()}))",
    )
    card = e2e.awaiting_approval(root, "deleteRecord")
    root.locator(".mn-timeline-toggle").click()
    waiting = root.locator(".mn-tl-row", has=page.locator(".mn-tl-label", has_text="deleteRecord"))
    expect(waiting.locator(".mn-tl-seg").last).to_have_attribute("data-phase", "wait")
    for dark in e2e.shot_darks():  # the person looks before deciding (however long that takes)
        e2e.theme(page, dark=dark)
        e2e.screenshot(
            root.locator(".mn-timeline"), f"timeline-approval-waiting-{'dark' if dark else 'light'}"
        )
    e2e.theme(page, dark=False)
    card.locator("button.mn-approve").click()
    assert e2e.wait_status(root, "finished", "error", "aborted", timeout=30_000) == "finished"
    page.wait_for_function(  # the panel redraws: the call ran after the wait
        """el => [...el.querySelectorAll('.mn-tl-row')].some(row =>
            row.querySelector('.mn-tl-label').textContent === 'deleteRecord'
            && [...row.querySelectorAll('.mn-tl-seg')].at(-1)?.dataset.phase === 'exec')""",
        arg=root.element_handle(),
        timeout=30_000,
    )
    done = next(bar for bar in bars(root) if bar["label"] == "deleteRecord")
    assert done["phases"][-2:] == ["wait", "exec"]  # waiting for the click, then running
    # the wait is drawn at its share of the call, as the kernel timed it (the person's time, whatever it was)
    e2e.run_cells(page, 3)
    kernel = e2e.printed_json(page, 3, "WAIT")
    drawn = float(waiting.locator("[data-phase=wait]").evaluate("el => parseFloat(el.style.width)"))
    assert kernel["waited"] > 0
    assert abs(drawn - 100 * kernel["waited"] / kernel["span"]) < 0.5, (drawn, kernel)
    e2e.screenshot(root.locator(".mn-timeline"), "timeline-approval-light")
    e2e.theme(page, dark=True)
    e2e.screenshot(root.locator(".mn-timeline"), "timeline-approval-dark")
    e2e.theme(page, dark=False)


@pytest.mark.screenshots  # test_the_timeline_grows_live_and_stays_when_the_run_ends checks the live timeline
def test_the_live_timeline_in_the_dark_theme(lab: e2e.Lab, page: Any) -> None:
    recording = timed_recording("agent-as-tool", lab.root)
    root = open_replay(page, lab, "timeline-live-dark", f"mn.replay({recording.name!r})", dark=True)
    root.locator(".mn-timeline-toggle").click()
    page.wait_for_function(
        "el => [...el.querySelectorAll('.mn-tl-label')].some(l => l.textContent === 'getForecast')",
        arg=root.element_handle(),
        timeout=20_000,
    )
    assert root.locator(".mn-timeline").get_attribute("data-live") == "true"
    e2e.screenshot(root.locator(".mn-timeline"), "timeline-live-dark")
    e2e.wait_status(root, "finished", timeout=30_000)
    e2e.theme(page, dark=False)


def test_the_exported_page_has_the_timeline(browser: Any, tmp_path: Path) -> None:
    recording = timed_recording("agent-as-tool", tmp_path)
    out = tmp_path / "run.html"
    done = subprocess.run(
        [sys.executable, "-m", "mastra_notebook", "render", str(recording), "-o", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    context = browser.new_context(offline=True, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-mounted='true'] .mn-root[data-status='finished']", timeout=15_000)
    root = page.locator(".mn-root")
    root.locator(".mn-timeline-toggle").click()
    expect(root.locator(".mn-timeline")).to_be_visible()
    shown = bars(root)
    assert len(shown) == 11
    assert shown[0]["width"] == pytest.approx(100)
    assert not errors
    e2e.shoot(root, "timeline-export")
    context.close()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_transcript_shows_the_timeline_with_scripts_off(browser: Any, tmp_path: Path, dark: bool) -> None:
    import mastra_notebook as mn

    result = mn.collect(timed_recording("agent-as-tool", tmp_path))
    colors = "background:#1e1e1e;color:#e6edf3" if dark else "background:#fff;color:#1f2328"
    page_file = tmp_path / "transcript.html"
    page_file.write_text(
        f'<!doctype html><meta charset="utf-8"><body style="{colors};font-family:sans-serif;margin:16px">'
        f"{result._repr_html_()}</body>"
    )
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.goto(page_file.as_uri())
    timeline = page.locator(".mastra-notebook-transcript .mn-timeline")
    expect(timeline).to_be_visible()
    rows = timeline.locator("[data-bar]")
    assert rows.count() == 11
    expect(rows.first).to_be_visible()
    widths = rows.evaluate_all(
        "rows => rows.map(r => r.querySelector('span + span > span').getBoundingClientRect().width)"
    )
    assert widths[0] > 300  # the run spans the track
    assert all(width >= 2 for width in widths)  # every bar shows, an instant too
    e2e.shoot(timeline, f"timeline-transcript-{'dark' if dark else 'light'}")
    context.close()


# the dark run repeats the light run's checks (a theme is CSS variables): its picture, on demand
@pytest.mark.parametrize(
    "dark", [False, pytest.param(True, marks=pytest.mark.screenshots)], ids=["light", "dark"]
)
def test_a_bar_click_keeps_the_timeline_and_the_play_bar_in_view(dark: bool, lab: e2e.Lab, page: Any) -> None:
    """Issue 17: deep labels were cut, a click on a bar scrolled the timeline itself out of view, and in
    a replay the timeline pushed the play bar down. Now the labels read whole, the play bar stays right
    under the header with the timeline below it, and a click scrolls the run under them."""
    recording = timed_recording("workflow-as-tool", lab.root)
    name = f"timeline-click-{'dark' if dark else 'light'}"
    code = f"view = mn.replay({recording.name!r}, autoplay=False)\nview.seek(view.total)\nview"
    root = open_replay(page, lab, name, code, dark=dark)
    e2e.wait_status(root, "finished")
    bar_top = root.locator(".mn-replay").bounding_box()["y"]
    root.locator(".mn-header .mn-timeline-toggle").click()
    panel = root.locator(".mn-timeline")
    expect(panel).to_be_visible()
    assert root.locator(".mn-replay").bounding_box()["y"] == bar_top, "the play bar did not move"
    assert panel.bounding_box()["y"] > bar_top, "the timeline opens below the play bar"
    labels = panel.locator(".mn-tl-row:not(.mn-tl-axis) .mn-tl-label")
    cut = labels.evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert cut == [], cut
    # the deepest bar's part is at the bottom of the run: the click scrolls the view to it
    deepest = panel.locator(".mn-tl-row[data-bar='text']").last
    deepest.click()
    target = root.locator(".mn-inspected")
    expect(target).to_have_count(1)
    assert root.evaluate("el => el.scrollTop") > 0, "the view scrolled to the part"
    view_box, panel_box, part = root.bounding_box(), panel.bounding_box(), target.bounding_box()
    assert panel_box["y"] >= view_box["y"] - 1, "the timeline is still in view"
    assert part["y"] >= panel_box["y"] + panel_box["height"] - 1, "the part shows below the timeline"
    assert part["y"] < view_box["y"] + view_box["height"], "and inside the view"
    assert root.locator(".mn-replay").is_visible()
    e2e.screenshot(root, name)
