"""The politeness cap: at most ``n`` requests in flight to one OpenML server, over every process.

Several fetch jobs (one per task) run at once, each with its own pool of download threads; every
HTTP request any of them makes first takes one of ``n`` *slots*, an exclusive ``flock`` on one of the
files ``slot-0`` .. ``slot-{n-1}`` in a directory of the shared cache, and gives it back when its answer
has been read (the whole body, for a streamed download).  A ``flock`` belongs to the open file, so
threads of one process and separate processes exclude each other alike, and the kernel drops it when
a process dies: a killed job never keeps a slot.  A request that finds every slot taken waits
(polling, a few milliseconds, with jitter) until one is free.

The cap therefore holds for every process that talks to the server through the same cache directory
(one machine, or a cluster whose shared file system honours ``flock``, as NFSv4 does); Snakemake's
resource ``openml_connections`` (profiles/*/config.yaml) bounds how many fetch jobs run at once on top.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import random
import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

#: the longest pause between two looks for a free slot (seconds)
MAX_POLL = 0.02


class ConnectionSlots:
    """``n`` cross-process slots in ``directory``; :meth:`hold` one around each request."""

    def __init__(self, directory: Path, n: int) -> None:
        if n < 1:
            raise ValueError(f"n={n}: use at least 1 connection slot")
        self.directory = Path(directory)
        self.n = int(n)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._paths = [str(self.directory / f"slot-{i}") for i in range(self.n)]

    def _try(self) -> int | None:
        """The descriptor of a slot taken now, or None when all ``n`` are held."""
        start = random.randrange(self.n)  # noqa: S311 - spreading the looks, not secrecy
        for k in range(self.n):
            fd = os.open(self._paths[(start + k) % self.n], os.O_RDWR | os.O_CREAT, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return fd
        return None

    def acquire(self) -> int:
        """Wait for a free slot; its descriptor (give it to :meth:`release`)."""
        pause = 0.001
        while (fd := self._try()) is None:
            time.sleep(pause * (0.5 + random.random()))  # noqa: S311
            pause = min(pause * 2, MAX_POLL)
        return fd

    @staticmethod
    def release(fd: int) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """One slot for the duration of the ``with`` block."""
        fd = self.acquire()
        try:
            yield
        finally:
            self.release(fd)


_ACTIVE: list[ConnectionSlots] = []  # the cap this process's requests obey (set by cap())


def server_key(server: str) -> str:
    """A directory name for ``server``: its host and a hash of its URL (the cache's and the slots')."""
    u = urllib.parse.urlparse(server)
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", u.netloc) + "-" + hashlib.sha1(server.rstrip("/").encode()).hexdigest()[:8]


def cap(directory: Path, n: int) -> None:
    """From now on every :func:`slot` of this process takes one of ``n`` slots in ``directory``."""
    _ACTIVE[:] = [ConnectionSlots(directory, n)]


def slot() -> contextlib.AbstractContextManager[None]:
    """One connection slot of the cap set by :func:`cap` (none before it is set)."""
    return _ACTIVE[0].hold() if _ACTIVE else contextlib.nullcontext()
