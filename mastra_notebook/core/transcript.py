"""A static, script-free HTML transcript of a run, for saved notebooks (GitHub, nbviewer, nbconvert).

Everything untrusted is escaped; markdown is rendered with raw HTML off and only http(s)/mailto
links kept. Inline styles only: GitHub strips <style> and classes carry no meaning there.
"""

from __future__ import annotations

import base64
import json
from html import escape
from typing import Any

from markdown_it import MarkdownIt

from .result import Decision, RunResult, ToolCall, WorkflowStep
from .state import VIEW_DEPTH
from .values import capped

_SAFE_SCHEMES = ("http:", "https:", "mailto:")
_MAX_JSON = 20_000
_RASTER = {"image/png", "image/jpeg", "image/gif", "image/webp"}


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False})
    md.validateLink = lambda url: url.strip().lower().startswith(_SAFE_SCHEMES)  # type: ignore[method-assign]
    md.disable("image")  # no remote images: they would track the reader
    return md


_MD = _markdown()

_BOX = "border:1px solid #d0d7de;border-radius:6px;padding:6px 10px;margin:6px 0"
_MUTED = "color:#57606a;font-size:90%"
_COLORS = {
    "finished": "#1a7f37",
    "error": "#cf222e",
    "aborted": "#9a6700",
    "tripwire": "#cf222e",
    "suspended": "#9a6700",
    "incomplete": "#9a6700",
    "running": "#0969da",
}


def _json(value: Any) -> str:
    text = json.dumps(capped(value), indent=2, ensure_ascii=False, default=repr)
    if len(text) > _MAX_JSON:
        text = text[:_MAX_JSON] + f"\n… ({len(text) - _MAX_JSON:,} more characters)"
    return f'<pre style="white-space:pre-wrap;margin:4px 0">{escape(text)}</pre>'


def _badge(status: str) -> str:
    color = _COLORS.get(status, "#57606a")
    return f'<span style="color:{color};font-weight:600">{escape(status)}</span>'


_DONE_BY = {"view": "in the view", "python": "from Python"}
_ACTIONS = {"approve": "approved", "decline": "declined", "resume": "resumed"}


def _waiting(item: ToolCall | WorkflowStep, tool_time: float | None = None) -> str:
    """What a person was asked (suspend payload, the call that answers), or how they answered."""
    out = []
    if item.status == "suspended" and item.suspend_payload is not None:
        out.append("<div>suspended with</div>" + _json(item.suspend_payload))
    if item.continue_with and item.status in ("suspended", "awaiting-approval"):
        out.append(f"<div>continue with <code>{escape(item.continue_with)}</code></div>")
    if item.decision is not None:
        out.append(f'<div style="{_MUTED}">{escape(decision_text(item.decision, tool_time))}</div>')
    return "".join(out)


def decision_text(decision: Decision, tool_time: float | None = None) -> str:
    """Like "approved in the view at 12:00:03 UTC · waited 8.7 s for a person · tool 0.1 s"."""
    bits = [f"{_ACTIONS[decision.action]} {_DONE_BY[decision.by]}"]
    if decision.at is not None:
        bits[0] += f" at {decision.at:%H:%M:%S} UTC"
    if decision.waited is not None:
        bits.append(f"waited {decision.waited:.1f} s for a person")
    if tool_time is not None:
        bits.append(f"tool {max(tool_time, 0.0):.1f} s")
    return " · ".join(bits)


def _open(status: str) -> str:
    return " open" if status in ("suspended", "awaiting-approval") else ""  # what waits for a reader


def _tool(call: ToolCall, depth: int) -> str:
    by = " · run by the provider" if call.provider_executed else ""
    body = [f"<summary>🔧 <code>{escape(call.tool_name)}</code> · {_badge(call.status)}{by}</summary>"]
    if call.args is not None or call.args_text:
        body.append("<div>arguments</div>" + _json(call.args if call.args is not None else call.args_text))
    body += [f"<div>output</div>{_json(output)}" for output in call.outputs]
    if call.children is not None:
        body.append(f'<div style="margin-left:12px">{_nested(call.children, depth + 1)}</div>')
    if call.error is not None:
        body.append(f'<div style="color:#cf222e">error: {escape(call.error.message)}</div>')
    if call.result is not None:
        body.append("<div>result</div>" + _json(call.result))
    if call.denied_reason:
        body.append(f"<div>declined: {escape(call.denied_reason)}</div>")
    body.append(_waiting(call, call.tool_time if call.status in ("done", "error") else None))
    return f'<details{_open(call.status)} style="{_BOX}">{"".join(body)}</details>'


