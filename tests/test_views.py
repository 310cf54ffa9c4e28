"""The kernel's tables and panels as data (render/views.py), drawn by the one renderer in the kernel:
hostile text stays text, labels are isolated, styles come from the one palette."""

from __future__ import annotations

from mastra_notebook.analysis.compare import word_diff_html
from mastra_notebook.render import views
from mastra_notebook.widget.conversation import user_turn_html

from .helpers import parse, start_tags

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)"></td></tr>\u202e'


def test_a_table_of_hostile_cells_is_text_in_isolated_labels() -> None:
    rows = [[views.code(views.untrusted(HOSTILE)), views.untrusted(HOSTILE, title=HOSTILE), views.muted("—")]]
    html = views.draw([views.table(["id", "name", ""], rows, cls="mn-catalogue", kind="agents")], "mn-x")
    tags = start_tags(html)
    drawn = {tag for tag, _ in tags}
    assert drawn <= {"div", "table", "thead", "tbody", "tr", "th", "td", "code", "bdi", "span"}
    assert not any(name.startswith("on") for _, attrs in tags for name in attrs)
    assert all(attrs.get("dir") == "auto" for tag, attrs in tags if tag == "bdi")
    cells = parse(html)
    assert cells.rows == [["id", "name", ""], [HOSTILE, HOSTILE, "—"]]  # one row: its markup is text
    assert cells.bdi == 2
    table = next(attrs for tag, attrs in tags if tag == "table")
    assert table["data-kind"] == "agents"
    assert "border-collapse:collapse" in (table["style"] or "")  # the palette's, inline


def test_diff_segments_are_styled_by_the_palette() -> None:
    html = word_diff_html("The sky is blue.", "The sky is <b>grey</b>.")
    tags = dict(start_tags(html))
    assert "text-decoration:line-through" in (tags["del"]["style"] or "")
    assert "background:rgba(46,160,67" in (tags["ins"]["style"] or "")
    assert "<b>" not in html


def test_a_user_turn_is_the_prompt_as_typed() -> None:
    html = user_turn_html(HOSTILE)
    assert [tag for tag, _ in start_tags(html)] == ["div"]
    assert 'class="mn-user-turn" data-role="user"' in html


def test_a_view_drawn_unstyled_keeps_only_its_own_declarations() -> None:
    """The experiment's static grid: no palette declaration for the host's sanitiser to check, only
    those a piece asks for (a cell's alignment)."""
    body = [
        views.code(HOSTILE, title=HOSTILE),
        views.table(["a", "b"], [["1", "2"]], cell_style="text-align:left"),
    ]
    tags = start_tags(views.draw(body, "mn-x", styled=False))
    styles = {tag: attrs.get("style") for tag, attrs in tags}
    assert styles["code"] is None
    assert styles["table"] is None
    assert all(attrs.get("style") == "text-align:left" for tag, attrs in tags if tag in ("th", "td"))
    assert "background" in (
        dict(start_tags(views.draw(body)))["code"]["style"] or ""
    )  # styled: the palette's


def test_buttons_are_drawn_only_for_a_page_that_acts_on_them() -> None:
    """A transcript reads, it does not act: a button is left out, unless the parts are a live page's."""
    cell = views.block([views.button("mn-exp-open", HOSTILE, {"open": "7"}, disabled=True)], "mn-exp-cell")
    (kept,) = views.draw_each([cell], controls=True)
    button = next(attrs for tag, attrs in start_tags(kept) if tag == "button")
    assert button["data-open"] == "7"
    assert "disabled" in button
    assert button["class"] == "mn-exp-open"
    assert not any(name.startswith("on") for _, attrs in start_tags(kept) for name in attrs)
    (dropped,) = views.draw_each([cell])
    assert "<button" not in dropped
