"""Operating points with intervals (issue 59): per task and model, partial AUROC up to ``max_fpr`` (McClish), the
sensitivity at fixed specificities and the precision at fixed recalls (:mod:`prspace.metrics.operating`), each with
a percentile interval of the stratified bootstrap (rows drawn within class, as the audit's bootstrap; whole groups
with ``--group-col`` are not supported here: the rows are drawn one by one, and the table says so).

One sort per model (its tie groups); a resample's per-group class counts are one sparse product of its draw
counts (as :mod:`prspace.stats.replicates`), never copied rows.  Point estimates are those of the exact scores.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import sparse

from prspace.core.defaults import resolve_n_boot
from prspace.core.errors import InputError
from prspace.metrics.operating import (
    partial_auroc_from_counts,
    precision_at_recall_from_counts,
    sensitivity_at_specificity_from_counts,
)
from prspace.stats.intervals import percentile_interval
from prspace.stats.resampling import StratumSampler

OPERATING_COLUMNS = ["task", "model", "measure", "at", "estimate", "lo", "hi", "level", "n_resamples", "method"]
METHOD = "percentile bootstrap within class (rows one by one)"


def _measures(max_fpr, specificity, recall) -> list[tuple[str, float, object]]:
    out = [("partial AUROC (McClish) to FPR", float(f), lambda tp, fp, f=f: partial_auroc_from_counts(tp, fp, f))
           for f in max_fpr]
    out += [("sensitivity at specificity", float(s), lambda tp, fp, s=s: sensitivity_at_specificity_from_counts(tp, fp, s))
            for s in specificity]
    out += [("precision at recall", float(r), lambda tp, fp, r=r: precision_at_recall_from_counts(tp, fp, r))
            for r in recall]
    if not out:
        raise InputError("name at least one operating point: max_fpr=, specificity= or recall=")
    return out


def operating_table(data: pd.DataFrame, *, max_fpr=(), specificity=(), recall=(), n_boot: int | None = None,
                    confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """One row per task, model, measure and value (:data:`OPERATING_COLUMNS`) from the audit's canonical frame;
    ``n_boot`` resamples (default :data:`prspace.core.defaults.N_BOOT`; the table's ``n_resamples`` column)."""
    measures = _measures(list(max_fpr), list(specificity), list(recall))
    n_boot = resolve_n_boot(n_boot)
    if n_boot < 0:
        raise InputError(f"n_boot must be 0 or more, got {n_boot}")
    rows = []
    for (task, model), g in data.groupby(["task", "model"], sort=True, observed=True):
        y = g["y"].to_numpy(bool)
        w = g["weight"].to_numpy(np.float64)
        s = g["score"].to_numpy(np.float64)
        group = np.unique(-s, return_inverse=True)[1].ravel()
        k = int(group.max()) + 1
        tp = np.bincount(group, weights=w * y, minlength=k)[None, :]
        fp = np.bincount(group, weights=w * ~y, minlength=k)[None, :]
        points = [f(tp, fp)[0] for _, _, f in measures]
        boot = np.full((n_boot, len(measures)), np.nan)
        if n_boot:
            sampler = StratumSampler(y.astype(np.int64), np.random.default_rng([seed, 59]))
            order = sampler.order
            n = order.size
            pos = sparse.csr_matrix(((w * y)[order], (group[order], np.arange(n))), shape=(k, n))
            neg = sparse.csr_matrix(((w * ~y)[order], (group[order], np.arange(n))), shape=(k, n))
            step = max(1, min(n_boot, 2_500_000 // max(n, 1)))
            for start in range(0, n_boot, step):
                c = sampler.counts_batch(min(step, n_boot - start)).T  # (n, size)
                btp, bfp = np.asarray((pos @ c).T), np.asarray((neg @ c).T)
                for j, (_, _, f) in enumerate(measures):
                    boot[start : start + c.shape[1], j] = f(btp, bfp)
            boot[~np.isfinite(boot)] = np.nan
        lo, hi = (percentile_interval(boot, confidence)[:2] if n_boot else
                  (np.full(len(measures), np.nan), np.full(len(measures), np.nan)))
        for j, (name, at, _) in enumerate(measures):
            rows.append({"task": task, "model": model, "measure": name, "at": at, "estimate": float(points[j]),
                         "lo": float(lo[j]), "hi": float(hi[j]), "level": confidence, "n_resamples": n_boot,
                         "method": METHOD if n_boot else "point estimate only"})
    return pd.DataFrame(rows, columns=OPERATING_COLUMNS)
