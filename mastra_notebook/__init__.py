"""Watch, understand and keep Mastra agent and workflow runs in Jupyter."""

from __future__ import annotations

from importlib import metadata as _metadata
from typing import Any

from .core.chunks import Chunk, InvalidChunk, UnknownChunk, parse_chunk
from .core.ingest import aread_chunks, collect, read_chunks
from .core.result import Decision, RunResult, ToolCall, Usage
from .core.run import Run

try:  # one source, js/package.json, written into the installed metadata by the build
    __version__ = _metadata.version("mastra-notebook")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

_LAZY = {  # widget and HTTP layers load on first use: `import mastra_notebook` stays light
    "StreamView": "widget.streamview",
    "view": "widget.streamview",
    "MastraClient": "client.mastra",
    "tool": "client.tools",
    "replay": "widget.replay",
    "ReplayView": "widget.replay",
    "compare": "analysis.compare",
    "to_dataframe": "analysis.dataframe",
    "Recording": "core.recording",
}


def __dir__() -> list[str]:
    """The public API, the lazily imported names included (tab completion, ``dir(mn)``)."""
    return sorted({*__all__, "__version__", *(n for n in globals() if n.startswith("__"))})


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mastra_notebook' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f".{module}", __name__), name)


__all__ = [
    "Chunk",
    "Decision",
    "InvalidChunk",
    "MastraClient",
    "Recording",
    "ReplayView",
    "Run",
    "RunResult",
    "StreamView",
    "ToolCall",
    "UnknownChunk",
    "Usage",
    "aread_chunks",
    "collect",
    "compare",
    "parse_chunk",
    "read_chunks",
    "replay",
    "to_dataframe",
    "tool",
    "view",
]
