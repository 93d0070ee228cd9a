"""Why averaging per-fold AUPR over folds of different skew is pessimistic for good models and
optimistic only near the worst ranking (Boyd et al. 2012, section 4.1, checked on one model).

Boyd et al. argue from the floor: every fold's AUPR is at least AUCPR_MIN(pi_fold) (Theorem 2),
which is convex in pi, so the mean over folds of the floors exceeds the floor at the merged skew
and "straightforward averaging" is "overly optimistic". That holds for the worst ranking, whose
AUPR *is* the floor. For a better-than-random model the curve is far from the floor: at a fixed
ROC point (true positive rate t, false positive rate f) precision is

    p(pi) = pi t / (pi t + (1 - pi) f),    d2p/dpi2 = -2 t f (t - f) / (pi (t - f) + f)^3,

concave in pi when t > f (better than random) and convex when t < f (worse than random). By
Jensen's inequality the mean over folds of per-fold precision at a fixed ROC point is then *below*
the precision at the mean skew for a good model and above it for a bad one; AUPR integrates
precision over recall (t), so the same sign follows for the fold mean of AUPR.

:func:`fold_averaging_bias` checks this on a single simulated model, with nothing else that could
move the fold mean: binormal scores (negatives N(0, 1), positives N(separation, 1); AUROC
Phi(separation / sqrt 2)), one population, one scoring function (no training, so no mixing of
different models across folds), stratified folds made to differ in skew by the swaps of
:func:`prspace.experiments.fold_skew.reassign_folds` (every row and every fold's size kept),
against the stratified control making as many moves. The statistic is the one of the evidence row
``boyd.sec4_1.averaging_optimistic``: (mean of per-fold AUPR - merged AUPR) on the skewed folds
minus the same on the control; its Monte Carlo interval is the normal one over the simulations.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from prspace import metrics
from prspace.errors import InputError
from prspace.experiments.fold_skew import reassign_folds

#: Binormal separations simulated: near the worst ranking (AUROC 0.02), worse than random,
#: random, and two good models (AUROC 0.76, 0.92).
SEPARATIONS: tuple[float, ...] = (-3.0, -1.0, 0.0, 1.0, 2.0)
#: What a separation stands for, for the table and the row's detail.
REGIME = {-3.0: "near the worst ranking", -1.0: "worse than random", 0.0: "random", 1.0: "better than random",
          2.0: "good model"}

MECHANISM_COLUMNS = [
    "separation", "auroc", "regime", "pi", "n", "n_folds", "dispersion", "n_sim", "fold_pi_sd",
    "bias_mean", "bias_sd", "mc_lo", "mc_hi", "mc_level", "sign",
]


def _stratified_folds(n_pos: int, n_neg: int, k: int, rng: np.random.Generator) -> np.ndarray:
    return np.r_[rng.permutation(np.arange(n_pos) % k), rng.permutation(np.arange(n_neg) % k)]


def _fold_mean_aupr(y: np.ndarray, s: np.ndarray, fold: np.ndarray) -> tuple[float, float]:
    """Mean over folds of per-fold AUPR, and the realised sd of the folds' pi."""
    vals, pis = [], []
    for f in np.unique(fold):
        m = fold == f
        vals.append(metrics.aupr(y[m], s[m]))
        pis.append(y[m].mean())
    return float(np.mean(vals)), float(np.std(pis, ddof=1))


