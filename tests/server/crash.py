"""A kernel killed mid-experiment, for real: an experiment of the bundled server's ``dynamic`` agent
runs in a Python process of its own, writing each run into its folder, and that process is killed
(SIGKILL: nothing of Python's shutdown runs) once ``after`` runs have ended. What it leaves is what
a crash leaves: runs written, runs begun and never ended, runs never begun."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import wait_until

KERNEL = """\
import json, sys
import mastra_notebook as mn
url, folder, inputs, variants = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
exp = mn.MastraClient(url).agent("dynamic").experiment(
    inputs, variants, scorers=["answer-length"], view=False, folder=folder, concurrency=2, name=sys.argv[5]
)
exp.wait(600)
"""


def finished_in(folder: Path) -> set[str]:
    """The runs the folder says finished (a file replaced while it is read is read next time)."""
    done = set()
    for path in (folder / "runs").glob("*.json"):
        try:
            if json.loads(path.read_text()).get("status") == "finished":
                done.add(path.stem)
        except (OSError, ValueError):
            continue
    return done


def killed_midway(
    url: str, folder: Path, inputs: list[str], variants: dict[str, Any], *, after: int, name: str = "killed"
) -> set[str]:
    """Run the experiment in a kernel of its own and kill it once ``after`` of its runs have ended;
    the runs its folder then says finished. Fails when the kernel ended before it was killed."""
    kernel = subprocess.Popen(
        [sys.executable, "-c", KERNEL, url, str(folder), json.dumps(inputs), json.dumps(variants), name]
    )
    try:
        wait_until(lambda: len(finished_in(folder)) >= after or kernel.poll() is not None,
                   f"{after} runs ended", timeout=300, every=0.02)  # fmt: skip
    finally:
        kernel.kill()
        kernel.wait(30)
    assert kernel.returncode == -9, "the kernel ended before it was killed: nothing was interrupted"
    return finished_in(folder)
