"""The audit's paired tests on many planned test sets at once (:mod:`prspace.audit.simulation.audit_power`'s step 3):
DeLong's paired z for AUROC on every set in one pass, and the class-stratified jackknife t of the other metrics,
each set's replicates from class counts per tie group (:func:`prspace.stats.binned.left_out_replicates`), a chunk of
sets in one kernel call (:func:`prspace.stats.binned.left_out_replicates_sets`) and one vectorised jackknife t
(:func:`prspace.stats.pairwise.jackknife_pairs_batch`): the same decisions as testing the sets one at a time
(``tests/audit/test_power_batch.py``), without a kernel call and a jackknife per set."""

from __future__ import annotations

import numpy as np

from prspace.stats.binned import left_out_replicates, left_out_replicates_sets
from prspace.stats.distributions import average_ranks, norm
from prspace.stats.pairwise import jackknife_pairs, jackknife_pairs_batch
from prspace.stats.replicates import (
    BOOT_METRICS,
    JACK_GROUPS,
    Block,
    jackknife,
    point_metrics,
    stable_groups,
)

#: The metrics with a power answer.
METRICS = ("auroc", "average_precision", "aupr", "auprg")
#: Jackknife groups per class in a planned test set (at most; fewer rows: delete-one).
GROUPS = 40
#: Bins of positive tie groups a planned test set's jackknife replicates are computed on (its standard error and
#: degrees of freedom only; the point difference is exact: :func:`prspace.stats.binned.left_out_replicates`).  A
#: planned set of thousands of positives costs this many columns per replicate, not one per positive.  The fewest bins
#: whose test intervals' ends moved by less than a tenth of the half-width against exact, on every planned set
#: measured (issue 59's rule; ``benchmarks/bench_power_bins.py``, the power-bins block of ``docs/benchmarks.md``,
#: checked against this value in ``tests/repo/test_benchmark_docs.py``).
POWER_BINS = 128


def _delong_reject(y: np.ndarray, sa: np.ndarray, sb: np.ndarray, alpha: float, sign: float) -> np.ndarray:
    """DeLong's paired z test of every row of ``sa``/``sb`` (sims, n), all at once."""
    pos, neg = y, ~y
    m, n = int(pos.sum()), int(neg.sum())
    d10, d01, auc = 0.0, 0.0, []
    for w, s in ((1.0, sa), (-1.0, sb)):
        # average ranks per row: scipy.stats.rankdata's bit for bit, without importing scipy.stats (a second or two)
        tz = average_ranks(s)
        tx, ty = average_ranks(s[:, pos]), average_ranks(s[:, neg])
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


def pair_block(y: np.ndarray, a: np.ndarray, b: np.ndarray, w: np.ndarray | None = None) -> Block:
    """Two models' scores ``a``, ``b`` on the rows ``y`` (weights ``w``) as the audit's block of one task: the
    point metrics and jackknife of :mod:`prspace.stats.replicates` read it."""
    groups = [np.unique(-s, return_inverse=True)[1].ravel() for s in (a, b)]
    return Block("power", ["a", "b"], y, y.astype(np.int64), np.ones(y.size) if w is None else w, groups, [a, b])


def grouped_reject(metric: str, y: np.ndarray, a: np.ndarray, b: np.ndarray, w: np.ndarray, g: np.ndarray,
                   alpha: float, sign: float, rng: np.random.Generator) -> bool:
    """Step 3 with groups, on one test set: whether the audit's grouped test (jackknife t leaving out
    one group at a time, one stratum; :func:`prspace.stats.replicates.jackknife` of a grouped block)
    of ``metric`` rejects at raw level ``alpha`` with sign ``sign`` (0: either sign, the two-sided
    test); ``g`` the rows' group codes 0..G-1."""
    if metric not in METRICS:
        raise ValueError(f"no power answer for {metric!r}; choose one of {', '.join(METRICS)}")
    block = pair_block(y, a, b, w)
    block.cluster = g
    block.cluster_stratum = np.zeros(int(g.max()) + 1, dtype=np.int64)
    col = BOOT_METRICS.index(metric)
    if np.all(block.weight == 1.0):  # the same left-out groups (the same draws) as jackknife(block), from counts
        parts, strata = stable_groups(block.cluster_stratum, max_groups=JACK_GROUPS, rng=rng)
        part_of = np.empty(block.cluster_stratum.size, dtype=np.int64)
        part_of[np.concatenate(parts)] = np.repeat(np.arange(len(parts)), [p.size for p in parts])
        reps = left_out_replicates(y, [a, b], part_of[g], len(parts), metric, bins=POWER_BINS)
        r = jackknife_pairs(reps[0], reps[1:], strata, alpha=alpha)
    else:
        jack, strata = jackknife(block, rng=rng)
        r = jackknife_pairs(point_metrics(block)[:, col], jack[:, :, col], strata, alpha=alpha)
    return bool(r.p_raw[0] < alpha) and (sign == 0 or np.sign(r.diff[0]) == sign)


