"""Chunk-level names: one Mastra chunk, parsed, and the readers of raw streams.

Most notebooks never need these: ``mn.view``, ``mn.collect`` and ``mn.Run`` take raw sources and
chunks as they are. They are for code that inspects or builds chunks itself.
"""

from __future__ import annotations

from .core.chunks import Chunk, InvalidChunk, UnknownChunk, parse_chunk
from .core.ingest import aread_chunks, read_chunks

__all__ = ["Chunk", "InvalidChunk", "UnknownChunk", "aread_chunks", "parse_chunk", "read_chunks"]