def fold_averaging_bias(
    separation: float, *, pi: float = 0.1, n: int = 1000, n_folds: int = 10, dispersion: float = 0.9,
    n_sim: int = 200, seed: int = 0, level: float = 0.95,
) -> dict[str, object]:
    """The averaging bias of one binormal model (module docstring), over ``n_sim`` simulations.

    Simulation ``j`` draws its data from ``default_rng([seed, j, 0])`` and its swaps from
    ``default_rng([seed, j, 1])`` (both designs pair the folds alike, as in
    :func:`prspace.experiments.fold_skew.fold_skew_experiment`), so every separation sees the same
    labels, folds and noise (common random numbers). Returns one row of
    :data:`MECHANISM_COLUMNS`; ``sign`` is ``optimistic`` / ``pessimistic`` where the Monte Carlo
    interval (mean +- z sd / sqrt(n_sim)) excludes 0, else ``not shown``.
    """
    n_pos = int(round(pi * n))
    if not (n_folds >= 2 and n_pos >= 2 * n_folds and n - n_pos >= 2 * n_folds):
        raise InputError(f"{n} rows at pi = {pi} give {n_pos} positives: too few for {n_folds} folds with two of "
                         "each class; raise n or pi")
    if n_sim < 2:
        raise InputError(f"n_sim must be at least 2, got {n_sim}")
    y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
    bias = np.empty(n_sim)
    sds = np.empty(n_sim)
    for j in range(n_sim):
        rng = np.random.default_rng([seed, j, 0])
        fold = _stratified_folds(n_pos, n - n_pos, n_folds, rng)
        s = rng.standard_normal(n) + separation * y
        merged = metrics.aupr(y, s)
        out = {}
        for design in ("skewed", "stratified"):
            fk = reassign_folds(y, fold, dispersion=dispersion, design=design, rng=np.random.default_rng([seed, j, 1]))
            out[design] = _fold_mean_aupr(y, s, fk)
        bias[j] = (out["skewed"][0] - merged) - (out["stratified"][0] - merged)
        sds[j] = out["skewed"][1]
    mean, sd = float(bias.mean()), float(bias.std(ddof=1))
    half = float(stats.norm.ppf(0.5 + level / 2)) * sd / np.sqrt(n_sim)
    lo, hi = mean - half, mean + half
    return {"separation": float(separation), "auroc": float(stats.norm.cdf(separation / np.sqrt(2.0))),
            "regime": REGIME.get(float(separation), ""), "pi": float(n_pos / n), "n": int(n), "n_folds": int(n_folds),
            "dispersion": float(dispersion), "n_sim": int(n_sim), "fold_pi_sd": float(sds.mean()),
            "bias_mean": mean, "bias_sd": sd, "mc_lo": lo, "mc_hi": hi, "mc_level": float(level),
            "sign": "optimistic" if lo > 0 else "pessimistic" if hi < 0 else "not shown"}


def mechanism_table(separations: Sequence[float] = SEPARATIONS, **kw: object) -> pd.DataFrame:
    """:func:`fold_averaging_bias` at each separation (keywords ``kw`` passed on), one row each."""
    return pd.DataFrame([fold_averaging_bias(float(s), **kw) for s in separations], columns=MECHANISM_COLUMNS)  # type: ignore[arg-type]


def mechanism_sentence(table: pd.DataFrame | None) -> str:
    """The finding in words from a :func:`mechanism_table`: the bias near the worst ranking and
    for the best simulated model, with their Monte Carlo intervals."""
    if table is None or table.empty:
        return "the single-model simulation was not run"
    t = table.sort_values("separation")
    worst, best = t.iloc[0], t.iloc[-1]
    r = t.iloc[0]

    def one(x: pd.Series) -> str:
        return (f"{x['bias_mean']:+.4f} [{x['mc_lo']:+.4f}, {x['mc_hi']:+.4f}] at AUROC {x['auroc']:.2f} "
                f"({x['sign']})")

    return (f"one binormal model, no mixing of models across folds, pi {r['pi']:g}, {int(r['n'])} rows, "
            f"{int(r['n_folds'])} folds, dispersion {r['dispersion']:g} (fold pi sd {r['fold_pi_sd']:.3f}), "
            f"{int(r['n_sim'])} simulations, {r['mc_level']:.0%} Monte Carlo intervals: near the worst ranking "
            f"{one(worst)}; good model {one(best)}")
