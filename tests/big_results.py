"""A huge plain JSON tool result, made in the test (never committed), for the tests of bounded results
(tests/test_bounded_results.py) and their pictures (tests/e2e/test_bounded_result.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import mastra_notebook as mn

FIXTURES = Path(__file__).parent / "fixtures"


def huge() -> dict[str, Any]:
    """About 50 MB of JSON, in a little memory: 5,000 rows holding one 10 kB string."""
    text = "x" * 10_000
    return {"rows": [{"id": i, "text": text} for i in range(5_000)]}


def with_result(result: Any) -> list[dict[str, Any]]:
    """The tool-call fixture's chunks, its getWeather call returning ``result``."""
    chunks = [json.loads(line) for line in (FIXTURES / "tool-call.jsonl").read_text().splitlines() if line]
    for chunk in chunks:
        if chunk["type"] == "tool-result":
            chunk["payload"]["result"] = result
    return chunks


def fed(chunks: list[dict[str, Any]]) -> mn.Run:
    run = mn.Run()
    for chunk in chunks:
        run.feed(chunk)
    run.end()
    return run
