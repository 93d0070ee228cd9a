"""The audit's paired tests on many planned test sets at once (:mod:`prspace.audit.simulation.audit_power`'s step 3):
DeLong's paired z for AUROC on every set in one pass, and the class-stratified jackknife t of the other metrics,
each set's replicates from class counts per tie group (:func:`prspace.stats.binned.left_out_replicates`), a chunk of
sets in one kernel call (:func:`prspace.stats.binned.left_out_replicates_sets`) and one vectorised jackknife t
(:func:`prspace.stats.pairwise.jackknife_pairs_batch`): the same decisions as testing the sets one at a time
(``tests/audit/test_power_batch.py``), without a kernel call and a jackknife per set."""

from __future__ import annotations

import numpy as np

from prspace.stats.binned import left_out_replicates_sets
from prspace.stats.distributions import norm
from prspace.stats.pairwise import jackknife_pairs_batch

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
    sims, n = sa.shape
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    g_pos, g_neg = min(n_pos, GROUPS), min(n_neg, GROUPS)
    strata = np.r_[np.ones(g_pos, np.int64), np.zeros(g_neg, np.int64)]
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    # the rows are exchangeable within a class: consecutive slices of each class are random groups
    group = np.empty(y.size, dtype=np.int64)
    group[pos] = np.arange(n_pos) * g_pos // n_pos
    group[neg] = g_pos + np.arange(n_neg) * g_neg // n_neg
    hit = np.zeros(sims, dtype=bool)
    chunk = set_chunk(2 * (2 * min(n_pos, POWER_BINS) + 1), 2 * (g_pos + g_neg + 1))
    for s0 in range(0, sims, chunk):  # each group's counts subtracted from the whole set's: no row weights per replicate
        s1 = min(s0 + chunk, sims)
        k = s1 - s0
        hit[s0:s1] = jackknife_rejects(metric, np.tile(y, k), sa[s0:s1].ravel(), sb[s0:s1].ravel(),
                                       np.repeat(np.arange(k), n), k, np.tile(group, k), strata, alpha, sign)
        stop = s1 if need is None else first_decided(hit, s0, s1, need)
        if stop < s1:
            hit[stop + 1 : s1] = False
            break
    return hit


def jackknife_rejects(metric: str, y: np.ndarray, a: np.ndarray, b: np.ndarray, sets: np.ndarray, n_sets: int,
                      part: np.ndarray, strata: np.ndarray, alpha: float, sign: float) -> np.ndarray:
    """Whether the jackknife t of ``metric`` (models ``a`` against ``b``, leaving out each part of rows; ``strata``
    the part's stratum) rejects at raw level ``alpha`` with sign ``sign`` (0: either), for each of ``n_sets`` test
    sets given side by side (``sets``: each row's set; ``part``: its part within the set), from one kernel call
    (:func:`prspace.stats.binned.left_out_replicates_sets`) and one vectorised jackknife
    (:func:`prspace.stats.pairwise.jackknife_pairs_batch`)."""
    reps = left_out_replicates_sets(y, [a, b], sets, n_sets, part, strata.size, metric, bins=POWER_BINS)
    diff, _, p_raw, _ = jackknife_pairs_batch(reps[:, 0], reps[:, 1:], strata)
    return (p_raw[:, 0] < alpha) & ((sign == 0) | (np.sign(diff[:, 0]) == sign))


#: Count cells (tie-group columns x resamples) of one kernel call over a chunk of planned test sets, at most (unless
#: one set needs more): chunks of sets save a kernel call and a jackknife per set at small sizes; at large sizes a
#: set alone fills the kernel's arrays, and larger arrays than this only leave the processor's caches.
CHUNK_CELLS = 1 << 18


def set_chunk(keys: int, resamples: int) -> int:
    """How many planned test sets of ``keys`` count columns and ``resamples`` replicates (both models) one kernel
    call takes: :data:`CHUNK_CELLS` worth, at least 1 and at most :data:`DELONG_CHUNK` (the early stop is
    decided after each chunk: the sets tested past the decision are at most a chunk less one)."""
    return int(max(1, min(DELONG_CHUNK, CHUNK_CELLS // max(1, keys * resamples))))


def first_decided(hit: np.ndarray, s0: int, s1: int, need: int) -> int:
    """The first set of ``s0..s1 - 1`` after which :func:`decided` holds (the hits of the sets before ``s0`` counted),
    ``s1`` if none: a chunk's sets past it are left untested (False), as when the sets are tested one at a time."""
    hits, sims = int(hit[:s0].sum()), hit.size
    for s in range(s0, s1):
        hits += int(hit[s])
        if decided(hits, s + 1, sims, need):
            return s
    return s1
