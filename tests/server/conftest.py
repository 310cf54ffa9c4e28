"""The bundled real Mastra server (server/), started once per test session on a free port.

Under pytest-xdist (scripts/test.sh runs the units and server tests with ``-n 2``) each worker is a
session of its own: it starts its own server, on a port the system picked (port 0), with its own
in-memory storage (server/agents.mjs, features.mjs), so no test sees another worker's threads,
datasets or runs, and nothing needs a lock."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import mastra_notebook as mn

SERVER_DIR = Path(__file__).resolve().parents[2] / "server"


def launcher() -> ModuleType:
    """server/launch.py, loaded as a module (it is no package): `start_server`, `stop_server`."""
    spec = importlib.util.spec_from_file_location("mastra_test_server_launch", SERVER_DIR / "launch.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def mastra_url() -> Iterator[str]:
    launch = launcher()
    process, url = launch.start_server(port=0, timeout=120)
    try:
        yield url
    finally:
        launch.stop_server(process)


@pytest.fixture(scope="session")
def unredacted_url(mastra_url: str) -> Iterator[str]:
    """A second server, started with MASTRA_REDACT=0 (once per session): step-start carries the
    provider request. Started after the first: two servers do not start at once on a busy machine."""
    del mastra_url
    launch = launcher()
    process, url = launch.start_server(port=0, timeout=120, env={"MASTRA_REDACT": "0"})
    try:
        yield url
    finally:
        launch.stop_server(process)


@pytest.fixture
def client(mastra_url: str) -> mn.MastraClient:
    return mn.MastraClient(mastra_url)
