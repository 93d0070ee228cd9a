"""Percentile intervals of bootstrap replicates, and the Monte Carlo error of their ends: the one
interval module of the studies and the audit.

* :func:`percentile`: the percentile interval along the replicates' first axis (NaN replicates left
  out), of any shape: the audit's per-model and paired intervals, the skew explanation's shares;
* :func:`percentile_interval`: with the Monte Carlo error of each end, by batches or order statistics
  (below): Flach & Kull's primary rows, the skew trend and counterfactual;
* :func:`order_statistic_mc_error`: the larger Monte Carlo error of the two ends from the binomial
  order statistics one standard deviation of the rank either side (the noise evidence's rows);
* :func:`order_statistic_interval`: the interval with each end's error from the ranks two standard
  deviations either side, honest where the statistic takes few values (the Boyd evidence's order change).

The closed-form intervals of one model's metric (the audit's per-model rows and their coverage
simulations):

* :func:`normal_interval` and :func:`logit_interval`: ``estimate +- z sqrt(variance)`` on the
  metric's scale (clipped to [0, 1], as pROC) or on the logit scale (delta method), from DeLong's
  variance (:func:`prspace.stats.delong.delong`) for AUROC;
* :func:`jackknife_interval`: the class-stratified jackknife-t, on the logit scale for the metrics
  bounded by [0, 1] (:data:`UNIT_METRICS`);
* :func:`boyd_intervals`: the binomial interval ``theta +- z sqrt(theta (1 - theta) / n)`` and the
  logit interval ``expit(eta +- z / sqrt(n theta (1 - theta)))``, ``eta = logit(theta)``, of an
  AUPR from n positives (Boyd, Eng and Page, ECML PKDD 2013, section 4).

The Monte Carlo error of an interval end: by batches. The ``B``
replicates (independent draws) are split into 20 batches, the end is computed in each batch, and
the MC standard error of the end from all ``B`` is the batches' SD over ``sqrt(20)`` (batch means).
With few replicates beyond the end (fewer than 10 per batch: ``B < 200 / p`` for an end at
probability ``p``), batch quantiles are biased inwards and the estimate too small, so the
order-statistic estimate is used instead: half the spread of the replicates at ranks
``pB -+ sqrt(B p (1 - p))`` (the distribution-free binomial interval of a quantile), which errs on
the large side there. ``tests/verdicts/test_primary.py`` checks both by simulation against the closed form
``sqrt(p (1 - p) / B) / f(q_p)`` for normal replicates, and the batch estimate on a committed
study's own, lumpy, bootstrap distributions against the SD of the ends over independent seeds. (On
lumpy distributions the order-statistic estimate is 0 when the end sits inside an atom and jumps
when it does not; with it, verdicts moved with the seed.)

:func:`percentile_interval` is used by Flach & Kull's primary rows (:mod:`prspace.verdicts.primary`) and
the skew rows (:mod:`prspace.experiments.skew.skew_explanation`).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy.special import expit, logit

from prspace.metrics.names import (
    REPORTED_METRICS as BOOT_METRICS,  # stats.replicates' own, without its imports
)
from prspace.stats.distributions import norm, student_t
from prspace.stats.resampling import jackknife_variance

#: Batches of the Monte Carlo error estimate (:func:`percentile_interval`), and the fewest
#: replicates beyond an interval end each batch must hold for it (else order statistics).
MC_BATCHES = 20
MC_BATCH_TAIL = 10


def mc_method(n: int, level: float, batches: int = MC_BATCHES) -> str:
    """Batches when each batch holds at least :data:`MC_BATCH_TAIL` replicates beyond an end, else order statistics."""
    return f"{batches} batches" if n / batches * (1.0 - level) / 2.0 >= MC_BATCH_TAIL else "order statistics"


def percentile_interval(
    boot: np.ndarray, level: float, *, batches: int = MC_BATCHES,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Percentile interval of each column of ``boot`` (``(B, m)``, NaN rows left out) at ``level``
    and the Monte Carlo SE of each end (module docstring): by batches (the replicates split into
    ``batches`` consecutive batches, the end computed in each, ``SD / sqrt(batches)``), or by order
    statistics when a batch would hold fewer than :data:`MC_BATCH_TAIL` replicates beyond an end.
    Returns ``(lo, hi, mc_lo, mc_hi)``, each ``(m,)``."""
    b = np.asarray(boot, dtype=np.float64)
    if b.ndim == 1:
        b = b[:, None]
    m = b.shape[1]
    out = np.full((4, m), np.nan)
    alpha = (1.0 - level) / 2.0
    for j in range(m):
        raw = b[np.isfinite(b[:, j]), j]
        s = np.sort(raw)
        n = len(s)
        if n < 2:
            continue
        out[:2, j] = np.quantile(s, [alpha, 1.0 - alpha])
        if mc_method(n, level, batches) != "order statistics":
            per = np.array([np.quantile(x, [alpha, 1.0 - alpha]) for x in np.array_split(raw, batches)])
            out[2:, j] = per.std(axis=0, ddof=1) / math.sqrt(batches)
            continue
        for e, p in enumerate((alpha, 1.0 - alpha)):
            k, d = p * (n - 1), math.sqrt(n * p * (1.0 - p))
            out[2 + e, j] = (s[min(math.ceil(k + d), n - 1)] - s[max(math.floor(k - d), 0)]) / 2.0
    return out[0], out[1], out[2], out[3]


