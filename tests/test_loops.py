"""Waiting nested inside the kernel's running loop (``wait()`` in a cell) never breaks the loop turn
it runs in: the kernel died with ``IndexError: pop from an empty deque`` when other handles were
ready at the turn's start and the wait was the first to nest (an experiment's runs and scorers)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from mastra_notebook.widget import loops

NEIGHBOURS = 10  # more handles ready at the turn's start than a nested wait leaves behind
Cell = Callable[[asyncio.AbstractEventLoop], None]


def _fresh_loop() -> asyncio.AbstractEventLoop:
    """A loop of a class of its own: nest_asyncio2 patches a loop's class, once per process."""
    probe = asyncio.new_event_loop()
    base: type[asyncio.AbstractEventLoop] = type(probe)
    probe.close()
    fresh: type[asyncio.AbstractEventLoop] = type("FreshLoop", (base,), {})
    return fresh()


def _run_cells(cells: list[Cell]) -> list[str]:
    """Run each cell as one callback of the loop, a few turns after the one before (as cells are),
    with other handles ready in the same turn; return what ran, in order."""
    loop = _fresh_loop()
    ran: list[str] = []
    ended = loop.create_future()

    def queue(number: int, turns_before: int) -> None:
        if turns_before:
            loop.call_soon(queue, number, turns_before - 1)
            return
        if number == len(cells):
            ended.set_result(None)
            return
        loop.call_soon(run, number)
        for other in range(NEIGHBOURS):
            loop.call_soon(ran.append, f"cell {number} neighbour {other}")

    def run(number: int) -> None:
        cells[number](loop)
        ran.append(f"cell {number} done")
        queue(number + 1, turns_before=2)

    queue(0, turns_before=0)
    try:
        loop.run_until_complete(ended)
    finally:
        loop.close()
    return ran


def _view(loop: asyncio.AbstractEventLoop) -> None:
    assert loops.running_loop() is loop  # what making a view or a batch in a cell does


def _wait(loop: asyncio.AbstractEventLoop) -> None:
    async def work() -> str:
        await asyncio.sleep(0)
        return "ok"

    task = loop.create_task(work())
    loops.run_nested(task, timeout=5)
    assert task.result() == "ok"


def _everything_ran(ran: list[str], cells: int) -> bool:
    expected = {f"cell {n} neighbour {k}" for n in range(cells) for k in range(NEIGHBOURS)}
    return (
        expected | {f"cell {n} done" for n in range(cells)} == set(ran)
        and len(ran) == (NEIGHBOURS + 1) * cells
    )


def test_a_wait_in_a_later_cell_than_the_view_nests_safely() -> None:
    assert _everything_ran(_run_cells([_view, _wait, _wait]), 3)


def test_a_wait_in_the_cell_that_made_the_view_nests_safely() -> None:
    def view_then_wait(loop: asyncio.AbstractEventLoop) -> None:
        _view(loop)
        _wait(loop)

    assert _everything_ran(_run_cells([view_then_wait]), 1)


def test_a_wait_with_no_view_before_it_nests_safely() -> None:
    assert _everything_ran(_run_cells([_wait, _wait]), 2)
