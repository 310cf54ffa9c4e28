"""The kernel's tables and panels as data (render/views.py), drawn by the one renderer in the kernel:
hostile text stays text, labels are isolated, styles come from the one palette."""

from __future__ import annotations

from mastra_notebook.analysis.compare import word_diff_html
from mastra_notebook.render import views
from mastra_notebook.widget.conversation import user_turn_html

from .helpers import parse, start_tags

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)"></td></tr>\u202e'


def test_a_table_of_hostile_cells_is_text_in_isolated_labels() -> None:
    rows = [[views.code(views.label(HOSTILE)), views.label(HOSTILE, title=HOSTILE), views.muted("—")]]
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
