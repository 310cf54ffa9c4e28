"""A source part (source.ts): its title linked when the URL is http(s), and its type."""

from __future__ import annotations

from .common import NodeFields, SnapshotTree, head, string
from .html import KIND, MUTED, bdi, esc, safe_href, tag


def render_source(tree: SnapshotTree, node: NodeFields) -> str:
    url = string(node.get("url"))
    name = (
        string(node.get("title"))
        or url
        or string(node.get("filename"))
        or string(node.get("source_id"))
        or "source"
    )
    href = _http_href(url)
    if href:
        target = tag("a", bdi(name), href=href, target="_blank", rel="noopener noreferrer nofollow")
    else:
        target = bdi(name)
    filename = string(node.get("filename")) if node.get("title") else None
    meta = " · ".join(
        bit for bit in [string(node.get("source_type")), string(node.get("media_type")), filename] if bit
    )
    parts = [tag("span", "Source", style=KIND), target, tag("span", esc(meta), style=MUTED) if meta else ""]
    return tag("div", head(*parts), style="margin:2px 0", data_kind="source")


def _http_href(url: str | None) -> str | None:
    href = safe_href(url or "")
    return href if href and not href.lower().startswith("mailto") else None
