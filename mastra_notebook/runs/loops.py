"""Event loops for background streams: the kernel's (in a cell) or a private one (in a plain script).

A stream runs as a task on the kernel's loop, so the loop stays free for a Stop click; where no loop
runs, one daemon thread's loop serves every stream of the process.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import sys
import threading
import weakref
from collections.abc import Coroutine
from typing import Any

_PRIVATE_LOOP: asyncio.AbstractEventLoop | None = None
_PRIVATE_LOCK = threading.Lock()

Work = asyncio.Task[Any] | concurrent.futures.Future[Any]


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The loop running this code (the kernel's, in a cell), or None in a plain script. A loop seen
    here is made reentrant soon after (``wait()`` in a later cell nests it)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    if loop not in _REENTRANT and in_a_kernel():
        _REENTRANT.add(loop)
        loop.call_soon(_make_reentrant, loop)
    return loop


# Loops that are, or are about to be, reentrant. nest_asyncio2 swaps the loop's ``_run_once``; the
# loop turn that applies it still runs the original, which pops the handles it counted when it
# began. A wait nested in that same turn takes some of them first, and the original then pops an
# empty queue (IndexError: the kernel dies). So the swap is made in a callback of its own, a turn
# before any wait nests, and a wait that comes in the very same turn pads what it took.
_REENTRANT: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def in_a_kernel() -> bool:
    """Whether this process is a Jupyter kernel, whose loop runs the cells. Elsewhere (a script's
    ``asyncio.run``, a test) the loop is left as it is until a wait nests in it: nest_asyncio2 also
    patches ``asyncio.run``, which then keeps its loops open."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def _make_reentrant(loop: asyncio.AbstractEventLoop) -> None:
    import nest_asyncio2

    nest_asyncio2.apply(loop)


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
    if not loop.is_running():
        loop.run_until_complete(asyncio.wait_for(asyncio.shield(task), timeout))
        return
    if getattr(loop, "_nest_patched", False):  # nest_asyncio2's mark: patched in an earlier turn
        loop.run_until_complete(asyncio.wait_for(asyncio.shield(task), timeout))
        return
    # Patched in this very turn: the turn's original ``_run_once`` still expects the handles that
    # are ready now; whatever the nested run takes of them is given back as no-ops.
    ready: collections.deque[Any] = getattr(loop, "_ready", collections.deque())
    expected = len(ready)
    _make_reentrant(loop)
    try:
        loop.run_until_complete(asyncio.wait_for(asyncio.shield(task), timeout))
    finally:
        for _ in range(expected - len(ready)):
            loop.call_soon(_nothing)


def _nothing() -> None:
    """A handle that does nothing (see ``run_nested``)."""
