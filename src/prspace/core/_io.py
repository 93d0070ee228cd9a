"""Small file-system helpers shared by the sources and the command line."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` on success.

    A reader never sees a half-written file, and an interrupted writer leaves the
    previous version (or nothing) in place.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    # mkstemp creates the file 0600; give it the permissions an ordinary open() would.
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp_path, 0o666 & ~umask)
    try:
        yield tmp_path
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


#: Paths in messages are shortened to this many characters (start and end kept).
PATH_SHOWN = 120


def short_path(path: str | Path, limit: int = PATH_SHOWN) -> str:
    """A path for a one-line message: in full when short, else its start and end around an ellipsis."""
    text = " ".join(str(path).splitlines())
    if len(text) <= limit:
        return text
    head = limit // 3
    return f"{text[:head]}...{text[-(limit - head - 3):]} ({len(text)} characters)"


def path_error(exc: OSError, path: str | Path, fix: str) -> str:
    """One line for an OS error on ``path``: the real cause, and the fix for it."""
    shown = short_path(path)
    if exc.errno == errno.ENAMETOOLONG:
        longest = max((len(part.encode()) for part in Path(path).parts), default=0)
        return (f"path too long for the file system: {shown} (a file or folder name may have at most 255 bytes, "
                f"the longest here has {longest}; a whole path at most 4096): give a shorter path")
    if exc.errno == errno.EACCES or isinstance(exc, PermissionError):
        return f"permission denied: {shown}; {fix} that you may read and write"
    if exc.errno == errno.ENOSPC:
        return f"no space left on the device for {shown}: free disk space or {fix} on another disk"
    if exc.errno == errno.ENOTDIR:
        return f"a part of {shown} is a file, not a folder; {fix}"
    return f"{exc.strerror or type(exc).__name__}: {shown}; {fix}"
