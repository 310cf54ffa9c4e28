"""A workflow step card (workflow-step.ts): its input (or "same as" the step before), output and
nested runs."""

from __future__ import annotations

from . import text as fmt
from .common import (
    NodeFields,
    SnapshotTree,
    call_head,
    card,
    error_box,
    outputs_view,
    string,
)
from .html import LABEL, bdi, details, tag
from .human import human_view
from .json_view import json_pre, maybe_json

_STEP_LIVE = {"running", "waiting", "suspended", "pending", "paused", ""}


def _previous_step(tree: SnapshotTree, node: NodeFields) -> NodeFields | None:
    parent = tree.parent_of(node["id"])
    if parent is None:
        return None
    siblings = tree.children[parent["id"]]
    for sibling in reversed(siblings[: siblings.index(node["id"])]):
        if tree.nodes[sibling]["kind"] == "workflow-step":
            return tree.nodes[sibling]
    return None


def render_workflow_step(tree: SnapshotTree, node: NodeFields) -> str:
    status = string(node.get("status")) or ""
    nested = tree.has_run(node)
    opened = status in _STEP_LIVE or nested
    step_name = string(node.get("step_name")) or "step"
    head_html = call_head(node, "Step", step_name, node.get("status"), folded=not opened)
    previous = _previous_step(tree, node)
    step_input = node.get("input")
    same = (
        previous is not None
        and step_input is not None
        and fmt.flat_json(step_input) == fmt.flat_json(previous.get("output"))
    )
    body = []
    if same:
        name = string((previous or {}).get("step_name")) or "the previous step"
        summary = tag("span", "Input: same as ", bdi(name), "'s output", style=LABEL)
        body.append(details(summary, json_pre(step_input)))
    else:
        body.append(maybe_json("Input", step_input))
    if status == "suspended":
        body.append(maybe_json("Suspended with", node.get("suspend_payload")))
    body += [
        human_view(node),
        maybe_json("Output", node.get("output")),
        error_box(node.get("error")),
        outputs_view(node.get("outputs")),
        tree.draw_children(node),
    ]
    return card(node, head_html, "".join(body), opened=opened)
