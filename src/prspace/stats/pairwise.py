"""Comparisons of all pairs of k models with family-wise error control.

The decision rules (stated once here, and in ``docs/audit.md``, section "Comparing all pairs"):
for every pair i < j of the k models scored on the same test rows, the difference
``d_ij = m_i - m_j`` of a metric (higher is better) is tested against 0 and given an
interval, so that the family of all k(k-1)/2 pairs holds its error rate at ``alpha``.
A pair *survives* iff its adjusted p-value is below ``alpha``.

:func:`delong_pairs` (AUROC; the DeLong covariance ``S`` of all k AUROCs,
:func:`prspace.stats.delong.delong`):

1. ``se_ij^2 = S_ii + S_jj - 2 S_ij``, ``z_ij = d_ij / se_ij``, raw two-sided p-value
   ``2 (1 - Phi(|z_ij|))`` (DeLong's paired test, as pROC's ``roc.test``);
2. adjusted p-values by Holm's step-down (sort the raw p-values ascending, multiply the r-th
   smallest by ``P - r + 1``, running maximum, cap at 1), which controls the family-wise error
   for any dependence between the tests;
3. simultaneous intervals ``d_ij +- c se_ij``, ``c`` the ``1 - alpha`` quantile of
   ``max_ij |Z_i - Z_j| / se_ij`` for ``Z ~ N(0, S)`` (the joint normal of all contrasts),
   simulated with ``n_sim`` draws of a seeded generator.  ``c`` is at most Bonferroni's
   ``Phi^-1(1 - alpha / (2P))`` up to Monte Carlo error, because it takes the correlation of
   the contrasts into account.

:func:`bootstrap_pairs` (AP, AUPR, AUPRG, and AUROC as a cross-check; from B shared paired
bootstrap replicates of all k models):

1. ``d*_bij``, ``se_ij`` and the centred studentised replicates ``t*_bij = |d*_bij - d_ij| /
   se_ij`` exactly as :mod:`prspace.stats.ranksets` (:class:`~prspace.stats.ranksets.StudentisedPairs`);
   observed ``t_ij = |d_ij| / se_ij``; raw p-value ``(1 + #{b: t*_bij >= t_ij}) / (B + 1)``;
2. adjusted p-values by Romano and Wolf's (2005) step-down max-T: order the pairs by
   ``t_ij`` descending; the r-th pair's p-value is ``(1 + #{b: max_{s >= r} t*_bs >=
   t_r}) / (B + 1)`` (the max over the pairs not yet rejected), then a running maximum;
3. single-step simultaneous intervals ``d_ij +- c se_ij``, ``c`` the ``1 - alpha`` quantile of
   ``max_ij t*_bij`` (the intervals of :func:`prspace.stats.ranksets.rank_sets`).  The step-down
   p-values reject at least what the single-step intervals exclude, sometimes more.

A pair whose bootstrap difference never varies (``se = 0``) gets p = 0 if ``d != 0`` else 1,
and a zero-width interval.

:func:`jackknife_pairs` (every metric; the asymptotic paired test of the PR metrics, validated
below): from the stratified jackknife of all k models on the same rows (replicate g leaves out
group g of one stratum s, class x fold; delete-one up to
:data:`prspace.stats.resampling.JACK_GROUPS` rows, else that many random groups within strata,
:func:`prspace.stats.replicates.jackknife`), with ``D_g = m_i(-g) - m_j(-g)``:

1. ``se_ij^2 = sum_s (G_s - 1) / G_s sum_{g in s} (D_g - mean_s D)^2`` (the stratified
   jackknife variance; G_s groups in stratum s), degrees of freedom by Welch-Satterthwaite
   ``df = se^4 / sum_s (v_s^2 / (G_s - 1))`` over the strata's terms ``v_s``;
2. raw p-value ``2 t_df.sf(|d_ij| / se_ij)`` (the jackknife t; Tukey's), adjusted by Holm;
3. simultaneous intervals by Bonferroni: ``d_ij +- t_df.isf(alpha / (2P)) se_ij`` (P pairs).

Why the jackknife for AP and AUPR: the bootstrap's law of an AP difference is too narrow at
small n (the bootstrap se falls short of the sampling sd, and every bootstrap-quantile rule
inherits it: rescaling the se leaves max-T's decisions unchanged), whereas the jackknife variance
errs upwards (Efron and Stein 1981), more so for AP than for AUROC, whose jackknife variance is
DeLong's.  Calibration in ``tests/stats/test_pairwise.py`` (the null below): family-wise error at or
below 0.05 + 2 Monte Carlo se for every metric, power >= 0.8 on the planted gap.

**Not calibrated: the bootstrap max-T for AP, AUPR and AUCNPR at small n.**  Under the null of
``tests/stats/test_pairwise.py`` (10 exchangeable models, n = 300, pi = 0.3, B = 200) the bootstrap
max-T at alpha = 0.05 calls some pair different far more often than alpha for AP and AUPR
(:data:`MEASURED_NULL_FWER`, recomputed and checked by that test; AUCNPR, affine in AUPR at the
resamples' fixed class counts, makes AUPR's decisions).  Measured cause (``docs/audit.md``):
the bootstrap underestimates the spread of an AP difference (its top-ranked rows, which AP
weighs most, stick to the sample's in the resamples).  :func:`calibration_note` is the warning
the audit prints and writes beside these rows, pointing to the jackknife-Holm rows.

:func:`bootstrap_z_pairs` (every metric): the paired stratified bootstrap z test, se from the
shared resamples, Holm's adjustment, Bonferroni's intervals.  :func:`level_corrected` replaces a
procedure's raw p-values by p-values corrected by simulation (:mod:`prspace.audit.inference.decision`).

Which procedure *decides* a metric in ``prspace audit`` (DeLong-Holm, the bootstrap z Holm or the
jackknife-t Holm, at a level corrected by simulation where the raw test errs too often) is chosen
per task by :func:`prspace.audit.inference.decision.decide` from a calibration across skew
(:mod:`prspace.audit.simulation.simulate`); the max-T stays a cross-check; the studies keep :func:`rank_set_method`.

Assumption of all three: the test rows are independent draws (the resampling unit is the row;
repeated rows of one unit make every p-value too small).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from prspace.stats.distributions import norm, student_t
from prspace.stats.ranksets import (
    RankSets,
    StudentisedPairs,
    clean_replicates,
    rank_sets,
    rank_sets_from_bounds,
)
from prspace.stats.resampling import jackknife_variance

__all__ = ["MEASURED_NULL_FWER", "PairwiseComparisons", "bootstrap_pairs", "bootstrap_z_pairs", "level_corrected", "calibration_note", "delong_pairs",
           "holm", "jackknife_pairs", "jackknife_pairs_batch", "rank_set_method", "rank_sets_by_rule"]

DELONG_HOLM = "DeLong, Holm"
BOOT_MAX_T = "bootstrap max-T (Romano-Wolf step-down)"
JACK_HOLM = "jackknife t, Holm"
BOOT_Z = "bootstrap z, Holm"

#: The null of the calibration (``tests/stats/test_pairwise.py``) behind :data:`MEASURED_NULL_FWER`.
CALIBRATION_NULL = {"models": 10, "n": 300, "pi": 0.3, "n_resamples": 200, "n_simulations": 400, "seed": 2026}
#: Family-wise error of :func:`bootstrap_pairs` at nominal alpha = 0.05 under that null, per metric
#: whose max-T does not hold its level at small n (hits / simulations; the test recomputes them and
#: fails if they drift).  AUCNPR decides as AUPR (affine in it at fixed class counts).
MEASURED_NULL_FWER = {"average_precision": 48 / 400, "aupr": 47 / 400, "aucnpr": 47 / 400}


def rank_set_method(metric: str) -> str:
    """Whose simultaneous intervals give a metric's rank sets: the bootstrap max-T's (the tighter,
    :mod:`prspace.stats.ranksets`), unless it does not hold its level for the metric
    (:data:`MEASURED_NULL_FWER`: AP, AUPR, AUCNPR), then the jackknife's Bonferroni intervals
    (:func:`jackknife_pairs`)."""
    return JACK_HOLM if metric in MEASURED_NULL_FWER else BOOT_MAX_T


def rank_sets_by_rule(metric: str, points: np.ndarray, boot: np.ndarray | None, jack: np.ndarray | None,
                      strata: np.ndarray | None, confidence: float = 0.95) -> RankSets:
    """A metric's rank sets by :func:`rank_set_method`: :func:`prspace.stats.ranksets.rank_sets` on the
    bootstrap replicates ``boot`` (B, k), or the Bonferroni intervals of :func:`jackknife_pairs` on
    the jackknife replicates ``jack`` (G, k) of strata ``strata`` (``critical`` NaN, ``n_used`` G)."""
    if rank_set_method(metric) == BOOT_MAX_T:
        return rank_sets(points, boot, confidence)
    points = np.asarray(points, dtype=np.float64)
    r = jackknife_pairs(points, jack, strata, alpha=1.0 - confidence)
    return rank_sets_from_bounds(points.shape[0], r.lo, r.hi, n_used=int(r.n_resamples))


def calibration_note(metric: str, method: str = BOOT_MAX_T) -> str:
    """The warning for a metric's bootstrap max-T rows whose family-wise level is not held at small
    n (:data:`MEASURED_NULL_FWER`); ``""`` for every other metric and method."""
    rate = MEASURED_NULL_FWER.get(metric)
    if method != BOOT_MAX_T or rate is None:
        return ""
    c = CALIBRATION_NULL
    return (f"family-wise level not held at small n: {rate:.3f} measured at nominal 0.05 "
            f"({c['models']} equal models, n = {c['n']}, pi = {c['pi']:g}, {c['n_resamples']} resamples); "
            "read p_adjusted near alpha as not significant; the jackknife-Holm rows hold the level")


@dataclasses.dataclass
class PairwiseComparisons:
    """All pairs ``(a[p], b[p])``, a < b (model indices), of one metric: ``diff = m_a - m_b``,
    its ``se``, raw and adjusted two-sided p-values, simultaneous bounds ``lo``/``hi`` at
    level ``1 - alpha``, ``survives`` (adjusted p < alpha), the ``method`` and the critical
    value ``critical`` of the intervals."""

    a: np.ndarray
    b: np.ndarray
    diff: np.ndarray
    se: np.ndarray
    p_raw: np.ndarray
    p_adjusted: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    method: str
    alpha: float
    critical: float
    n_resamples: int = 0
    #: Degrees of freedom of each pair's t reference (the jackknife's); None: normal.
    df: np.ndarray | None = None

    @property
    def survives(self) -> np.ndarray:
        return self.p_adjusted < self.alpha

    @property
    def any_survives(self) -> bool:
        return bool(self.survives.any())


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN and counts as no test)."""
    p = np.asarray(p, dtype=np.float64)
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m:
        order = ok[np.argsort(p[ok], kind="stable")]
        adj = np.maximum.accumulate(p[order] * (m - np.arange(m)))
        out[order] = np.minimum(adj, 1.0)
    return out


