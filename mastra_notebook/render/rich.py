"""Python objects as data (issue 21): a bounded MIME bundle for the person, a JSON form for a model.

A tool card draws what :func:`display_of` makes of a value: a ``RichDisplay`` (core/nodes.py) whose
``data`` maps MIME types to payloads, bounded to :data:`BYTES_PER_CARD` on the wire. A DataFrame
shows its first rows (``preview`` says how many more stayed in the kernel); a matplotlib figure or
a PIL image is a PNG; anything with ``_repr_mimebundle_`` or ``_repr_*_`` gives its own types.
:func:`model_form` is what a model is sent of the same value: records for tabular data, bounded in
rows; lists for arrays; a short description for figures and images.

Objects are recognised by their type's module and methods, so pandas, numpy, matplotlib and PIL
are never imported here: a value of theirs brings its library with it.
"""

from __future__ import annotations

import base64
import io
import json
import sys
from collections.abc import Callable
from typing import Any

from pydantic_core import to_jsonable_python

BYTES_PER_CARD = 256_000  # a card's display on the wire, at most: the rest stays in the kernel
TABLE_ROWS = 50  # rows a table card shows at most
TABLE_COLUMNS = 40  # columns a table card shows at most
MODEL_ROWS = 100  # rows of a table a model is sent at most
MODEL_BYTES = 64_000  # ... and fewer while their JSON weighs more (a tool result is also on its card)
MODEL_ITEMS = 1_000  # items of an array a model is sent at most
TEXT_CHARS = 20_000  # a text/plain or text/markdown fallback, cut
IMAGE_SIDE = 1600  # pixels: a larger image is shown scaled down
# The types a card may draw (sanitised where drawn): the richest one the renderer can draw wins
DRAWN = (
    "text/html",
    "image/svg+xml",
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "text/markdown",
    "application/json",
    "text/plain",
)
_BINARY = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_REPRS = (  # IPython's rich reprs, by the MIME type each gives
    ("text/html", "_repr_html_"),
    ("image/svg+xml", "_repr_svg_"),
    ("image/png", "_repr_png_"),
    ("image/jpeg", "_repr_jpeg_"),
    ("text/markdown", "_repr_markdown_"),
    ("application/json", "_repr_json_"),
)

MimeBundle = dict[str, Any]


# ---- what a value is ---------------------------------------------------------------------------


def _module(value: Any) -> str:
    return type(value).__module__ or ""


def _is_frame(value: Any) -> bool:
    return _module(value).startswith("pandas") and hasattr(value, "to_html") and hasattr(value, "columns")


def _is_series(value: Any) -> bool:
    return _module(value).startswith("pandas") and hasattr(value, "to_frame") and hasattr(value, "index")


def _is_array(value: Any) -> bool:
    return _module(value).startswith("numpy") and hasattr(value, "shape") and hasattr(value, "tolist")


def _figure_of(value: Any) -> Any:
    """A matplotlib figure (or the figure of an Axes), else None."""
    if not _module(value).startswith("matplotlib"):
        return None
    if hasattr(value, "savefig"):
        return value
    figure = getattr(value, "figure", None)
    return figure if hasattr(figure, "savefig") else None


def _is_image(value: Any) -> bool:
    return _module(value).startswith("PIL") and hasattr(value, "save") and hasattr(value, "mode")


def _has_reprs(value: Any) -> bool:
    return hasattr(value, "_repr_mimebundle_") or any(hasattr(value, method) for _, method in _REPRS)


def is_rich(value: Any) -> bool:
    """A value drawn as data rather than as its JSON (a DataFrame, an array, a figure, an image,
    anything with IPython's rich reprs)."""
    if value is None or isinstance(value, (str, bytes, int, float, bool, list, tuple, dict)):
        return False
    kinds = (_is_frame, _is_series, _is_array, _figure_of, _is_image, _chart_library, _has_reprs)
    return any(kind(value) for kind in kinds)


# ---- the display -------------------------------------------------------------------------------


