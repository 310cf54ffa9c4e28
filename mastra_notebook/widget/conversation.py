"""A conversation drawn as one column: each prompt as a user turn, each answer as its own view.

Knows widgets, not the client: a chat (client/chat.py) adds its turns here as they are sent.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets

from ..render.static import transcript_class
from ..render.transcript import render_html
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
        self.prompts: list[str] = []
        self.title = title
        self._displays: list[Any] = []  # IPython display handles of the transcript, updated as turns end
        if title:
            self.children = [ipywidgets.HTML(f"<b>{html.escape(title)}</b>")]

    def add_turn(self, prompt: str, view: StreamView) -> None:
        """Show one more turn: the person's ``prompt``, then the ``view`` of the answer."""
        self.views.append(view)
        self.prompts.append(prompt)
        self.children = [*self.children, ipywidgets.HTML(user_turn_html(prompt)), view]
        view.observe(self._turn_changed, names="streaming")
        self._update_transcripts()

    def _turn_changed(self, change: dict[str, Any]) -> None:
        if not change["new"]:  # a turn ended: the saved transcript shows its final state
            self._update_transcripts()

    # ---- saved notebooks: one static transcript of every turn, as each view keeps its own -----------

    def transcript_html(self) -> str:
        """Every turn as static, script-free HTML: the prompt, then its run's transcript."""
        title = f"<div><b>{html.escape(self.title)}</b></div>" if self.title else ""
        turns = "".join(
            user_turn_html(prompt) + render_html(view.result, view.title)
            for prompt, view in zip(self.prompts, self.views, strict=True)
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
