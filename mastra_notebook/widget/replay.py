"""Replay a recording for teaching: at its recorded pace (or faster, slower), paused, stepped chunk by
chunk, or jumped to any point. The view always shows exactly the state after chunk N: the state of a
Run fed the first N chunks."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.chat_file import SavedChat, is_chat_file, read_chat
from ..core.moments import MOMENTS, Moment, moments
from ..core.recording import Recording
from ..core.turn_memory import TurnMemory
from ..runs.loops import Work
from .contract import BrowserMessage, PauseMsg, PlayMsg, ReplayTraits, RevealMsg, SeekMsg, SpeedMsg, synced
from .conversation import Conversation, turn_panel
from .streamview import StreamView

UNTIMED_GAP_MS = 40.0  # the pace of a recording that carries no arrival times
MAX_GAP_MS = 2000.0  # a long silence in a recording is shortened to this


class ReplayView(StreamView):
    """A StreamView over a recording, with play/pause and a scrubber (trait ``replay``)."""

    replay = synced(ReplayTraits, "replay")  # widget/contract.py: {"total", "position", "playing", "speed"}

    def __init__(
        self,
        recording: Recording,
        *,
        speed: float = 1.0,
        title: str = "",
        renderers: Mapping[str, Any] | None = None,
        pause_at: Moment | None = None,
        present: bool = False,
    ) -> None:
        """``pause_at``: playback stops before each such moment (``"step"``, ``"tool-call"``,
        ``"sub-agent"``), what comes next hidden until ``reveal()``; ``present``: present mode."""
        if pause_at is not None and pause_at not in MOMENTS:
            raise ValueError(f"pause_at is one of {', '.join(map(repr, MOMENTS))} or None, not {pause_at!r}")
        super().__init__(title=title, renderers=renderers)
        self.stream.recording = recording
        self.stream.read_recorded()  # its trace's requests and its notes, from the start
        self.speed = speed
        self.pause_at = pause_at
        self.marks = moments(recording.items)  # where each step, tool call and sub-agent begins
        self._revealed: set[int] = set()  # the pause points shown already (played through)
        self._held: int | None = None  # the pause point the replay is held before
        self._player: Work | None = None
        self.run.start(recorded=True)  # timed by the recording only: the same at any speed
        self.present(present)
        self._publish(playing=False)

    @property
    def position(self) -> int:
        """How many chunks of the recording the view shows."""
        return self.stream.fed

    @property
    def total(self) -> int:
        """How many chunks the recording holds."""
        return len(self.recording)

    @property
    def pause_points(self) -> list[int]:
        """The positions playback stops at (``pause_at``'s moments: the chunk indexes that begin
        them); at position ``i`` the view shows the first ``i`` chunks, the moment not yet begun."""
        return list(self.marks[self.pause_at]) if self.pause_at is not None else []

    @property
    def held(self) -> bool:
        """The replay is held before a ``pause_at`` moment, which ``reveal()`` shows."""
        return self._held is not None and self._held == self.position

    def _publish(self, *, playing: bool) -> None:
        self.replay = {
            "total": self.total,
            "position": self.position,
            "playing": playing,
            "speed": self.speed,
            "marks": {moment: list(found) for moment, found in self.marks.items()},
            "pause_at": self.pause_at or "",
            "held": (self.pause_at or "") if self.held else "",
        }

    def _gap_ms(self, index: int) -> float:
        """Milliseconds between chunk ``index - 1`` and ``index`` at the recorded pace (speed 1)."""
        times = self.recording.times
        if index > 0 and not math.isnan(times[index]) and not math.isnan(times[index - 1]):
            return min(max(times[index] - times[index - 1], 0.0), MAX_GAP_MS)
        return UNTIMED_GAP_MS

    def _gap(self, index: int) -> float:
        """Seconds to wait before chunk ``index``, at the recorded pace divided by ``speed``."""
        return self._gap_ms(index) / 1000 / max(self.speed, 1e-6)

    # ---- controls -----------------------------------------------------------------------------

    def play(self) -> None:
        """Play from the current position to the end (from the start when at the end)."""
        if self._player is not None and not self._player.done():
            return
        if self.position >= self.total:
            self.seek(0)
        # The loop that plays (the kernel's, or a plain script's background one) is the one whose
        # timers send what the flush policy holds back; wait() and await wait for the playback.
        self._player = self.stream.background(self._play())
        self._publish(playing=True)

    async def _play(self) -> None:
        try:
            while self.position < self.total:
                if self._holds_here():
                    self._held = self.position  # what comes next stays hidden until reveal()
                    self._player = None
                    self._sync.flush()
                    return
                await asyncio.sleep(self._gap(self.position))
                self._advance()
        finally:
            self._publish(playing=False)

    def _holds_here(self) -> bool:
        """Playback stops here: a ``pause_at`` moment begins with the next chunk, not yet revealed."""
        return self.position in self.pause_points and self.position not in self._revealed

    def reveal(self) -> None:
        """Show the moment the replay is held before (or the next one), and play on to the next
        ``pause_at`` moment (the view's Reveal button, or its key ``r``)."""
        self._revealed.add(self.position)
        self._held = None
        self.play()

    def set_speed(self, speed: float) -> None:
        """Play at ``speed`` times the recorded pace (the bar's speed control), from the next chunk."""
        if not math.isfinite(speed) or speed <= 0:
            raise ValueError(f"speed is a positive number, not {speed!r}")
        self.speed = float(speed)
        self._publish(playing=self._player is not None and not self._player.done())

    def pause(self) -> None:
        """Stop playing where it is (``play()`` goes on from there)."""
        if self._player is not None:
            self._player.cancel()
            self._player = None
        self._held = None
        self._publish(playing=False)

    def stop(self) -> None:
        """A replay is never aborted: Stop pauses it."""
        self.pause()

    def step(self, count: int = 1) -> None:
        """Move ``count`` chunks forward (or back, when negative)."""
        self.seek(self.position + count)

    def seek(self, position: int) -> None:
        """Show exactly the state after chunk ``position`` (0: nothing yet; ``total``: the end)."""
        self.pause()
        position = max(0, min(int(position), self.total))
        if position >= self.position:
            while self.position < position:
                self._advance()
            self._sync.flush()  # a jump shows at once
            return
        self._rebuild(position)

    def _advance(self) -> None:
        self.stream.fold_next()
        if self.position >= self.total:
            self._publish(playing=False)  # before end(): wait() returns a settled view
            self.end()
        else:
            self._publish(playing=self._player is not None and not self._player.done())

    def _rebuild(self, position: int) -> None:
        """Going back: a fresh Run fed the first ``position`` chunks, sent whole as a snapshot."""
        self._sync.flush()
        self.stream.rebuild(position)
        self.send(
            self._sync.restart(self.run.snapshot(), another_run=False)
        )  # the fresh run's ops travel in it
        self._inspector.rewind()
        self._publish(playing=False)

    def feed(self, item: Any) -> None:
        """A chunk fed by hand extends the recording; the view then shows it, at the end."""
        self.recording.add(item, self.recording.times[-1] if self.total else 0.0)
        self.seek(self.total)

    def _answer(self, msg: BrowserMessage) -> None:
        if isinstance(msg, PlayMsg):
            self.play()
        elif isinstance(msg, PauseMsg):
            self.pause()
        elif isinstance(msg, SeekMsg):
            self.seek(msg.position)
        elif isinstance(msg, SpeedMsg):
            self.set_speed(msg.speed)
        elif isinstance(msg, RevealMsg):
            self.reveal()
        else:
            super()._answer(msg)


class ChatReplay:
    """A saved chat (``chat.save(path)``) played turn by turn: each turn's prompt, then its run in a
    replay view (its requests and trace as saved), then what memory did in it once the turn's replay
    reaches its end. ``next()`` adds the next turn; with ``autoplay`` each turn plays, and the next
    follows when it ends. Shown as a cell's value: the conversation so far."""

    def __init__(
        self,
        saved: SavedChat,
        *,
        speed: float = 1.0,
        autoplay: bool = True,
        title: str = "",
        renderers: Mapping[str, Any] | None = None,
    ) -> None:
        self.saved = saved
        self.speed, self.autoplay, self.renderers = speed, autoplay, renderers
        self.views: list[ReplayView] = []
        self.widget = Conversation(title=title or saved.title)
        """The conversation widget (for frontends that show widgets themselves, e.g. marimo)."""

    @property
    def prompts(self) -> list[str]:
        """Every turn's prompt, as shown (the turns not yet added too)."""
        return [turn.prompt for turn in self.saved.turns]

    @property
    def memories(self) -> list[TurnMemory | None]:
        """What memory did in each turn, as saved (the turns not yet added too)."""
        return [turn.memory for turn in self.saved.turns]

    def next(self) -> ReplayView | None:
        """Add the next turn (None when every turn is shown): its prompt, then its run replayed (playing
        with ``autoplay``, else held at its start for the replay bar)."""
        index = len(self.views)
        if index >= len(self.saved.turns):
            return None
        turn = self.saved.turns[index]
        recording = Recording.load([line.encode() for line in turn.lines])
        view = ReplayView(recording, speed=self.speed, title=turn.title, renderers=self.renderers)
        view.subtitle = turn.subtitle
        self.views.append(view)
        self.widget.add_turn(turn.prompt, view)
        view.observe(lambda change: self._moved(index, change["new"]), names="replay")
        if self.autoplay:
            view.play()
        return view

    def _moved(self, index: int, replay: dict[str, Any]) -> None:
        """Turn ``index``'s replay moved: its memory shows at its end (and hides before it); at the end
        of the last turn added, an autoplaying chat adds the next."""
        ended = replay["position"] >= replay["total"]
        previous = self.memories[index - 1] if index else None
        self.widget.show_memory(index, turn_panel(self.memories[index], previous) if ended else None)
        if ended and self.autoplay and index == len(self.views) - 1:
            self.next()

    def __repr__(self) -> str:
        return (
            f"<ChatReplay {self.saved.title or 'chat'}: {len(self.views)} of {len(self.saved.turns)} turns>"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def _ipython_display_(self) -> None:
        self.widget._ipython_display_()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # hosts other than IPython (marimo)
        return self.widget._repr_mimebundle_(**kwargs)


def replay(
    source: Any,
    speed: float = 1.0,
    *,
    autoplay: bool = True,
    title: str = "",
    renderers: Mapping[str, Any] | None = None,
    pause_at: Moment | None = None,
    present: bool = False,
) -> ReplayView | ChatReplay:
    """Play a recording (``view.save`` output, or any Mastra JSONL / SSE body) in a view with controls
    (``renderers``: ``{tool name: fn}`` drawing those tools' results as data, as in ``mn.view``).

    Predict, then reveal: ``pause_at="tool-call"`` (or ``"step"``, ``"sub-agent"``) stops playback
    just before each such moment, what comes next hidden until the bar's Reveal (or
    ``view.reveal()``) shows it and plays on to the next. ``present=True``: present mode, for a
    projector (``view.present()``). A teacher's note on a step: ``view.note(step, text)``.

    A chat's file (``chat.save``) plays turn by turn (a :class:`ChatReplay`: its first turn at once,
    the next as each ends with ``autoplay``, else on ``next()``)."""
    if is_chat_file(source):
        played = ChatReplay(
            read_chat(source), speed=speed, autoplay=autoplay, title=title, renderers=renderers
        )
        played.next()
        return played
    name = Path(source).name if isinstance(source, (str, Path)) else ""
    view = ReplayView(
        Recording.load(source),
        speed=speed,
        title=title or name,
        renderers=renderers,
        pause_at=pause_at,
        present=present,
    )
    if autoplay:
        view.play()
    return view
