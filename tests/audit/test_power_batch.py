"""Planned test sets tested in chunks (issue 59: ``prspace power`` in seconds) decide as the sets tested one at a time.

The oracles are the one-set functions the chunked path replaces: :func:`prspace.stats.binned.left_out_replicates`
(each set's jackknife replicates from its class counts), :func:`prspace.stats.pairwise.jackknife_pairs` (each set's
jackknife t) and the one-set loop of :func:`prspace.audit.simulation.power_tests.reject` and of the grouped rate as
they were before the chunks (written out below from those public pieces, with the early stop of
:func:`prspace.audit.simulation.power_tests.decided` after every set).  Sets with ties, binned sets (more positive tie
groups than bins), sets left with one class in a replicate, weighted and grouped populations are all drawn.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from prspace.audit.simulation import power_tests as PT
from prspace.audit.simulation.audit_power import detection_rate
from prspace.audit.simulation.group_calib import pair_of
from prspace.audit.simulation.group_sim import World, draw
from prspace.stats.binned import left_out_replicates, left_out_replicates_sets
from prspace.stats.pairwise import jackknife_pairs, jackknife_pairs_batch

JACK_METRICS = ("average_precision", "aupr", "auprg")


def _sets(rng, n_sets, n_parts, decimals):
    """Ragged test sets with ties (scores rounded to ``decimals``), each set's rows in parts 0..n_parts - 1."""
    out = []
    for _ in range(n_sets):
        n = int(rng.integers(n_parts + 4, 70))
        y = rng.random(n) < rng.uniform(0.1, 0.6)
        y[:2] = [True, False]
        a = np.round(rng.normal(size=n) + y, decimals)
        b = np.round(rng.normal(size=n) + 0.5 * y, decimals)
        out.append((y, a, b, rng.integers(0, n_parts, n)))
    return out


@pytest.mark.parametrize("metric", (*JACK_METRICS, "auroc"))
@pytest.mark.parametrize("bins", [3, 16, 512])
def test_replicates_of_sets_side_by_side_are_each_sets_alone(metric, bins):
    """Left-out replicates bit for bit, the exact row 0 up to the order of summation, NaN where a replicate keeps
    one class, for sets of different sizes and tie groups in one call (narrow sets padded with zero columns)."""
    rng = np.random.default_rng(bins)
    for decimals in (0, 1, 6):
        n_parts = int(rng.integers(2, 12))
        sets = _sets(rng, int(rng.integers(1, 7)), n_parts, decimals)
        alone = np.stack([left_out_replicates(y, [a, b], part, n_parts, metric, bins=bins) for y, a, b, part in sets])
        cat = [np.concatenate(v) for v in zip(*sets, strict=True)]
        side = left_out_replicates_sets(cat[0], cat[1:3], np.repeat(np.arange(len(sets)), [s[0].size for s in sets]),
                                        len(sets), cat[3], n_parts, metric, bins=bins)
        assert side.shape == alone.shape
        assert np.array_equal(np.isnan(side), np.isnan(alone))
        assert np.array_equal(side[:, 1:], alone[:, 1:], equal_nan=True)
        np.testing.assert_allclose(side[:, 0], alone[:, 0], rtol=1e-13, atol=1e-15)


def test_replicates_of_binned_sets_take_row_0_from_the_exact_scores():
    """A set with more positive tie groups than bins: row 0 is the metric of its exact scores (scikit-learn)."""
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(3)
    y = np.r_[np.ones(300, bool), np.zeros(500, bool)]
    a, b = rng.normal(size=(2, 3, y.size)) + y
    part = rng.integers(0, 10, y.size)
    out = left_out_replicates_sets(np.tile(y, 3), [a.ravel(), b.ravel()], np.repeat(np.arange(3), y.size), 3,
                                   np.tile(part, 3), 10, "average_precision", bins=20)
    for s in range(3):
        assert out[s, 0, 0] == pytest.approx(average_precision_score(y, a[s]), abs=1e-12)
        assert out[s, 0, 1] == pytest.approx(average_precision_score(y, b[s]), abs=1e-12)


