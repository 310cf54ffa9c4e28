"""A tool card (tool.ts): its call, status, origin and time in the head; arguments, waits, outputs,
nested runs and the result in the body."""

from __future__ import annotations

from ...core.labels import js_number
from ...core.status_words import status_word
from .common import (
    NodeFields,
    SnapshotTree,
    call_head,
    card,
    error_box,
    num,
    outputs_view,
    string,
)
from .html import LABEL, MUTED, details, esc, fold_only, label, tag
from .human import decision_summary, human_view
from .json_view import json_block, json_pre, maybe_json
from .rich import rich_args, rich_result

_TOOL_LIVE = {"streaming-args", "running", "awaiting-approval", "suspended", "pending"}


def _args_summary(node: NodeFields) -> str:
    """The folded line's ``(city="Paris")`` as the kernel wrote it; ``(…)`` while the arguments stream."""
    summary = string(node.get("args_summary"))
    return f"({'…' if summary is None else summary})"


def _arguments(node: NodeFields) -> str:
    """tool.ts ``argsView``: as ``args_display`` asks, with their JSON one click away; else as JSON."""
    args = node.get("args") if node.get("args") is not None else (string(node.get("args_text")) or "")
    rich = rich_args(node.get("args_display"), node.get("args"), node.get("args_text"))
    if rich is None:
        return "" if args == "" else tag("div", label("Arguments"), json_pre(args))
    if args == "":
        return rich
    return rich + details(tag("span", "Arguments as JSON", style=LABEL), json_pre(args))


def render_tool(tree: SnapshotTree, node: NodeFields) -> str:
    status = string(node.get("status")) or "running"
    levels = num(node.get("hidden_levels")) or 0
    nested = tree.has_run(node) or levels > 0
    opened = status in _TOOL_LIVE or nested
    ran_in = string(node.get("ran_in"))  # a client tool: the notebook ran it
    origin = "run by the provider" if node.get("provider_executed") is True else ""
    if not origin and ran_in is not None:
        origin = f"ran in the {ran_in}"
    if not origin and node.get("orphan") is True:
        origin = "call not in this stream"
    fold = not opened  # the folded line's summaries show where the widget starts folded
    decided = decision_summary(node) if fold else None  # who decided; the wait apart from the tool's time
    head_html = call_head(
        node,
        "Tool",
        string(node.get("tool_name")) or "tool",
        status,
        folded=fold,
        after_name=fold_only(esc(_args_summary(node)), "font-family:monospace;font-size:90%") if fold else "",
        after_status=tag("span", esc(origin), style=f"{MUTED};font-style:italic") if origin else "",
        last=fold_only(esc(decided), MUTED) if decided else "",
    )
    body = [_arguments(node)]
    if status == "suspended":
        payload = node.get("suspend_payload")
        body.append(label("Suspended") if payload is None else json_block("Suspended with", payload))
    body.append(human_view(node))
    body.append(outputs_view(node.get("outputs")))
    body.append(tree.draw_children(node))
    if levels > 0:
        plural = "" if levels == 1 else "s"
        more = f"… {js_number(levels)} more level{plural} of nested runs (kept in the result, not drawn)"
        body.append(tag("div", esc(more), style=MUTED))
    if nested:
        if node.get("result") is not None:
            body.append(details(tag("span", "Raw result", style=LABEL), json_pre(node["result"])))
    else:  # a result drawn as data (issue 21: a bundle, a table, an image), else as JSON
        drawn = rich_result(node.get("display"), node.get("result"))
        body.append(drawn if drawn is not None else maybe_json("Result", node.get("result")))
    body.append(error_box(node.get("error")))
    if status == "denied":
        reason = string(node.get("denied_reason")) or ""
        declined = status_word(status).capitalize()
        body.append(error_box(f"{declined}: {reason}" if reason else declined))
    return card(node, head_html, "".join(body), opened=opened)
