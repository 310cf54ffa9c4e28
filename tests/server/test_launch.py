"""The bundled server's launcher stops the server however it is stopped itself."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.server

LAUNCH = Path(__file__).resolve().parents[2] / "server" / "launch.py"


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stopping_the_launcher_stops_the_server(stop: signal.Signals) -> None:
    launcher = subprocess.Popen([sys.executable, str(LAUNCH)], stdout=subprocess.PIPE, text=True)
    try:
        assert launcher.stdout is not None
        port = urlparse(launcher.stdout.readline().strip()).port
        assert port is not None
        assert listening(port)
        launcher.send_signal(stop)
        launcher.wait(timeout=30)
        deadline = time.monotonic() + 15
        while listening(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not listening(port), "the Mastra server outlived its launcher"
    finally:
        launcher.kill()
        launcher.wait()
        if launcher.stdout is not None:
            launcher.stdout.close()