def display_of(value: Any, source: str) -> dict[str, Any] | None:
    """``value`` as a ``RichDisplay`` dict (``source``: ``value`` or ``renderer``), bounded to
    :data:`BYTES_PER_CARD`; None for None. Never raises: a failure is the display's ``error``.

    A string is plain text, a dict or list JSON; other objects as :func:`bundle` makes them."""
    if value is None:
        return None
    try:
        if isinstance(value, str):
            data, preview = {"text/plain": _cut(value)}, None
        elif isinstance(value, (dict, list, tuple)):
            data, preview = _fit({"application/json": to_jsonable_python(value, fallback=str)})
        else:
            data, preview = bundle(value)
    except Exception as error:  # a broken repr or savefig: said on the card, the JSON stays
        return {"data": None, "source": source, "preview": None, "error": f"{type(error).__name__}: {error}"}
    return {"data": data, "source": source, "preview": preview, "error": None}


def bundle(value: Any) -> tuple[MimeBundle, str | None]:
    """A Python object as MIME type -> payload (binary images as base64 text), within
    :data:`BYTES_PER_CARD`, and what was left out (``first 50 of 1,000,000 rows``) or None."""
    if _is_series(value):
        value = value.to_frame()
    if _is_array(value) and getattr(value, "ndim", 0) in (1, 2) and "pandas" in sys.modules:
        value = sys.modules["pandas"].DataFrame(value)
    if _is_frame(value):
        return _table(value)
    figure = _figure_of(value)
    if figure is not None:
        return _figure(figure)
    if _is_image(value):
        return _image(value)
    if _is_array(value):
        return _fit({"text/plain": _cut(_array_text(value))})
    if _chart_library(value) is not None:
        return _chart(value)
    return _fit(_reprs(value))


_CHART_NEEDS = {"plotly": "kaleido", "altair": "vl-convert-python"}  # to draw a chart as an image


def _chart_library(value: Any) -> str | None:
    """``plotly`` or ``altair`` for a chart of theirs, else None."""
    library = _module(value).split(".", 1)[0]
    drawable = {"plotly": "to_image", "altair": "save"}
    return library if library in drawable and hasattr(value, drawable[library]) else None


def _chart(value: Any) -> tuple[MimeBundle, str | None]:
    """A plotly figure (through kaleido) or an altair chart (through vl-convert) as a static image:
    their own bundles need their JavaScript, which no card runs. Without that package, the preview
    says which one draws it."""
    library = _chart_library(value)
    text = {"text/plain": describe(value)}
    try:
        if library == "plotly":
            return _fit({"image/png": _b64(value.to_image(format="png")), **text})
        buffer = io.StringIO()
        value.save(buffer, format="svg")
        return _fit({"image/svg+xml": buffer.getvalue(), **text})
    except Exception:  # its package is missing (or failed): the preview says which draws it
        needs = _CHART_NEEDS[str(library)]
        return text, f"not drawn: {library} charts are drawn here as images by {needs} (pip install {needs})"


def _reprs(value: Any) -> MimeBundle:
    """IPython's protocol: ``_repr_mimebundle_``, then each ``_repr_*_``, then ``repr``."""
    data: MimeBundle = {}
    maker = getattr(value, "_repr_mimebundle_", None)
    if callable(maker):
        made = maker(include=None, exclude=None)
        made = made[0] if isinstance(made, tuple) else made
        if isinstance(made, dict):
            data.update({key: made[key] for key in DRAWN if made.get(key) is not None})
    for mime, method in _REPRS:
        repr_method = getattr(value, method, None)
        if mime in data or not callable(repr_method):
            continue
        made = repr_method()
        made = made[0] if isinstance(made, tuple) else made  # (data, metadata)
        if made is not None:
            data[mime] = made
    for mime in _BINARY & data.keys():
        if isinstance(data[mime], (bytes, bytearray)):
            data[mime] = _b64(bytes(data[mime]))
    if isinstance(data.get("application/json"), (str, bytes)):  # IPython allows its text too
        data["application/json"] = json.loads(data["application/json"])
    data.setdefault("text/plain", _cut(repr(value)))
    return {mime: data[mime] for mime in DRAWN if mime in data}


