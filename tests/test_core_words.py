"""Core is chunks -> state -> result: it writes no widget vocabulary. The Python call that answers a
wait (``view.approve(...)``, ``view.resume(...)``) is worded outside core (widget/suggest.py) and
handed to the reducer; core's own code holds no such string (its docstrings may name them)."""

from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

import mastra_notebook as mn
from mastra_notebook.core.run import Run
from mastra_notebook.core.waiting import Wait

CORE = Path(mn.__file__).parent / "core"
CALL = re.compile(r"\bview\.\w+\(")

SUSPENDED = [
    {"type": "start", "runId": "r", "from": "AGENT", "payload": {}},
    {"type": "tool-call-suspended", "runId": "r", "from": "AGENT",
     "payload": {"toolCallId": "c1", "toolName": "ask", "suspendPayload": {"q": "?"},
                 "resumeSchema": '{"type":"object","properties":{"answer":{"type":"string"}}}'}},
]  # fmt: skip


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr):
            found.add(id(node.body[0].value))
    for node in ast.walk(tree):  # an attribute's docstring: a string statement after an assignment
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for before, after in pairwise(body):
                if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(after, ast.Expr):
                    found.add(id(after.value))
    return found


def test_core_code_writes_no_widget_call() -> None:
    written = []
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if id(node) in docs or not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            if CALL.search(node.value) or node.value.startswith("view."):
                written.append(f"{path.relative_to(CORE)}:{node.lineno}: {node.value!r}")
    assert written == []


def test_the_suggester_is_handed_to_the_run() -> None:
    """Whoever makes a Run words the call: the reducer only hands it the wait's facts."""
    seen: list[Wait] = []

    def suggest(wait: Wait) -> str:
        seen.append(wait)
        return f"answer {wait.tool_call_id}"

    run = Run(suggest=suggest)
    for item in SUSPENDED:
        run.feed(item)
    assert seen == [
        Wait(
            "suspension",
            tool_call_id="c1",
            step_name=None,
            resume_schema={"type": "object", "properties": {"answer": {"type": "string"}}},
        )
    ]
    assert run.result.tool_calls[0].continue_with == "answer c1"


def test_the_package_words_the_call_by_default() -> None:
    run = Run()
    for item in SUSPENDED:
        run.feed(item)
    assert run.result.tool_calls[0].continue_with == 'view.resume({"answer": "..."}, tool_call_id="c1")'
    assert mn.collect(SUSPENDED).tool_calls[0].continue_with == run.result.tool_calls[0].continue_with