def test_jackknife_t_of_sets_at_once_is_each_sets_alone():
    """:func:`jackknife_pairs_batch` against :func:`jackknife_pairs` set by set (three models, two strata of unequal
    size), including a set with a NaN replicate (untestable) and one whose difference never varies."""
    rng = np.random.default_rng(7)
    strata = np.r_[np.ones(7, np.int64), np.zeros(12, np.int64)]
    points = rng.normal(size=(9, 3))
    reps = points[:, None, :] + 0.05 * rng.normal(size=(9, strata.size, 3))
    reps[2, 4, 1] = np.nan
    reps[5] = points[5] + 0.01  # every replicate moves every model alike: no spread of any difference
    d, se, p, df = jackknife_pairs_batch(points, reps, strata)
    for s in range(points.shape[0]):
        r = jackknife_pairs(points[s], reps[s], strata)
        np.testing.assert_allclose(d[s], r.diff, rtol=1e-12, atol=0)
        np.testing.assert_allclose(se[s], r.se, rtol=1e-12, atol=1e-300, equal_nan=True)
        np.testing.assert_allclose(p[s], r.p_raw, rtol=1e-12, atol=1e-300, equal_nan=True)
        if r.df is not None:
            np.testing.assert_allclose(df[s], r.df, rtol=1e-12, equal_nan=True)
    assert np.isnan(p[2]).all() and (p[5] == 0.0).all()


def _stopped(hit, need):
    """``hit`` as the one-set-at-a-time loop leaves it with the early stop: the sets after the first one after which
    :func:`prspace.audit.simulation.power_tests.decided` holds are not tested (False)."""
    if need is None:
        return hit
    out = hit.copy()
    for s in range(hit.size):
        if PT.decided(int(hit[: s + 1].sum()), s + 1, hit.size, need):
            out[s + 1 :] = False
            break
    return out


def _tests_one_at_a_time(metric, y, sa, sb):
    """The raw p-value and difference of each set as :func:`prspace.audit.simulation.power_tests.reject` tested it
    before the chunks: one set, one kernel call (:func:`left_out_replicates`), one :func:`jackknife_pairs`."""
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    g_pos, g_neg = min(n_pos, PT.GROUPS), min(n_neg, PT.GROUPS)
    strata = np.r_[np.ones(g_pos, np.int64), np.zeros(g_neg, np.int64)]
    group = np.empty(y.size, dtype=np.int64)
    group[np.flatnonzero(y)] = np.arange(n_pos) * g_pos // n_pos
    group[np.flatnonzero(~y)] = g_pos + np.arange(n_neg) * g_neg // n_neg
    out = []
    for s in range(sa.shape[0]):
        reps = left_out_replicates(y, [sa[s], sb[s]], group, g_pos + g_neg, metric, bins=PT.POWER_BINS)
        r = jackknife_pairs(reps[0], reps[1:], strata)
        out.append((r.p_raw[0], r.diff[0]))
    return np.array(out).T


@pytest.mark.parametrize("metric", JACK_METRICS)
def test_reject_in_chunks_gives_the_hits_of_one_set_at_a_time(metric):
    """The same hit vector, with and without the early stop (reached, and out of reach), at sizes of one chunk of many
    sets, of chunks of one set, and binned (more positives than :data:`POWER_BINS`)."""
    rng = np.random.default_rng(11)
    for n_pos, n_neg, sims in ((3, 9, 30), (30, 60, 60), (120, 40, 30), (PT.POWER_BINS + 40, 200, 8)):
        y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
        sa = rng.normal(size=(sims, y.size)) + 0.45 * y
        sb = np.round(rng.normal(size=(sims, y.size)) + 0.3 * y, 1)  # ties
        p_raw, diff = _tests_one_at_a_time(metric, y, sa, sb)
        for alpha in (0.01, 0.2):
            full = (p_raw < alpha) & (np.sign(diff) == 1.0)
            for need in (None, PT.need_for(0.8, sims), PT.need_for(0.2, sims)):
                got = PT.reject(metric, y, sa, sb, alpha, 1.0, need=need)
                assert np.array_equal(got, _stopped(full, need)), (n_pos, n_neg, alpha, need)


