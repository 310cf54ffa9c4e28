"""The words a person reads for statuses: one table (status_words.json), shared with the widget's bundle.

Results keep Mastra's and the contract's values (``aborted``, ``awaiting-approval``, ``denied``...);
everything that shows a status to a person says it with :func:`status_word`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TABLE: dict[str, Any] = json.loads((Path(__file__).with_name("status_words.json")).read_text("utf-8"))
STATUSES: dict[str, dict[str, str]] = TABLE["statuses"]
DECISIONS: dict[str, str] = TABLE["decisions"]
BANNERS: dict[str, str] = TABLE["banners"]
WORDS = frozenset(entry["word"] for entry in STATUSES.values())


def status_word(status: str) -> str:
    """What a person reads for ``status`` (``aborted`` → ``stopped``); an unknown one as it is."""
    entry = STATUSES.get(status)
    return entry["word"] if entry else status


def status_tone(status: str) -> str:
    """How its badge is coloured: ``active``, ``ok``, ``warn``, ``error`` or ``neutral``."""
    entry = STATUSES.get(status)
    return entry["tone"] if entry else "neutral"


def decision_word(action: str) -> str:
    """``approve`` → ``approved``, ``decline`` → ``declined``, ``resume`` → ``resumed``."""
    return DECISIONS.get(action, action)
