"""The words a rich result's card says (issue 21's follow-ups): a table's folded outcome is its row
count, and a failed display is said by its source, in the static transcript as in the widget."""

from __future__ import annotations

from mastra_notebook.core.captions import captions_of, media_caption, table_rows
from mastra_notebook.render.engine import engine

from .parity_text import visible_text


def test_a_table_result_folds_to_its_row_count() -> None:
    rows = [{"id": i, "name": f"row {i}"} for i in range(57)]
    assert captions_of("tool", {"status": "done", "result": rows})["outcome"] == "→ 57 rows"
    assert captions_of("tool", {"status": "done", "result": rows[:1]})["outcome"] == "→ 1 row"
    bounded = {"records": rows[:50], "total_rows": 1_000_000, "note": "the first 50 of 1,000,000 rows"}
    assert captions_of("tool", {"status": "done", "result": bounded})["outcome"] == "→ 1,000,000 rows"


def test_what_is_not_a_table_folds_as_before() -> None:
    assert table_rows([{"a": [1]}]) is None  # a nested value: JSON, not a table
    assert table_rows([{}]) is None
    assert table_rows({"records": "x", "total_rows": 3}) is None
    assert captions_of("tool", {"status": "done", "result": [1, 2]})["outcome"] == "→ [1, 2]"
    error = {"message": "boom"}
    assert (
        captions_of("tool", {"status": "error", "error": error, "result": [{"a": 1}]})["outcome"]
        == "→ error: boom"
    )
    # a sub-agent's answer text still says what came out
    nested = captions_of("tool", {"status": "done", "result": {"text": "done"}}, nested=True)
    assert nested["outcome"] == '→ "done"'


def test_a_failed_display_is_said_by_its_source() -> None:
    value = visible_text(
        engine().draw("rich", display={"error": "ValueError: no", "source": "value"}, result={"a": 1}) or ""
    )
    assert "The tool's value could not be drawn: ValueError: no" in value
    assert "renderer" not in value
    renderer = visible_text(
        engine().draw("rich", display={"error": "KeyError: 'a'", "source": "renderer"}, result={"a": 1}) or ""
    )
    assert "The renderer failed: KeyError: 'a'" in renderer


def test_an_image_or_file_result_is_said_by_what_it_is_not_its_base64() -> None:
    png = {"type": "image", "data": "iVBORw0KGgo" * 50, "mediaType": "image/png"}
    csv = {"type": "file", "url": "https://example.com/o.csv", "mediaType": "text/csv", "filename": "o.csv"}
    assert captions_of("tool", {"result": png})["outcome"] == "→ image (image/png)"
    assert captions_of("tool", {"result": csv})["outcome"] == "→ file o.csv"
    assert (
        captions_of("tool", {"result": "data:image/jpeg;base64,/9j/4AAQ"})["outcome"]
        == "→ image (image/jpeg)"
    )
    assert media_caption({"type": "media", "mimeType": "image/webp"}) == "image (image/webp)"
    assert media_caption({"type": "image-url"}) == "image"
    assert media_caption("data:text/html,<script>") is None  # not an image: summarised as any text
    assert media_caption({"type": "text", "text": "hi"}) is None
