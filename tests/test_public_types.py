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
        "mastra_notebook.client.agents.Agent",
        "mastra_notebook.core.result.RunResult",
    ], out
    assert "error:" not in out.replace("Revealed type", ""), out


def test_the_result_types_are_exported_together() -> None:
    for name in ("RunResult", "Step", "ToolCall", "Usage", "Cost", "Timing", "StepTiming", "ErrorInfo"):
        assert name in mn.results.__all__
        assert getattr(mn.results, name).__module__.startswith("mastra_notebook.core.")
        assert getattr(mn, name) is getattr(mn.results, name)  # older notebooks still find them


# The top level before issue 29 (item 9): every name stays importable from mastra_notebook.
BEFORE = ["Cost", "Decision", "ErrorInfo", "Experiment", "Feedback", "MastraClient", "MastraError",
          "Recording", "ReplayView", "Run", "RunResult", "Score", "Span", "Step", "StepTiming",
          "StreamView", "Timing", "ToolCall", "Trace", "TraceUnavailable", "Tripwire", "Usage", "collect",
          "compare", "load_experiment", "read_chunks", "renderer", "replay", "scorer", "to_dataframe",
          "tool", "view", "Chunk", "InvalidChunk", "UnknownChunk", "parse_chunk", "aread_chunks"]  # fmt: skip
# DESIGN.md's contract, as mn.<name>
CONTRACT = ["Run", "read_chunks", "collect", "view", "MastraClient", "scorer", "load_experiment", "compare",
            "tool", "renderer", "replay", "RunResult", "TraceUnavailable"]  # fmt: skip


def test_a_top_level_users_can_hold_in_their_head() -> None:
    verbs = [
        name for name in mn.__all__ if name not in ("results", "chunks", "MastraError", "TraceUnavailable")
    ]
    # the twelve, stream (view's twin for a plain script), export_otel (runs where the team looks) and
    # read_otel (such an export read back, every run of it)
    assert len(verbs) == 15, verbs
    assert {"results", "chunks"} <= set(mn.__all__)
    for name in BEFORE + CONTRACT:
        assert getattr(mn, name) is not None, name
        exec(f"from mastra_notebook import {name}", {})  # a plain import finds it too
    moved = set(BEFORE) - set(mn.__all__)
    assert moved <= set(mn.results.__all__) | set(mn.chunks.__all__)
    assert not moved & set(dir(mn))  # not offered by tab completion: the short list is


def test_the_objects_calls_give_back_are_in_results() -> None:
    from mastra_notebook.client.chat import Chat
    from mastra_notebook.client.datasets import Dataset
    from mastra_notebook.client.mastra import Agent
    from mastra_notebook.runs.experiment import Experiment
    from mastra_notebook.widget.gallery import Gallery
    from mastra_notebook.widget.streamview import StreamView

    for cls in (Agent, Chat, Dataset, Experiment, Gallery, StreamView):
        assert getattr(mn.results, cls.__name__) is cls
    assert mn.results.DatasetExperiment is Experiment  # the old name still imports: one experiment type
    for name in mn.results.__all__:
        assert getattr(mn.results, name).__name__ == name
        assert name in (mn.results.__doc__ or ""), f"mn.results' docstring does not say {name}"


def test_help_of_the_package_names_its_top_level() -> None:
    import pydoc

    page = pydoc.render_doc(mn, renderer=pydoc.plaintext)
    for name in mn.__all__:
        assert name in (mn.__doc__ or ""), f"the package's docstring does not say {name}"
    assert "mn.results" in page
    assert "mn.chunks" in page


def test_chunk_level_names_live_in_their_submodule() -> None:
    from mastra_notebook import chunks

    for name in chunks.__all__:
        if name != "read_chunks":  # a reader users call, kept at the top level (DESIGN.md's contract)
            assert name not in mn.__all__
        assert getattr(mn, name) is getattr(chunks, name)  # older notebooks still find them
