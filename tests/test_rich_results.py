"""Tool results as data (issue 21, the kernel's half): Python objects as bounded MIME bundles, what a
model is sent of them, ``mn.renderer`` (global, per stream, raising, arguments as they stream), a
client tool's value kept in the kernel, and the bytes a million-row DataFrame puts on the wire."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest
from PIL import Image

import mastra_notebook as mn
from mastra_notebook.client.tools import jsonable, tool
from mastra_notebook.core.result import view_snapshot
from mastra_notebook.render.renderers import drawer
from mastra_notebook.render.rich import (
    BYTES_PER_CARD,
    MODEL_ROWS,
    TABLE_ROWS,
    display_of,
    is_rich,
    model_form,
)
from mastra_notebook.render.transcript import render_html

from .conftest import RecordingComm
from .helpers import browser_state, client_round, remote_addresses, start_tags

matplotlib.use("Agg")
import matplotlib.pyplot as plt

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def no_renderers() -> Iterator[None]:
    """Each test registers its own renderers; none outlive it."""
    yield
    for name in ("search", "query", "broken", "plot"):
        mn.renderer(name, None)


def weight(value: Any) -> int:
    return len(json.dumps(value).encode())


def png_of(display: dict[str, Any]) -> bytes:
    return base64.b64decode(display["data"]["image/png"])


# ---- conversions -----------------------------------------------------------------------------------


def test_a_dataframe_is_an_html_table_with_its_text() -> None:
    frame = pd.DataFrame({"city": ["Oslo", "Lima"], "temp": [4, 19]})
    shown = display_of(frame, "value")
    assert shown is not None
    assert (shown["source"], shown["preview"], shown["error"]) == ("value", None, None)
    assert "<table" in shown["data"]["text/html"]
    assert "<td>Lima</td>" in shown["data"]["text/html"]
    assert "Oslo" in shown["data"]["text/plain"]


def test_a_series_and_small_arrays_are_tables_too() -> None:
    series = display_of(pd.Series([1.5, 2.5], name="price"), "value")
    assert series is not None
    assert "<th>price</th>" in series["data"]["text/html"]
    matrix = display_of(np.arange(6).reshape(2, 3), "value")
    assert matrix is not None
    assert "<table" in matrix["data"]["text/html"]
    vector = display_of(np.array([7, 8, 9]), "value")
    assert vector is not None
    assert "<td>9</td>" in vector["data"]["text/html"]


def test_an_array_of_three_dimensions_is_its_text_summarised() -> None:
    shown = display_of(np.zeros((50, 50, 50)), "value")
    assert shown is not None
    assert list(shown["data"]) == ["text/plain"]
    assert shown["data"]["text/plain"].startswith("array of shape (50, 50, 50), float64")
    assert "..." in shown["data"]["text/plain"]  # numpy's summary, not 125,000 numbers


def test_a_matplotlib_figure_is_a_png_and_pyplot_lets_it_go() -> None:
    figure, axes = plt.subplots(figsize=(4, 3))
    axes.plot([1, 2, 3], [3, 1, 2])
    axes.set_title("sales")
    shown = display_of(figure, "value")
    assert shown is not None
    assert png_of(shown).startswith(PNG)
    assert "sales" in shown["data"]["text/plain"]
    assert figure.number not in plt.get_fignums()  # the card shows it, not a later cell's inline output
    assert display_of(axes, "value") is not None  # an Axes draws as its figure


def test_a_pil_image_is_a_png_scaled_down_when_large() -> None:
    shown = display_of(Image.new("RGB", (40, 30), "red"), "value")
    assert shown is not None
    assert png_of(shown).startswith(PNG)
    assert shown["preview"] is None
    large = display_of(Image.new("RGB", (4000, 100), "blue"), "value")
    assert large is not None
    assert large["preview"] == "scaled down from 4,000x100 px"
    assert Image.open(__import__("io").BytesIO(png_of(large))).size[0] == 1600


class Reprs:
    """An object with every one of IPython's rich reprs."""

    def _repr_html_(self) -> str:
        return "<b>html</b>"

    def _repr_svg_(self) -> str:
        return "<svg></svg>"

    def _repr_png_(self) -> bytes:
        return PNG + b"png"

    def _repr_jpeg_(self) -> tuple[bytes, dict[str, Any]]:
        return b"\xff\xd8jpeg", {"width": 3}  # (data, metadata), as IPython allows

    def _repr_markdown_(self) -> str:
        return "**markdown**"

    def _repr_json_(self) -> dict[str, int]:
        return {"json": 1}

    def __repr__(self) -> str:
        return "Reprs()"


