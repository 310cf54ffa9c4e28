"""A conversation drawn as one column: each prompt as a user turn, each answer as its own view.

Knows widgets, not the client: a chat (client/chat.py) adds its turns here as they are sent.
"""

from __future__ import annotations

import difflib
import html
from collections.abc import Sequence
from typing import Any

import ipywidgets

from ..render.transcript import render_html, transcript_class
from .streamview import StreamView

_USER_TURN = (
    "margin:10px 0 4px auto;max-width:80%;width:fit-content;padding:6px 12px;border-radius:12px;"
    # a tint of the accent over the theme's own background: readable text in light and dark themes
    "background:rgba(33,150,243,.16);"
    "background:color-mix(in srgb, var(--jp-brand-color1, #2196f3) 18%, transparent);color:inherit;"
    "white-space:pre-wrap;overflow-wrap:anywhere;font-family:var(--jp-ui-font-family, inherit)"
)


def bdi(text: str, style: str = "") -> str:
    """Untrusted label text (a role, a recalled message): isolated, so U+202E cannot reorder around it."""
    styled = f' style="{style}"' if style else ""
    return f'<bdi dir="auto"{styled}>{html.escape(text)}</bdi>'


def user_turn_html(text: str) -> str:
    """A prompt as a user turn (escaped: prompts may hold anything)."""
    return f'<div class="mn-user-turn" data-role="user" style="{_USER_TURN}">{html.escape(text)}</div>'


_MEMORY = (
    # its own line height: a widget's HTML has the height of an input row (28px) per line
    "margin:2px 0 8px;padding:4px 10px;border-left:3px solid var(--jp-border-color1, #bdbdbd);"
    "line-height:1.5;"
    "font-family:var(--jp-ui-font-family, inherit);font-size:var(--jp-ui-font-size1, 13px);color:inherit"
)
_SUMMARY = "cursor:pointer;color:var(--jp-ui-font-color1, inherit)"
_ROLE = "font-weight:600;margin-right:6px;color:var(--jp-ui-font-color2, inherit)"
_LIST = "margin:4px 0;padding-left:22px"
_TEXT = "white-space:pre-wrap;overflow-wrap:anywhere"
_DIFF = (
    "margin:4px 0;padding:4px 6px;white-space:pre-wrap;overflow-wrap:anywhere;"
    "font-family:var(--jp-code-font-family, monospace);font-size:var(--jp-code-font-size, 12px);"
    "background:var(--jp-layout-color2, rgba(127,127,127,.08))"
)
# tints over the theme's background: the line's text stays the theme's colour, in light and dark
_LINE = {
    "+": "display:block;background:rgba(46,160,67,.22)",
    "-": "display:block;background:rgba(248,81,73,.22)",
    " ": "display:block",
}
_MARK = {"+": "added", "-": "removed", " ": "kept"}
_GLYPH = {"+": "+", "-": "\u2212", " ": " "}  # a minus sign: as wide as the plus
_GUTTER = "display:inline-block;width:1.4em;opacity:.75;user-select:none"
RECALLED_CHARS = 2000  # of each recalled message: a long history stays a cheap list
_NOTE = "color:var(--jp-ui-font-color2, inherit);font-style:italic"


def working_diff(before: str | None, after: str | None) -> list[tuple[str, str]]:
    """The working memory's lines, each marked ``+`` (added), ``-`` (removed) or `` `` (kept)."""
    lines = difflib.ndiff((before or "").splitlines(), (after or "").splitlines())
    return [(line[0], line[2:]) for line in lines if line[:1] in "+- "]


def memory_html(
    recalled: Sequence[tuple[str, str]], before: str | None, after: str | None, note: str | None = None
) -> str:
    """What memory did in one turn, as inert HTML (everything escaped): the messages recalled
    (folded: role and text), the working memory's changes, and a note; empty when none of them has
    anything to show."""
    blocks: list[str] = []
    if recalled:
        items = "".join(
            f'<li data-role="{html.escape(role)}">{bdi(role, _ROLE)}{bdi(_cut(text), _TEXT)}</li>'
            for role, text in recalled
        )
        count = f"{len(recalled)} message{'s' if len(recalled) != 1 else ''}"
        blocks.append(
            f'<details class="mn-memory-recalled"><summary style="{_SUMMARY}">Recalled {count}</summary>'
            f'<ol style="{_LIST}">{items}</ol></details>'
        )
    if before is not None or after is not None:
        lines = working_diff(before, after)
        added = sum(1 for mark, _ in lines if mark == "+")
        removed = sum(1 for mark, _ in lines if mark == "-")
        change = f"+{added} -{removed} lines" if added or removed else "unchanged"
        shown = "".join(
            f'<span class="mn-diff-line" data-mark="{_MARK[mark]}" style="{_LINE[mark]}">'
            f'<span style="{_GUTTER}">{_GLYPH[mark]}</span>{bdi(text)}</span>'
            for mark, text in lines
        )
        blocks.append(
            f'<details class="mn-memory-working"{" open" if added or removed else ""}>'
            f'<summary style="{_SUMMARY}">Working memory: {change}</summary>'
            f'<div style="{_DIFF}">{shown}</div></details>'
        )
    if note:
        blocks.append(f'<div class="mn-memory-note" style="{_NOTE}">{html.escape(note)}</div>')
    if not blocks:
        return ""
    return f'<div class="mn-turn-memory" data-role="memory" style="{_MEMORY}">{"".join(blocks)}</div>'


