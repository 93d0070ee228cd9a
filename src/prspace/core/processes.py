"""Work shared between processes: one home for the steps and commands that take ``--jobs``.

* :func:`ordered_map`: a function over items in up to ``jobs`` spawned processes, the results in the items'
  order (Boyd's fold-skew runs, the per-task loops of a study: :func:`prspace.core.contracts.over_tasks`);
* :class:`Beside`: calls that run in spawned processes while the caller goes on (the verdict step's
  sensitivity variants beside its evidence).

Processes are spawned, not forked: a worker starts from a clean interpreter (no copy of the parent's BLAS
threads or locks) and imports what its function needs.  Each call seeds its own draws in the callers, so every
result is the same bytes whatever the number of processes (each caller's tests compare 1 and several).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

__all__ = ["Beside", "ordered_map", "spawn_pool"]

T = TypeVar("T")
R = TypeVar("R")


def spawn_pool(n: int) -> ProcessPoolExecutor:
    """A pool of ``n`` spawned processes."""
    return ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"))


def ordered_map(fn: Callable[[T], R], items: Iterable[T], *, jobs: int = 1) -> Iterator[R]:
    """``fn`` of every item, in the items' order: here, one after the other (``jobs`` <= 1 or one item), else in
    up to ``jobs`` spawned processes, an item at a time to whichever is free (``fn`` and the items must pickle: a
    module-level function or a ``functools.partial`` of one).  Lazy: each result as soon as it and those before
    it are done."""
    items = list(items)
    n = min(jobs, len(items))
    if n <= 1:
        yield from map(fn, items)
        return
    with spawn_pool(n) as pool:
        yield from pool.map(fn, items)


class Beside:
    """Calls run in ``n`` spawned processes beside this one (``n`` < 1: here, when their result is
    asked for). ``submit(fn, *args, **kw)`` returns a function that gives the call's result."""

    def __init__(self, n: int) -> None:
        self.pool = spawn_pool(n) if n >= 1 else None

    def __enter__(self) -> Beside:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def submit(self, fn: Callable[..., T], *args: object, **kw: object) -> Callable[[], T]:
        if self.pool is None:
            return lambda: fn(*args, **kw)
        return self.pool.submit(fn, *args, **kw).result
