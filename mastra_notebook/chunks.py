"""Chunk-level names: one Mastra chunk, parsed, and the readers of raw streams.

Most notebooks never need these: ``mn.view``, ``mn.collect`` and ``mn.Run`` take raw sources and
chunks as they are. They are for code that inspects or builds chunks itself.

``CHUNK_TYPES`` and ``FROM`` say in one line what each chunk type and each ``from`` value means (the
inspector shows the same line as the title of a chunk's type and from):
"""

from __future__ import annotations

from .core.chunks import Chunk, InvalidChunk, UnknownChunk, parse_chunk
from .core.glossary import CHUNK_TYPES, FROM, glossary_text
from .core.ingest import aread_chunks, read_chunks

__doc__ = f"{__doc__}\n{glossary_text()}\n"  # each type and sender in one line (core/glossary.py)

__all__ = [
    "CHUNK_TYPES",
    "FROM",
    "Chunk",
    "InvalidChunk",
    "UnknownChunk",
    "aread_chunks",
    "parse_chunk",
    "read_chunks",
]