def _cut(text: str) -> str:
    return text if len(text) <= RECALLED_CHARS else f"{text[:RECALLED_CHARS]}… ({len(text)} characters)"


class Conversation(ipywidgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped
    """Turns in order: a user prompt, then the view of the answer; ``read_only`` for stored threads."""

    def __init__(self, *, title: str = "", read_only: bool = False) -> None:
        super().__init__(layout=ipywidgets.Layout(width="100%"))
        self.add_class("mn-conversation")
        if read_only:
            self.add_class("mn-conversation-read-only")
        self.views: list[StreamView] = []
        self.prompts: list[str] = []
        self.memories: list[str] = []  # each turn's memory as HTML (memory_html), "" until shown
        self._memory_widgets: list[ipywidgets.HTML | None] = []
        self.title = title
        self._displays: list[Any] = []  # IPython display handles of the transcript, updated as turns end
        if title:
            self.children = [ipywidgets.HTML(f"<b>{html.escape(title)}</b>")]

    def add_turn(self, prompt: str, view: StreamView) -> None:
        """Show one more turn: the person's ``prompt``, then the ``view`` of the answer."""
        self.views.append(view)
        self.prompts.append(prompt)
        self.memories.append("")
        self._memory_widgets.append(None)
        self.children = [*self.children, ipywidgets.HTML(user_turn_html(prompt)), view]
        view.observe(self._turn_changed, names="streaming")
        self._update_transcripts()

    def show_memory(self, index: int, shown: str) -> None:
        """Show what memory did in turn ``index``, under its answer: ``shown`` is HTML made by
        :func:`memory_html` (nothing is drawn for "")."""
        self.memories[index] = shown
        box = self._memory_widgets[index]
        if box is not None:
            box.value = shown
        elif shown:  # a widget only for a turn with something to show: an empty one still takes room
            box = self._memory_widgets[index] = ipywidgets.HTML(shown)
            children = list(self.children)
            children.insert(children.index(self.views[index]) + 1, box)
            self.children = children
        self._update_transcripts()

    def memory_of(self, index: int) -> str:
        """Turn ``index``'s memory as shown (HTML; "" for none)."""
        return self.memories[index]

    def _turn_changed(self, change: dict[str, Any]) -> None:
        if not change["new"]:  # a turn ended: the saved transcript shows its final state
            self._update_transcripts()

    # ---- saved notebooks: one static transcript of every turn, as each view keeps its own -----------

    def transcript_html(self) -> str:
        """Every turn as static, script-free HTML: the prompt, then its run's transcript."""
        title = f"<div><b>{html.escape(self.title)}</b></div>" if self.title else ""
        turns = "".join(
            user_turn_html(prompt) + render_html(view.result, view.title) + memory
            for prompt, view, memory in zip(self.prompts, self.views, self.memories, strict=True)
        )
        # hidden where the turns' views draw, as each view's own transcript is
        keys = [view.view_key for view in self.views]
        return f'<div class="{transcript_class(keys)}">{title}{turns}</div>'

    def _update_transcripts(self) -> None:
        for handle in self._displays:
            handle.update({"text/html": self.transcript_html()}, raw=True)

    def _ipython_display_(self) -> None:
        """The widget, then the transcript as an output of its own (GitHub, nbviewer and nbconvert
        show it; the widget's stylesheet hides it where the widget draws)."""
        from IPython.display import display

        own = getattr(super(), "_repr_mimebundle_", None)
        if own is None:  # ipywidgets 7 draws a widget through _ipython_display_
            super()._ipython_display_()
        else:
            bundle: Any = own() or {}
            data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
            display(data, metadata=metadata, raw=True)  # type: ignore[no-untyped-call]
        handle = display({"text/html": self.transcript_html()}, raw=True, display_id=True)  # type: ignore[no-untyped-call]
        self._displays.append(handle)

    def __repr__(self) -> str:
        return f"<Conversation: {len(self.views)} turns>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))
