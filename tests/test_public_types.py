"""The public API as a type checker sees it: a user's snippet, checked by mypy --strict, gets the real
types of the lazily imported names (not Any), and the result types are exported together."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mastra_notebook as mn

SNIPPET = """
import mastra_notebook as mn

view = mn.view("run.jsonl")
result = view.wait()
reveal_type(view)
reveal_type(result)
reveal_type(result.steps[0])
reveal_type(result.timing)
reveal_type(result.cost)
reveal_type(mn.MastraClient().agent("weather"))
reveal_type(mn.collect(b""))
tokens: int = result.usage.total_tokens if result.usage and result.usage.total_tokens else 0
"""


@pytest.mark.skipif(
    shutil.which("mypy", path=str(Path(sys.executable).parent)) is None, reason="mypy (dev group)"
)
def test_a_users_snippet_sees_the_real_types(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(SNIPPET)
    mypy = str(Path(sys.executable).parent / "mypy")
    out = subprocess.run(
        [mypy, "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(snippet)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    revealed = [
        line.split("Revealed type is ", 1)[1].strip('"')
        for line in out.splitlines()
        if "Revealed type" in line
    ]
    assert revealed == [
        "mastra_notebook.widget.streamview.StreamView",
        "mastra_notebook.core.result.RunResult",
        "mastra_notebook.core.result.Step",
        "mastra_notebook.core.timing.Timing",
        "mastra_notebook.core.cost.Cost",
        "mastra_notebook.client.mastra.Agent",
        "mastra_notebook.core.result.RunResult",
    ], out
    assert "error:" not in out.replace("Revealed type", ""), out


def test_the_result_types_are_exported_together() -> None:
    for name in ("RunResult", "Step", "ToolCall", "Usage", "Cost", "Timing", "StepTiming", "ErrorInfo"):
        assert name in mn.__all__
        assert getattr(mn, name).__module__.startswith("mastra_notebook.core.")


def test_chunk_level_names_live_in_their_submodule() -> None:
    from mastra_notebook import chunks

    for name in chunks.__all__:
        if name != "read_chunks":  # a reader users call, kept at the top level (DESIGN.md's contract)
            assert name not in mn.__all__
        assert getattr(mn, name) is getattr(chunks, name)  # older notebooks still find them
