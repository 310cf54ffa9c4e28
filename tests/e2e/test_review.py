"""Issue 31's review acceptance in a real JupyterLab with the real Mastra server: 20 items labelled by
keyboard alone (a score by digit, thumbs by u, a comment typed with keys that are the queue's own,
next by n); the kernel restarted after item 12; ``load_experiment`` shows 12 labels and the queue
resumes at 13; the 20 labels reach Mastra's feedback with the runs' trace ids. A pairwise review
draws two runs side by side. The queue's keys, comment box and words are checked in
tests/test_review.py and js/test/review.test.ts. Screenshots in light and dark."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

FOLDER = "review-experiment"
RUBRIC = 'mn.Rubric(thumbs=True, scale=(1, 5), categories=["wrong", "terse"], comment=True)'
MADE = f"""import shutil
shutil.rmtree({FOLDER!r}, ignore_errors=True)
inputs = [{{"input": f"Question {{i}}: say something short.", "expected": "short"}} for i in range(20)]
exp = client.agent("plainText").experiment(inputs, concurrency=4, name="review", view=False)
exp.wait(300)
exp.save({FOLDER!r})
print("SAVED", len(exp.cells), sum(bool(c.result.trace_id) for c in exp.cells))"""
REVIEW = f'review = exp.review({RUBRIC}, order="input", reviewer="ana")\nreview'
RELOADED = f"""import mastra_notebook as mn
client = mn.MastraClient({{url!r}})
exp = mn.load_experiment({FOLDER!r}, client=client)
review = exp.review({RUBRIC}, order="input", reviewer="ana")
print("LOADED", len(exp.book), review.progress)
review"""
# The last labels' sends run on the kernel's loop in the background (the keys do not wait for Mastra):
# the cell awaits them before it reads what Mastra stored.
STORED = """import asyncio, json
while any(label.sent_to_mastra is None for label in review.labels):
    await asyncio.sleep(0.05)
def stored(trace_id):
    answer = client.transport.call("GET", "/api/observability/feedback", params={"traceId": trace_id})
    return answer["feedback"]
labels = review.labels
print("STORED", json.dumps({
    "labels": len(labels),
    "sent": sum(label.sent_to_mastra is True for label in labels),
    "traced": sum(len(label.trace_ids) == 1 for label in labels),
    "stored": sum(any(r["feedbackType"] == "rating" for r in stored(label.trace_ids[0])) for label in labels),
    "scores": [label.values.score for label in labels],
    "comment": labels[2].values.comment,
}))"""
PAIRWISE = """pair = client.agent("dynamic").experiment(
    ["Where is NASA based?", "Who founded IBM?"],
    {"plain": {"instructions": "Answer in plain words."}, "uppercase": {"instructions": "Answer in uppercase."}},
    view=False,
)
pair.wait(300)
pair.review(pairwise=("plain", "uppercase"), reviewer="ana")"""


def score_of(number: int) -> int:
    """The score item ``number`` (from 1) is given: 1 to 5 in turn."""
    return (number - 1) % 5 + 1


def label_by_keys(page: object, review: object, first: int, last: int) -> None:
    """Label items ``first`` to ``last`` (from 1) with the keyboard alone, waiting for each next item."""
    progress = review.locator(".mn-review-progress")  # type: ignore[attr-defined]
    for number in range(first, last + 1):
        expect(progress).to_have_text(f"{number} of 20", timeout=30_000)
        keyboard = page.keyboard  # type: ignore[attr-defined]
        keyboard.press(str(score_of(number)))
        keyboard.press("u")
        if number == 3:  # a comment holding the queue's own keys: they go to the box
            keyboard.press("c")
            keyboard.type("n p s 4 u: right")
            keyboard.press("Escape")
        keyboard.press("n")
    expect(progress).to_have_text(
        f"{last + 1} of 20" if last < 20 else "done: 20 of 20 labelled", timeout=30_000
    )


def test_a_review_by_keyboard_resumes_after_a_restart(client_notebook: e2e.ClientNotebook) -> None:
    url = client_notebook.url
    page = client_notebook.open(
        "review", MADE, REVIEW, RELOADED.format(url=url), STORED, PAIRWISE, run=(0, 1)
    )
    assert "SAVED 20 20" in e2e.cell_output_text(page, 1, timeout=300_000)
    e2e.run_cells(page, 2)
    review = e2e.cell(page, 2).locator(".mn-review")
    expect(review).to_be_visible(timeout=60_000)
    expect(review.locator(".mn-review-note")).to_contain_text(
        "sent to Mastra's feedback with each run's trace id"
    )
    expect(review.locator(".mn-review-run-view .mn-root")).to_be_visible(timeout=30_000)  # the run view
    review.locator(".mn-review-progress").click()  # the queue takes the keys from here on
    # what JupyterLab's shortcuts listen to (the document) hears none of the queue's keys
    page.evaluate(
        "() => { window.__mnKeys = []; document.addEventListener('keydown', e => window.__mnKeys.push(e.key)); }"
    )
    label_by_keys(page, review, 1, 12)
    assert page.evaluate("() => window.__mnKeys") == []
    expect(review.locator(".mn-review-input")).to_contain_text("Question 12")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(review, f"review-single-{theme}")
    e2e.set_theme(page, "light")
    cells_before = page.locator(".jp-Notebook .jp-Cell").count()

    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()")
    e2e.wait_notebook_ready(page)
    e2e.run_cells(page, 3)
    assert "LOADED 12 13 of 20" in e2e.cell_output_text(page, 3)
    resumed = e2e.cell(page, 3).locator(".mn-review")
    expect(resumed.locator(".mn-review-progress")).to_have_text("13 of 20", timeout=60_000)
    resumed.locator(".mn-review-progress").click()
    label_by_keys(page, resumed, 13, 20)
    assert page.locator(".jp-Notebook .jp-Cell").count() == cells_before  # no key reached JupyterLab's a/b/dd

    e2e.run_cells(page, 4)
    found = e2e.printed_json(page, 4, "STORED")
    assert found["labels"] == found["sent"] == found["traced"] == found["stored"] == 20
    assert found["scores"] == [score_of(n) for n in range(1, 21)]
    assert found["comment"] == "n p s 4 u: right"

    e2e.run_cells(page, 5)
    pair = e2e.cell(page, 5).locator(".mn-review")
    views = pair.locator(".mn-review-run-view .mn-root")
    expect(views).to_have_count(2, timeout=300_000)
    expect(views.nth(0)).to_contain_text("a · plain")  # the run view's own title
    expect(views.nth(1)).to_contain_text("b · uppercase")
    pair.locator(".mn-review-progress").click()
    page.keyboard.press("b")
    expect(pair.locator('.mn-review-choice[data-choice="b"]')).to_have_attribute("aria-pressed", "true")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(pair, f"review-pairwise-{theme}")
    e2e.set_theme(page, "light")