@pytest.mark.parametrize(
    ("mime", "payload"),
    [
        ("text/html", "<b>html</b>"),
        ("image/svg+xml", "<svg></svg>"),
        ("image/png", base64.b64encode(PNG + b"png").decode()),
        ("image/jpeg", base64.b64encode(b"\xff\xd8jpeg").decode()),
        ("text/markdown", "**markdown**"),
        ("application/json", {"json": 1}),
        ("text/plain", "Reprs()"),
    ],
)
def test_each_repr_gives_its_type(mime: str, payload: Any) -> None:
    shown = display_of(Reprs(), "value")
    assert shown is not None
    assert shown["data"][mime] == payload


def test_a_mimebundle_keeps_the_types_a_card_draws_and_leaves_script_out() -> None:
    class Chart:
        def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
            data = {
                "text/html": "<div>chart</div>",
                "application/javascript": "alert(1)",
                "text/plain": "Chart",
            }
            return data, {}

    shown = display_of(Chart(), "value")
    assert shown is not None
    assert shown["data"] == {"text/html": "<div>chart</div>", "text/plain": "Chart"}


def test_a_repr_that_raises_is_the_displays_error() -> None:
    class Broken:
        def _repr_html_(self) -> str:
            raise RuntimeError("no html today")

    shown = display_of(Broken(), "value")
    assert shown == {"data": None, "source": "value", "preview": None, "error": "RuntimeError: no html today"}


def test_plain_json_values_are_not_rich() -> None:
    assert not any(is_rich(v) for v in (None, 1, "x", [1], {"a": 1}, ({"a": 1},)))
    assert all(is_rich(v) for v in (pd.DataFrame(), np.zeros(2), Image.new("L", (1, 1)), Reprs()))


# ---- bounds -----------------------------------------------------------------------------------------


def test_a_million_rows_show_their_first_rows_within_the_bound() -> None:
    frame = pd.DataFrame({"n": np.arange(1_000_000), "label": ["row"] * 1_000_000})
    shown = display_of(frame, "value")
    assert shown is not None
    assert weight(shown) < BYTES_PER_CARD
    assert shown["preview"] == "first 50 of 1,000,000 rows: 999,950 more rows stay in the kernel"
    assert (
        shown["data"]["text/html"].count("<tr>") == TABLE_ROWS
    )  # the body's rows (the header's has a style)


def test_heavy_rows_are_fewer_and_a_heavy_repr_is_left_out() -> None:
    wide = pd.DataFrame({"text": ["x" * 20_000] * 50})
    shown = display_of(wide, "value")
    assert shown is not None
    assert weight(shown) < BYTES_PER_CARD
    assert shown["preview"] is not None
    assert shown["preview"].startswith("first 3 of 50 rows")

    class Huge:
        def _repr_html_(self) -> str:
            return "<p>" + "y" * 400_000 + "</p>"

    huge = display_of(Huge(), "value")
    assert huge is not None
    assert weight(huge) < BYTES_PER_CARD
    assert "text/html" not in huge["data"]
    assert huge["preview"] is not None
    assert huge["preview"].startswith("too large to show here: text/html (400 kB)")


# ---- what the model is sent ---------------------------------------------------------------------------


def test_the_model_gets_records_bounded_in_rows() -> None:
    assert model_form(pd.DataFrame({"a": [1, 2]}), jsonable) == [{"a": 1}, {"a": 2}]
    big = model_form(pd.DataFrame({"a": range(1000)}), jsonable)
    assert big["total_rows"] == 1000
    assert len(big["records"]) == MODEL_ROWS
    assert big["note"] == "the first 100 of 1,000 rows"
    heavy = model_form(pd.DataFrame({"text": ["z" * 5000] * 100}), jsonable)
    assert heavy["note"] == "the first 12 of 100 rows"  # halved while over MODEL_BYTES
    indexed = model_form(
        pd.Series([4, 19], index=pd.Index(["Oslo", "Lima"], name="city"), name="t"), jsonable
    )
    assert indexed == [{"city": "Oslo", "t": 4}, {"city": "Lima", "t": 19}]


