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
