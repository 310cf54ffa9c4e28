"""A tool's result drawn as data (js/src/render/rich.ts, function for function): a kernel-made MIME
bundle (``display``), or without registration a list of flat records as a table, image and file parts
as images or links, and ``data:`` image URLs as images; the JSON one click away.

Everything here is untrusted. HTML goes through nh3 (the Ammonia sanitiser) with the widget's rules:
no images, forms, frames, embeds or styles, no ``style``/``class``/``id`` attributes, links only to
http(s) and mailto, opened apart. SVG is drawn as an ``<img>`` of a ``data:`` URL (a document in an
image runs no script and loads nothing); rasters only as ``data:`` URLs built from an image type and
checked base64. Streamed code arguments are shown as plain code here (the widget highlights them).
"""

from __future__ import annotations

import base64
import re
from typing import Any

import jiter
import nh3

from ...core.labels import PART_TYPES, flat_records, js_keys, js_scalar, media_type_of, truncate
from .common import error_box
from .file import image_data_url
from .html import LABEL, MUTED, PRE, details, esc, label, markdown, safe_href, tag
from .json_view import json_pre

TABLE_ROWS = 50  # rich.ts TABLE_ROWS
TABLE_COLUMNS = 20  # rich.ts TABLE_COLUMNS
CELL_CHARS = 120  # rich.ts CELL_CHARS: the whole stays in the JSON

MIME_ORDER = (  # rich.ts MIME_ORDER: the richest type drawn safely wins
    *("text/html", "image/svg+xml", "image/png", "image/jpeg", "image/gif", "image/webp"),
    *("text/markdown", "application/json", "text/plain"),
)
_RASTER = {"image/png", "image/jpeg", "image/gif", "image/webp"}

# markdown.ts FORBID_TAGS, and what DOMPurify's HTML profile leaves out anyway
_FORBIDDEN_TAGS = {
    *("img", "picture", "source", "svg", "math", "iframe", "frame", "object", "embed", "video", "audio"),
    *("style", "link", "meta", "base", "form", "input", "button", "textarea", "select", "script"),
}
_TAGS = set(nh3.ALLOWED_TAGS) - _FORBIDDEN_TAGS
_DROPPED_ATTRIBUTES = {"src", "srcset", "style", "class", "id"}  # styles and classes would restyle the page
_ATTRIBUTES = {name: set(attrs) - _DROPPED_ATTRIBUTES for name, attrs in nh3.ALLOWED_ATTRIBUTES.items()}
_IMAGE = (  # widget.css .mn-rich .mn-image: framed on white, it reads as a figure in either theme
    "display:block;max-width:100%;max-height:480px;margin:2px 0;background:#fff;padding:6px;"
    "border:1px solid rgba(128,128,128,0.35);border-radius:4px;box-sizing:border-box"
)
_CELL = "padding:2px 8px;border-bottom:1px solid rgba(128,128,128,0.35);text-align:left;vertical-align:top"


def sanitize_html(html: str) -> str:
    """A tool's HTML with nothing active left: the widget's DOMPurify rules, said to nh3."""
    return nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        set_tag_attribute_values={"a": {"target": "_blank"}},
        strip_comments=True,
    )


def _img(src: str, alt: str, style: str = _IMAGE) -> str:
    return f'<img src="{esc(src)}" alt="{esc(alt)}" style="{esc(style)}">'


def _svg_image(svg: str) -> str:
    """An SVG as an image: in an <img> its scripts never run and its links never load."""
    encoded = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return _img(f"data:image/svg+xml;base64,{encoded}", "SVG image")


def _draw_mime(mime: str, payload: Any) -> str | None:
    if mime == "text/html" and isinstance(payload, str):
        return tag("div", sanitize_html(payload), style="max-width:100%;overflow:auto")
    if mime == "image/svg+xml" and isinstance(payload, str):
        return _svg_image(payload)
    if mime in _RASTER:
        src = image_data_url(mime, payload)
        return _img(src, mime) if src else None
    if mime == "text/markdown" and isinstance(payload, str):
        return tag("div", markdown(payload))
    if mime == "application/json":
        return json_pre(payload)
    if mime == "text/plain" and isinstance(payload, str):
        return tag("pre", esc(payload), style=PRE)
    return None


