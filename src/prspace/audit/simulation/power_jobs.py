"""``prspace power``'s metrics answered side by side: :func:`run_jobs` runs independent computations in two
processes (forked, so nothing is pickled but their results) where the machine has two cores, else one after the
other.  Each computation seeds its own draws (every simulated test set of :mod:`prspace.audit.simulation.audit_power`
is drawn from ``default_rng(seed)`` where its power is computed), so the answers are the same bits in either way;
only the order of the progress lines differs."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")

#: Processes at most (``prspace power`` on the 2-core machines it is benchmarked on).
WORKERS = 2
#: The jobs of the running :func:`run_jobs`, read by the forked workers by index.
_JOBS: list[Callable[[], object]] = []


def _run(i: int) -> object:
    return _JOBS[i]()


def run_jobs(jobs: list[Callable[[], T]], workers: int | None = None) -> list[T]:
    """Each job's result, in order: in ``min(workers, cores)`` (default :data:`WORKERS`) forked processes when there
    are two jobs or more, the platform forks, this process runs one thread (a fork copies no other thread, and a lock
    one held would stay held: under a test runner's threads the jobs run here) and it is not itself running a job of
    this function (jobs within jobs run one after the other); else one after the other here.  A job's exception is
    raised here."""
    global _JOBS
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = min(WORKERS if workers is None else workers, cores, len(jobs))
    if n < 2 or _JOBS or "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        return [job() for job in jobs]
    _JOBS = list(jobs)
    try:
        with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(_run, range(len(jobs))))  # type: ignore[arg-type]
    finally:
        _JOBS = []
