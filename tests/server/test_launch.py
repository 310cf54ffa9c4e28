"""The bundled server's launcher stops the server however and whenever it is stopped itself."""

from __future__ import annotations

import contextlib
import os
import random
import select
import signal
import socket
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest

from ..helpers import wait_until

pytestmark = pytest.mark.server

LAUNCH = Path(__file__).resolve().parents[2] / "server" / "launch.py"
# When each quick stop is sent, from the launcher's start to its server's READY line (4 s here, so only a
# few wait that long; the tests above stop a ready one too). 25 of them, alternated with the two
# signals: every pairing comes up in 50.
MOMENTS = (*("at once", "handlers installed", "node started", "node part-way") * 6, "ready")
PAGE = os.sysconf("SC_PAGE_SIZE")


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def processes_marked(marker: bytes) -> set[int]:
    """Live processes whose environment holds ``marker``: the launcher and whatever it started."""
    found = set()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):  # gone meanwhile, or not ours to read
                if marker in Path(entry.path, "environ").read_bytes():
                    found.add(int(entry.name))
    return found


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but not ours: the group id was taken again
        return True
    return True


def catches_sigterm(pid: int) -> bool:
    """Whether ``pid`` has its own SIGTERM handler (the SigCgt mask in /proc/<pid>/status)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


def command(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/comm").read_text().strip()
    return ""


def resident_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2**20
    return 0.0


def kill(pids: set[int]) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def launch(marker: bytes) -> subprocess.Popen[str]:
    name, value = marker.rstrip(b"\0").decode().split("=")
    env = {**os.environ, name: value}
    return subprocess.Popen([sys.executable, str(LAUNCH)], stdout=subprocess.PIPE, text=True, env=env)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stopping_the_launcher_stops_the_server(stop: signal.Signals) -> None:
    launcher = launch(f"MN_LAUNCH_TEST={uuid.uuid4().hex}".encode())
    try:
        assert launcher.stdout is not None
        port = urlparse(launcher.stdout.readline().strip()).port
        assert port is not None
        assert listening(port)
        launcher.send_signal(stop)
        launcher.wait(timeout=30)
        assert not listening(port), "the Mastra server outlived its launcher"
    finally:
        launcher.kill()
        launcher.wait()
        if launcher.stdout is not None:
            launcher.stdout.close()


class Launch:
    """One launcher, and what it started: the processes that inherited its marker."""

    def __init__(self, marker: bytes) -> None:
        self.marker = marker
        self.launcher = launch(marker)

    def started(self) -> set[int]:
        return processes_marked(self.marker) - {self.launcher.pid}

    def node(self) -> set[int]:
        return {pid for pid in self.started() if command(pid) == "node"}

    def ready(self) -> bool:
        """Whether the READY line is there to read."""
        assert self.launcher.stdout is not None
        return bool(select.select([self.launcher.stdout], [], [], 0)[0])

    def reach(self, moment: str, grown_mb: float) -> None:
        if moment == "handlers installed":
            wait_until(lambda: catches_sigterm(self.launcher.pid), moment)
        elif moment.startswith("node"):
            wait_until(lambda: bool(self.node()), "node started")
            if moment == "node part-way":  # node grows from ~20 MB to ~160 MB as it starts
                wait_until(
                    lambda: any(resident_mb(pid) > grown_mb for pid in self.node()), f"{grown_mb:.0f} MB"
                )
        elif moment == "ready":
            assert self.launcher.stdout is not None
            assert self.launcher.stdout.readline().startswith("http://127.0.0.1:")


@pytest.mark.timeout(240)
def test_fifty_quick_stops_leave_no_server() -> None:
    """Stopped with SIGTERM or SIGINT at any moment of its start, the launcher exits only once the
    server it started (node, in a process group of its own) is gone."""
    rng = random.Random(17)
    run = uuid.uuid4().hex
    left: list[str] = []
    groups: set[int] = set()
    try:
        for i in range(50):
            stop = (signal.SIGTERM, signal.SIGINT)[i % 2]
            moment = MOMENTS[i % len(MOMENTS)]
            one = Launch(f"MN_LAUNCH_TEST={run}-{i}\0".encode())  # \0 ends the value: -1 is no -10
            with one.launcher:
                one.reach(moment, grown_mb=rng.uniform(25, 150))
                for pid in one.node():
                    with contextlib.suppress(ProcessLookupError):
                        groups.add(os.getpgid(pid))
                one.launcher.send_signal(stop)
                one.launcher.wait(timeout=30)
                if still := one.started():
                    left.append(f"#{i} {stop.name} {moment}: {sorted(still)}")
                    kill(still)
        assert not left, f"servers outlived their launcher: {left}"
        assert os.getpgid(0) not in groups, "node ran in the test's own process group"
        assert not [pgid for pgid in groups if group_alive(pgid)], "a server's process group outlived it"
    finally:
        kill(processes_marked(f"MN_LAUNCH_TEST={run}-".encode()))
