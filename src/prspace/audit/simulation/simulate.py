"""Calibration of the audit's intervals and all-pairs procedures under a known truth, across skew.

The truth (:func:`draw`): k = :data:`MODELS` models score n rows, ``round(pi n)`` of them
positive; model i's score is ``mu_i y + sqrt(RHO) z + sqrt(1 - RHO) e_i + o_f`` with a shared
``z`` and own ``e_i`` (standard normal, so the models' scores correlate RHO within a class) and a
fold offset ``o_f = FOLD_SHIFT (f - 2)`` of the row's fold f, drawn uniformly from
:data:`FOLDS` folds per row (unstratified folds: a test set's fold class counts vary).  Each
class's scores are a mixture over the folds of unit normals, so every metric's population value
(:func:`population`) is the project's own kernel
(:func:`prspace.metrics.metrics_from_group_counts_batch`) on the class-weighted masses of a fine
score grid.  Under the *null* every ``mu_i = MU``; under the *alternative* model 0 has ``MU +
GAP`` (a planted lead over four equal models).

Per replicate (:func:`replicate`, the one simulation replicate of the audit's calibrations: this
module's paired tests and the intervals of :mod:`prspace.audit.simulation.coverage_calib`) the audit's machinery runs as in
``prspace audit``: DeLong, the percentile bootstrap within class, the stratified jackknife; the
paired tests read from it (:func:`paired_tests`) are DeLong-Holm, the bootstrap z and the
jackknife-t Holm.  :func:`calibrate` returns per
statistic the share of replicates and its Monte Carlo standard error ``sqrt(p (1 - p) / R)``:

* ``coverage`` of every per-model 95% interval the audit prints (population value inside);
* ``fwer``: some pair declared different with the wrong sign or where the truths are equal
  (directional family-wise error); rank sets built from the decisions miss a true rank exactly
  then, so their coverage is ``1 - fwer``;
* ``simultaneous``: every pair's true difference inside its simultaneous interval;
* ``power`` (alternative only): the share of the four true leads declared, right sign.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from prspace import metrics as M
from prspace.core.defaults import N_BOOT_REPLICATE
from prspace.stats.delong import delong
from prspace.stats.distributions import norm
from prspace.stats.pairwise import bootstrap_z_pairs, delong_pairs, jackknife_pairs
from prspace.stats.replicates import BOOT_METRICS, Block, bootstrap, jackknife, point_metrics

MODELS, RHO, FOLDS, FOLD_SHIFT, MU, GAP = 5, 0.5, 5, 0.25, 1.5, 0.5
#: The all-pairs procedures, as :func:`calibrate` names them.
PROCEDURES = ("DeLong-Holm", "max-T (class)", "max-T (class x fold)", "jackknife-Holm")


def means(alternative: bool) -> np.ndarray:
    mu = np.full(MODELS, MU)
    if alternative:
        mu[0] += GAP
    return mu


def population(mu: np.ndarray, pi: float, grid: int = 40_000) -> np.ndarray:
    """Population values (models, :data:`BOOT_METRICS`) of the mixture in the module docstring."""
    offsets = FOLD_SHIFT * (np.arange(FOLDS) - 2.0)
    t = np.linspace(12.0, -9.0, grid)  # descending: group 0 holds the highest scores
    out = np.empty((mu.size, len(BOOT_METRICS)))
    for i, m in enumerate(mu):
        tpr = norm.sf(t[:, None] - m - offsets).mean(axis=1)
        fpr = norm.sf(t[:, None] - offsets).mean(axis=1)
        tp = pi * np.diff(np.r_[0.0, tpr, 1.0])
        fp = (1 - pi) * np.diff(np.r_[0.0, fpr, 1.0])
        r = M.metrics_from_group_counts_batch(tp[None, :], fp[None, :])
        out[i] = [float(r[name][0]) for name in BOOT_METRICS]
    return out


def draw(rng: np.random.Generator, n: int, pi: float, mu: np.ndarray) -> Block:
    """One test set of the module docstring's truth, as the audit's :class:`Block`."""
    n_pos = max(2, int(round(pi * n)))
    y = np.zeros(n, dtype=bool)
    y[:n_pos] = True
    fold = rng.integers(0, FOLDS, n)
    z = rng.standard_normal(n)
    e = rng.standard_normal((mu.size, n))
    s = mu[:, None] * y + np.sqrt(RHO) * z + np.sqrt(1 - RHO) * e + FOLD_SHIFT * (fold - 2.0)
    groups = [np.unique(-row, return_inverse=True)[1].ravel() for row in s]
    return Block("sim", [f"m{i}" for i in range(mu.size)], y, 2 * fold + y.astype(np.int64), np.ones(n),
                 groups, list(s))


def _pair_rows(r, true_diff: np.ndarray, metric: str, method: str) -> list[dict]:
    """One row per pair: the raw p-value, the estimate, its se and degrees of freedom (NaN: normal),
    and the true difference (what :func:`prspace.audit.inference.decision.rule_table` needs to correct the level
    and to measure the corrected procedure's errors, power and simultaneous coverage)."""
    df = getattr(r, "df", None)
    df = np.full(r.diff.size, np.nan) if df is None else df
    return [{"metric": metric, "method": method, "pair": p, "p_raw": float(r.p_raw[p]), "diff": float(r.diff[p]),
             "se": float(r.se[p]), "df": float(df[p]), "true_diff": float(np.round(true_diff[p], 12))}
            for p in range(r.diff.size)]


@dataclass(frozen=True)
class Replicate:
    """The audit's machinery on one simulated test set (:func:`replicate`), which the paired tests
    (:func:`paired_tests`) and the interval coverage (:func:`prspace.audit.simulation.coverage_calib.coverage_outcomes`)
    are read from: the models' point metrics (models, :data:`BOOT_METRICS`), DeLong's AUROCs and
    covariance, the percentile bootstrap's replicates within class (``(n_boot, models, metrics)``)
    and the stratified jackknife's replicates and strata."""

    block: Block
    points: np.ndarray
    delong: tuple[np.ndarray, np.ndarray]
    boot: np.ndarray
    jack: np.ndarray
    strata: np.ndarray


def replicate(block: Block, rng: np.random.Generator, *, n_boot: int = N_BOOT_REPLICATE,
              jackknife_block: Block | None = None) -> Replicate:
    """One simulation replicate: on ``block`` (a test set of :func:`draw`), DeLong's fit, the point
    metrics, ``n_boot`` bootstrap resamples within class (as the audit draws them) and then the
    stratified jackknife (:func:`prspace.stats.replicates.jackknife`) of ``jackknife_block`` (``block``
    with other strata; default ``block`` itself, class x fold), both from ``rng`` in that order."""
    fit = delong(block.y, np.vstack(block.scores))
    pts = point_metrics(block)
    boot = bootstrap(block, n_boot=n_boot, rng=rng, scheme="class")
    jack, strata = jackknife(block if jackknife_block is None else jackknife_block, rng=rng)
    return Replicate(block, pts, fit, boot, jack, strata)


def replicates(pi: float, n: int, reps: int, *, alternative: bool, seed: int, stream: tuple[int, ...] = ()
               ) -> Iterator[tuple[Block, np.ndarray, np.random.Generator]]:
    """``reps`` test sets of the truth at ``(pi, n)`` (:func:`draw`), each with the truth's population
    values (:func:`population`) and the generator its replicate draws from next: one stream per cell
    and truth, ``numpy.random.default_rng([seed, round(pi 10^6), n, alternative, *stream])``."""
    rng = np.random.default_rng([seed, int(round(pi * 1e6)), n, int(alternative), *stream])
    mu = means(alternative)
    truth = population(mu, pi)
    for _ in range(reps):
        yield draw(rng, n, pi, mu), truth, rng


def paired_tests(r: Replicate, truth: np.ndarray, *, alpha: float = 0.05) -> list[dict]:
    """Raw paired tests of one replicate (rows of :func:`_pair_rows`): DeLong's for AUROC, and for every
    metric the paired bootstrap z (the replicate's resamples within class) and the stratified
    jackknife t (class x fold)."""
    rows: list[dict] = []
    iu, ju = np.triu_indices(len(r.block.models), 1)
    est, cov = r.delong
    true_d = truth[iu] - truth[ju]  # (pairs, metrics)
    rows += _pair_rows(delong_pairs(est, cov, alpha=alpha, n_sim=10, seed=1), true_d[:, 0], "auroc", "DeLong-Holm")
    for c, metric in enumerate(BOOT_METRICS):
        rows += _pair_rows(bootstrap_z_pairs(r.points[:, c], r.boot[:, :, c], alpha=alpha), true_d[:, c], metric,
                           "bootstrap-z (class)")
    for c, metric in enumerate(BOOT_METRICS):
        rows += _pair_rows(jackknife_pairs(r.points[:, c], r.jack[:, :, c], r.strata, alpha=alpha), true_d[:, c],
                           metric, "jackknife-Holm")
    return rows


def calibrate(pi: float, n: int, reps: int, *, alternative: bool, seed: int = 0) -> pd.DataFrame:
    """``reps`` replicates at ``(pi, n)``: one row per replicate ``rep``, metric, method and pair
    (:func:`paired_tests` of :func:`replicate`), with the cell (``pi, n, n_pos, truth``); each cell and
    truth has its own seeded stream (:func:`replicates`)."""
    rows = []
    for rep, (block, truth, rng) in enumerate(replicates(pi, n, reps, alternative=alternative, seed=seed)):
        rows += [dict(r, rep=rep) for r in paired_tests(replicate(block, rng), truth)]
    return pd.DataFrame(rows).assign(pi=pi, n=n, n_pos=max(2, int(round(pi * n))),
                                     truth="alternative" if alternative else "null")
