"""Event loops for background streams: the kernel's (in a cell) or a private one (in a plain script).

A stream runs as a task on the kernel's loop, so the loop stays free for a Stop click; where no loop
runs, one daemon thread's loop serves every stream of the process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any

_PRIVATE_LOOP: asyncio.AbstractEventLoop | None = None
_PRIVATE_LOCK = threading.Lock()

Work = asyncio.Task[Any] | concurrent.futures.Future[Any]


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The loop running this code (the kernel's, in a cell), or None in a plain script."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def private_loop() -> asyncio.AbstractEventLoop:
    """One daemon-thread loop for plain scripts, so streams still run in the background."""
    global _PRIVATE_LOOP  # noqa: PLW0603 - one loop per process, made on first use
    with _PRIVATE_LOCK:
        if _PRIVATE_LOOP is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="mastra-notebook", daemon=True).start()
            _PRIVATE_LOOP = loop
        return _PRIVATE_LOOP


def schedule(work: Coroutine[Any, Any, Any], loop: asyncio.AbstractEventLoop | None = None) -> Work:
    """Run ``work`` in the background on ``loop`` (by default the running loop, else the private one):
    a task when called on that loop, else handed to its thread."""
    here = running_loop()
    target = loop or here or private_loop()
    if target is here:
        return target.create_task(work)
    return asyncio.run_coroutine_threadsafe(work, target)


def run_nested(task: asyncio.Future[Any], timeout: float | None) -> None:
    """Wait for ``task`` from code that runs inside its (already running) loop, as a cell does."""
    loop = task.get_loop()
    if loop.is_running():
        import nest_asyncio2

        nest_asyncio2.apply(loop)
    loop.run_until_complete(asyncio.wait_for(asyncio.shield(task), timeout))
