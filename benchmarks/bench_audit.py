"""Audit intervals: prspace's counts bootstrap vs a plain loop of scipy.stats.bootstrap, side by side.

Makes ``--models`` (default 5) models' scores on ``--rows`` (default 10^6) test rows (20%
positives, 10 folds, scores rounded to 4 decimals so there are ties), then times

* prspace: :func:`prspace.audit.inference.audit_blocks.blocks` + :func:`prspace.audit.inference.uncertainty.uncertainty`
  with ``--resamples`` (default 1000) stratified resamples: percentile intervals of AUROC, AP, AUPR,
  AUCNPR and AUPRG for every model, DeLong for AUROC, and the paired tests of every pair of
  models on every metric (one sort per model; each resample is a vector of counts);
* the plain way: for each model, ``scipy.stats.bootstrap`` (paired, percentile) over
  ``sklearn.metrics.roc_auc_score`` and ``average_precision_score`` (only two metrics, no
  paired tests).  scipy's side runs ``--scipy-resamples`` (default 5) resamples per model and
  metric and is extrapolated linearly to ``--resamples`` (it resamples rows and re-sorts each
  time, so its cost is linear in the number of resamples); the printed line says so.

    python benchmarks/bench_audit.py [--rows 1000000] [--models 5] [--resamples 1000] [--scipy-resamples 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd


def make_data(rows: int, models: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.2
    fold = np.arange(rows) % 10
    parts = []
    for k in range(models):
        score = np.round(y * (0.5 + 0.2 * k) + rng.normal(size=rows), 4)
        parts.append(pd.DataFrame({"task": "all", "model": f"m{k}", "fold": fold.astype(str),
                                   "row": np.arange(rows).astype(str), "y": y, "score": score,
                                   "weight": 1.0}))
    return pd.concat(parts, ignore_index=True)


def run_prspace(data: pd.DataFrame, resamples: int) -> float:
    from prspace.audit.inference.audit_blocks import blocks
    from prspace.audit.inference.tables import pooled_metrics
    from prspace.audit.inference.uncertainty import uncertainty

    t = time.perf_counter()
    pooled = pooled_metrics(data)
    bl, _, _ = blocks(data)
    iv, cmp = uncertainty(bl, pooled, n_boot=resamples, seed=0)
    elapsed = time.perf_counter() - t
    assert len(iv) and len(cmp)
    return elapsed


def run_scipy(data: pd.DataFrame, resamples: int) -> float:
    from scipy.stats import bootstrap
    from sklearn.metrics import average_precision_score, roc_auc_score

    t = time.perf_counter()
    for _, g in data.groupby("model"):
        y, s = g["y"].to_numpy(), g["score"].to_numpy()
        for metric in (roc_auc_score, average_precision_score):
            bootstrap((y, s), metric, paired=True, vectorized=False, n_resamples=resamples,
                      method="percentile", random_state=np.random.default_rng(0))
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--models", type=int, default=5)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--scipy-resamples", type=int, default=5)
    args = ap.parse_args()
    data = make_data(args.rows, args.models)
    ours = run_prspace(data, args.resamples)
    theirs_measured = run_scipy(data, args.scipy_resamples)
    theirs = theirs_measured * args.resamples / args.scipy_resamples
    print(f"{args.models} models x {args.rows} rows, {args.resamples} resamples")
    print(f"prspace counts bootstrap (5 metrics + DeLong + paired tests): {ours:.1f} s")
    print(f"scipy.stats.bootstrap over sklearn (AUROC, AP only): {theirs_measured:.1f} s for "
          f"{args.scipy_resamples} resamples, extrapolated linearly to {args.resamples}: {theirs:.1f} s")
    print(f"ratio scipy/prspace: {theirs / ours:.1f}x")


if __name__ == "__main__":
    main()