def percentile(replicates: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval at ``level`` along axis 0 of ``replicates`` (NaN replicates, from one-class
    resamples or a resample of no task, ignored); NaN where every replicate is NaN."""
    a = (1.0 - level) / 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column: NaN, said here
        return np.nanquantile(replicates, a, axis=0), np.nanquantile(replicates, 1.0 - a, axis=0)


def order_statistic_mc_error(boot: np.ndarray, level: float = 0.95) -> float:
    """Monte Carlo standard error of a percentile interval's ends, the larger of the two.

    The q-quantile of B replicates is order statistic ``B q``; its rank's binomial standard
    deviation is ``sqrt(B q (1 - q))``, so its standard error is about half the distance between
    the order statistics one such deviation either side (the binomial method, e.g. Hall 1992,
    section 3.6; it assumes nothing about the replicates' distribution)."""
    b = np.sort(np.asarray(boot, np.float64)[np.isfinite(boot)])
    n = b.size
    if n < 10:
        return float("nan")
    out = 0.0
    for q in ((1 - level) / 2, (1 + level) / 2):
        half = np.sqrt(n * q * (1 - q))  # one binomial sd of the rank either side
        lo, hi = int(np.clip(np.floor(n * q - half), 0, n - 1)), int(np.clip(np.ceil(n * q + half), 0, n - 1))
        out = max(out, float((b[hi] - b[lo]) / 2))
    return out


def order_statistic_interval(boot: np.ndarray, level: float) -> tuple[float, float, float, float]:
    """``(lo, hi, mc_lo, mc_hi)``: the percentile interval of the replicates ``boot`` (NaNs left out)
    at ``level`` and a Monte Carlo error of its ends that stays honest when the statistic takes
    few values (1 - Kendall's tau of 30 learners moves in steps of 2/435 and has an atom at 0).

    For the end at probability ``p`` of ``B`` replicates, the ranks ``pB -+ 2 sqrt(B p (1 - p))``
    bound where that quantile of another run of ``B`` would fall (the distribution-free binomial
    interval of a quantile, about two standard errors); the error is half the larger distance from
    the end to the replicate values at those ranks. For a smooth distribution that is about one
    standard error; inside an atom it is 0 (another run lands on the same value); near the edge of
    an atom it reaches the next value, so :func:`prspace.verdicts.rule.decide` calls the row
    borderline. Batch estimates (:func:`prspace.experiments.boyd.boyd_intervals.family_interval`) mislead
    here: a batch of ``B / 20`` replicates misses an atom a run of ``B`` holds, and the spread of batch
    ends is then not the run's error. Each end has its own error: the rule reads them apart
    (``mc_error_lo``, ``mc_error_hi``), so a step at one end does not make the other borderline."""
    s = np.sort(np.asarray(boot, dtype=np.float64)[np.isfinite(boot)])
    n = s.size
    if n < 2:
        nan = float("nan")
        return nan, nan, nan, nan
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(s, [alpha, 1.0 - alpha])
    mc = []
    for p, end in ((alpha, lo), (1.0 - alpha, hi)):
        k, d = p * (n - 1), 2.0 * np.sqrt(n * p * (1.0 - p))
        below, above = s[max(int(np.floor(k - d)), 0)], s[min(int(np.ceil(k + d)), n - 1)]
        mc.append(float(max(end - below, above - end) / 2.0))
    return float(lo), float(hi), mc[0], mc[1]


def normal_interval(estimate: float, variance: float, confidence: float) -> tuple[float, float]:
    """``estimate +- z sqrt(variance)`` clipped to [0, 1] (as pROC does)."""
    if not np.isfinite(variance):
        return float("nan"), float("nan")
    half = norm.ppf(0.5 + confidence / 2.0) * np.sqrt(max(variance, 0.0))
    return max(estimate - half, 0.0), min(estimate + half, 1.0)


def logit_interval(estimate: float, variance: float, confidence: float) -> tuple[float, float]:
    """``expit(logit(A) +- z sqrt(variance) / (A (1 - A)))``: the normal interval on the logit scale
    (delta method; Pepe 2003, section 5.2.3, for the AUROC), inside (0, 1) by construction, so it
    does not cross the bound the AUROC piles up against with few positives; NaN at A in {0, 1}."""
    if not (np.isfinite(variance) and 0.0 < estimate < 1.0):
        return float("nan"), float("nan")
    eta = logit(estimate)
    half = norm.ppf(0.5 + confidence / 2.0) * np.sqrt(max(variance, 0.0)) / (estimate * (1.0 - estimate))
    return float(expit(eta - half)), float(expit(eta + half))


#: Metrics of :data:`BOOT_METRICS` bounded by [0, 1] (AUPRG is not: it is negative below the
#: always-positive baseline), whose jackknife interval is built on the logit scale.
UNIT_METRICS = ("auroc", "average_precision", "aupr", "aucnpr")


def jackknife_interval(points: np.ndarray, replicates: np.ndarray, strata: np.ndarray,
                       confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-model jackknife-t intervals ``h^-1(h(theta) +- t_df se)``, ``h = logit`` for the
    :data:`UNIT_METRICS` (inside (0, 1) by construction) and the identity for AUPRG, with
    ``se^2 = sum_s (G_s - 1) / G_s sum_{g in s} (eta_g - mean_s eta)^2`` over the transformed
    stratified jackknife replicates ``eta_g = h(theta_(-g))`` (:func:`prspace.stats.replicates.jackknife`) and
    Welch-Satterthwaite's df, as :func:`prspace.stats.pairwise.jackknife_pairs` (the jackknife variance
    errs upwards, Efron and Stein 1981).  ``points`` (models, :data:`BOOT_METRICS`),
    ``replicates`` (G, models, :data:`BOOT_METRICS`); NaN where a unit metric is 0 or 1 or a
    replicate is undefined."""
    eps = 1e-12
    unit = np.array([m in UNIT_METRICS for m in BOOT_METRICS])
    with np.errstate(divide="ignore", invalid="ignore"):
        eta = np.where(unit, logit(np.clip(points, eps, 1 - eps)), points)
        reps = np.where(unit, logit(np.clip(replicates, eps, 1 - eps)), replicates)
    var, spread = jackknife_variance(reps, strata)
    inside = ~unit | ((points > 0) & (points < 1))
    ok = inside & np.isfinite(reps).all(axis=0) & (var > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = student_t.isf((1 - confidence) / 2, np.where(ok, var**2 / spread, 1.0)) * np.sqrt(var)
        lo, hi = eta - half, eta + half
    lo = np.where(ok, np.where(unit, expit(lo), lo), np.nan)
    hi = np.where(ok, np.where(unit, expit(hi), hi), np.nan)
    return lo, hi


def boyd_intervals(theta: float, n_pos: float, confidence: float) -> dict[str, tuple[float, float]]:
    """Binomial and logit intervals for an AUPR estimate ``theta`` from ``n_pos`` positives."""
    z = norm.ppf(0.5 + confidence / 2.0)
    t = min(max(theta, 1e-12), 1 - 1e-12)
    half = z * np.sqrt(t * (1 - t) / n_pos)
    tau = 1.0 / np.sqrt(n_pos * t * (1 - t))
    eta = logit(t)
    return {
        "binomial": (max(theta - half, 0.0), min(theta + half, 1.0)),
        "logit": (float(expit(eta - z * tau)), float(expit(eta + z * tau))),
    }
