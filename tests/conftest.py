from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def fixture_path(name: str) -> Path:
    """A recorded stream: ``tool-call`` (JSONL) or ``http/tool-call.body`` (server bytes)."""
    path = FIXTURES / name
    return path if path.suffix else FIXTURES / f"{name}.jsonl"


VOLATILE = {"run_id", "started_at", "first_token_at", "finished_at"}


def comparable(value: Any, volatile: set[str] = VOLATILE) -> Any:
    """A dumped result without what differs between two readings of one stream (times, ids)."""
    if isinstance(value, dict):
        return {k: comparable(v, volatile) for k, v in value.items() if k not in volatile}
    if isinstance(value, list):
        return [comparable(v, volatile) for v in value]
    return value