def _table(frame: Any) -> tuple[MimeBundle, str | None]:
    """A DataFrame's first rows as an HTML table (pandas' own), fewer when they weigh too much."""
    rows, columns = frame.shape
    shown_columns = min(columns, TABLE_COLUMNS)
    part = frame.iloc[:, :shown_columns] if shown_columns < columns else frame

    def make(count: int) -> MimeBundle:
        head = part.head(count)
        return {"text/html": head.to_html(border=0, max_cols=TABLE_COLUMNS), "text/plain": head.to_string()}

    count = min(rows, TABLE_ROWS)
    data = make(count)
    while count > 1 and _weight(data) > BYTES_PER_CARD:
        count //= 2
        data = make(count)
    left = []
    if count < rows:
        left.append(f"first {count:,} of {rows:,} rows: {rows - count:,} more rows stay in the kernel")
    if shown_columns < columns:
        left.append(f"first {shown_columns} of {columns:,} columns")
    data, cut = _fit(data)
    return data, "; ".join([*left, *([cut] if cut else [])]) or None


def _figure(figure: Any) -> tuple[MimeBundle, str | None]:
    """A matplotlib figure as a PNG (lower resolutions while it weighs too much). A figure pyplot
    manages is closed once drawn: the card shows it, not an inline backend under a later cell."""
    data: MimeBundle = {}
    for dpi in (100, 72, 48, 24):
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
        data = {"image/png": _b64(buffer.getvalue()), "text/plain": describe(figure)}
        if _weight(data) <= BYTES_PER_CARD:
            break
    pyplot = sys.modules.get("matplotlib.pyplot")
    manager = getattr(getattr(figure, "canvas", None), "manager", None)
    if pyplot is not None and manager is not None:
        pyplot.close(figure)
    return _fit(data)


def _image(image: Any) -> tuple[MimeBundle, str | None]:
    """A PIL image as a PNG, scaled down to :data:`IMAGE_SIDE` (then smaller while it weighs too much)."""
    width, height = image.size
    side = IMAGE_SIDE
    data: MimeBundle = {}
    while side >= 64:
        shown = image
        if max(width, height) > side:
            shown = image.copy()
            shown.thumbnail((side, side))
        if shown.mode not in ("RGB", "RGBA", "L", "LA", "P", "1"):
            shown = shown.convert("RGBA")
        buffer = io.BytesIO()
        shown.save(buffer, format="PNG")
        data = {"image/png": _b64(buffer.getvalue()), "text/plain": describe(image)}
        if _weight(data) <= BYTES_PER_CARD:
            break
        side //= 2
    scaled = max(width, height) > side
    data, cut = _fit(data)
    return data, cut or (f"scaled down from {width:,}x{height:,} px" if scaled else None)


def _array_text(array: Any) -> str:
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return repr(array)
    return f"array of shape {array.shape}, {array.dtype}\n" + str(numpy.array2string(array, threshold=1000))