def test_the_model_gets_lists_for_arrays_and_words_for_pictures() -> None:
    assert model_form(np.array([[1, 2], [3, 4]]), jsonable) == [[1, 2], [3, 4]]
    large = model_form(np.zeros((100, 100)), jsonable)
    assert large["shape"] == [100, 100]
    assert len(large["first_items"]) == 1000
    figure, _ = plt.subplots()
    assert model_form(figure, jsonable).startswith("a matplotlib figure, ")
    plt.close(figure)
    assert model_form(Image.new("RGB", (4, 3)), jsonable) == "an image, 4x3 px, RGB (shown to the user)"
    assert model_form(Reprs(), jsonable) == "**markdown**"
    assert model_form({"plain": True}, jsonable) == {"plain": True}


# ---- renderers ----------------------------------------------------------------------------------------


def tool_chunks(name: str, args: dict[str, Any], result: Any) -> list[dict[str, Any]]:
    """A server tool's call, its arguments streamed in two deltas, and its result."""
    text = json.dumps(args)
    call = {"toolCallId": "c1", "toolName": name}
    return [
        {"type": "tool-call-input-streaming-start", "payload": call},
        {"type": "tool-call-delta", "payload": {**call, "argsTextDelta": text[: len(text) // 2]}},
        {"type": "tool-call-delta", "payload": {**call, "argsTextDelta": text[len(text) // 2 :]}},
        {"type": "tool-call", "payload": {**call, "args": args}},
        {"type": "tool-result", "payload": {**call, "args": args, "result": result}},
    ]


def node_of(run: mn.Run) -> dict[str, Any]:
    return run.state.calls["c1"].fields


def fed(chunks: list[dict[str, Any]], **options: Any) -> mn.Run:
    run = mn.Run(**options)
    for chunk in chunks:
        run.feed(chunk)
    return run


ROWS = [{"title": "Mastra", "rank": 1}, {"title": "Jupyter", "rank": 2}]


def test_a_registered_renderer_turns_a_server_tools_json_into_a_table() -> None:
    mn.renderer("search", pd.DataFrame)
    display = node_of(fed(tool_chunks("search", {"q": "x"}, ROWS)))["display"]
    assert display["source"] == "renderer"
    assert "<td>Jupyter</td>" in display["data"]["text/html"]
    assert "display" not in node_of(fed(tool_chunks("other", {}, ROWS)))  # others draw as JSON


def test_a_renderer_serves_recordings_collect_and_the_transcript() -> None:
    @mn.renderer("search")
    def table(result: Any) -> pd.DataFrame:
        return pd.DataFrame(result)

    result = mn.collect(tool_chunks("search", {"q": "x"}, ROWS))
    (add,) = [op for op in view_snapshot(result) or () if op[2].get("kind") == "tool"]
    assert "<td>Mastra</td>" in add[2]["display"]["data"]["text/html"]


def test_a_streams_own_renderers_come_before_the_registered_ones() -> None:
    mn.renderer("search", lambda result: "registered")
    own = fed(tool_chunks("search", {}, ROWS), draw=drawer({"search": lambda result: "its own"}))
    assert node_of(own)["display"]["data"] == {"text/plain": "its own"}
    assert node_of(fed(tool_chunks("search", {}, ROWS)))["display"]["data"] == {"text/plain": "registered"}


def test_a_views_renderers(recording_comm: RecordingComm) -> None:
    view = mn.view(renderers={"search": lambda result: {"count": len(result)}})
    for chunk in tool_chunks("search", {}, ROWS):
        view.feed(chunk)
    view.end()
    (call,) = view.result.tool_calls
    assert call.result == ROWS  # the JSON stays as it came
    drawn = browser_state(recording_comm.custom())  # what the browser was sent, live
    (node,) = [node for node in drawn.values() if node["kind"] == "tool"]
    assert node["display"]["data"] == {"application/json": {"count": 2}}


def test_a_raising_renderer_shows_its_error() -> None:
    def broken(result: Any) -> Any:
        raise KeyError("rows")

    mn.renderer("broken", broken)
    display = node_of(fed(tool_chunks("broken", {}, ROWS)))["display"]
    assert display == {"data": None, "source": "renderer", "preview": None, "error": "KeyError: 'rows'"}


def test_an_argument_is_named_for_highlighting_while_it_streams() -> None:
    mn.renderer("query", args={"sql": "sql"})
    run = mn.Run()
    chunks = tool_chunks("query", {"sql": "SELECT * FROM orders"}, [])
    run.feed(chunks[0])
    run.feed(chunks[1])  # half the arguments
    assert node_of(run)["args_display"] == {"field": "sql", "language": "sql", "display": None}
    assert node_of(run)["status"] == "streaming-args"
    with pytest.raises(ValueError, match="not one of json, markdown, python, sql"):
        mn.renderer("query", args={"sql": "cobol"})


def test_args_fn_draws_the_partial_arguments_as_they_parse() -> None:
    seen: list[Any] = []

    def partial(args: Any) -> str:
        seen.append(args)
        return f"{len((args or {}).get('sql', ''))} characters so far"

    mn.renderer("query", args=partial)
    run = fed(tool_chunks("query", {"sql": "SELECT 1"}, [])[:2])
    shown = node_of(run)["args_display"]
    assert shown["field"] is None
    assert shown["display"]["data"]["text/plain"].endswith("characters so far")
    assert seen
    assert seen[-1] != {"sql": "SELECT 1"}


def test_removing_a_renderer() -> None:
    mn.renderer("search", pd.DataFrame)
    mn.renderer("search", None)
    assert "display" not in node_of(fed(tool_chunks("search", {}, ROWS)))


# ---- a client tool's value ----------------------------------------------------------------------------


def orders(n: int) -> pd.DataFrame:
    """The latest orders."""
    return pd.DataFrame({"order": range(n), "total": [9.5] * n})


def test_a_client_tools_dataframe_is_its_value_its_records_and_its_table() -> None:
    run, sent = client_round(orders, {"n": 3})
    (call,) = run.result.tool_calls
    assert isinstance(call.value, pd.DataFrame)
    assert call.value.shape == (3, 2)
    assert call.result == [{"order": i, "total": 9.5} for i in range(3)]  # what the model got
    assert "value" not in call.model_dump()  # kept in the kernel, never written
    assert node_of(run)["display"]["source"] == "value"
    assert "<table" in sent[-1]["payload"]["mnDisplay"]["data"]["text/html"]  # a recording keeps it
    replayed = fed(sent[-1:])
    assert replayed.state.calls["c1"].fields["display"] == node_of(run)["display"]


def test_to_model_chooses_what_the_model_is_sent() -> None:
    summarised = tool(orders, to_model=lambda frame: {"rows": len(frame), "total": float(frame.total.sum())})
    run, _ = client_round(summarised, {"n": 4})
    (call,) = run.result.tool_calls
    assert call.result == {"rows": 4, "total": 38.0}
    assert isinstance(call.value, pd.DataFrame)
    assert "<table" in node_of(run)["display"]["data"]["text/html"]


def test_a_failing_to_model_is_the_calls_error() -> None:
    run, _ = client_round(tool(orders, to_model=lambda frame: frame.missing), {"n": 1})
    (call,) = run.result.tool_calls
    assert call.status == "error"
    assert call.error is not None
    assert "missing" in call.error.message


def test_a_plain_result_has_no_display() -> None:
    def lookup(city: str) -> dict[str, str]:
        """A city."""
        return {"city": city}

    run, sent = client_round(lookup, {"city": "Oslo"})
    assert "display" not in node_of(run)
    assert "mnDisplay" not in sent[-1]["payload"]
    assert run.result.tool_calls[0].value == {"city": "Oslo"}


def test_a_million_row_dataframe_puts_bounded_bytes_on_the_wire(recording_comm: RecordingComm) -> None:
    def everything() -> pd.DataFrame:
        """Every row."""
        return pd.DataFrame({"n": np.arange(1_000_000), "x": np.random.default_rng(0).random(1_000_000)})

    _, sent = client_round(everything, {})
    view = mn.view()
    for chunk in tool_chunks("everything", {}, [])[:4] + sent:
        view.feed(chunk)
    view.end()
    ops = [m for m in recording_comm.messages if m["data"].get("method") == "custom"]
    live = sum(m["bytes"] for m in ops)
    assert live < BYTES_PER_CARD + 64_000  # the display, the model's 100 records, the rest of the run
    assert view.result.tool_calls[0].result["total_rows"] == 1_000_000


def test_the_displays_fit_the_node_schema() -> None:
    from mastra_notebook.core.nodes import ToolNode

    mn.renderer("query", args={"sql": "sql"})
    run, _ = client_round(orders, {"n": 2})
    broken = fed(
        tool_chunks("query", {"sql": "SELECT 1"}, ROWS), draw=drawer({"query": lambda result: 1 / 0})
    )
    for node in (run.state.calls["c1"], broken.state.calls["c1"]):
        ToolNode.model_validate(node.as_dict())  # extra fields are refused: the keys are the schema's
    assert broken.state.calls["c1"].fields["display"]["error"] == "ZeroDivisionError: division by zero"


def test_a_replays_renderers_draw_again_after_a_seek_back(
    tmp_path: Path, recording_comm: RecordingComm
) -> None:
    path = tmp_path / "search.jsonl"
    path.write_text("".join(json.dumps(chunk) + "\n" for chunk in tool_chunks("search", {}, ROWS)))
    view = mn.replay(path, autoplay=False, renderers={"search": pd.DataFrame})
    view.seek(5)
    assert "<table" in view.run.state.calls["c1"].fields["display"]["data"]["text/html"]
    view.seek(0)
    view.seek(5)  # a fresh run, fed again: the view's renderers still draw
    assert "<table" in view.run.state.calls["c1"].fields["display"]["data"]["text/html"]


def test_the_model_is_told_of_other_rich_objects_in_words() -> None:
    class Html:
        def _repr_html_(self) -> str:
            return "<p>three orders</p>"

    class Picture:
        def _repr_png_(self) -> bytes:
            return PNG

    assert model_form(Html(), jsonable) == "<p>three orders</p>"
    assert model_form(Picture(), jsonable) == "a Picture picture (image/png), shown to the user"


def test_an_altair_chart_is_an_svg_and_words_for_the_model() -> None:
    altair = pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    chart = (
        altair.Chart(pd.DataFrame({"a": [1, 2], "b": [3, 4]}), title="Sales").mark_bar().encode(x="a", y="b")
    )
    shown = display_of(chart, "value")
    assert shown is not None
    assert shown["data"]["image/svg+xml"].startswith("<svg")
    assert model_form(chart, jsonable) == "an altair chart (Chart: 'Sales'), shown to the user"


def test_a_plotly_figure_is_a_png_with_kaleido_else_says_what_draws_it() -> None:
    express = pytest.importorskip("plotly.express")
    figure = express.bar(x=[1, 2], y=[3, 4], title="Orders")
    shown = display_of(figure, "value")
    assert shown is not None
    assert model_form(figure, jsonable) == "a plotly chart (Figure: 'Orders'), shown to the user"
    try:
        import kaleido  # noqa: F401
    except ImportError:
        assert (
            shown["preview"]
            == "not drawn: plotly charts are drawn here as images by kaleido (pip install kaleido)"
        )
        assert "text/html" not in shown["data"]  # its own HTML needs its script, which no card runs
    else:
        assert png_of(shown).startswith(PNG)


# ---- the XSS corpus through renderers: the kernel carries it as data, the transcript draws it inert ----

CORPUS: list[str] = json.loads((Path(__file__).parent / "rich" / "xss-corpus.json").read_text())["entries"]
ACTIVE = {"script", "iframe", "frame", "object", "embed", "form", "style", "link", "meta", "base"}


class Html:
    """What ``IPython.display.HTML`` is to a renderer: an object with ``_repr_html_``."""

    def __init__(self, html: str) -> None:
        self.html = html

    def _repr_html_(self) -> str:
        return self.html


@pytest.mark.parametrize("entry", CORPUS)
def test_the_xss_corpus_through_renderers_leaves_the_transcript_inert(entry: str) -> None:
    renderers = {
        "html": Html,
        "markdown": lambda result: type("Md", (), {"_repr_markdown_": lambda self: result})(),
        "svg": lambda result: type("Svg", (), {"_repr_svg_": lambda self: result})(),
        "table": lambda result: pd.DataFrame({"cell": [result]}),
        "text": str,
    }
    run = mn.Run(draw=drawer(renderers))
    for index, name in enumerate(renderers):
        call = {"toolCallId": f"c{index}", "toolName": name}
        run.feed({"type": "tool-call", "payload": {**call, "args": {}}})
        run.feed({"type": "tool-result", "payload": {**call, "result": entry}})
    run.end()
    assert all(run.state.calls[f"c{i}"].fields["display"]["data"] for i in range(len(renderers)))
    html = render_html(run.result)
    for tag, attrs in start_tags(html):
        assert tag not in ACTIVE, (tag, attrs)
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert not any("javascript:" in (value or "").lower() for value in attrs.values()), (tag, attrs)
    assert remote_addresses(html) == []  # nothing fetched by itself: only a link's href is remote
