"""The audit's paired tests on many planned test sets at once (:mod:`prspace.audit.simulation.audit_power`'s step 3):
DeLong's paired z for AUROC on every set in one pass, and the class-stratified jackknife t of the other metrics,
each set's replicates from class counts per tie group (:func:`prspace.stats.binned.left_out_replicates`)."""

from __future__ import annotations

import numpy as np

from prspace.stats.binned import left_out_replicates
from prspace.stats.distributions import norm
from prspace.stats.pairwise import jackknife_pairs

#: The metrics with a power answer.
METRICS = ("auroc", "average_precision", "aupr", "auprg")
#: Jackknife groups per class in a planned test set (at most; fewer rows: delete-one).
GROUPS = 40
#: Bins of positive tie groups a planned test set's jackknife replicates are computed on (its standard error only;
#: the point difference is exact: :func:`prspace.stats.binned.left_out_replicates`).  A planned set of thousands of
#: positives costs a few hundred columns per replicate, not one per positive; at 256 bins the ends of the paired
#: jackknife interval moved by less than a tenth of its half-width (``tests/stats/test_binned.py``), and a power
#: estimate's Monte Carlo se (about 0.03 at 200 sets) is far larger than what the bins move.
POWER_BINS = 512


def _delong_reject(y: np.ndarray, sa: np.ndarray, sb: np.ndarray, alpha: float, sign: float) -> np.ndarray:
    """DeLong's paired z test of every row of ``sa``/``sb`` (sims, n), all at once."""
    pos, neg = y, ~y
    m, n = int(pos.sum()), int(neg.sum())
    d10, d01, auc = 0.0, 0.0, []
    for w, s in ((1.0, sa), (-1.0, sb)):
        from scipy.stats import rankdata  # deferred: scipy.stats (docs/architecture.md)

        tz = rankdata(s, axis=1)
        tx, ty = rankdata(s[:, pos], axis=1), rankdata(s[:, neg], axis=1)
        auc.append((tz[:, pos].sum(axis=1) - m * (m + 1) / 2.0) / (m * n))
        d10 = d10 + w * (tz[:, pos] - tx) / n
        d01 = d01 + w * (1.0 - (tz[:, neg] - ty) / m)
    var = d10.var(axis=1, ddof=1) / m + d01.var(axis=1, ddof=1) / n
    d = auc[0] - auc[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(var > 0, d / np.sqrt(var), np.where(d == 0, 0.0, np.inf * np.sign(d)))
    return (np.abs(z) > norm.isf(alpha / 2)) & (np.sign(d) == sign)


#: Planned test sets DeLong's test takes at once when a rate is only compared with a target (:func:`reject`'s
#: ``need``): the sets after a decided chunk are not tested.
DELONG_CHUNK = 25


def decided(hits: int, done: int, sims: int, need: int) -> bool:
    """Whether ``hits`` rejections in the first ``done`` of ``sims`` test sets already decide if the rate reaches
    ``need`` rejections (:func:`need_for`): reached, or out of reach even if every remaining set rejects."""
    return hits >= need or hits + (sims - done) < need


def need_for(target: float, sims: int) -> int:
    """The fewest rejections ``h`` of ``sims`` sets with ``h / sims >= target`` (the float comparison of
    ``rate >= target``); ``sims + 1`` when none."""
    return next((h for h in range(sims + 1) if h / sims >= target), sims + 1)


def reject(metric: str, y: np.ndarray, sa: np.ndarray, sb: np.ndarray, alpha: float, sign: float = 1.0, *,
           need: int | None = None) -> np.ndarray:
    """Step 3 on given test sets: whether the test of ``metric`` rejects at raw level ``alpha`` with
    sign ``sign`` (a better: +1), per row of ``sa``/``sb`` (sims, n), the rows' labels ``y`` (bool, n).
    ``need``: only whether at least ``need`` sets reject is asked; the sets are tested in order and the
    rest left untested (False) once that is decided (:func:`decided`: the same answer as testing them all)."""
    if metric not in METRICS:
        raise ValueError(f"no power answer for {metric!r}; choose one of {', '.join(METRICS)}")
    if metric == "auroc":
        if need is None:
            return _delong_reject(y, sa, sb, alpha, sign)
        hit = np.zeros(sa.shape[0], dtype=bool)
        for s0 in range(0, sa.shape[0], DELONG_CHUNK):  # each set's test is its own row: chunks change nothing
            hit[s0 : s0 + DELONG_CHUNK] = _delong_reject(y, sa[s0 : s0 + DELONG_CHUNK], sb[s0 : s0 + DELONG_CHUNK],
                                                          alpha, sign)
            if decided(int(hit.sum()), min(s0 + DELONG_CHUNK, sa.shape[0]), sa.shape[0], need):
                break
        return hit
    hit = np.zeros(sa.shape[0], dtype=bool)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    g_pos, g_neg = min(n_pos, GROUPS), min(n_neg, GROUPS)
    strata = np.r_[np.ones(g_pos, np.int64), np.zeros(g_neg, np.int64)]
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    # the rows are exchangeable within a class: consecutive slices of each class are random groups
    group = np.empty(y.size, dtype=np.int64)
    group[pos] = np.arange(n_pos) * g_pos // n_pos
    group[neg] = g_pos + np.arange(n_neg) * g_neg // n_neg
    for s in range(sa.shape[0]):  # each group's counts subtracted from the whole set's: no row weights per replicate
        reps = left_out_replicates(y, [sa[s], sb[s]], group, g_pos + g_neg, metric, bins=POWER_BINS)
        r = jackknife_pairs(reps[0], reps[1:], strata, alpha=alpha)
        hit[s] = bool(r.p_raw[0] < alpha) and np.sign(r.diff[0]) == sign
        if need is not None and decided(int(hit.sum()), s + 1, sa.shape[0], need):
            break
    return hit
