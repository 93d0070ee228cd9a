"""Simultaneous confidence sets for ranks from paired bootstrap replicates.

The decision rule (stated once here, and in ``docs/audit.md``, section "Confidence sets
for ranks"):

Given k models' point estimates ``m_i`` of a metric (higher is better) and their
replicates ``m*_bi`` from ONE shared set of B paired resamples of the test rows,

1. every pair's difference ``d_ij = m_i - m_j`` and its replicates ``d*_bij``;
   ``se_ij`` = the standard deviation of ``d*_bij`` over resamples (studentised);
2. the max statistic ``T*_b = max_{i<j} |d*_bij - d_ij| / se_ij`` over all pairs with
   ``se_ij > 0``, and ``c`` its ``confidence`` quantile;
3. the simultaneous interval ``d_ij +- c se_ij`` for every pair (family-wise coverage
   ``confidence`` over all k(k-1)/2 pairs: Romano and Wolf 2005's bootstrap max-T, single
   step); a pair with ``se_ij = 0`` (the difference never varies) is separated iff
   ``d_ij != 0``;
4. i is *surely better* than j iff the interval's lower bound ``d_ij - c se_ij > 0``;
5. ``rank_lo(i) = 1 + #{j surely better than i}``, ``rank_hi(i) = k - #{j surely worse
   than i}``; ``plausible_best = (rank_lo == 1)``.

The k rank intervals hold simultaneously with probability at least ``confidence``
(asymptotically), because they follow from the pairwise intervals, which do (Mogstad,
Romano, Shaikh and Wilhelm 2024, REStud, "Inference for ranks with applications to
mobility across neighbourhoods and academic achievement across countries"; Neuhof and
Benjamini 2026).  The plausible-best set ``{i: rank_lo(i) = 1}`` therefore contains the
truly best model with probability at least ``confidence``.

Resamples in which any model's replicate is NaN (a one-class resample) are dropped.
"""

from __future__ import annotations

import numpy as np

__all__ = ["RankSets", "rank_sets"]


class RankSets:
    """Result of :func:`rank_sets`: per model ``rank_lo``, ``rank_hi``, ``plausible_best``;
    per pair ``lo``, ``hi`` (k x k, simultaneous bounds on ``m_i - m_j``), the critical value
    ``c`` and the number of resamples used."""

    __slots__ = ("rank_lo", "rank_hi", "plausible_best", "lo", "hi", "critical", "n_used")

    def __init__(self, rank_lo, rank_hi, plausible_best, lo, hi, critical, n_used):
        self.rank_lo, self.rank_hi, self.plausible_best = rank_lo, rank_hi, plausible_best
        self.lo, self.hi, self.critical, self.n_used = lo, hi, critical, n_used

    @property
    def better(self) -> np.ndarray:
        """``better[i, j]``: i is surely better than j."""
        return self.lo > 0


def rank_sets(points: np.ndarray, replicates: np.ndarray, confidence: float = 0.95) -> RankSets:
    """Confidence sets for the ranks of k models (module docstring).

    ``points``: shape (k,); ``replicates``: shape (B, k), row b = every model's value on
    the b-th shared resample.  Higher values rank first (rank 1 = best).
    """
    points = np.asarray(points, dtype=np.float64)
    reps = np.asarray(replicates, dtype=np.float64)
    k = points.shape[0]
    if reps.ndim != 2 or reps.shape[1] != k:
        raise ValueError(f"replicates must have shape (B, {k}), got {reps.shape}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence:g}")
    reps = reps[~np.isnan(reps).any(axis=1)]
    n_used = reps.shape[0]
    d = points[:, None] - points[None, :]  # (k, k)
    lo = np.full((k, k), -np.inf)
    critical = float("nan")
    if k > 1 and n_used > 1 and np.isfinite(points).all():
        iu, ju = np.triu_indices(k, 1)
        dstar = reps[:, iu] - reps[:, ju]  # (B, pairs)
        dpair = d[iu, ju]
        se = dstar.std(axis=0, ddof=1)
        scale = np.max(np.abs(dstar), axis=0) + np.abs(dpair)
        varies = se > 1e-12 * np.maximum(scale, 1e-300)
        if varies.any():
            t = np.abs(dstar[:, varies] - dpair[varies]) / se[varies]
            critical = float(np.quantile(t.max(axis=1), confidence, method="higher"))
        half = np.where(varies, (critical if np.isfinite(critical) else 0.0) * se, 0.0)
        lower = dpair - half  # bound on m_i - m_j
        upper = dpair + half
        # a constant difference: separated iff it is non-zero
        lower = np.where(~varies & (dpair == 0), 0.0, lower)
        upper = np.where(~varies & (dpair == 0), 0.0, upper)
        lo[iu, ju] = lower
        lo[ju, iu] = -upper
    np.fill_diagonal(lo, 0.0)
    hi = -lo.T
    better = lo > 0
    rank_lo = 1 + better.sum(axis=0)  # models surely better than i (column i)
    rank_hi = k - better.sum(axis=1)  # models i is surely better than (row i)
    return RankSets(rank_lo.astype(np.int64), rank_hi.astype(np.int64), rank_lo == 1, lo, hi, critical, n_used)
