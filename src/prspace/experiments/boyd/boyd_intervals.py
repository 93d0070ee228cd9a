"""Intervals of the Boyd et al. evidence rows: a cluster bootstrap over families of tasks, at any
level, with the Monte Carlo error of each end estimated from independent batches.

The primary claims' intervals are simultaneous (:func:`prspace.core.claims.primary_level`,
Bonferroni over the primary family: 1 - 0.05/20 = 0.9975), so their ends are far quantiles of the
bootstrap distribution (0.125% and 99.875%), which need many resamples to be stable. For a
bootstrap distribution of standard deviation ``sd`` the error of the ``p``-quantile from ``B``
resamples is about ``sqrt(p (1 - p) / B) / f(q_p)`` (``f``: the density at the quantile), which
for a normal shape at p = 0.00125 is ``8.4 sd / sqrt(B)``: ``sd = 0.08`` (a mean over 8 families)
needs ``B`` of about 110,000 for an error of 0.002. :func:`family_interval` measures it instead of
assuming the shape: the resamples are drawn in ``batches`` independent batches
(:func:`prspace.stats.family_bootstrap.cluster_resamples`, seed ``(seed, batch)``), each end is also
computed within every batch, and the Monte Carlo error of the end from all resamples is
``SD over batches / sqrt(batches)`` (the error of a quantile shrinks as one over the square root
of the resamples). The statistic of a resample is the mean over the tasks of the drawn families
(sum of their values / number of their tasks; NaNs ignored), the replicate step of
:func:`prspace.stats.family_bootstrap.cluster_bootstrap_ci` (:func:`~prspace.stats.family_bootstrap.family_replicates`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prspace.core.errors import InputError
from prspace.stats.family_bootstrap import cluster_resamples, family_replicates

#: Independent batches of resamples the Monte Carlo error is estimated from.
MC_BATCHES = 20


@dataclass(frozen=True)
class Interval:
    """``estimate`` (mean over tasks), ``lo``, ``hi`` (percentile interval at ``level``),
    ``mc_error`` (the larger Monte Carlo error of the two ends), ``n_resamples``."""

    estimate: float
    lo: float
    hi: float
    level: float
    mc_error: float
    n_resamples: int

    def row(self) -> dict[str, float]:
        """The evidence-row fields (:func:`prspace.verdicts.rule.evidence_row`)."""
        return {"estimate": self.estimate, "ci_lo": self.lo, "ci_hi": self.hi, "level": self.level,
                "mc_error": self.mc_error}


def family_interval(
    values: np.ndarray, families: np.ndarray | None = None, *, n_resamples: int, seed: int, level: float = 0.95,
    batches: int = MC_BATCHES,
) -> Interval:
    """Mean of per-task ``values`` with a percentile cluster-bootstrap interval over ``families``
    at ``level`` and the Monte Carlo error of its ends (module docstring).

    ``n_resamples`` is split into ``batches`` equal batches (rounded up); every task without a
    family is its own (``families=None``: the ordinary bootstrap). NaN values are ignored; all
    NaN gives NaNs.
    """
    if not 0 < level < 1:
        raise InputError(f"interval level must be in (0, 1), got {level}")
    if batches < 2 or n_resamples < batches:
        raise InputError(f"need at least 2 batches and one resample per batch, got {n_resamples} resamples in "
                         f"{batches} batches; raise boyd.evidence.n_resamples")
    v = np.asarray(values, dtype=np.float64)
    nan = float("nan")
    if v.size == 0 or np.all(np.isnan(v)):
        return Interval(nan, nan, nan, level, nan, 0)
    clusters = np.arange(v.size) if families is None else np.asarray(families)
    if clusters.shape != v.shape:
        raise InputError(f"{v.size} values but {clusters.size} families; give one family per task")
    per = -(-int(n_resamples) // batches)
    alpha = (1.0 - level) / 2.0
    boot = np.stack([family_replicates(v, *cluster_resamples(clusters, n_boot=per, seed=[int(seed), b]))
                     for b in range(batches)])
    lo, hi = np.nanquantile(boot, [alpha, 1.0 - alpha])
    ends = np.nanquantile(boot, [alpha, 1.0 - alpha], axis=1)  # (2, batches)
    mc = float(np.max(ends.std(axis=1, ddof=1)) / np.sqrt(batches))
    return Interval(float(np.nanmean(v)), float(lo), float(hi), float(level), mc, per * batches)


def simulated_coverage(n_families: int, *, level: float, n_sim: int = 400, n_resamples: int = 4000,
                       seed: int = 0) -> float:
    """Share of ``n_sim`` simulated studies whose :func:`family_interval` at ``level`` covers the
    true mean: ``n_families`` families of one task each, values N(0, 1) (true mean 0), study ``j``
    drawn from ``default_rng([seed, j])``. With few families the percentile interval is too
    narrow (about mean +- z s sqrt((n-1)/n) / sqrt(n), where a t quantile would be needed), so its
    coverage falls below ``level``: the calibration each primary row reports with its interval."""
    if n_families < 2 or n_sim < 1:
        raise InputError(f"need at least 2 families and 1 simulation, got {n_families} and {n_sim}")
    hits = 0
    for j in range(n_sim):
        v = np.random.default_rng([int(seed), j]).standard_normal(n_families)
        iv = family_interval(v, None, n_resamples=n_resamples, seed=int(seed) + j, level=level)
        hits += iv.lo <= 0.0 <= iv.hi
    return hits / n_sim
