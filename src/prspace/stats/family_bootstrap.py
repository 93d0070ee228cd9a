"""The family (cluster) percentile bootstrap of means over tasks: the one draw and the one replicate step.

Tasks derived from one source dataset (a family: ``keel-yeast1``, ``keel-yeast3``, ...) are not
independent, so the studies' intervals of a mean over tasks draw whole families with replacement.
Every such interval of the experiments comes from here:

* :func:`cluster_resamples`: the draw (:func:`draw_families` from ``numpy.random.default_rng(seed)``):
  one seed and the same clusters give every statistic (and every caller) the same resamples;
* :func:`family_replicates`: the replicate step on those resamples: a resample's statistic is the
  sum of the drawn families' values over their number of tasks (NaNs left out), for one column of
  values or several at once;
* :func:`cluster_bootstrap_means` (means and replicates, several columns at once: the slope of the
  skew trend needs every replicate) and :func:`cluster_bootstrap_ci` (one mean and its percentile
  interval): the two ways the experiments call it;
* :func:`bootstrap_ci`: the ordinary percentile bootstrap of a mean over independent entries.

A column given alone and the same column given among others differ in the last bits of their
replicates (numpy sums a contiguous axis pairwise, another axis in order): one column is summed as
:func:`cluster_bootstrap_ci` always summed it, several as :func:`cluster_bootstrap_means` always
summed them, each bit for bit as before (``tests/stats/test_family_bootstrap.py``). The
studentized bootstrap of the verdicts' primary rows is :mod:`prspace.stats.cluster_bootstrap`, which draws
its families with :func:`draw_families` too.
"""

from __future__ import annotations

import numpy as np

from prspace.core.defaults import N_BOOT

__all__ = ["bootstrap_ci", "cluster_bootstrap_ci", "cluster_bootstrap_means", "cluster_resamples", "draw_families",
           "family_replicates"]


def draw_families(rng: np.random.Generator, n_families: int, n_boot: int, *, wide: bool = False) -> np.ndarray:
    """``n_boot`` resamples of ``n_families`` families drawn with replacement from ``rng``: the family
    numbers ``(n_boot, n_families)``, the one draw of both family bootstraps (this module's percentile
    intervals and :mod:`prspace.stats.cluster_bootstrap`'s studentized ones). As 32-bit integers
    (``wide``: 64-bit, for a caller whose arithmetic on them needs it): below ``2**32`` numpy draws the
    same stream for either type (its buffered Lemire method), and the 32-bit one is cheaper."""
    return rng.integers(0, n_families, size=(n_boot, n_families), dtype=np.int64 if wide else np.int32)


