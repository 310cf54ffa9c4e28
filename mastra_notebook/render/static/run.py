"""A run (run.ts): its parts, workflow, structured output, status banner and footer, in the order of
:data:`RUN_SECTIONS`; a nested run is a folded sub-run."""

from __future__ import annotations

from ...core.status_words import BANNERS
from .banner import banner_box
from .common import (
    ROOT_ID,
    NodeFields,
    Renderer,
    SnapshotTree,
    error_message,
    head,
    obj,
    status_badge,
    string,
)
from .footer import run_footer
from .html import BORDER, LABEL, bdi, details, esc, label, tag
from .json_view import json_pre, json_tree, maybe_json
from .text_part import JSON_TEXT

# the level of the ``banner`` node that says the same; the words are the one table's (BANNERS)
_BANNER_LEVEL = {
    "error": "error",
    "aborted": "abort",
    "tripwire": "tripwire",
    "suspended": "suspended",
    "incomplete": "warning",
}


def status_banner(tree: SnapshotTree, run: NodeFields) -> str:
    """The run's status banner, unless a ``banner`` node of that level already says it."""
    status = string(run.get("status")) or ""
    level, words = _BANNER_LEVEL.get(status), BANNERS.get(status)
    if level is None or words is None:
        return ""
    if any(child["kind"] == "banner" and child.get("level") == level for child in tree.kids(run)):
        return ""
    detail = error_message(run.get("error")) or string((obj(run.get("tripwire")) or {}).get("reason"))
    waiting = string(run.get("continue_with")) if status == "suspended" else None
    detail = detail or (f"continue with {waiting}" if waiting else None)  # the call that continues it
    return banner_box(level, esc(f"{words}: {detail}" if detail else words))


def run_parts(tree: SnapshotTree, run: NodeFields) -> str:
    structured = run.get("object") is not None
    out = []
    for child in tree.kids(run):
        # with structured output the JSON text is the object, drawn once below as a tree (text.ts)
        if structured and child["kind"] == "text" and JSON_TEXT.match((string(child.get("text")) or "")[:64]):
            continue
        out.append(tree.draw(child))
    return "".join(out)


def run_workflow(tree: SnapshotTree, run: NodeFields) -> str:
    workflow = obj(run.get("workflow"))
    if workflow is None:
        return ""
    head_html = head(
        tag("span", "Workflow", style=LABEL),
        bdi(string(workflow.get("workflow_id")) or ""),
        status_badge(workflow.get("status")),
    )
    return tag(
        "div", tag("div", head_html), maybe_json("Result", workflow.get("result")), style="margin:6px 0"
    )


def run_object(tree: SnapshotTree, run: NodeFields) -> str:
    value = run.get("object")
    if value is None:
        return ""
    name = "Structured output" if run.get("object_final") is True else "Structured output (partial)"
    raw = details(tag("span", "raw JSON", style=LABEL), json_pre(value))
    return tag("div", label(name), json_tree(value), raw, style="margin:6px 0")


def run_banner(tree: SnapshotTree, run: NodeFields) -> str:
    return status_banner(tree, run)


# What a run draws, in order (run.ts): a new section (a timeline, costs) is one more entry.
RUN_SECTIONS: list[Renderer] = [run_parts, run_workflow, run_object, run_banner, run_footer]


def _run_label(run: NodeFields) -> str:
    workflow = obj(run.get("workflow")) or {}
    return string(run.get("agent_id")) or string(workflow.get("workflow_id")) or "sub-run"


def render_run(tree: SnapshotTree, node: NodeFields) -> str:
    body = "".join(section(tree, node) for section in RUN_SECTIONS)
    if node["id"] == ROOT_ID and node.get("nested") is not True:
        return tag("div", body, data_kind="run")
    summary = head(bdi(_run_label(node), style="font-weight:600"), status_badge(node.get("status")))
    return details(
        summary, body, opened=True, style=f"border-left:2px solid {BORDER};padding-left:10px;margin:6px 0 2px"
    )
