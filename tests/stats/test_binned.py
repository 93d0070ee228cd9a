"""The jackknife on binned scores (:mod:`prspace.stats.binned`, issue 59): a coarsening of the tie groups that
keeps every row's class and order, exact below the bin count, and jackknife-t intervals whose ends move by less
than a tenth of their half-width (the audit's bound) on untied scores made here."""

from __future__ import annotations

import numpy as np

from prspace.stats.binned import binned_block, binned_groups
from prspace.stats.intervals import jackknife_interval
from prspace.stats.pairwise import jackknife_pairs
from prspace.stats.replicates import Block, jackknife, point_metrics


def _block(n: int, pi: float, seed: int) -> Block:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < pi).astype(np.int8)
    scores = [1 / (1 + np.exp(-(y * (1.0 + 0.3 * k) + rng.normal(size=n) - 3))) for k in range(3)]
    groups = [np.unique(-s, return_inverse=True)[1].ravel() for s in scores]
    return Block("t", ["a", "b", "c"], y, y.astype(np.int64), np.ones(n), groups, scores)


def test_binning_coarsens_the_order_and_keeps_few_groups_exact():
    b = _block(4000, 0.1, 0)
    g, y = b.groups[0], b.y
    coarse = binned_groups(g, y, 32)
    order = np.argsort(g)
    assert (np.diff(coarse[order]) >= 0).all()  # a higher score never gets a lower bin
    assert np.unique(coarse[y == 1]).size <= 32 < np.unique(g[y == 1]).size
    assert np.array_equal(np.unique(coarse), np.arange(coarse.max() + 1))  # consecutive codes
    assert np.array_equal(binned_groups(g, y, 10**6), g)
    assert binned_block(b, 10**6) is b


def test_binned_jackknife_t_ends_move_less_than_a_tenth_of_the_half_width():
    b = _block(30_000, 0.05, 1)  # about 1,500 positives, binned into 256
    points = point_metrics(b)
    exact, strata = jackknife(b, rng=np.random.default_rng(0))
    coarse, strata2 = jackknife(binned_block(b, 256), rng=np.random.default_rng(0))
    assert np.array_equal(strata, strata2)
    lo, hi = jackknife_interval(points, exact, strata, 0.95)
    lo2, hi2 = jackknife_interval(points, coarse, strata, 0.95)
    half = (hi - lo) / 2
    assert np.isfinite(half).all() and (half > 0).all()
    assert (np.fmax(np.abs(lo2 - lo), np.abs(hi2 - hi)) < 0.1 * half).all()
    assert not np.array_equal(exact, coarse)  # the binned path was taken
    for c in range(points.shape[1]):
        e = jackknife_pairs(points[:, c], exact[:, :, c], strata)
        k = jackknife_pairs(points[:, c], coarse[:, :, c], strata)
        assert (np.fmax(np.abs(k.lo - e.lo), np.abs(k.hi - e.hi)) < 0.1 * (e.hi - e.lo) / 2).all()


def test_binned_bootstrap_shifted_to_the_exact_points_moves_percentile_ends_less_than_a_tenth():
    from prspace.stats.intervals import percentile
    from prspace.stats.replicates import bootstrap

    b = _block(30_000, 0.05, 2)
    coarse_block = binned_block(b, 256)
    exact = bootstrap(b, n_boot=200, rng=np.random.default_rng(0), scheme="class")
    coarse = bootstrap(coarse_block, n_boot=200, rng=np.random.default_rng(0), scheme="class")
    coarse += (point_metrics(b) - point_metrics(coarse_block))[None]  # as the audit (uncertainty._binned_bootstrap)
    lo, hi = percentile(exact, 0.95)
    lo2, hi2 = percentile(coarse, 0.95)
    assert (np.fmax(np.abs(lo2 - lo), np.abs(hi2 - hi)) < 0.1 * (hi - lo) / 2).all()
    d, d2 = exact[:, 0] - exact[:, 2], coarse[:, 0] - coarse[:, 2]
    (dlo, dhi), (dlo2, dhi2) = percentile(d[:, None, :], 0.95), percentile(d2[:, None, :], 0.95)
    assert (np.fmax(np.abs(dlo2 - dlo), np.abs(dhi2 - dhi)) < 0.1 * (dhi - dlo) / 2).all()


def test_set_tie_groups_row_by_row_equal_one_lexsort_for_every_layout():
    """Planned sets side by side (``np.repeat(np.arange(k), n)``) are sorted row by row; the tie groups are those
    of one ``np.lexsort`` of (set, -score), ties and a one-set layout included; other layouts take the lexsort."""
    from prspace.stats.binned import _set_tie_groups

    def by_lexsort(sets, s):
        order = np.lexsort((-s, sets))
        ss, vs = sets[order], -s[order]
        new = np.ones(order.size, dtype=bool)
        new[1:] = (ss[1:] != ss[:-1]) | (vs[1:] != vs[:-1])
        code = np.empty(order.size, dtype=np.int64)
        code[order] = np.cumsum(new) - 1
        return code, ss[new]

    rng = np.random.default_rng(3)
    pool = np.round(rng.random(40), 2)  # ties within and across sets
    layouts = [np.repeat(np.arange(7), 30), np.zeros(25, dtype=np.int64), np.repeat(np.arange(4), [5, 9, 1, 6]),
               rng.permutation(np.repeat(np.arange(5), 8))]
    for sets in layouts:
        s = pool[rng.integers(0, pool.size, size=sets.size)]
        got, want = _set_tie_groups(sets, s), by_lexsort(sets, s)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
