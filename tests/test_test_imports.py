"""Tests share their helpers through helper modules (tests/helpers.py, tests/e2e/helpers.py, ...), never
by importing another test module (issue 18): a test module is free to change without breaking others.
An AST walk over tests/ (in a process of its own), no import of anything."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def imported_modules(source: str, package: list[str]) -> Iterator[tuple[int, str]]:
    """``(line, dotted module)`` of each import in ``source``, relative ones resolved against ``package``
    (``["tests", "e2e"]`` for a file in tests/e2e/)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield node.lineno, module
            for alias in node.names:  # `from tests.e2e import test_x` names a module too
                yield node.lineno, f"{module}.{alias.name}"


def walk() -> list[tuple[str, int, str]]:
    """``(file, line, module)`` of every import in tests/, parsed in this process."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        package = ["tests", *path.relative_to(TESTS).parent.parts]
        for line, module in imported_modules(path.read_text(), package):
            found.append((str(path.relative_to(TESTS.parent)), line, module))
    return found


def every_import() -> list[tuple[str, int, str]]:
    """``walk()`` in a process of its own (this file run as a script). CPython 3.11 keeps the AST
    builder's recursion count per interpreter, not per thread: a thread another test left running
    that parses at the same moment (a traceback's carets are found with ast.parse) fails the walk
    with "AST constructor recursion depth mismatch" (seen twice in the full suite, issue 30)."""
    done = subprocess.run([sys.executable, __file__], capture_output=True, text=True, timeout=120, check=True)
    return [(path, line, module) for path, line, module in json.loads(done.stdout)]


def test_no_test_module_imports_another() -> None:
    found = [
        f"{path}:{line} imports {module}"
        for path, line, module in every_import()
        if module.startswith("tests.") and module.rsplit(".", 1)[-1].startswith("test_")
    ]
    assert found == [], "move what they share into a helper module:\n" + "\n".join(found)


def test_the_e2e_tests_take_their_helpers_from_one_module() -> None:
    """tests/e2e/conftest.py holds only fixtures; what the e2e tests share is in tests/e2e/helpers.py."""
    found = [
        f"{path}:{line} imports {module}"
        for path, line, module in every_import()
        if module.startswith("tests.e2e.conftest")
    ]
    assert found == []


def test_the_walk_sees_relative_and_absolute_imports() -> None:
    """The checks above would pass on a walk that saw nothing: it resolves every form of import."""
    source = "from .test_live import x\nfrom tests.e2e import test_demo\nimport tests.test_run\nfrom ..helpers import y\n"
    modules = {module for _, module in imported_modules(source, ["tests", "e2e"])}
    assert {"tests.e2e.test_live", "tests.e2e.test_demo", "tests.test_run", "tests.helpers.y"} <= modules


if __name__ == "__main__":  # every_import() runs this file so
    print(json.dumps(walk()))
