"""Start / stop the scripted Mastra test server (stdlib only, Python 3.11).

    from launch import start_server, stop_server
    proc, base_url = start_server()  # node in a process group of its own
    ...
    stop_server(proc)

`python server/launch.py [port]` runs it in the foreground until Ctrl-C or SIGTERM, and however and
whenever it is stopped, the server is gone before it exits.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NoReturn

SERVER_DIR = Path(__file__).resolve().parent
READY_PREFIX = "MASTRA_TEST_SERVER_READY "
STOPS = (signal.SIGTERM, signal.SIGINT)


def _npm_ci() -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm not found: Node 20+ and npm are needed for the Mastra test server")
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=SERVER_DIR,
        check=True,
        stdout=sys.stderr,  # keep our stdout clean
    )


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGTERM and SIGINT that come meanwhile are handled once the block is done, by the handlers in
    place before it: a stop request must not land between node's start and our knowing its pid."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread handles signals
        yield
        return
    held: list[int] = []
    before = {stop: signal.signal(stop, lambda signum, _: held.append(signum)) for stop in STOPS}
    try:
        yield
    finally:
        for stop, handler in before.items():
            signal.signal(stop, signal.SIG_DFL if handler is None else handler)
        for signum in held:
            signal.raise_signal(signum)


class ScriptedServer:
    """`node server.mjs` in a process group of its own. `start()` stops it again if anything (an
    exception, SIGTERM or SIGINT) ends it before the server is ready; `stop()` stops it once ready."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def start(self, port: int = 0, timeout: float = 60, env: Mapping[str, str] | None = None) -> str:
        """Start the server (running `npm ci` first if node_modules is missing) and return its URL
        once it printed its READY line. Its stderr (logs) is inherited; its stdout carries only READY.
        `env` adds to this process's environment (e.g. `{"MASTRA_REDACT": "0"}`)."""
        if not (SERVER_DIR / "node_modules").is_dir():
            _npm_ci()
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node not found: Node 20+ is needed for the Mastra test server")
        env = {**os.environ, **(env or {}), "PORT": str(port), "MASTRA_TELEMETRY_DISABLED": "1"}
        try:
            with _signals_held():
                self.process = subprocess.Popen(
                    [node, "server.mjs"],
                    cwd=SERVER_DIR,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    text=True,
                    encoding="utf-8",
                    start_new_session=True,  # its own process group: stopped as one, never by a stray ^C
                )
            return _ready_url(self.process, timeout)
        except BaseException:
            self.stop()
            raise

    def stop(self, timeout: float = 10) -> None:
        """Stop the server if it was started (a stop request meanwhile is handled once it is done)."""
        if self.process is not None:
            with _signals_held():
                stop_server(self.process, timeout)


def _ready_url(proc: subprocess.Popen[str], timeout: float) -> str:
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:  # read stdout forever so the pipe never fills up
        assert proc.stdout is not None
        with proc.stdout:
            for line in proc.stdout:
                lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, name="mastra-server-stdout", daemon=True).start()

    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"Mastra test server not ready after {timeout} s")
        try:
            line = lines.get(timeout=remaining)
        except queue.Empty:
            continue
        if line is None:
            code = proc.wait()
            raise RuntimeError(f"Mastra test server exited with code {code} before it was ready")
        if line.startswith(READY_PREFIX):
            return line[len(READY_PREFIX) :].strip()


def start_server(
    port: int = 0, timeout: float = 60, env: Mapping[str, str] | None = None
) -> tuple[subprocess.Popen[str], str]:
    """Start `node server.mjs`; (process, base_url) once it is ready. See `ScriptedServer.start`."""
    server = ScriptedServer()
    url = server.start(port, timeout, env)
    assert server.process is not None
    return server.process, url


def stop_server(proc: subprocess.Popen[str], timeout: float = 10) -> None:
    """Stop the server's process group (SIGTERM, then SIGKILL if it does not exit in time)."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _stop_requested(signum: int, _frame: object) -> NoReturn:
    for each in STOPS:  # stopping now: a second request must not cut the stop short
        signal.signal(each, signal.SIG_IGN)
    raise KeyboardInterrupt(signal.Signals(signum).name)


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("PORT", "0"))
    server = ScriptedServer()
    try:
        # SIGTERM (a demo script or a service manager stopping us) ends like Ctrl+C: the server stops too
        for each in STOPS:
            signal.signal(each, _stop_requested)
        print(server.start(port), flush=True)
        assert server.process is not None
        server.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