def _fit(data: MimeBundle) -> tuple[MimeBundle, str | None]:
    """``data`` within :data:`BYTES_PER_CARD`: the heaviest types left out (text/plain, cut, stays)
    until it fits, and which were."""
    dropped: list[str] = []
    while _weight(data) > BYTES_PER_CARD and len(data) > 1:
        heaviest = max(
            (mime for mime in data if mime != "text/plain"), key=lambda mime: _weight({mime: data[mime]})
        )
        dropped.append(f"{heaviest} ({_weight({heaviest: data[heaviest]}) / 1000:,.0f} kB)")
        data = {mime: payload for mime, payload in data.items() if mime != heaviest}
    if _weight(data) > BYTES_PER_CARD:  # only text/plain: cut harder
        data = {"text/plain": _cut(str(next(iter(data.values()))), BYTES_PER_CARD // 4)}
    if not dropped:
        return data, None
    return data, f"too large to show here: {', '.join(dropped)}; the value stays in the kernel"


def _weight(data: MimeBundle) -> int:
    """Bytes of ``data`` as JSON (what the wire carries)."""
    return len(json.dumps(data, ensure_ascii=False, default=str).encode())


def _cut(text: str, limit: int = TEXT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# ---- what a model is sent ----------------------------------------------------------------------


def describe(value: Any) -> str:
    """A short description of a figure or an image (what a model is told of it)."""
    figure = _figure_of(value)
    if figure is not None:
        width, height = (round(side) for side in figure.get_size_inches() * figure.dpi)
        titles = [axes.get_title() for axes in figure.get_axes() if axes.get_title()]
        named = f": {', '.join(repr(t) for t in titles)}" if titles else ""
        axes = len(figure.get_axes())
        return f"a matplotlib figure, {width}x{height} px, {axes} axes{named} (shown to the user)"
    if _is_image(value):
        width, height = value.size
        return f"an image, {width}x{height} px, {value.mode} (shown to the user)"
    library = _chart_library(value)
    if library is not None:
        article = "an" if library[0] in "aeiou" else "a"
        return f"{article} {library} chart ({type(value).__name__}{_chart_title(value)}), shown to the user"
    return f"a {type(value).__name__} object (shown to the user)"


def _chart_title(value: Any) -> str:
    """``: 'Sales'`` for a chart with a plain title, else ""."""
    title = getattr(value, "title", None)  # altair: a string, or its Undefined
    layout_title = getattr(getattr(value, "layout", None), "title", None)  # plotly
    text = getattr(layout_title, "text", None) if layout_title is not None else title
    return f": {text!r}" if isinstance(text, str) and text else ""


def model_form(value: Any, jsonable: Callable[[Any], Any]) -> Any:
    """What a model is sent of ``value``: records for a DataFrame or Series (the first
    :data:`MODEL_ROWS`, fewer past :data:`MODEL_BYTES`, with the count when there are more), a list
    for an array (or its shape and first items when large), a short description of a figure or an
    image, the text of another rich object; anything else as ``jsonable`` makes it."""
    if _is_series(value):
        value = value.to_frame()
    if _is_frame(value):
        rows = len(value)
        frame = value if _plain_index(value) else value.reset_index()

        def records(count: int) -> list[Any]:
            text = frame.head(count).to_json(orient="records", date_format="iso", default_handler=str)
            return list(json.loads(text))

        count = min(rows, MODEL_ROWS)
        sent = records(count)
        while count > 1 and len(json.dumps(sent).encode()) > MODEL_BYTES:
            count //= 2
            sent = records(count)
        if count >= rows:
            return sent
        return {"records": sent, "total_rows": rows, "note": f"the first {count:,} of {rows:,} rows"}
    if _is_array(value):
        if value.size <= MODEL_ITEMS:
            return jsonable(value.tolist())
        head = value.reshape(-1)[:MODEL_ITEMS].tolist()
        return {"shape": list(value.shape), "dtype": str(value.dtype), "first_items": jsonable(head)}
    if _figure_of(value) is not None or _is_image(value) or _chart_library(value) is not None:
        return describe(value)
    if is_rich(value) and not hasattr(value, "model_dump") and not hasattr(value, "to_dict"):
        return _words(_reprs(value), value)
    return jsonable(value)


def _words(data: MimeBundle, value: Any) -> Any:
    """What a model is told of another rich object: its markdown, JSON or HTML, else that it is a
    picture, else its text."""
    for mime in ("text/markdown", "application/json", "text/html"):
        if mime in data:
            return _cut(data[mime], 4000) if isinstance(data[mime], str) else data[mime]
    pictures = sorted((_BINARY | {"image/svg+xml"}) & data.keys())
    if pictures:
        return f"a {type(value).__name__} picture ({pictures[0]}), shown to the user"
    return _cut(str(data.get("text/plain", "")), 4000)


def _plain_index(table: Any) -> bool:
    """The index says nothing of its own (0, 1, 2...): records leave it out."""
    index = table.index
    return (
        type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1 and index.name is None
    )
