"""A conversation drawn as one column: each prompt as a user turn, each answer as its own view.

Knows widgets, not the client: a chat (client/chat.py) adds its turns here as they are sent.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, TypedDict

import ipywidgets

from ..core.turn_memory import TurnMemory
from ..render import views
from ..render.engine import engine
from ..render.transcript import transcript_class, transcript_input
from .streamview import StreamView
from .transcripts import Transcripts, widget_view

RECALLED_CHARS = 2000  # of each recalled message: a long history stays a cheap list

Mark = Literal["+", "-", " "]


class MemoryPanel(TypedDict):
    """What memory did in one turn, as js/src/views/memory.ts draws it (``MemoryInput``)."""

    recalled: list[tuple[str, str]]
    """(role, text) of each message recalled, the text cut at RECALLED_CHARS."""
    saved: list[tuple[str, str]]
    """(role, text) of each message the turn added to the thread, the text cut at RECALLED_CHARS."""
    working: list[tuple[Mark, str]] | None
    """The working memory's lines, marked (``working_diff``); None: no working memory this turn."""
    note: str | None
    counts: str | None
    """The counts beside the trace's (agreeing, or why not); None before the trace is read."""


def user_turn_html(text: str) -> str:
    """A prompt as a user turn (drawn as text: prompts may hold anything)."""
    return engine().draw("userTurn", text=text) or ""


def working_diff(before: str | None, after: str | None) -> list[tuple[Mark, str]]:
    """The working memory's lines, each marked ``+`` (added), ``-`` (removed) or `` `` (kept)."""
    lines = difflib.ndiff((before or "").splitlines(), (after or "").splitlines())
    marks: dict[str, Mark] = {"+": "+", "-": "-", " ": " "}
    return [(marks[line[0]], line[2:]) for line in lines if line[:1] in marks]


def memory_panel(
    recalled: Sequence[tuple[str, str]],
    before: str | None,
    after: str | None,
    note: str | None = None,
    *,
    saved: Sequence[tuple[str, str]] = (),
    counts: str | None = None,
) -> MemoryPanel | None:
    """What memory did in one turn: the messages recalled and saved, the working memory's changes,
    a note, and the counts beside the trace's; None when none of them has anything to show."""
    if not recalled and not saved and before is None and after is None and not note and not counts:
        return None
    working = working_diff(before, after) if before is not None or after is not None else None
    return {
        "recalled": [(role, _cut(text)) for role, text in recalled],
        "saved": [(role, _cut(text)) for role, text in saved],
        "working": working,
        "note": note or None,
        "counts": counts or None,
    }


def turn_panel(memory: TurnMemory | None, previous: TurnMemory | None = None) -> MemoryPanel | None:
    """A turn's memory (a chat's, or a saved chat's) as its panel. Its note is said once: not when
    the ``previous`` turn's memory said the same."""
    if memory is None:
        return None
    note = previous is None or previous.note != memory.note
    return memory_panel(
        [(message.role, message.text) for message in memory.recalled],
        memory.working_before,
        memory.working_after,
        memory.note if note else None,
        saved=[(message.role, message.text) for message in memory.saved],
        counts=memory.counts,
    )


def memory_html(
    recalled: Sequence[tuple[str, str]], before: str | None, after: str | None, note: str | None = None
) -> str:
    """What memory did in one turn, as inert HTML (everything drawn as text): the messages recalled
    (folded: role and text), the working memory's changes, and a note; empty when none of them has
    anything to show."""
    return _memory_html(memory_panel(recalled, before, after, note))


def _memory_html(panel: MemoryPanel | None) -> str:
    return "" if panel is None else engine().draw("memory", **panel) or ""


def _nothing() -> None:
    pass


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
        self._panels: list[MemoryPanel | None] = []  # the same as data, for the saved transcript
        self._memory_widgets: list[ipywidgets.HTML | None] = []
        self.title = title
        # its outputs below the widget, updated as turns end; each turn's view sends its own final state
        self._transcripts = Transcripts(self.transcript_html, _nothing, lambda: True)
        if title:
            self.children = [ipywidgets.HTML(views.draw(views.strong(title), "mn-conversation-title"))]

    def add_turn(self, prompt: str, view: StreamView) -> None:
        """Show one more turn: the person's ``prompt``, then the ``view`` of the answer."""
        self.views.append(view)
        self.prompts.append(prompt)
        self.memories.append("")
        self._panels.append(None)
        self._memory_widgets.append(None)
        self.children = [*self.children, ipywidgets.HTML(user_turn_html(prompt)), view]
        view.observe(self._turn_changed, names="streaming")
        self._update_transcripts()

    def show_memory(self, index: int, panel: MemoryPanel | None) -> None:
        """Show what memory did in turn ``index``, under its answer: ``panel`` as made by
        :func:`memory_panel` (nothing is drawn for None)."""
        shown = _memory_html(panel)
        self.memories[index] = shown
        self._panels[index] = panel
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

    def panel_of(self, index: int) -> MemoryPanel | None:
        """Turn ``index``'s memory as data (None for none)."""
        return self._panels[index]

    def to_html(self, path: str | Path | None = None) -> str:
        """One self-contained, offline page of every turn: each prompt, its run drawn by the widget's
        own renderer (its requests and trace lane as the view has them), and its memory."""
        from .export import Part, parts_html

        parts: list[Part] = (
            [views.draw(views.strong(self.title), "mn-conversation-title")] if self.title else []
        )
        for prompt, view, shown in zip(self.prompts, self.views, self.memories, strict=True):
            parts += [user_turn_html(prompt), (view.run, view.title, view.subtitle), shown]
        page = parts_html(parts, self.title or "Mastra chat")
        if path is not None:
            Path(path).write_text(page)
        return page

    def _turn_changed(self, change: dict[str, Any]) -> None:
        if not change["new"]:  # a turn ended: the saved transcript shows its final state
            self._update_transcripts()

    # ---- saved notebooks: one static transcript of every turn, as each view keeps its own -----------

    def transcript_html(self) -> str:
        """Every turn as static, script-free HTML: the prompt, then its run's transcript and memory."""
        turns = [
            {"prompt": prompt, "transcript": transcript_input(view.result, view.title), "memory": panel}
            for prompt, view, panel in zip(self.prompts, self.views, self._panels, strict=True)
        ]
        # hidden where the turns' views draw, as each view's own transcript is
        classes = transcript_class([view.view_key for view in self.views]).split()
        return engine().draw("conversation", title=self.title, classes=classes, turns=turns) or ""

    def _update_transcripts(self) -> None:
        self._transcripts.update()

    def _ipython_display_(self) -> None:
        """The widget, then the transcript as an output of its own (GitHub, nbviewer and nbconvert
        show it; the turns' views hide it where they draw)."""
        own = getattr(super(), "_repr_mimebundle_", None)  # ipywidgets 7.7 has none
        self._transcripts.show((own() or {}) if own is not None else widget_view(self))

    def __repr__(self) -> str:
        return f"<Conversation: {len(self.views)} turns>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))
