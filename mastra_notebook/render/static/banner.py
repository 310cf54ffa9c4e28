"""A banner (banner.ts): an error, abort, tripwire, suspension or warning, with its details."""

from __future__ import annotations

from . import text as fmt
from .common import NodeFields, SnapshotTree, string
from .html import PRE, details, esc, tag

_BANNER_LEVELS = {"error", "abort", "tripwire", "suspended", "warning"}


_BANNER_TONES = {
    "error": "error",
    "tripwire": "error",
    "abort": "warn",
    "suspended": "warn",
    "warning": "warn",
}


def banner_box(level: str, content: str) -> str:
    colour = {"error": "#e5534b", "warn": "#d29922"}[_BANNER_TONES.get(level, "warn")]
    style = f"border:1px solid {colour};border-left-width:4px;border-radius:6px;padding:6px 10px;margin:6px 0"
    return tag("div", content, style=style, data_kind="banner")


def render_banner(tree: SnapshotTree, node: NodeFields) -> str:
    level = string(node.get("level")) or ""
    level = level if level in _BANNER_LEVELS else "warning"
    message = tag("div", esc(string(node.get("message")) or string(node.get("level")) or ""))
    detail = node.get("detail")
    extra = "" if detail is None else details("Details", tag("pre", esc(fmt.pretty_json(detail)), style=PRE))
    return banner_box(level, message + extra)
