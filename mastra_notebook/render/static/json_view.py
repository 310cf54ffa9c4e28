"""JSON as the widget shows it (json.ts; named json_view so it never reads as the standard library's
json): compact JSON with "show all", a labelled block, and the tree of a structured output."""

from __future__ import annotations

from typing import Any

from ...core.labels import js_keys
from . import text as fmt
from .html import MUTED, PRE, details, esc, label, tag

SHORT_LINES = 12  # json.ts: lines of JSON shown before "show all"


MAX_ENTRIES = 500  # json.ts: entries of a structured-output tree level


def json_pre(value: Any) -> str:
    """json.ts ``jsonPre``: compact JSON; past 12 lines the rest waits behind "show all"."""
    lines = fmt.compact_json(value).split("\n")
    if len(lines) <= SHORT_LINES:
        return tag("pre", esc("\n".join(lines)), style=PRE)
    head = tag("pre", esc("\n".join(lines[:SHORT_LINES])), style=PRE + ";margin-bottom:0")
    summary = tag("span", esc(f"show all {len(lines)} lines"), style="font-size:80%", data_mn_control="")
    rest = tag("pre", esc("\n".join(lines[SHORT_LINES:])), style=PRE + ";margin-top:0")
    return head + details(summary, rest, data_mn_show_all="")


def json_block(name: str, value: Any) -> str:
    return tag("div", label(name), json_pre(value), style="margin:4px 0")


def maybe_json(name: str, value: Any) -> str:
    return "" if value is None else json_block(name, value)


def json_tree(value: Any) -> str:
    """json.ts ``jsonTree``: every level open, as the widget starts it."""
    if not isinstance(value, (dict, list)):
        return tag("span", esc(fmt.flat_json(value)), style="font-family:monospace")
    entries = list(enumerate(value)) if isinstance(value, list) else [(k, value[k]) for k in js_keys(value)]
    n = len(entries)
    summary = (
        f"[ {n} item{'' if n == 1 else 's'} ]"
        if isinstance(value, list)
        else f"{{ {n} key{'' if n == 1 else 's'} }}"
    )
    rows = [
        tag("div", tag("span", esc(f"{key}: "), style=MUTED), json_tree(item), style="padding-left:1.2em")
        for key, item in entries[:MAX_ENTRIES]
    ]
    if n > MAX_ENTRIES:
        rows.append(tag("div", esc(f"… {n - MAX_ENTRIES} more"), style=MUTED))
    return details(tag("span", esc(summary), style=MUTED), *rows, opened=True)
