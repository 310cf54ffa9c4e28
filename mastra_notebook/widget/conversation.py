"""A conversation drawn as one column: each prompt as a user turn, each answer as its own view.

Knows widgets, not the client: a chat (client/chat.py) adds its turns here as they are sent.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets

from .streamview import StreamView

_USER_TURN = (
    "margin:10px 0 4px auto;max-width:80%;width:fit-content;padding:6px 12px;border-radius:12px;"
    # a tint of the accent over the theme's own background: readable text in light and dark themes
    "background:rgba(33,150,243,.16);"
    "background:color-mix(in srgb, var(--jp-brand-color1, #2196f3) 18%, transparent);color:inherit;"
    "white-space:pre-wrap;overflow-wrap:anywhere;font-family:var(--jp-ui-font-family, inherit)"
)


def user_turn_html(text: str) -> str:
    """A prompt as a user turn (escaped: prompts may hold anything)."""
    return f'<div class="mn-user-turn" data-role="user" style="{_USER_TURN}">{html.escape(text)}</div>'


class Conversation(ipywidgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped
    """Turns in order: a user prompt, then the view of the answer; ``read_only`` for stored threads."""

    def __init__(self, *, title: str = "", read_only: bool = False) -> None:
        super().__init__(layout=ipywidgets.Layout(width="100%"))
        self.add_class("mn-conversation")
        if read_only:
            self.add_class("mn-conversation-read-only")
        self.views: list[StreamView] = []
        if title:
            self.children = [ipywidgets.HTML(f"<b>{html.escape(title)}</b>")]

    def add_turn(self, prompt: str, view: StreamView) -> None:
        self.views.append(view)
        self.children = [*self.children, ipywidgets.HTML(user_turn_html(prompt)), view]

    def __repr__(self) -> str:
        return f"<Conversation: {len(self.views)} turns>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))
