"""Rank uncertainty of the audit: 30 models x 10,000 rows x 2,000 resamples, against a roc_auc_score loop.

Makes ``--models`` (default 30) models' scores on ``--rows`` (default 10,000) shared test rows
(``--pi`` positives, default 0.1; scores rounded to 3 decimals, so there are ties), then times,
side by side in one run:

* prspace: the audit's paired count bootstrap (:func:`prspace.stats.replicates.bootstrap`:
  replicates of AUROC, AP, AUPR, AUCNPR and AUPRG of every model on ``--resamples`` shared
  stratified resamples), the confidence sets for ranks (:func:`prspace.stats.ranksets.rank_sets`, every
  metric) and the comparisons of all pairs (:func:`prspace.stats.pairwise.bootstrap_pairs` and, on the
  stratified jackknife :func:`prspace.stats.replicates.jackknife`, :func:`prspace.stats.pairwise.jackknife_pairs`
  for every metric, :func:`prspace.stats.pairwise.delong_pairs` for AUROC);
* the plain way: a loop of ``models x resamples`` calls of ``sklearn.metrics.roc_auc_score``
  on the resampled rows (one metric only, no rank sets, no tests).  ``--sklearn-resamples``
  (default: all) runs fewer resamples and extrapolates linearly (each call re-sorts, so the cost
  is linear in the number of calls); the printed line says so.

Both wall-clock and CPU time (``time.process_time``) are printed, with the load average: on a
shared machine the CPU time is the steadier number.

    python benchmarks/bench_rank_uncertainty.py [--rows 10000] [--models 30] [--resamples 2000] [--pi 0.1]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np


def make_block(rows: int, models: int, pi: float, seed: int = 0):
    from prspace.stats.replicates import Block

    rng = np.random.default_rng(seed)
    y = rng.random(rows) < pi
    scores = np.round(y * np.linspace(0.5, 1.5, models)[:, None] + rng.normal(size=(models, rows)), 3)
    groups = [np.unique(-s, return_inverse=True)[1].ravel() for s in scores]
    return Block("bench", [f"m{k}" for k in range(models)], y, y.astype(np.int64), np.ones(rows), groups,
                 list(scores))


def run_prspace(block, resamples: int, seed: int = 0) -> tuple[float, float]:
    from prspace import metrics as M
    from prspace.stats.delong import delong
    from prspace.stats.pairwise import bootstrap_pairs, delong_pairs, jackknife_pairs
    from prspace.stats.ranksets import rank_sets
    from prspace.stats.replicates import BOOT_METRICS, bootstrap, jackknife

    t0, c0 = time.perf_counter(), time.process_time()
    points = np.array([[M.all_metrics(block.y, s)[m] for m in BOOT_METRICS] for s in block.scores])
    reps = bootstrap(block, n_boot=resamples, rng=np.random.default_rng(seed))
    jack, strata = jackknife(block, rng=np.random.default_rng(seed))
    for c in range(len(BOOT_METRICS)):
        rank_sets(points[:, c], reps[:, :, c])
        bootstrap_pairs(points[:, c], reps[:, :, c])
        jackknife_pairs(points[:, c], jack[:, :, c], strata)
    est, cov = delong(block.y, np.vstack(block.scores))
    delong_pairs(est, cov)
    return time.perf_counter() - t0, time.process_time() - c0


def run_sklearn(block, resamples: int, seed: int = 0) -> tuple[float, float]:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(seed)
    n = block.y.size
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(resamples):
        idx = rng.integers(0, n, n)
        yb = block.y[idx]
        for s in block.scores:
            roc_auc_score(yb, s[idx])
    return time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--models", type=int, default=30)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--pi", type=float, default=0.1)
    ap.add_argument("--sklearn-resamples", type=int, default=0, help="0: all resamples")
    args = ap.parse_args()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    block = make_block(args.rows, args.models, args.pi)
    ours, ours_cpu = run_prspace(block, args.resamples)
    sk_n = args.sklearn_resamples or args.resamples
    sk, sk_cpu = (t * args.resamples / sk_n for t in run_sklearn(block, sk_n))
    note = "" if sk_n == args.resamples else f" (extrapolated from {sk_n} resamples)"
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"numpy {np.__version__}")
    print(f"{args.models} models x {args.rows} rows (pi = {args.pi}) x {args.resamples} resamples")
    print(f"load average before the run: {load}")
    print(f"prspace (replicates of 5 metrics + rank sets + all-pairs comparisons incl. jackknife): {ours:.2f} s wall, "
          f"{ours_cpu:.2f} s CPU")
    print(f"sklearn roc_auc_score loop ({args.models} x {args.resamples} calls, AUROC only): {sk:.2f} s wall, "
          f"{sk_cpu:.2f} s CPU{note}")
    print(f"ratio prspace / sklearn loop: {ours / sk:.3f} wall, {ours_cpu / sk_cpu:.3f} CPU")


if __name__ == "__main__":
    main()
