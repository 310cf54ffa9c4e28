"""Files written whole or not at all: the one atomic write of the package (an experiment's folder,
its runs, a review's labels). A kernel that dies mid-write leaves the previous file, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, content: str | bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file beside it and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