def _check(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha:g}")


def delong_pairs(estimates: np.ndarray, covariance: np.ndarray, *, alpha: float = 0.05,
                 n_sim: int = 20_000, seed: int = 0) -> PairwiseComparisons:
    """DeLong-Holm comparisons of all pairs from the AUROCs and their covariance (module docstring)."""
    _check(alpha)
    est = np.asarray(estimates, dtype=np.float64)
    cov = np.atleast_2d(np.asarray(covariance, dtype=np.float64))
    k = est.shape[0]
    iu, ju = np.triu_indices(k, 1)
    d = est[iu] - est[ju]
    var = cov[iu, iu] + cov[ju, ju] - 2 * cov[iu, ju]
    se = np.sqrt(np.maximum(var, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 0, 2 * norm.sf(np.abs(d) / se), np.where(d == 0, 1.0, 0.0))
    p = np.where(np.isfinite(var), p, np.nan)
    critical = float("nan")
    ok = se > 0
    if ok.any() and np.isfinite(cov).all():
        # Z ~ N(0, S) through the eigen decomposition (S is positive semi-definite)
        w, v = np.linalg.eigh(cov)
        root = v * np.sqrt(np.clip(w, 0.0, None))
        rng = np.random.default_rng(seed)
        top = np.empty(n_sim)
        step = max(1, 2_000_000 // max(int(ok.sum()), 1))
        for s in range(0, n_sim, step):
            z = rng.standard_normal((min(step, n_sim - s), k)) @ root.T
            top[s : s + z.shape[0]] = (np.abs(z[:, iu[ok]] - z[:, ju[ok]]) / se[ok]).max(axis=1)
        critical = float(np.quantile(top, 1 - alpha, method="higher"))
    half = np.where(ok, critical * se, np.where(se == 0, 0.0, np.nan))  # NaN: no variance (one-row class)
    return PairwiseComparisons(iu, ju, d, se, p, holm(p), d - half, d + half, DELONG_HOLM, alpha, critical)


def bootstrap_pairs(points: np.ndarray, replicates: np.ndarray, *, alpha: float = 0.05) -> PairwiseComparisons:
    """Bootstrap max-T comparisons of all pairs (module docstring); ``replicates`` (B, k) shared resamples."""
    _check(alpha)
    points = np.asarray(points, dtype=np.float64)
    reps = clean_replicates(points, replicates)
    k, n_b = points.shape[0], reps.shape[0]
    iu, ju = np.triu_indices(k, 1)
    n_pairs = iu.size
    if n_b < 2 or not np.isfinite(points).all():
        nan = np.full(n_pairs, np.nan)
        return PairwiseComparisons(iu, ju, points[iu] - points[ju], nan, nan, nan, nan.copy(), nan.copy(),
                                   BOOT_MAX_T, alpha, float("nan"), n_b)
    pairs = StudentisedPairs(points, reps)
    d, se, varies = pairs.d, pairs.se, pairs.varies
    p_raw = np.where(d == 0, 1.0, 0.0)
    p_adj = p_raw.copy()
    if varies.any():
        t_obs = np.abs(d[varies]) / se[varies]
        tstar = pairs.t  # (B, varying pairs)
        p_raw[varies] = (1 + (tstar >= t_obs).sum(axis=0)) / (n_b + 1)
        order = np.argsort(-t_obs, kind="stable")
        # max over the pairs ranked r or later, for every r: a running max from the right
        tail = np.maximum.accumulate(tstar[:, order[::-1]], axis=1)[:, ::-1]
        step = (1 + (tail >= t_obs[order]).sum(axis=0)) / (n_b + 1)
        adj = np.empty_like(step)
        adj[order] = np.maximum.accumulate(step)
        p_adj[varies] = adj
    critical = pairs.critical(1 - alpha)
    lo, hi = pairs.bounds(critical)
    return PairwiseComparisons(iu, ju, d, se, p_raw, p_adj, lo, hi, BOOT_MAX_T, alpha, critical, n_b)


def bootstrap_z_pairs(points: np.ndarray, replicates: np.ndarray, *, alpha: float = 0.05) -> PairwiseComparisons:
    """The paired stratified bootstrap z test of every pair, with Holm's adjustment: ``se_ij`` the
    standard deviation of the bootstrap differences ``d*_bij`` (shared resamples ``replicates``
    (B, k); a resample with a NaN left out), raw p ``2 (1 - Phi(|d_ij| / se_ij))``, Holm's
    step-down, Bonferroni's simultaneous intervals ``d_ij +- Phi^-1(1 - alpha / (2P)) se_ij``."""
    _check(alpha)
    points = np.asarray(points, dtype=np.float64)
    reps = np.asarray(replicates, dtype=np.float64)
    reps = reps[np.isfinite(reps).all(axis=1)]
    k = points.shape[0]
    iu, ju = np.triu_indices(k, 1)
    d = points[iu] - points[ju]
    if reps.shape[0] < 2 or not np.isfinite(points).all():
        nan = np.full(iu.size, np.nan)
        return PairwiseComparisons(iu, ju, d, nan, nan, nan.copy(), nan.copy(), nan.copy(), BOOT_Z, alpha,
                                   float("nan"), int(reps.shape[0]))
    se = np.std(reps[:, iu] - reps[:, ju], axis=0, ddof=1)
    varies = se > 1e-12 * np.maximum(np.abs(d), 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(varies, 2 * norm.sf(np.abs(d) / se), np.where(d == 0, 1.0, 0.0))
    critical = float(norm.isf(alpha / (2 * iu.size)))
    half = np.where(varies, critical * se, 0.0)
    return PairwiseComparisons(iu, ju, d, np.where(varies, se, 0.0), p, holm(p), d - half, d + half, BOOT_Z, alpha,
                               critical, int(reps.shape[0]))


def jackknife_pairs(points: np.ndarray, replicates: np.ndarray, strata: np.ndarray, *,
                    alpha: float = 0.05) -> PairwiseComparisons:
    """Jackknife-t comparisons of all pairs with Holm's adjustment (module docstring, "jackknife").

    ``replicates`` (G, k): every model's value with the g-th group of rows left out (one shared
    set of groups, :func:`prspace.stats.replicates.jackknife`); ``strata`` (G,): the stratum each
    group was drawn from.  A replicate with a NaN (one class left) makes every pair untestable.
    """
    _check(alpha)
    points = np.asarray(points, dtype=np.float64)
    reps = np.asarray(replicates, dtype=np.float64)
    strata = np.asarray(strata)
    k = points.shape[0]
    iu, ju = np.triu_indices(k, 1)
    d = points[iu] - points[ju]
    nan = np.full(iu.size, np.nan)
    if reps.ndim != 2 or reps.shape[1] != k or strata.shape != (reps.shape[0],):
        raise ValueError(f"replicates must have shape (G, {k}) and strata (G,), got {reps.shape}, {strata.shape}")
    if reps.shape[0] < 2 or not (np.isfinite(reps).all() and np.isfinite(points).all()):
        return PairwiseComparisons(iu, ju, d, nan, nan.copy(), nan.copy(), nan.copy(), nan.copy(), JACK_HOLM,
                                   alpha, float("nan"))
    dd = reps[:, iu] - reps[:, ju]  # (G, pairs)
    var, spread = jackknife_variance(dd, strata)
    se = np.sqrt(var)
    scale = np.max(np.abs(dd), axis=0) + np.abs(d)
    varies = se > 1e-12 * np.maximum(scale, 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(varies, var**2 / spread, np.nan)
        p = np.where(varies, 2 * student_t.sf(np.abs(d) / se, df), np.where(d == 0, 1.0, 0.0))
        # Bonferroni's simultaneous intervals (Holm's first step): t quantile at 1 - alpha / (2 pairs)
        half = np.where(varies, student_t.isf(alpha / (2 * iu.size), df) * se, 0.0)
    return PairwiseComparisons(iu, ju, d, np.where(varies, se, 0.0), p, holm(p), d - half, d + half, JACK_HOLM,
                               alpha, float("nan"), int(reps.shape[0]), df)


def jackknife_pairs_batch(points: np.ndarray, replicates: np.ndarray,
                          strata: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`jackknife_pairs` of ``S`` sets at once, without the adjustment and the intervals: the differences, their
    standard errors, raw p-values and degrees of freedom of all pairs, each (S, pairs).

    ``points`` (S, k), ``replicates`` (S, G, k) (every set's replicates leave out groups of the same strata
    ``strata`` (G,)).  The same operations on a set axis, so each set's values equal :func:`jackknife_pairs` of it
    alone up to the order of summation (a set with a NaN replicate or point, or fewer than two replicates: NaN
    se, p and df), which a power simulation of thousands of planned test sets calls once per chunk instead of
    once per set (:func:`prspace.audit.simulation.power_tests.reject`)."""
    points = np.asarray(points, dtype=np.float64)
    reps = np.asarray(replicates, dtype=np.float64)
    strata = np.asarray(strata)
    n_sets, k = points.shape
    if reps.ndim != 3 or reps.shape[0] != n_sets or reps.shape[2] != k or strata.shape != (reps.shape[1],):
        raise ValueError(f"replicates must have shape ({n_sets}, G, {k}) and strata (G,), got {reps.shape}, "
                         f"{strata.shape}")
    iu, ju = np.triu_indices(k, 1)
    d = points[:, iu] - points[:, ju]  # (S, pairs)
    dd = np.moveaxis(reps[:, :, iu] - reps[:, :, ju], 1, 0)  # (G, S, pairs)
    var, spread = jackknife_variance(dd, strata)
    se = np.sqrt(var)
    scale = np.max(np.abs(dd), axis=0) + np.abs(d)
    varies = se > 1e-12 * np.maximum(scale, 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(varies, var**2 / spread, np.nan)
        p = np.where(varies, 2 * student_t.sf(np.abs(d) / se, df), np.where(d == 0, 1.0, 0.0))
    ok = (np.isfinite(reps).all(axis=(1, 2)) & np.isfinite(points).all(axis=1))[:, None] & (reps.shape[1] >= 2)
    nan = np.full(d.shape, np.nan)
    return d, np.where(ok, np.where(varies, se, 0.0), nan), np.where(ok, p, nan), np.where(ok, df, nan)


def level_corrected(r: PairwiseComparisons, corrected_p, raw_threshold) -> PairwiseComparisons:
    """``r`` with its level corrected by simulation (``prspace.audit.inference.decision``): every raw p-value
    replaced by ``corrected_p(p_raw)`` (the share of simulated null pairs at least as extreme: a
    p-value that holds its level where the raw one does not), Holm's adjustment of those, and
    Bonferroni's simultaneous intervals at the raw threshold ``raw_threshold(alpha / P)`` (the raw
    p-value whose corrected p-value is ``alpha / P``): ``d +- q se`` with ``q`` the two-sided
    ``raw_threshold`` quantile of the pair's reference (t with ``df``, else normal)."""
    p = np.where(np.isnan(r.p_raw), np.nan, corrected_p(np.nan_to_num(r.p_raw, nan=1.0)))
    level = raw_threshold(r.alpha / max(r.diff.size, 1))
    with np.errstate(invalid="ignore"):
        q = (student_t.isf(level / 2, r.df) if r.df is not None else np.full(r.diff.size, norm.isf(level / 2)))
    half = np.where(r.se > 0, q * r.se, 0.0)
    return dataclasses.replace(r, p_raw=p, p_adjusted=holm(p), lo=r.diff - half, hi=r.diff + half)
