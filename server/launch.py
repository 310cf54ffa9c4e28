"""Start / stop the scripted Mastra test server (stdlib only, Python 3.11).

    from launch import start_server, stop_server
    proc, base_url = start_server()
    ...
    stop_server(proc)

`python server/launch.py [port]` runs it in the foreground until Ctrl-C.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

SERVER_DIR = Path(__file__).resolve().parent
READY_PREFIX = "MASTRA_TEST_SERVER_READY "


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


def start_server(port: int = 0, timeout: float = 60) -> tuple[subprocess.Popen, str]:
    """Start `node server.mjs` (running `npm ci` first if node_modules is missing).

    Returns (process, base_url) once the server printed its READY line. The server's
    stderr (logs) is inherited; its stdout carries only the READY line.
    """
    if not (SERVER_DIR / "node_modules").is_dir():
        _npm_ci()
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node not found: Node 20+ is needed for the Mastra test server")
    env = {**os.environ, "PORT": str(port), "MASTRA_TELEMETRY_DISABLED": "1"}
    proc = subprocess.Popen(
        [node, "server.mjs"],
        cwd=SERVER_DIR,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

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
            stop_server(proc)
            raise TimeoutError(f"Mastra test server not ready after {timeout} s")
        try:
            line = lines.get(timeout=remaining)
        except queue.Empty:
            continue
        if line is None:
            code = proc.wait()
            raise RuntimeError(f"Mastra test server exited with code {code} before it was ready")
        if line.startswith(READY_PREFIX):
            return proc, line[len(READY_PREFIX) :].strip()


def stop_server(proc: subprocess.Popen, timeout: float = 10) -> None:
    """Stop the server (SIGTERM, then SIGKILL if it does not exit in time)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("PORT", "0"))
    # SIGTERM (a demo script or a service manager stopping us) ends like Ctrl+C: the server stops too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    proc, url = start_server(port)
    print(url, flush=True)
    try:
        while proc.poll() is None:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main()
