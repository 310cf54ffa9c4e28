"""A chat saved to one file (``chat.save(path)``), read back by ``mn.replay(path)`` turn by turn.

JSON lines: first ``{"mn-chat": {title, agent, thread, resource}}``, then one line per turn,
``{"mn-chat-turn": {prompt, title, subtitle, memory, lines}}``, where ``lines`` are the turn's
recording as ``view.save`` writes it (its chunks with their arrival times, its trace once read, its
scores and label) and ``memory`` what memory did in it (a :class:`TurnMemory`, or null).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel

from .turn_memory import TurnMemory

CHAT_KEY = "mn-chat"
TURN_KEY = "mn-chat-turn"


class SavedTurn(BaseModel):
    """One turn of a saved chat: the prompt as shown, the view's heading, its memory, its recording."""

    prompt: str
    title: str = ""
    subtitle: str = ""
    memory: TurnMemory | None = None
    lines: list[str]


class SavedChat(BaseModel):
    """A saved chat: its heading, agent, thread and resource, and its turns in order."""

    title: str = ""
    agent: str = ""
    thread: str | None = None
    resource: str | None = None
    turns: list[SavedTurn] = []


def write_chat(path: str | Path, chat: SavedChat) -> Path:
    """Write ``chat`` to ``path`` (one line of its own, then a line per turn)."""
    path = Path(path)
    head = chat.model_dump(mode="json", exclude={"turns"})
    with path.open("wb") as file:
        file.write(orjson.dumps({CHAT_KEY: head}) + b"\n")
        for turn in chat.turns:
            file.write(orjson.dumps({TURN_KEY: turn.model_dump(mode="json")}) + b"\n")
    return path


def is_chat_file(source: Any) -> bool:
    """Whether ``source`` is a path to a file ``chat.save`` wrote (its first line says so)."""
    if not isinstance(source, (str, Path)) or not Path(source).is_file():
        return False
    with Path(source).open("rb") as file:
        return file.read(len(CHAT_KEY) + 4).startswith(b'{"' + CHAT_KEY.encode() + b'"')


def read_chat(source: str | Path) -> SavedChat:
    """The chat saved at ``source``; raises ValueError when it is not one."""
    lines = [line for line in Path(source).read_bytes().splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{source} is empty: not a saved chat")
    head = orjson.loads(lines[0])
    if not isinstance(head, dict) or CHAT_KEY not in head:
        raise ValueError(
            f"{source} is not a saved chat (chat.save writes one): its first line is not {CHAT_KEY}"
        )
    turns = [SavedTurn.model_validate(orjson.loads(line)[TURN_KEY]) for line in lines[1:]]
    return SavedChat.model_validate({**head[CHAT_KEY], "turns": turns})
