"""Metrics of simulated models on their rows and on resamples of them: the cost centre of the simulations.

:func:`scored_metrics` scores one simulated task's models; :func:`scored_metrics_many` does the
same for ``S`` simulated tasks of one size at once, bit for bit equal to ``S`` calls of
:func:`scored_metrics` (the tests check it): every model's full-row metrics from its tie groups
(:func:`prspace.metrics.metrics_from_group_counts`), its resamples' metrics from the batch kernel
with only the ``metrics`` asked, the untied rankings of all ``S`` tasks in one call
(:func:`prspace.metrics.metrics_from_untied_counts_batch`: integer counts, exact in any order),
tied ones (not expected from continuous scores) one by one through the per-group counts.  Used by
:mod:`prspace.experiments.noise.noise_calibration` and :mod:`prspace.experiments.noise.rank_sets`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from prspace import metrics as M
from prspace.experiments.noise.noise_floor import group_counts

#: largest resamples x rows x tasks of one stacked kernel call (float64: 2 MB per array). Measured
#: (benchmarks/bench_simulations.py): stacking saves nothing over one task per call once the
#: arrays outgrow the CPU caches, and costs up to 8% at 32 MB; keep them small.
CHUNK_CELLS = 1 << 18


def scored_metrics(scores: Sequence[np.ndarray], yf: np.ndarray, counts: np.ndarray, metrics: Sequence[str],
                   ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Each metric of every model's ``scores`` on the rows' labels ``yf`` (1.0 positive) and on the
    resamples ``counts`` (B x n integer weights, one row per resample): ``full[m]`` shape (k,),
    ``boot[m]`` shape (B, k); one sort per model (its tie groups), the resamples through the batch
    kernel, only for ``metrics``."""
    full, boot = scored_metrics_many(np.asarray(scores, dtype=np.float64)[None], yf, counts, metrics)
    return {m: v[0] for m, v in full.items()}, {m: v[0] for m, v in boot.items()}


def chunk_size(n_boot: int, n: int) -> int:
    """Simulated tasks per call of :func:`scored_metrics_many` that keep its arrays near :data:`CHUNK_CELLS`."""
    return max(1, CHUNK_CELLS // max(1, n_boot * n))


def scored_metrics_many(scores: np.ndarray, yf: np.ndarray, counts: np.ndarray, metrics: Sequence[str],
                        ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """:func:`scored_metrics` of ``S`` simulated tasks on the same rows: ``scores`` ``(S, k, n)``,
    ``counts`` ``(S, B, n)`` (each task its resamples) or ``(B, n)`` (shared, e.g. jackknife
    weights); returns ``full[m]`` ``(S, k)`` and ``boot[m]`` ``(S, B, k)``."""
    n_s, k, n = scores.shape
    w = counts if counts.ndim == 3 else np.broadcast_to(counts, (n_s, *counts.shape))
    n_boot = w.shape[1]
    full = {m: np.zeros((n_s, k)) for m in metrics}
    boot = {m: np.zeros((n_s, n_boot, k)) for m in metrics}
    for j in range(k):
        orders = np.empty((n_s, n), dtype=np.intp)
        untied = []
        for s in range(n_s):
            _, first, group = np.unique(-scores[s, j], return_index=True, return_inverse=True)
            g = int(group.max()) + 1
            res = M.metrics_from_group_counts(np.bincount(group, yf, g), np.bincount(group, 1 - yf, g), metrics)
            for m in metrics:
                full[m][s, j] = res[m]
            if g == n:  # no ties: first[i] is the row of the i-th highest score
                orders[s] = first
                untied.append(s)
            else:
                res_b = M.metrics_from_group_counts_batch(*group_counts(np.asarray(w[s]), group, yf, g), metrics)
                for m in metrics:
                    boot[m][s, :, j] = res_b[m]
        step = chunk_size(n_boot, n)
        for c in range(0, len(untied), step):
            idx = np.asarray(untied[c:c + step])
            res_b = M.metrics_from_untied_counts_batch(w[idx], yf, orders[idx], metrics)
            for m in metrics:
                boot[m][idx, :, j] = res_b[m]
    return full, boot
