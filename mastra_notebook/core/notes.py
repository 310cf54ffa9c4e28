"""A teacher's notes on a run's steps (``view.note(step, text)``): shown under the step's divider in
the view, a replay and the export page, and kept in the recording as one line of the notebook's own
(``{"type": "mn-note", "from": "USER", "payload": {"step": 2, "text": "..."}}``: other readers of
Mastra JSONL skip an unknown chunk type), as labels, scores and the trace are kept.

Steps are numbered from 1, as the view numbers them ("Step 1") and ``StepNode.index`` holds them.
A note is text, always: the view sets it as text, never as HTML.
"""

from __future__ import annotations

from typing import Any

NOTE_TYPE = "mn-note"  # the recording's line of a teacher's note (the notebook's own chunk type)
NOTE_LIMIT = 4_000  # characters: a note is a remark for the class, not a document


def make(step: Any, text: Any) -> tuple[int, str | None]:
    """A note from what a teacher gave: the step (from 1) and its text, stripped and cut to
    ``NOTE_LIMIT`` (None: the step's note is cleared). ValueError says what is wrong."""
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise ValueError(f"step is a step number from 1, as the view shows it ('Step 1'), not {step!r}")
    if text is not None and not isinstance(text, str):
        raise ValueError(f"a note's text is a string or None, not {type(text).__name__}")
    return step, (text or "").strip()[:NOTE_LIMIT] or None


def line(step: int, text: str | None) -> dict[str, Any]:
    """The recording's line of a note (shaped as a Mastra chunk, so a recording stays JSONL)."""
    return {"type": NOTE_TYPE, "from": "USER", "payload": {"step": step, "text": text}}


def read(chunk: Any) -> tuple[int, str | None] | None:
    """The note a recording's line holds (its step, its text or None), or None for any other chunk
    (or a payload that is no note)."""
    if type(chunk) is not dict or chunk.get("type") != NOTE_TYPE:
        return None
    payload = chunk.get("payload")
    if not isinstance(payload, dict):
        return None
    try:
        return make(payload.get("step"), payload.get("text"))
    except ValueError:
        return None
