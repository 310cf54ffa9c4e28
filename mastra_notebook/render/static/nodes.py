"""The static renderer: one function per node kind, mirroring js/src/render/*.ts.

It draws the node tree the browser draws (docs/view-protocol.md), with the same labels, order,
banners and caps, as script-free HTML: a card the widget folds is a ``<details>`` whose summary is
the widget's folded head, open where the widget opens it. Each renderer takes the tree and a node
and returns HTML; :data:`RENDERERS` maps kinds to them and :data:`RUN_SECTIONS` lists what a run
draws below its parts, so a new section (a timeline, costs) is one line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...core.numbers import format_duration, format_int
from ...core.status_words import BANNERS, decision_word, status_tone, status_word
from ..timeline import run_section as run_timeline
from . import text as fmt
from .html import (
    BORDER,
    CARD,
    KIND,
    LABEL,
    MUTED,
    PRE,
    TINT,
    badge,
    bdi,
    details,
    esc,
    fold_only,
    label,
    markdown,
    tag,
)

Node = dict[str, Any]

ROOT_ID = "root"
SHORT_LINES = 12  # json.ts: lines of JSON shown before "show all"
MAX_OUTPUTS = 200  # common.ts: the last outputs a tool wrote
MAX_ENTRIES = 500  # json.ts: entries of a structured-output tree level


@dataclass(slots=True)
class Tree:
    """The nodes of a snapshot by id, and each node's children in order."""

    nodes: dict[str, Node] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_ops(cls, ops: Iterable[Any]) -> Tree:
        """The tree a store builds from ``add`` ops (a snapshot); malformed ops are skipped."""
        tree = cls()
        for op in ops:
            if not isinstance(op, (list, tuple)) or len(op) < 3 or op[0] != "add":
                continue
            _, parent, node = op[:3]
            if not isinstance(node, dict) or not isinstance(node.get("id"), str):
                continue
            node_id = node["id"]
            existed = node_id in tree.nodes
            tree.nodes[node_id] = {
                **node,
                "kind": node["kind"] if isinstance(node.get("kind"), str) else "unknown",
            }
            if not existed:
                tree.children[node_id] = []
                if parent is not None and parent in tree.children:
                    tree.children[parent].append(node_id)
        return tree

    def kids(self, node: Node) -> list[Node]:
        return [self.nodes[child] for child in self.children.get(node["id"], ())]

    def has_run(self, node: Node) -> bool:
        return any(child["kind"] == "run" for child in self.kids(node))

    def draw(self, node: Node) -> str:
        return renderer_for(node["kind"])(self, node)

    def draw_children(self, node: Node) -> str:
        return "".join(self.draw(child) for child in self.kids(node))

    def parent_of(self, node_id: str) -> Node | None:
        for parent, kids in self.children.items():
            if node_id in kids:
                return self.nodes[parent]
        return None


Renderer = Callable[[Tree, Node], str]


# ---- values (format.ts's accessors) ----------------------------------------------------------


