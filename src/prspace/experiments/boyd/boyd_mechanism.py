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
:func:`prspace.experiments.boyd.fold_skew.reassign_folds` (every row and every fold's size kept),
against the stratified control making as many moves. The statistic is the divergence whose sign and
size the evidence row ``boyd.sec4_1.averaging_optimistic`` counts per task: (mean of per-fold AUPR -
merged AUPR) on the skewed folds minus the same on the control; its Monte Carlo interval is the
normal one over the simulations.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from prspace import metrics
from prspace.core.errors import InputError
from prspace.experiments.boyd.fold_skew import reassign_folds

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


def _fold_mean_aupr(y: np.ndarray, s: np.ndarray, fold: np.ndarray) -> float:
    """Mean over folds of per-fold AUPR."""
    return float(np.mean([metrics.aupr(y[fold == f], s[fold == f]) for f in np.unique(fold)]))


#: At most this many simulations per model (about 13 ms each for all five models).
MAX_SIM = 2000


def fold_averaging_biases(
    separations: Sequence[float] = SEPARATIONS, *, pi: float = 0.1, n: int = 1000, n_folds: int = 10,
    dispersion: float = 0.9, n_sim: int = 200, seed: int = 0, level: float = 0.95,
) -> pd.DataFrame:
    """The averaging bias of one binormal model per separation (module docstring), over ``n_sim``
    simulations, one row of :data:`MECHANISM_COLUMNS` each.

    Simulation ``j`` draws its folds and noise from ``default_rng([seed, j, 0])`` and its swaps
    from ``default_rng([seed, j, 1])`` (both designs pair the folds alike, as in
    :func:`prspace.experiments.boyd.fold_skew.fold_skew_experiment`); every separation scores the same
    rows with the same noise (common random numbers), so a row does not depend on which other
    separations are simulated. The merged AUPR is the same on both designs and cancels from the
    statistic. ``sign`` is ``optimistic`` / ``pessimistic`` where the Monte Carlo interval
    (mean +- z sd / sqrt(n_sim)) excludes 0, else ``not shown``.
    """
    from scipy import stats  # lazy: ~0.5 CPU s a process that never calls it
    n_pos = int(round(pi * n))
    if not (n_folds >= 2 and n_pos >= 2 * n_folds and n - n_pos >= 2 * n_folds):
        raise InputError(f"{n} rows at pi = {pi} give {n_pos} positives: too few for {n_folds} folds with two of "
                         "each class; raise n or pi")
    if not 2 <= n_sim <= MAX_SIM:
        raise InputError(f"n_sim must be between 2 and {MAX_SIM}, got {n_sim}")
    if seed < 0:
        raise InputError(f"the seed must be a non-negative integer, got {seed}")
    seps = np.asarray(separations, dtype=np.float64)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n - n_pos, bool)]
    bias = np.empty((n_sim, seps.size))
    sds = np.empty(n_sim)
    for j in range(n_sim):
        rng = np.random.default_rng([seed, j, 0])
        fold = _stratified_folds(n_pos, n - n_pos, n_folds, rng)
        noise = rng.standard_normal(n)
        sk = reassign_folds(y, fold, dispersion=dispersion, design="skewed", rng=np.random.default_rng([seed, j, 1]))
        st = reassign_folds(y, fold, dispersion=dispersion, design="stratified", rng=np.random.default_rng([seed, j, 1]))
        sds[j] = np.std([y[sk == f].mean() for f in np.unique(sk)], ddof=1)
        for i, sep in enumerate(seps):
            s = noise + sep * y
            bias[j, i] = _fold_mean_aupr(y, s, sk) - _fold_mean_aupr(y, s, st)
    z = float(stats.norm.ppf(0.5 + level / 2))
    rows = []
    for i, sep in enumerate(seps):
        mean, sd = float(bias[:, i].mean()), float(bias[:, i].std(ddof=1))
        lo, hi = mean - z * sd / np.sqrt(n_sim), mean + z * sd / np.sqrt(n_sim)
        rows.append({"separation": float(sep), "auroc": float(stats.norm.cdf(sep / np.sqrt(2.0))),
                     "regime": REGIME.get(float(sep), ""), "pi": float(n_pos / n), "n": int(n), "n_folds": int(n_folds),
                     "dispersion": float(dispersion), "n_sim": int(n_sim), "fold_pi_sd": float(sds.mean()),
                     "bias_mean": mean, "bias_sd": sd, "mc_lo": lo, "mc_hi": hi, "mc_level": float(level),
                     "sign": "optimistic" if lo > 0 else "pessimistic" if hi < 0 else "not shown"})
    return pd.DataFrame(rows, columns=MECHANISM_COLUMNS)


def fold_averaging_bias(separation: float, **kw: object) -> dict[str, object]:
    """:func:`fold_averaging_biases` for one separation, as a dict."""
    return fold_averaging_biases((float(separation),), **kw).iloc[0].to_dict()  # type: ignore[arg-type]


def mechanism_table(separations: Sequence[float] = SEPARATIONS, **kw: object) -> pd.DataFrame:
    """:func:`fold_averaging_biases` at the module's separations (keywords ``kw`` passed on)."""
    return fold_averaging_biases(separations, **kw)  # type: ignore[arg-type]


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
