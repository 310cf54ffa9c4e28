"""Files written whole or not at all: the one atomic write of the package (an experiment's folder,
its runs, a review's labels). A kernel that dies mid-write leaves the previous file, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _read_umask() -> int:
    mask = os.umask(0)  # read by setting it, the only way the standard library offers: once, at import,
    os.umask(mask)  # not per write (another thread creating a file meanwhile would get mode 0o666)
    return mask


_UMASK = _read_umask()


def write_atomically(path: Path, content: str | bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file beside it and ``os.replace``. The file
    gets the permissions a plain ``open`` would give it (the umask's), not mkstemp's owner-only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            os.fchmod(file.fileno(), 0o666 & ~_UMASK)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