def num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def obj(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def span(start: Any, end: Any) -> float | None:
    a, b = num(start), num(end)
    return None if a is None or b is None else b - a


# ---- common.ts -------------------------------------------------------------------------------


def status_badge(status: Any) -> str:
    """The status's word and tone from the one table (status_words.json)."""
    key = string(status) or ("" if isinstance(status, str) else "pending")
    return badge(status_word(key), status_tone(key))


def error_message(error: Any) -> str | None:
    if error is None:
        return None
    o = obj(error)
    message = string(o.get("message")) if o else None
    if o is not None and message is not None:
        name = string(o.get("name"))
        return f"{name}: {message}" if name and name != "Error" else message
    return fmt.pretty_json(error)


def outcome_line(error: Any, value: Any) -> str:
    message = error_message(error)
    if message is not None:
        return f"→ error: {fmt.summarize_text(message)}"
    return "" if value is None else f"→ {fmt.summarize_value(value, 80)}"


def error_box(error: Any) -> str:
    message = error_message(error)
    return (
        ""
        if message is None
        else tag("div", esc(message), style="border-left:3px solid #e5534b;padding-left:6px")
    )


def node_duration(node: Node, end_field: str = "ended_at") -> str:
    ms = span(node.get("started_at"), node.get(end_field))
    if ms is None:
        return ""
    waited = num((obj(node.get("decision")) or {}).get("waited_ms")) or 0
    return format_duration(max(0, ms - waited))


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


def outputs_view(values: Any, name: str = "Outputs") -> str:
    items = values if isinstance(values, list) else []
    if not items:
        return ""
    shown = items[-MAX_OUTPUTS:]
    start = len(items) - len(shown) + 1
    rows = "".join(tag("li", json_pre(item)) for item in shown)
    ol = tag("ol", rows, style="margin:2px 0;padding-left:2em", start=str(start) if start > 1 else None)
    return details(tag("span", esc(f"{name} ({len(items)})"), style=LABEL), ol, opened=True)


def head(*parts: str) -> str:
    """A card head: its pieces on one line, spaced as the widget's flex row."""
    return " ".join(part for part in parts if part)


def card(node: Node, head_html: str, body: str, *, opened: bool) -> str:
    """A card the widget folds (common.ts ``Fold``): open or folded as the widget starts it."""
    attrs = {"data_kind": node["kind"]}
    if not body:
        return tag("div", head_html, style=CARD, **attrs)
    return details(head_html, tag("div", body, style="margin-top:4px"), opened=opened, style=CARD, **attrs)


# ---- human.ts --------------------------------------------------------------------------------

_BY = {"view": "in the view", "python": "from Python"}
_WAITING = {"awaiting-approval", "suspended"}


def decision_text(node: Node) -> str | None:
    decision = obj(node.get("decision"))
    action = string((decision or {}).get("action"))
    if not decision or not action:
        return None
    bits = [f"{decision_word(action).capitalize()} {_BY.get(string(decision.get('by')) or '', '')}".strip()]
    waited = num(decision.get("waited_ms"))
    if waited is not None:
        bits.append(f"waited {format_duration(waited)} for a person")
    return " · ".join(bits)


def decision_summary(node: Node) -> str | None:
    """A folded head's "approved in the view after 8.7 s"."""
    decision = obj(node.get("decision"))
    action = string((decision or {}).get("action"))
    if not decision or not action:
        return None
    waited = num(decision.get("waited_ms"))
    by = _BY.get(string(decision.get("by")) or "")
    bits = [
        decision_word(action),
        by,
        None if waited is None else f"after {format_duration(waited)}",
    ]
    return " ".join(bit for bit in bits if bit)


def human_view(node: Node) -> str:
    waiting = string(node.get("status")) in _WAITING and obj(node.get("decision")) is None
    call = string(node.get("continue_with")) if waiting else None
    out = ""
    if call is not None:
        code = tag("code", esc(call), style=f"background:{TINT};padding:1px 4px;border-radius:3px")
        out += tag("div", tag("span", "Continue with", style=LABEL), " ", code, style="margin:4px 0")
    decided = decision_text(node)
    if decided is not None:
        out += tag("div", esc(decided), style=MUTED)
    return out


# ---- text, reasoning, step -------------------------------------------------------------------

JSON_TEXT = re.compile(r"^\s*(?:```(?:json)?\s*)?[\[{]", re.IGNORECASE)


def render_text(tree: Tree, node: Node) -> str:
    return tag("div", markdown(string(node.get("text")) or ""), data_kind="text")


def render_reasoning(tree: Tree, node: Node) -> str:
    done = node.get("done") is True or num(node.get("ended_at")) is not None  # older snapshots: no done
    body = string(node.get("text")) or ""
    if node.get("redacted") is True:
        return details(esc("Reasoning redacted"), style=MUTED)
    if done and not body:
        return ""  # an empty block (encrypted reasoning, a bare signature) says nothing once done
    ms = span(node.get("started_at"), node.get("ended_at"))
    summary = "Thinking…" if not done else "Thought" if ms is None else f"Thought for {format_duration(ms)}"
    return details(
        esc(summary), tag("div", markdown(body), style=MUTED), opened=not done, data_kind="reasoning"
    )


def render_step(tree: Tree, node: Node) -> str:
    usage = obj(node.get("usage")) or {}
    index, tokens_in, tokens_out = (
        num(node.get("index")),
        num(usage.get("input_tokens")),
        num(usage.get("output_tokens")),
    )
    bits = [
        "Step" if index is None else f"Step {fmt.js_number(index)}",
        string(node.get("finish_reason")),
        None if tokens_in is None else f"{format_int(tokens_in)} in",
        None if tokens_out is None else f"{format_int(tokens_out)} out",
    ]
    line = " · ".join(bit for bit in bits if bit)
    return tag(
        "div",
        esc(line),
        style=f"{MUTED};font-size:85%;border-top:1px dashed {BORDER};margin-top:8px;padding-top:2px",
    )


# ---- tool.ts ---------------------------------------------------------------------------------

_TOOL_LIVE = {"streaming-args", "running", "awaiting-approval", "suspended", "pending"}


def _args_summary(node: Node, status: str) -> str:
    if node.get("args") is not None:
        return f"({fmt.summarize_args(node['args'])})"
    args_text = string(node.get("args_text"))
    return f"({fmt.summarize_text(args_text, 48)})" if args_text and status != "streaming-args" else "(…)"


def _tool_outcome(node: Node, status: str, nested: bool) -> str:
    if status == "denied":
        reason = string(node.get("denied_reason"))
        declined = f"→ {status_word(status)}"
        return f"{declined}: {fmt.summarize_text(reason)}" if reason else declined
    answer = string((obj(node.get("result")) or {}).get("text")) if nested else None
    return outcome_line(node.get("error"), answer if answer is not None else node.get("result"))


def render_tool(tree: Tree, node: Node) -> str:
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
    call = bdi(string(node.get("tool_name")) or "tool", style="font-weight:600") + (
        fold_only(esc(_args_summary(node, status)), "font-family:monospace;font-size:90%") if fold else ""
    )
    outcome = fold_only(
        bdi(_tool_outcome(node, status, nested)), f"{MUTED};font-family:monospace;font-size:90%"
    )
    decided = decision_summary(node) if fold else None  # who decided; the wait apart from the tool's time
    head_html = head(
        tag("span", "Tool", style=KIND),
        call,
        outcome if fold else "",
        status_badge(status),
        tag("span", esc(origin), style=f"{MUTED};font-style:italic") if origin else "",
        tag("span", esc(node_duration(node)), style=MUTED) if node_duration(node) else "",
        fold_only(esc(decided), MUTED) if decided else "",
    )
    args = node.get("args") if node.get("args") is not None else (string(node.get("args_text")) or "")
    body = [
        "" if args == "" else tag("div", label("Arguments"), json_pre(args)),
    ]
    if status == "suspended":
        payload = node.get("suspend_payload")
        body.append(label("Suspended") if payload is None else json_block("Suspended with", payload))
    body.append(human_view(node))
    body.append(outputs_view(node.get("outputs")))
    body.append(tree.draw_children(node))
    if levels > 0:
        plural = "" if levels == 1 else "s"
        more = f"… {fmt.js_number(levels)} more level{plural} of nested runs (kept in the result, not drawn)"
        body.append(tag("div", esc(more), style=MUTED))
    if nested:
        if node.get("result") is not None:
            body.append(details(tag("span", "Raw result", style=LABEL), json_pre(node["result"])))
    else:
        body.append(maybe_json("Result", node.get("result")))
    body.append(error_box(node.get("error")))
    if status == "denied":
        reason = string(node.get("denied_reason")) or ""
        declined = status_word(status).capitalize()
        body.append(error_box(f"{declined}: {reason}" if reason else declined))
    return card(node, head_html, "".join(body), opened=opened)


# ---- workflow-step.ts ------------------------------------------------------------------------

_STEP_LIVE = {"running", "waiting", "suspended", "pending", "paused", ""}


def _previous_step(tree: Tree, node: Node) -> Node | None:
    parent = tree.parent_of(node["id"])
    if parent is None:
        return None
    siblings = tree.children[parent["id"]]
    for sibling in reversed(siblings[: siblings.index(node["id"])]):
        if tree.nodes[sibling]["kind"] == "workflow-step":
            return tree.nodes[sibling]
    return None


def render_workflow_step(tree: Tree, node: Node) -> str:
    status = string(node.get("status")) or ""
    nested = tree.has_run(node)
    opened = status in _STEP_LIVE or nested
    outcome = outcome_line(node.get("error"), node.get("output"))
    head_html = head(
        tag("span", "Step", style=KIND),
        bdi(string(node.get("step_name")) or "step", style="font-weight:600"),
        "" if opened else fold_only(bdi(outcome), f"{MUTED};font-family:monospace;font-size:90%"),
        status_badge(node.get("status")),
        tag("span", esc(node_duration(node)), style=MUTED) if node_duration(node) else "",
    )
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


# ---- the small ones --------------------------------------------------------------------------


def _simple_card(node: Node, kind_label: str, *head_parts: str, body: str = "") -> str:
    head_html = tag("div", head(tag("span", esc(kind_label), style=KIND), *head_parts))
    return tag("div", head_html, body, style=CARD, data_kind=node["kind"])


def render_background_task(tree: Tree, node: Node) -> str:
    name = string(node.get("tool_name")) or string(node.get("task_id")) or "task"
    history = node.get("history")
    words = history if isinstance(history, list) else []
    history_line = " → ".join(
        status_word(item) if isinstance(item, str) else fmt.flat_json(item) for item in words
    )
    body = (
        (tag("div", esc(history_line), style=MUTED) if history_line else "")
        + outputs_view(node.get("outputs"))
        + maybe_json("Result", node.get("result"))
        + error_box(node.get("error"))
    )
    return _simple_card(node, "Background task", bdi(name), status_badge(node.get("status")), body=body)


def render_goal(tree: Tree, node: Node) -> str:
    marker = badge("continues", "active") if node.get("should_continue") is True else ""
    return _simple_card(node, "Goal", marker, body=maybe_json("Evaluation", node.get("evaluation")))


def render_data(tree: Tree, node: Node) -> str:
    return _simple_card(
        node, "Data", bdi(string(node.get("type")) or ""), body=maybe_json("Value", node.get("data"))
    )


def render_file(tree: Tree, node: Node) -> str:
    name = string(node.get("name")) or "file"
    media_type = string(node.get("media_type")) or "application/octet-stream"
    size = num(node.get("size"))
    meta = " · ".join(bit for bit in [media_type, None if size is None else fmt.human_size(size)] if bit)
    body = ""
    src = image_data_url(media_type, node.get("base64"))
    if src:
        body += f'<img src="{esc(src)}" alt="{esc(name)}" style="display:block;max-width:100%;margin:4px 0">'
    preview = string(node.get("text_preview"))
    if preview:
        body += tag("pre", esc(preview), style=PRE)
    return _simple_card(node, "File", bdi(name), tag("span", esc(meta), style=MUTED), body=body)


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


def render_source(tree: Tree, node: Node) -> str:
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
    from .html import safe_href

    href = safe_href(url or "")
    return href if href and not href.lower().startswith("mailto") else None


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


def render_banner(tree: Tree, node: Node) -> str:
    level = string(node.get("level")) or ""
    level = level if level in _BANNER_LEVELS else "warning"
    message = tag("div", esc(string(node.get("message")) or string(node.get("level")) or ""))
    detail = node.get("detail")
    extra = "" if detail is None else details("Details", tag("pre", esc(fmt.pretty_json(detail)), style=PRE))
    return banner_box(level, message + extra)


def render_invalid(tree: Tree, node: Node) -> str:
    summary = f"Invalid chunk: {error_message(node.get('error')) or 'unreadable'}"
    return details(esc(summary), tag("pre", esc(string(node.get("raw")) or ""), style=PRE), style=MUTED)


def render_unknown(tree: Tree, node: Node) -> str:
    is_unknown = node["kind"] == "unknown"
    summary = f"Unknown {'chunk' if is_unknown else 'part'}: {string(node.get('type')) or node['kind']}"
    value = node.get("chunk") if is_unknown else node
    return details(esc(summary), tag("pre", esc(fmt.pretty_json(value)), style=PRE), style=MUTED)


# ---- run.ts ----------------------------------------------------------------------------------

# the level of the ``banner`` node that says the same; the words are the one table's (BANNERS)
_BANNER_LEVEL = {
    "error": "error",
    "aborted": "abort",
    "tripwire": "tripwire",
    "suspended": "suspended",
    "incomplete": "warning",
}


def status_banner(tree: Tree, run: Node) -> str:
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


def json_tree(value: Any) -> str:
    """json.ts ``jsonTree``: every level open, as the widget starts it."""
    if not isinstance(value, (dict, list)):
        return tag("span", esc(fmt.flat_json(value)), style="font-family:monospace")
    entries = (
        list(enumerate(value)) if isinstance(value, list) else [(k, value[k]) for k in fmt.js_keys(value)]
    )
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


def run_parts(tree: Tree, run: Node) -> str:
    structured = run.get("object") is not None
    out = []
    for child in tree.kids(run):
        # with structured output the JSON text is the object, drawn once below as a tree (text.ts)
        if structured and child["kind"] == "text" and JSON_TEXT.match((string(child.get("text")) or "")[:64]):
            continue
        out.append(tree.draw(child))
    return "".join(out)


def run_workflow(tree: Tree, run: Node) -> str:
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


def run_object(tree: Tree, run: Node) -> str:
    value = run.get("object")
    if value is None:
        return ""
    name = "Structured output" if run.get("object_final") is True else "Structured output (partial)"
    raw = details(tag("span", "raw JSON", style=LABEL), json_pre(value))
    return tag("div", label(name), json_tree(value), raw, style="margin:6px 0")


def run_banner(tree: Tree, run: Node) -> str:
    return status_banner(tree, run)


# The footer's stats in order (footer.ts STATS): the label, and the key of the figure the kernel
# computed (the run node's ``figures``, core/figures.py); renderers compute none.
FOOTER_STATS: list[tuple[str, str]] = [
    ("in", "input_tokens"),
    ("out", "output_tokens"),
    ("reasoning", "reasoning_tokens"),
    ("cached", "cached_input_tokens"),
    ("with sub-agents", "tokens_with_nested"),
    ("first token", "first_token"),
    ("tok/s", "tokens_per_second"),
    ("duration", "duration"),
    ("steps", "steps"),
    ("cost", "cost"),
]


def run_figures(run: Node) -> dict[str, str]:
    """The run's figures as the kernel shipped them (strings), or none."""
    shipped = obj(run.get("figures")) or {}
    return {key: value for key, value in shipped.items() if isinstance(value, str)}


def footer_stats(run: Node) -> list[tuple[str, str]]:
    """(label, value) of each footer stat the run has: its status, then its figures."""
    shown = run_figures(run)
    status = string(run.get("status"))
    stats = [("", status_word(status))] if status else []
    for label_, key in FOOTER_STATS:
        value = shown.get(key)
        if value is not None:
            stats.append((label_, value))
    return stats


def run_footer(tree: Tree, run: Node) -> str:
    stats = []
    for name, shown in footer_stats(run):
        stat = f"{esc(name)} {tag('b', esc(shown), style='font-weight:600')}" if name else esc(shown)
        stats.append(tag("span", stat, style="margin-right:14px;white-space:nowrap"))
    line = " ".join(stats)
    return tag(
        "div",
        line,
        style=f"{MUTED};font-size:85%;border-top:1px solid {BORDER};margin-top:8px;padding-top:4px",
    )


# What a run draws, in order (run.ts): a new section (a timeline, costs) is one more entry.
RUN_SECTIONS: list[Renderer] = [run_parts, run_workflow, run_object, run_banner, run_footer]

# What a view draws between its header and the root run (view.ts ``addBar``): the timeline's panel.
VIEW_BARS: list[Renderer] = [run_timeline]


def _run_label(run: Node) -> str:
    workflow = obj(run.get("workflow")) or {}
    return string(run.get("agent_id")) or string(workflow.get("workflow_id")) or "sub-run"


def render_run(tree: Tree, node: Node) -> str:
    body = "".join(section(tree, node) for section in RUN_SECTIONS)
    if node["id"] == ROOT_ID and node.get("nested") is not True:
        return tag("div", body, data_kind="run")
    summary = head(bdi(_run_label(node), style="font-weight:600"), status_badge(node.get("status")))
    return details(
        summary, body, opened=True, style=f"border-left:2px solid {BORDER};padding-left:10px;margin:6px 0 2px"
    )


RENDERERS: dict[str, Renderer] = {
    "run": render_run,
    "text": render_text,
    "reasoning": render_reasoning,
    "tool": render_tool,
    "workflow-step": render_workflow_step,
    "source": render_source,
    "file": render_file,
    "step": render_step,
    "background-task": render_background_task,
    "goal": render_goal,
    "banner": render_banner,
    "data": render_data,
    "unknown": render_unknown,
    "invalid": render_invalid,
}


def renderer_for(kind: str) -> Renderer:
    return RENDERERS.get(kind, render_unknown)
