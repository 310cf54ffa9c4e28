"""Each chunk type and each ``from`` value has a one-line explanation (core/glossary.py), in
``help(mn.chunks)`` and in the inspector's titles (the generated contract carries them)."""

from __future__ import annotations

import pydoc
import re
from pathlib import Path

import orjson

import mastra_notebook as mn
from mastra_notebook.core.chunks import KNOWN_TYPES
from mastra_notebook.core.glossary import CHUNK_TYPES, FROM

FIXTURES = Path(__file__).parent / "fixtures"
GENERATED = Path(__file__).parents[1] / "js" / "src" / "contract.generated.ts"


def test_every_chunk_type_the_reader_knows_has_one_line() -> None:
    assert sorted(KNOWN_TYPES - set(CHUNK_TYPES)) == []
    assert all(line and "\n" not in line for line in [*CHUNK_TYPES.values(), *FROM.values()])


def test_every_from_value_in_the_recordings_has_one_line() -> None:
    seen = {
        str(chunk["from"])
        for path in FIXTURES.rglob("*.jsonl")
        for line in path.read_bytes().splitlines()
        if line.strip().startswith(b"{")
        for chunk in [orjson.loads(line)]
        if isinstance(chunk, dict) and isinstance(chunk.get("from"), str)
    }
    assert seen
    assert sorted(seen - set(FROM)) == []


def test_help_of_mn_chunks_says_each_line() -> None:
    shown = " ".join(pydoc.render_doc(mn.chunks, renderer=pydoc.plaintext).split())
    for name, line in [*CHUNK_TYPES.items(), *FROM.items()]:
        assert f"{name} {' '.join(line.split())}" in shown, name


def test_the_inspector_reads_the_same_lines() -> None:
    generated = GENERATED.read_text()
    for name, line in [*CHUNK_TYPES.items(), *FROM.items()]:
        assert re.search(rf'"{re.escape(name)}": {re.escape(orjson.dumps(line).decode())},', generated), name