def _grouped_hits_one_at_a_time(pair, metric, *, n_groups, alpha, sims, rng, sign):
    """The grouped test of every set as before the chunks (:func:`prspace.audit.simulation.power_tests.grouped_reject` on each set as it is drawn)."""
    codes = np.unique(pair.g, return_inverse=True)[1].ravel()
    order = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    w = np.ones(pair.y.size) if pair.w is None else pair.w
    hit = np.zeros(sims, dtype=bool)
    for s in range(sims):
        drawn = rng.integers(0, sizes.size, n_groups)
        lens = sizes[drawn]
        ends = np.cumsum(lens)
        rows = order[np.repeat(starts[drawn] - (ends - lens), lens) + np.arange(ends[-1])]
        y = pair.y[rows]
        if not (y.all() or not y.any()):
            hit[s] = PT.grouped_reject(metric, y, pair.a[rows], pair.b[rows], w[rows], np.repeat(np.arange(n_groups), lens),
                                    alpha, sign, rng)
    return hit


@pytest.mark.parametrize("metric", [*JACK_METRICS, "auroc"])
def test_grouped_rate_in_chunks_is_the_rate_of_one_set_at_a_time(metric):
    """The same left-out groups (the same draws), so the same rate, with and without the early stop (the sets before
    it drawn and tested as they were); a weighted population's sets (the audit's weighted jackknife) among the
    chunk's unit-weight ones."""
    world = draw(World(icc=0.5, pi=0.3, d=(1.4, 1.0), rho=0.5), 150, np.random.default_rng(4))
    pair = pair_of(world)
    weighted = dataclasses.replace(pair, w=np.where(np.isin(pair.g, [3, 8, 40]), 2.0, 1.0))
    sims = 24
    for population in (pair, weighted):
        for k, sign in ((4, 1.0), (25, 0.0), (PT.GROUPS * 2, 1.0)):
            kw = {"n_groups": k, "alpha": 0.05, "sims": sims, "sign": sign}
            full = _grouped_hits_one_at_a_time(population, metric, rng=np.random.default_rng(k), **kw)
            for need in (None, PT.need_for(0.8, sims), PT.need_for(0.3, sims)):
                got = detection_rate(population, metric, c=0.0, rng=np.random.default_rng(k), need=need, **kw)[0]
                assert got == _stopped(full, need).mean(), (k, sign, need)


def test_chunks_stay_within_the_cell_budget():
    keys, resamples = 2 * (2 * PT.POWER_BINS + 1), 2 * (2 * PT.GROUPS + 1)  # a binned set: as many sets as fit
    n = PT.set_chunk(keys, resamples)
    assert n >= 1 and n * keys * resamples <= PT.CHUNK_CELLS < (n + 1) * keys * resamples
    assert PT.set_chunk(PT.CHUNK_CELLS, 2) == 1  # a set larger than the budget alone
    assert PT.set_chunk(10, 20) == PT.DELONG_CHUNK
    assert PT.set_chunk(100, 100) * 100 * 100 <= PT.CHUNK_CELLS


def test_pair_is_kept_immutable():
    """A grouped population's arrays are not changed by the chunks (the searches reuse the population)."""
    pair = pair_of(draw(World(icc=0.5, pi=0.3, d=(1.4, 1.0), rho=0.5), 60, np.random.default_rng(1)))
    before = [x.copy() for x in (pair.y, pair.a, pair.b, pair.g)]
    detection_rate(pair, "aupr", c=0.3, n_groups=20, alpha=0.05, sims=20, rng=np.random.default_rng(0))
    assert all(np.array_equal(x, y) for x, y in zip(before, (pair.y, pair.a, pair.b, pair.g), strict=True))
