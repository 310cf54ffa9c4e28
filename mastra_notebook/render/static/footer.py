"""The run footer (footer.ts): status, then the figures the kernel formatted (core/figures.py), then
a row of the run's scores as the kernel wrote them (core/score.py ``badge``), then a person's label
(feedback.ts, as a page with no kernel shows it: text, no control)."""

from __future__ import annotations

from ...core.status_words import status_word
from .common import NodeFields, SnapshotTree, obj, string
from .html import BORDER, MUTED, TONES, esc, tag

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


def run_figures(run: NodeFields) -> dict[str, str]:
    """The run's figures as the kernel shipped them (strings), or none."""
    shipped = obj(run.get("figures")) or {}
    return {key: value for key, value in shipped.items() if isinstance(value, str)}


def footer_stats(run: NodeFields) -> list[tuple[str, str]]:
    """(label, value) of each footer stat the run has: its status, then its figures."""
    shown = run_figures(run)
    status = string(run.get("status"))
    stats = [("", status_word(status))] if status else []
    for label_, key in FOOTER_STATS:
        value = shown.get(key)
        if value is not None:
            stats.append((label_, value))
    return stats


def run_footer(tree: SnapshotTree, run: NodeFields) -> str:
    stats = []
    for name, shown in footer_stats(run):
        stat = f"{esc(name)} {tag('b', esc(shown), style='font-weight:600')}" if name else esc(shown)
        stats.append(tag("span", stat, style="margin-right:14px;white-space:nowrap"))
    line = " ".join(stats)
    return tag(
        "div",
        line + score_row(run) + label_row(run),
        style=f"{MUTED};font-size:85%;border-top:1px solid {BORDER};margin-top:8px;padding-top:4px",
    )


def score_row(run: NodeFields) -> str:
    """footer.ts's scores row: each score's scorer, value with its mark (tinted by its tone) and reason
    (cut to one line, whole on hover); nothing for a run without scores."""
    shown = []
    for score in run.get("score_badges") or ():
        if not isinstance(score, dict):
            continue
        scorer = string(score.get("scorer")) or string(score.get("text")) or ""
        value = string(score.get("value"))
        reason = string(score.get("reason"))
        tone = string(score.get("tone"))
        colour = TONES[tone] if tone in TONES and tone != "neutral" else ""  # footer.ts: data-tone
        bits = [esc(scorer)]
        if value:
            bits.append(tag("b", esc(value), style=f"font-weight:600{f';color:{colour}' if colour else ''}"))
        if reason:
            reason_style = (
                "display:inline-block;max-width:40ch;overflow:hidden;text-overflow:ellipsis;"
                "white-space:nowrap;vertical-align:bottom;margin-left:2px;font-style:italic"
            )
            bits.append(tag("span", esc(reason), style=reason_style, title=reason))
        shown.append(
            tag(
                "span",
                " ".join(bits),
                style="margin-right:14px;white-space:nowrap",
                title=string(score.get("title")),
                data_score=scorer,
            )
        )
    return tag("div", " ".join(shown), style="margin-top:2px") if shown else ""


# feedback.ts THUMBS: how a static page words the thumbs
THUMB_WORDS = {"up": "thumbs up", "down": "thumbs down"}


def label_text(label: NodeFields) -> str:
    """feedback.ts ``labelText``: ``thumbs up · 4 · “a comment”`` ("" when the label has nothing)."""
    parts = []
    thumbs = label.get("thumbs")
    if isinstance(thumbs, str) and thumbs in THUMB_WORDS:
        parts.append(THUMB_WORDS[thumbs])
    score = label.get("score")
    if isinstance(score, (int, float)) and not isinstance(score, bool):
        parts.append(str(int(score)) if float(score).is_integer() else repr(float(score)))  # as JS String()
    comment = string(label.get("comment"))
    if comment:
        parts.append(f"\N{LEFT DOUBLE QUOTATION MARK}{comment}\N{RIGHT DOUBLE QUOTATION MARK}")
    return " · ".join(parts)


def label_row(run: NodeFields) -> str:
    """feedback.ts on a page with no kernel: the run's label as text and its state (the note the
    kernel wrote: sent to Mastra, or kept and why); nothing for a run without a label."""
    label = obj(run.get("feedback"))
    text = label_text(label) if label else ""
    if not text:
        return ""
    note = string(run.get("feedback_note")) or ""
    bits = [esc("label"), tag("span", esc(text), style="color:inherit")]
    if note:
        bits.append(tag("span", esc(note), style="font-style:italic"))
    return tag("div", " ".join(bits), style="margin-top:2px", data_feedback="")
