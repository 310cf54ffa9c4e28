"""A person's part in a card (human.ts): the call that continues a wait, and who decided after how long."""

from __future__ import annotations

from ...core.status_words import decision_word
from .common import NodeFields, obj, string
from .html import LABEL, MUTED, TINT, esc, tag

_BY = {"view": "in the view", "python": "from Python"}


_WAITING = {"awaiting-approval", "suspended"}


def decision_text(node: NodeFields) -> str | None:
    decision = obj(node.get("decision"))
    action = string((decision or {}).get("action"))
    if not decision or not action:
        return None
    bits = [f"{decision_word(action).capitalize()} {_BY.get(string(decision.get('by')) or '', '')}".strip()]
    waited = string(decision.get("waited"))  # the kernel wrote it (core/labels.py)
    if waited is not None:
        bits.append(f"waited {waited} for a person")
    return " · ".join(bits)


def decision_summary(node: NodeFields) -> str | None:
    """A folded head's "approved in the view after 8.7 s"."""
    decision = obj(node.get("decision"))
    action = string((decision or {}).get("action"))
    if not decision or not action:
        return None
    waited = string(decision.get("waited"))
    by = _BY.get(string(decision.get("by")) or "")
    bits = [decision_word(action), by, None if waited is None else f"after {waited}"]
    return " ".join(bit for bit in bits if bit)


def human_view(node: NodeFields) -> str:
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