def draw_bundle(data: Any) -> str | None:
    """A MIME bundle's richest drawable type, drawn; None when none is."""
    if not isinstance(data, dict):
        return None
    for mime in MIME_ORDER:
        if mime in data:
            drawn = _draw_mime(mime, data[mime])
            if drawn is not None:
                return drawn
    return None


# ---- built-in drawings of a JSON result -------------------------------------------------------------


_DATA_URL = re.compile(r"data:([a-z0-9.+/-]+);base64,(.*)", re.IGNORECASE | re.DOTALL)


def data_image_url(value: Any) -> str | None:
    """The image a ``data:`` URL holds, when it is base64 of a raster type."""
    if not isinstance(value, str):
        return None
    match = _DATA_URL.fullmatch(value.strip())
    return image_data_url(match.group(1), match.group(2)) if match else None


def _cell(value: Any) -> str:
    src = data_image_url(value)
    if src:
        return tag("td", _img(src, "image", "max-height:48px;max-width:96px;display:block"), style=_CELL)
    text = truncate(value if isinstance(value, str) else js_scalar(value), CELL_CHARS)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    style = _CELL + (";text-align:right" if number else "") + (f";{MUTED}" if value is None else "")
    return tag("td", esc(text), style=style)


def records_table(rows: list[dict[str, Any]]) -> str:
    """The first 50 rows and 20 columns of flat records as a table, and what was left out."""
    columns = list(dict.fromkeys(key for row in rows for key in js_keys(row)))  # first seen, first
    shown = columns[:TABLE_COLUMNS]
    heads = (tag("th", esc(name), style=_CELL + ";font-weight:600") for name in shown)
    head = tag("thead", tag("tr", *heads))
    body = tag(
        "tbody",
        *(
            tag("tr", *(_cell(row[name]) if name in row else tag("td", "", style=_CELL) for name in shown))
            for row in rows[:TABLE_ROWS]
        ),
    )
    table = tag("table", head, body, style="border-collapse:collapse;font-size:85%")
    more = [
        f"{len(rows) - TABLE_ROWS:,} more rows" if len(rows) > TABLE_ROWS else "",
        f"{len(columns) - TABLE_COLUMNS:,} more columns" if len(columns) > TABLE_COLUMNS else "",
    ]
    said = ", ".join(bit for bit in more if bit)
    note = tag("div", esc(f"{said} (in the JSON)"), style=f"{MUTED};font-size:80%") if said else ""
    return tag("div", tag("div", table, style="max-width:100%;overflow:auto"), note)


def _web_href(value: Any) -> str | None:
    href = safe_href(value) if isinstance(value, str) else None
    return href if href and not href.lower().startswith("mailto:") else None


def _draw_part(part: dict[str, Any]) -> str | None:
    """An AI SDK / Mastra / MCP image or file part: an image from its data, else a link, else its name."""
    kind = part.get("type") if isinstance(part.get("type"), str) else ""
    if kind == "text":
        text = part.get("text")
        return tag("div", esc(text), style="white-space:pre-wrap") if isinstance(text, str) else None
    if kind not in PART_TYPES:
        return None
    media_type = media_type_of(part)
    data = next((part[key] for key in ("data", "image", "base64") if part.get(key) is not None), None)
    name = next((part[key] for key in ("filename", "name") if isinstance(part.get(key), str)), None)
    name = name or ("image" if str(kind).startswith("image") else "file")
    guess = media_type or ("image/png" if str(kind).startswith("image") else "")
    src = data_image_url(data) or data_image_url(part.get("url")) or image_data_url(guess, data)
    if src:
        return _img(src, name)
    href = _web_href(part.get("url")) or _web_href(data)
    meta = tag("span", esc(f" {media_type}" if media_type else ""), style=MUTED)
    target = tag("span", esc(name))
    if href:
        target = tag("a", esc(name), href=href, target="_blank", rel="noopener noreferrer nofollow")
    return tag("div", target, meta)


