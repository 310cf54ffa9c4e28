"""Waiting nested inside the kernel's running loop (``wait()`` in a cell) never breaks the loop turn
it runs in: the kernel died with ``IndexError: pop from an empty deque`` when other handles were
ready at the turn's start and the wait was the first to nest (an experiment's runs and scorers).

nest_asyncio2 patches asyncio for the whole process (``asyncio.run`` then keeps its loops open, and
other tests would meet them): each scenario runs in an interpreter of its own."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from mastra_notebook.runs import loops

ROOT = Path(__file__).resolve().parent.parent
NEIGHBOURS = 10  # more handles ready at the turn's start than a nested wait leaves behind
Cell = Callable[[asyncio.AbstractEventLoop], None]


def _run_cells(cells: list[Cell]) -> list[str]:
    """Run each cell as one callback of a new loop, a few turns after the one before (as cells
    are), with other handles ready in the same turn; return what ran, in order."""
    loop = asyncio.new_event_loop()
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
    loops.run_nested(task, timeout=60)
    assert task.result() == "ok"


def _view_then_wait(loop: asyncio.AbstractEventLoop) -> None:
    _view(loop)
    _wait(loop)


def _is_reentrant(loop: asyncio.AbstractEventLoop) -> None:
    print("reentrant" if hasattr(loop, "_nest_patched") else "as it was")


SCENARIOS: dict[str, list[Cell]] = {
    "a wait in a later cell": [_view, _wait, _wait],
    "a wait in the cell that made the view": [_view_then_wait],
    "a wait with no view before it": [_wait, _wait],
    "a view, then a later cell": [_view, _is_reentrant],
}


def play(scenario: str, *, kernel: bool) -> list[str]:
    """Run a scenario (in the fresh interpreter), as in a kernel or not."""
    loops.in_a_kernel = lambda: kernel  # this interpreter's only
    return _run_cells(SCENARIOS[scenario])


def _played(scenario: str, *, kernel: bool = True) -> tuple[list[str], str]:
    code = f"import json; from tests.test_loops import play; print(json.dumps(play({scenario!r}, kernel={kernel})))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    *printed, last = done.stdout.splitlines()
    return json.loads(last), "\n".join(printed)


def _everything_ran(ran: list[str], cells: int) -> bool:
    expected = {f"cell {n} neighbour {k}" for n in range(cells) for k in range(NEIGHBOURS)}
    return (
        expected | {f"cell {n} done" for n in range(cells)} == set(ran)
        and len(ran) == (NEIGHBOURS + 1) * cells
    )


def test_a_wait_in_a_later_cell_than_the_view_nests_safely() -> None:
    ran, _ = _played("a wait in a later cell")
    assert _everything_ran(ran, 3)


def test_a_wait_in_the_cell_that_made_the_view_nests_safely() -> None:
    ran, _ = _played("a wait in the cell that made the view")
    assert _everything_ran(ran, 1)


def test_a_wait_with_no_view_before_it_nests_safely() -> None:
    ran, _ = _played("a wait with no view before it")
    assert _everything_ran(ran, 2)


def test_in_a_kernel_a_loop_a_view_saw_is_reentrant_by_the_next_cell() -> None:
    assert _played("a view, then a later cell")[1] == "reentrant"


def test_outside_a_kernel_a_loop_is_left_alone_until_a_wait_nests() -> None:
    assert _played("a view, then a later cell", kernel=False)[1] == "as it was"


def test_a_test_process_is_no_kernel() -> None:
    assert loops.in_a_kernel() is False
