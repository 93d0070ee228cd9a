"""Old vs new scoring of the two simulations (``calibrate``, ``rank_set_summary``), side by side.

Per task size ``n_pos/n_neg`` (default: the README's own-data study, wine 48/130 and breast cancer
212/357, and their midpoint 130/244 where ``rank_set_summary`` simulates), ``--tasks`` simulated
tasks of two binormal models (calibration) each resampled ``--n-boot`` times, scored two ways in
one process with the heap settings of the two commands (:mod:`prspace.core.memory`), best of three,
CPU time (``time.process_time``):

* ``old``: per simulated task and model, the per-group counts of both classes
  (:func:`prspace.experiments.noise.noise_floor.group_counts`) and every metric of the batch kernel (the
  scoring before issue 33);
* ``new``: :func:`prspace.experiments.noise.sim_metrics.scored_metrics_many`: only the pair's metrics
  (AUPR, AUPRG, AUROC), untied rankings from one pass over each class, many tasks per call.

Prints both (ms per simulated task), their ratio and whether the values are identical (they
must be). Then the heap settings of :mod:`prspace.core.memory`: the same calibration at the larger size
in two child processes, without and with :func:`prspace.core.memory.keep_freed_memory`, user and system
CPU seconds side by side (system time is the page faulting the settings remove).

Run: ``python benchmarks/bench_simulations.py [--sizes 48/130,212/357] [--tasks 20] [--n-boot 200]``.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

import numpy as np

from prspace import metrics as M
from prspace.core.memory import keep_freed_memory
from prspace.experiments.noise.noise_floor import group_counts
from prspace.experiments.noise.sim_metrics import scored_metrics_many
from prspace.stats.resampling import uniform_counts

METRICS = ["aupr", "auprg", "auroc"]
CHILD = """
import sys, numpy as np
from prspace.core.memory import keep_freed_memory
from prspace.experiments.noise import noise_calibration as C
if sys.argv[1] == "1":
    keep_freed_memory()
C._simulate({n_pos}, {n_neg}, 1.47, 1.0, 1.2, 4.0, 0.5, 0.05, [("aupr", "auroc"), ("auprg", "auroc")], {tasks}, {n_boot},
            np.random.default_rng(0))
"""


def _old(scores: np.ndarray, yf: np.ndarray, w: np.ndarray) -> dict[str, np.ndarray]:
    n_s, k, _ = scores.shape
    boot = {m: np.zeros((n_s, w.shape[1], k)) for m in METRICS}
    for s in range(n_s):
        for j in range(k):
            _, group = np.unique(-scores[s, j], return_inverse=True)
            g = int(group.max()) + 1
            M.metrics_from_group_counts(np.bincount(group, yf, g), np.bincount(group, 1 - yf, g))
            res = M.metrics_from_group_counts_batch(*group_counts(w[s], group, yf, g))
            for m in METRICS:
                boot[m][s, :, j] = res[m]
    return boot


def _cpu(f, *args, reps: int = 3) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(reps):
        t0 = time.process_time()
        out = f(*args)
        best = min(best, time.process_time() - t0)
    return best, out


def _child(n_pos: int, n_neg: int, tasks: int, n_boot: int, heap: bool) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = CHILD.format(n_pos=n_pos, n_neg=n_neg, tasks=tasks, n_boot=n_boot)
    subprocess.run([sys.executable, "-c", code, "1" if heap else "0"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="48/130,130/244,212/357")
    ap.add_argument("--tasks", type=int, default=20)
    ap.add_argument("--n-boot", type=int, default=200)
    args = ap.parse_args()
    keep_freed_memory()  # both sides, as the two commands run
    sizes = [tuple(int(v) for v in s.split("/")) for s in args.sizes.split(",")]
    print(f"{'size':>9} {'old ms/task':>12} {'new ms/task':>12} {'old/new':>8}  identical")
    for n_pos, n_neg in sizes:
        rng = np.random.default_rng(0)
        y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
        yf = y.astype(np.float64)
        scores = np.stack([np.stack([1.4 * yf + rng.standard_normal(y.size),
                                     1.2 * yf + np.where(y, 4.0, 1.0) * rng.standard_normal(y.size)])
                           for _ in range(args.tasks)])
        w = np.stack([uniform_counts(y, args.n_boot, rng) for _ in range(args.tasks)])
        t_old, old = _cpu(_old, scores, yf, w)
        t_new, (_, new) = _cpu(scored_metrics_many, scores, yf, w, METRICS)
        same = all(np.array_equal(old[m], new[m]) for m in METRICS)
        print(f"{n_pos:>4}/{n_neg:<4} {1e3 * t_old / args.tasks:12.2f} {1e3 * t_new / args.tasks:12.2f} "
              f"{t_old / t_new:8.2f}  {same}")
    n_pos, n_neg = sizes[-1]
    print(f"\nheap settings, calibration _simulate at {n_pos}/{n_neg}, {args.tasks} tasks (CPU s of a child process)")
    print(f"{'':>22} {'user':>6} {'system':>7}")
    for heap in (False, True):
        u, s = _child(n_pos, n_neg, args.tasks, args.n_boot, heap)
        print(f"{'keep_freed_memory' if heap else 'glibc defaults':>22} {u:6.2f} {s:7.2f}")


if __name__ == "__main__":
    main()