def _parts_of(value: Any) -> list[dict[str, Any]] | None:
    """rich.ts ``partsOf``: a list of typed parts, ``{content: [...]}`` (MCP), ``{type: content, value}``."""
    items: Any = value
    if isinstance(value, dict):
        content = value.get("content")
        items = content if isinstance(content, list) and content else value.get("value")
    if not isinstance(items, list) or not items:
        return None
    if not all(isinstance(part, dict) and part.get("type") in {"text", *PART_TYPES} for part in items):
        return None
    return items if any(part.get("type") in PART_TYPES for part in items) else None


def draw_built_in(result: Any) -> str | None:
    """A JSON result drawn without registration, or None when it is best read as JSON."""
    src = data_image_url(result)
    if src:
        return _img(src, "image")
    records = flat_records(result)
    if records:
        return records_table(records)
    if isinstance(result, dict) and result.get("type") in PART_TYPES:
        return _draw_part(result)
    parts = _parts_of(result)
    if parts:
        drawn = [_draw_part(part) for part in parts]
        return tag("div", *(bit for bit in drawn if bit)) if any(drawn) else None
    return None


def _json_toggle(result: Any) -> str:
    return "" if result is None else details(tag("span", "Result as JSON", style=LABEL), json_pre(result))


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def display_error(source: Any, error: str) -> str:
    """rich.ts ``displayError``: a failed display said by where it came from (a tool's value, a renderer)."""
    if source == "value":
        return f"The tool's value could not be drawn: {error}"
    return f"The renderer failed: {error}"


def rich_result(display: Any, result: Any) -> str | None:
    """rich.ts ``richResult``: the bundle (its preview note, or the renderer's error), else a built-in
    drawing, each with the JSON one click away; else None (drawn as JSON)."""
    shape = display if isinstance(display, dict) else None
    error = _string(shape.get("error")) if shape else None
    drawn = draw_bundle(shape.get("data")) if shape and error is None else None
    shown = None if error is not None else (drawn or draw_built_in(result))
    if error is None and shown is None:
        return None
    preview = _string(shape.get("preview")) if shape else None
    return tag(
        "div",
        label("Result"),
        error_box(display_error(shape and shape.get("source"), error)) if error is not None else shown or "",
        tag("div", esc(preview), style=f"{MUTED};font-size:80%") if preview and drawn else "",
        _json_toggle(result),
        style="margin:4px 0",
    )


# ---- arguments --------------------------------------------------------------------------------------


def argument_text(args: Any, args_text: Any, field: str) -> str | None:
    """The argument ``field`` as the tool's args say it, else as its raw (maybe unfinished) text has it."""
    value = args.get(field) if isinstance(args, dict) else None
    if isinstance(value, str):
        return value
    if not isinstance(args_text, str) or not args_text:
        return None
    try:
        partial = jiter.from_json(args_text.encode(), partial_mode="trailing-strings")
    except ValueError:
        return None
    found = partial.get(field) if isinstance(partial, dict) else None
    return found if isinstance(found, str) else None


def code_block(code: str, language: str) -> str:
    """rich.ts ``codeBlock``, not highlighted: markdown rendered, other languages as plain code."""
    if language.lower() in {"markdown", "md"}:
        return tag("div", markdown(code))
    return tag("pre", tag("code", esc(code)), style=PRE + ";font-family:monospace")


def rich_args(args_display: Any, args: Any, args_text: Any) -> str | None:
    """rich.ts ``richArgs``: a field as code, or a bundle from ``args=fn``; None when it asks nothing."""
    if not isinstance(args_display, dict):
        return None
    field = _string(args_display.get("field"))
    language = _string(args_display.get("language")) or ""
    code = argument_text(args, args_text, field) if field is not None else None
    display = args_display.get("display") if isinstance(args_display.get("display"), dict) else None
    bundle = draw_bundle(display.get("data")) if display else None
    error = _string(display.get("error")) if display else None
    if code is None and bundle is None and error is None:
        return None
    return tag(
        "div",
        label(f"Arguments · {field}" if field is not None and code is not None else "Arguments"),
        code_block(code, language) if code is not None else "",
        bundle or "",
        error_box(f"The renderer failed: {error}") if error is not None else "",
        style="margin:4px 0",
    )