def _step(step: WorkflowStep, depth: int) -> str:
    body = [f"<summary>⚙️ {escape(step.step_name)} · {_badge(step.status)}</summary>"]
    body += [_json(output) for output in step.outputs]
    if step.children is not None:
        body.append(_nested(step.children, depth + 1))
    if step.output is not None:
        body.append("<div>output</div>" + _json(step.output))
    if step.error is not None:
        body.append(f'<div style="color:#cf222e">error: {escape(step.error.message)}</div>')
    body.append(_waiting(step))
    return f'<details{_open(step.status)} style="{_BOX}">{"".join(body)}</details>'


def _nested(result: RunResult, depth: int) -> str:
    """A nested run, down to the depth the view draws; below it, how many levels are left out."""
    if depth <= VIEW_DEPTH:
        return _run(result, depth)
    levels, inner = 0, [result]
    while inner:  # count the levels below, without recursion
        levels += 1
        inner = [call.children for run in inner for call in run.tool_calls if call.children is not None]
    return f'<div style="{_MUTED}">… {levels} more level(s) of nested runs, kept in the result</div>'


def _run(result: RunResult, depth: int = 0) -> str:  # one branch per part kind
    out: list[str] = []
    calls = result.tool_calls
    steps = result.workflow.steps if result.workflow else []
    for part in result.parts:  # a tool call or step part holds its index: ids and names repeat
        if part.kind == "text" and part.text:
            out.append(f"<div>{_MD.render(part.text)}</div>")
        elif part.kind == "reasoning" and part.text:  # an empty block (encrypted, say) shows nothing
            reasoning = f'<pre style="white-space:pre-wrap">{escape(part.text)}</pre>'
            out.append(f'<details style="{_MUTED}"><summary>Reasoning</summary>{reasoning}</details>')
        elif part.kind == "tool_call" and isinstance(part.value, int) and part.value < len(calls):
            out.append(_tool(calls[part.value], depth))
        elif part.kind == "workflow_step" and isinstance(part.value, int) and part.value < len(steps):
            out.append(_step(steps[part.value], depth))
        elif part.kind == "banner":
            out.append(
                f'<div style="{_BOX};border-color:#cf222e">⚠️ {escape(part.type or "")}: '
                f"{escape(part.text or '')}</div>"
            )
        elif part.kind in ("unknown", "data", "invalid", "goal", "background_task"):
            label = escape(f"{part.kind} {part.type or ''}".strip())
            out.append(f'<details style="{_MUTED}"><summary>{label}</summary>{_json(part.value)}</details>')
    if result.object is not None:
        out.append(f"<div><b>Structured output</b>{_json(result.object)}</div>")
    for source in result.sources:
        url = source.url or ""
        title = escape(source.title or url or source.filename or "source")
        safe = url.lower().startswith(("http:", "https:"))
        link = f'<a href="{escape(url)}" rel="noopener noreferrer nofollow">{title}</a>' if safe else title
        out.append(f"<div>📎 {link}</div>")
    for file in result.files:
        if file.media_type in _RASTER:
            data = base64.b64encode(file.data).decode()
            out.append(f'<img alt="file" style="max-width:100%" src="data:{file.media_type};base64,{data}">')
        else:
            out.append(
                f"<div>📄 {escape(file.name or 'file')} ({escape(file.media_type or '')}, "
                f"{len(file.data):,} bytes)</div>"
            )
    return "".join(out)


def _footer(result: RunResult) -> str:
    usage = result.usage
    bits = [_badge(result.status)]
    if result.finish_reason:
        bits.append(f"finish: {escape(result.finish_reason)}")
    bits.append(f"tokens in {usage.input_tokens:,} · out {usage.output_tokens:,}")
    if usage.reasoning_tokens:
        bits.append(f"reasoning {usage.reasoning_tokens:,}")
    if result.duration is not None:
        bits.append(f"{result.duration:.1f} s")
    if result.steps:
        bits.append(f"{len(result.steps)} step(s)")
    if result.invalid:
        bits.append(f"{len(result.invalid)} invalid line(s)")
    return f'<div style="{_MUTED};border-top:1px solid #d0d7de;padding-top:4px">{" · ".join(bits)}</div>'


def render_html(result: RunResult, title: str = "") -> str:
    """The whole run as one self-contained, script-free HTML fragment."""
    head = f"<div><b>{escape(title)}</b></div>" if title else ""
    body = f"{head}{_run(result)}{_footer(result)}"
    return f'<div class="mastra-notebook-transcript" style="{_BOX}">{body}</div>'
