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

__all__ = ["RankSets", "StudentisedPairs", "clean_replicates", "rank_sets", "rank_sets_from_bounds"]


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


class StudentisedPairs:
    """Steps 1-2 of the module docstring, shared with :mod:`prspace.stats.pairwise`: for the pairs
    ``(iu[p], ju[p])``, i < j, the difference ``d`` (``m_i - m_j``), its bootstrap replicates
    ``dstar`` (B, pairs), its standard error ``se`` and whether it ``varies``; ``t`` (B,
    varying pairs) the centred studentised replicates ``|d* - d| / se``."""

    __slots__ = ("iu", "ju", "d", "dstar", "se", "varies", "t")

    def __init__(self, points: np.ndarray, reps: np.ndarray) -> None:
        k = points.shape[0]
        self.iu, self.ju = np.triu_indices(k, 1)
        self.dstar = reps[:, self.iu] - reps[:, self.ju]  # (B, pairs)
        self.d = points[self.iu] - points[self.ju]
        self.se = self.dstar.std(axis=0, ddof=1)
        scale = np.max(np.abs(self.dstar), axis=0) + np.abs(self.d)
        self.varies = self.se > 1e-12 * np.maximum(scale, 1e-300)
        self.t = np.abs(self.dstar[:, self.varies] - self.d[self.varies]) / self.se[self.varies]

    def critical(self, confidence: float) -> float:
        """Step 2: the ``confidence`` quantile of ``max_pairs t``; NaN if no pair varies."""
        if not self.varies.any():
            return float("nan")
        return float(np.quantile(self.t.max(axis=1), confidence, method="higher"))

    def bounds(self, critical: float) -> tuple[np.ndarray, np.ndarray]:
        """Step 3: simultaneous bounds ``d -+ c se`` on every pair's ``m_i - m_j``."""
        half = np.where(self.varies, (critical if np.isfinite(critical) else 0.0) * self.se, 0.0)
        lower, upper = self.d - half, self.d + half
        # a constant difference: separated iff it is non-zero
        still = ~self.varies & (self.d == 0)
        return np.where(still, 0.0, lower), np.where(still, 0.0, upper)


def clean_replicates(points: np.ndarray, replicates: np.ndarray) -> np.ndarray:
    """``replicates`` as float64 (B, k) without the resamples where any model is NaN."""
    k = points.shape[0]
    reps = np.asarray(replicates, dtype=np.float64)
    if reps.ndim != 2 or reps.shape[1] != k:
        raise ValueError(f"replicates must have shape (B, {k}), got {reps.shape}")
    return reps[~np.isnan(reps).any(axis=1)]


def rank_sets(points: np.ndarray, replicates: np.ndarray, confidence: float = 0.95) -> RankSets:
    """Confidence sets for the ranks of k models (module docstring).

    ``points``: shape (k,); ``replicates``: shape (B, k), row b = every model's value on
    the b-th shared resample.  Higher values rank first (rank 1 = best).
    """
    points = np.asarray(points, dtype=np.float64)
    k = points.shape[0]
    reps = clean_replicates(points, replicates)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence:g}")
    n_used = reps.shape[0]
    lower = upper = None
    critical = float("nan")
    if k > 1 and n_used > 1 and np.isfinite(points).all():
        pairs = StudentisedPairs(points, reps)
        critical = pairs.critical(confidence)
        lower, upper = pairs.bounds(critical)
    return rank_sets_from_bounds(k, lower, upper, critical=critical, n_used=n_used)


def rank_sets_from_bounds(k: int, lower: np.ndarray | None, upper: np.ndarray | None, *,
                          critical: float = float("nan"), n_used: int = 0) -> RankSets:
    """Steps 4-5 of the module docstring from any simultaneous bounds ``lower``/``upper`` on
    ``m_i - m_j`` for the pairs ``np.triu_indices(k, 1)`` (None: nothing separated)."""
    lo = np.full((k, k), -np.inf)
    if lower is not None and upper is not None:
        iu, ju = np.triu_indices(k, 1)
        lo[iu, ju] = np.where(np.isnan(lower), -np.inf, lower)
        lo[ju, iu] = np.where(np.isnan(upper), -np.inf, -upper)
    np.fill_diagonal(lo, 0.0)
    hi = -lo.T
    better = lo > 0
    rank_lo = 1 + better.sum(axis=0)  # models surely better than i (column i)
    rank_hi = k - better.sum(axis=1)  # models i is surely better than (row i)
    return RankSets(rank_lo.astype(np.int64), rank_hi.astype(np.int64), rank_lo == 1, lo, hi, critical, n_used)