def grouped_rate(pair, metric: str, *, c: float, n_groups: int, alpha: float, sims: int,
                  rng: np.random.Generator, sign: float, need: int | None = None) -> tuple[float, float]:
    """Steps 2-4 with groups, for a grouped population ``pair`` (an :class:`prspace.audit.simulation.audit_power.Pair`,
    not imported: that module imports this one): ``sims`` planned test sets of ``n_groups`` groups drawn with replacement
    from the population's, each keeping its rows (a group drawn twice counts twice); ``need``: as
    :func:`prspace.audit.simulation.audit_power.detection_rate`'s."""
    codes = np.unique(pair.g, return_inverse=True)[1].ravel()  # 0..G-1, every code a group
    order = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    a = pair.a + c * pair.y
    w = np.ones(pair.y.size) if pair.w is None else pair.w
    hit = np.zeros(sims, dtype=bool)
    stratum = np.zeros(n_groups, dtype=np.int64)  # one stratum: the groups are not split by class
    per_pos = float(sizes @ np.bincount(codes, weights=pair.y.astype(np.float64)) / sizes.sum())
    chunk = set_chunk(2 * (2 * min(int(n_groups * per_pos) + 1, POWER_BINS) + 1), 2 * (min(n_groups, JACK_GROUPS) + 1))
    for s0 in range(0, sims, chunk):
        s1 = min(s0 + chunk, sims)
        batch: dict[int, list] = {}  # the chunk's unit-weight sets by their number of left-out sets of groups
        for s in range(s0, s1):  # the draws in the order of one set at a time: the set, then its left-out groups
            drawn = rng.integers(0, sizes.size, n_groups)
            lens = sizes[drawn]
            ends = np.cumsum(lens)
            rows = order[np.repeat(starts[drawn] - (ends - lens), lens) + np.arange(ends[-1])]
            y = pair.y[rows]
            if y.all() or not y.any():
                continue  # one class: the audit cannot test it
            g = np.repeat(np.arange(n_groups), lens)
            if not np.all(w[rows] == 1.0):
                hit[s] = grouped_reject(metric, y, a[rows], pair.b[rows], w[rows], g, alpha, sign, rng)
                continue
            # the same left-out groups (the same draws) as jackknife() of the set's grouped block, from counts
            parts, strata = stable_groups(stratum, max_groups=JACK_GROUPS, rng=rng)
            part_of = np.empty(n_groups, dtype=np.int64)
            part_of[np.concatenate(parts)] = np.repeat(np.arange(len(parts)), [p.size for p in parts])
            batch.setdefault(len(parts), []).append((s, rows, part_of[g], strata))
        for sets in batch.values():
            rows = np.concatenate([r for _, r, _, _ in sets])
            hit[[s for s, _, _, _ in sets]] = jackknife_rejects(
                metric, pair.y[rows], a[rows], pair.b[rows], np.repeat(np.arange(len(sets)), [r.size for _, r, _, _ in sets]),
                len(sets), np.concatenate([q for _, _, q, _ in sets]), sets[0][3], alpha, sign)
        stop = s1 if need is None else first_decided(hit, s0, s1, need)
        if stop < s1:
            hit[stop + 1 : s1] = False
            break
    p = float(hit.mean())
    return p, float(np.sqrt(p * (1 - p) / sims))