def cluster_resamples(clusters: np.ndarray, *, n_boot: int, seed: int | list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The cluster bootstrap's resamples, the one place they are drawn.

    ``clusters``: each task's cluster (family; compared as text).  Returns ``(cid, idx)``: each
    task's cluster number (clusters numbered in sorted order of their names) and the clusters
    drawn with replacement, ``(n_boot, n_clusters)`` from ``numpy.random.default_rng(seed)``.
    :func:`cluster_bootstrap_ci`, :func:`cluster_bootstrap_means` and the callers that need the
    resamples themselves (``experiments.boyd.boyd_evidence``'s weighted statistics) draw from here, so
    one seed gives every statistic the same resamples.
    """
    _, cid = np.unique(np.asarray(clusters).astype(str), return_inverse=True)
    return cid, draw_families(np.random.default_rng(seed), int(cid.max()) + 1, n_boot)


def family_replicates(values: np.ndarray, cid: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The replicates of the mean over tasks of ``values`` on the resamples ``idx`` of
    :func:`cluster_resamples` (``cid``: each task's cluster number): per resample, the sum of the
    drawn families' values over their number of values (NaNs left out; a family drawn twice
    counts twice). ``values`` ``(n,)`` gives ``(n_boot,)``, ``(n, m)`` gives ``(n_boot, m)``
    (module docstring: a column alone is summed as one)."""
    v = np.asarray(values, dtype=np.float64)
    one = v.ndim == 1
    if one:
        v = v[:, None]
    n_c = idx.shape[1]
    sums = np.zeros((n_c, v.shape[1]))
    counts = np.zeros((n_c, v.shape[1]))
    for j in range(v.shape[1]):  # each family's sum in the order of its tasks (as np.add.at would add them)
        ok = ~np.isnan(v[:, j])
        sums[:, j] = np.bincount(cid[ok], v[ok, j], n_c)
        counts[:, j] = np.bincount(cid[ok], minlength=n_c)
    with np.errstate(invalid="ignore", divide="ignore"):
        boot = sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
    return boot[:, 0] if one else boot


def cluster_bootstrap_means(
    values: np.ndarray, clusters: np.ndarray, *, n_boot: int, seed: int | list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Column means of ``values`` (tasks x statistics) and their cluster-bootstrap replicates.

    The resamples are those of :func:`cluster_bootstrap_ci` with the same seed and clusters (both
    draw them with :func:`cluster_resamples`), drawn once for every column:
    column ``j`` of the replicates gives ``cluster_bootstrap_ci(values[:, j], ...)``'s interval
    (to the last bits of the sums, module docstring). Returns ``(means (m,), replicates (n_boot, m))``.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim == 1:
        v = v[:, None]
    cid, idx = cluster_resamples(clusters, n_boot=n_boot, seed=seed)
    boot = family_replicates(v, cid, idx)
    ok = np.isfinite(v)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(ok.any(axis=0), np.nansum(v, axis=0) / ok.sum(axis=0), np.nan)
    return means, boot


def cluster_bootstrap_ci(
    values: np.ndarray,
    clusters: np.ndarray | None = None,
    *,
    n_boot: int = N_BOOT,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float, float]:
    """Mean of ``values`` over tasks with a percentile bootstrap interval that resamples *clusters*.

    Tasks derived from one source dataset (a family: ``keel-yeast1``, ``keel-yeast3``, ...) are
    not independent, so whole families are drawn with replacement and the statistic of a
    resample is the mean over all tasks of the drawn families (sum of their values / number of
    their tasks; NaNs ignored; :func:`family_replicates`). With every task its own cluster this is
    the ordinary bootstrap. The resamples come from ``numpy.random.default_rng(seed)``
    (:func:`cluster_resamples`), so statistics sharing a seed and clusters share resamples.
    Returns ``(mean, low, high)``; NaNs if no value is finite.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0 or np.all(np.isnan(v)):
        return float("nan"), float("nan"), float("nan")
    cid, idx = cluster_resamples(np.arange(v.size) if clusters is None else clusters, n_boot=n_boot, seed=seed)
    return _mean_and_interval(v, family_replicates(v, cid, idx), level)


def bootstrap_ci(
    values: np.ndarray,
    *,
    n_boot: int = N_BOOT,
    seed: int = 0,
    level: float = 0.95,
    indices: np.ndarray | None = None,
) -> tuple[float, float, float]:
    """Mean of ``values`` (NaNs ignored) with a percentile bootstrap interval over its entries.

    ``indices`` (shape ``(n_boot, len(values))``) lets several statistics share the
    same resamples of tasks; otherwise they are drawn from ``numpy.random.default_rng(seed)``.
    Returns ``(mean, low, high)``; NaNs if no value is finite.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0 or np.all(np.isnan(v)):
        return float("nan"), float("nan"), float("nan")
    if indices is None:
        indices = np.random.default_rng(seed).integers(0, v.size, size=(n_boot, v.size))
    return _mean_and_interval(v, np.nanmean(v[indices], axis=1) if np.isnan(v).any() else v[indices].mean(axis=1), level)


def _mean_and_interval(v: np.ndarray, boot: np.ndarray, level: float) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``v`` (NaNs ignored) and the percentile interval of its replicates."""
    alpha = (1 - level) / 2
    lo, hi = np.nanquantile(boot, [alpha, 1 - alpha])
    return float(np.nanmean(v)), float(lo), float(hi)
