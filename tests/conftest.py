from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="e2e: take the pictures (test-artifacts/, both themes) for docs/ and a person's look; "
        "without it only a failed test's page is shot (also MN_SCREENSHOTS=1)",
    )


@pytest.fixture(autouse=True)
def _close_the_loop_asyncio_run_kept() -> Any:
    """Once a wait has nested in a running loop, nest_asyncio2 has patched asyncio for the process:
    ``asyncio.run`` then makes the thread's current loop and never closes it, and pytest-asyncio's
    next test drops it. Collected during some later test, it failed that test with an unraisable
    ResourceWarning (seen in CI in test_hostile and test_view). Each test ends with no such loop."""
    yield
    if not getattr(asyncio, "_nest_patched", False):
        return
    loop = asyncio.get_event_loop_policy().get_event_loop()  # patched: makes one where none is set
    if not loop.is_running() and not loop.is_closed():
        loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def fixture_path(name: str) -> Path:
    """A recorded stream: ``tool-call`` (JSONL) or ``http/tool-call.body`` (server bytes)."""
    path = FIXTURES / name
    return path if path.suffix else FIXTURES / f"{name}.jsonl"


VOLATILE = {"run_id", "started_at", "first_token_at", "finished_at", "timing", "last_token_at", "called_at"}


def comparable(value: Any, volatile: set[str] = VOLATILE) -> Any:
    """A dumped result without what differs between two readings of one stream (times, ids)."""
    if isinstance(value, dict):
        return {k: comparable(v, volatile) for k, v in value.items() if k not in volatile}
    if isinstance(value, list):
        return [comparable(v, volatile) for v in value]
    return value


class RecordingComm:
    """What a widget sends, as the kernel would send it (see ``recording_comm``)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def custom(self) -> list[dict[str, Any]]:
        """The widget's custom messages (``model.send``), in order."""
        return [m["data"]["content"] for m in self.messages if m["data"].get("method") == "custom"]

    def states(self) -> list[dict[str, Any]]:
        return [m["data"]["state"] for m in self.messages if m["data"].get("method") == "update"]


@pytest.fixture
def recording_comm(monkeypatch: pytest.MonkeyPatch) -> RecordingComm:
    """Widgets made in this test publish into a recorder instead of a kernel."""
    import time

    import comm

    recorder = RecordingComm()

    class Recording(comm.DummyComm):  # type: ignore[misc]
        def publish_msg(
            self, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None, **keys: Any
        ) -> None:
            recorder.messages.append(
                {
                    "type": msg_type,
                    "data": data or {},
                    "time": time.monotonic(),
                    "bytes": len(__import__("json").dumps(data or {}, default=str)),
                }
            )

    monkeypatch.setattr(comm, "create_comm", Recording)
    return recorder
