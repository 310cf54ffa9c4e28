"""A file part (file.ts): its name, type and size; raster images inline, text previews."""

from __future__ import annotations

import re
from typing import Any

from .common import NodeFields, SnapshotTree, simple_card, string
from .html import MUTED, PRE, bdi, esc, tag


def render_file(tree: SnapshotTree, node: NodeFields) -> str:
    name = string(node.get("name")) or "file"
    media_type = string(node.get("media_type")) or "application/octet-stream"
    size = string(node.get("size_label"))  # the kernel wrote it (core/labels.py)
    meta = " · ".join(bit for bit in [media_type, size] if bit)
    body = ""
    src = image_data_url(media_type, node.get("base64"))
    if src:
        body += f'<img src="{esc(src)}" alt="{esc(name)}" style="display:block;max-width:100%;margin:4px 0">'
    preview = string(node.get("text_preview"))
    if preview:
        body += tag("pre", esc(preview), style=PRE)
    return simple_card(node, "File", bdi(name), tag("span", esc(meta), style=MUTED), body=body)


_RASTER = {"image/png", "image/jpeg", "image/gif", "image/webp"}  # file.ts: the image types shown inline


_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def image_data_url(media_type: Any, data: Any) -> str | None:
    """A data: URL built here from a raster type and base64 text, never taken from the payload."""
    kind = (string(media_type) or "").lower()
    if kind not in _RASTER or not isinstance(data, str):
        return None
    data = re.sub(r"\s+", "", data)
    if not data or len(data) % 4 or not _BASE64.fullmatch(data):
        return None
    return f"data:{kind};base64,{data}"
