"""prspace.stats.distributions gives scipy.stats' numbers bit for bit (the audit imports it instead of
scipy.stats to save about 62 MB; issue 41, point 1)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from prspace.stats import distributions as D


def _same(a, b) -> bool:
    """Equal as floats bit for bit: the same values, NaNs in the same places, the same signs of zero,
    the same shape and scalar-ness."""
    a, b = np.asarray(a), np.asarray(b)
    return (a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
            and np.array_equal(np.signbit(a), np.signbit(b)))


_P = np.r_[np.nan, -0.5, 0.0, 1e-300, 1e-17, 1e-9, 1e-3, 0.0125, 0.025, 0.05, 0.3, 0.5, 0.7, 0.975,
           1 - 1e-12, 1.0, 1.5, np.random.default_rng(0).random(200)]
_X = np.r_[np.nan, -np.inf, -40.0, -8.5, -1.96, -0.0, 0.0, 1e-12, 0.5, 1.96, 3.3, 9.0, 40.0, np.inf,
           np.random.default_rng(1).normal(0, 3, 200)]
_DF = np.r_[np.nan, -1.0, 0.0, 0.5, 1.0, 2.0, 3.7, 10.0, 29.0, 1e3, 1e8, np.inf]


@pytest.mark.parametrize("fn", ["ppf", "isf"])
def test_normal_quantiles_are_scipys_bit_for_bit(fn):
    ours, theirs = getattr(D.norm, fn), getattr(stats.norm, fn)
    assert _same(ours(_P), theirs(_P))
    for p in _P:  # scalars stay numpy scalars
        assert _same(ours(p), theirs(p)) and type(ours(p)) is type(theirs(p))
    assert _same(ours(_P[:216].reshape(-1, 2)), theirs(_P[:216].reshape(-1, 2)))


@pytest.mark.parametrize("fn", ["sf", "cdf"])
def test_normal_tails_are_scipys_bit_for_bit(fn):
    ours, theirs = getattr(D.norm, fn), getattr(stats.norm, fn)
    assert _same(ours(_X), theirs(_X))
    for x in [*_X, 3, -2]:
        assert _same(ours(x), theirs(x)) and type(ours(x)) is type(theirs(x))


@pytest.mark.parametrize("fn", ["ppf", "isf", "sf", "cdf"])
def test_student_t_is_scipys_bit_for_bit(fn):
    ours, theirs = getattr(D.student_t, fn), getattr(stats.t, fn)
    grid = _P if fn in ("ppf", "isf") else _X
    a, df = np.meshgrid(grid, _DF)
    with np.errstate(all="ignore"):
        assert _same(ours(a, df), theirs(a, df))
        assert _same(ours(grid, 7.0), theirs(grid, 7.0))
        for v in grid[:20]:
            assert _same(ours(v, 3.0), theirs(v, 3.0)) and type(ours(v, 3.0)) is type(theirs(v, 3.0))


def test_rank_correlations_are_scipys_bit_for_bit():
    rng = np.random.default_rng(2)
    checked = 0
    for trial in range(300):
        n = int(rng.integers(2, 60 if trial < 290 else 700))
        ties = int(rng.integers(1, 8))
        a = np.round(rng.normal(size=n), ties % 3) if trial % 2 else rng.integers(0, ties + 1, n).astype(float)
        b = a * rng.choice([-1, 1]) + rng.normal(size=n) * rng.random()
        b = np.round(b, int(rng.integers(0, 3)))
        if np.all(a == a[0]) or np.all(b == b[0]):
            continue
        assert _same(D.average_ranks(a), stats.rankdata(a))
        assert _same(D.spearman_rho(a, b), stats.spearmanr(a, b).statistic)
        assert _same(D.kendall_tau_b(a, b), stats.kendalltau(a, b, variant="b").statistic)
        checked += 1
    assert checked > 250
    assert np.isnan(D.kendall_tau_b(np.ones(4), np.arange(4.0)))


def test_average_ranks_of_rows_are_rankdatas_bit_for_bit():
    """DeLong's test of many planned sets at once ranks each row (``prspace.audit.simulation.power_tests``): the same
    floats as ``scipy.stats.rankdata(axis=1)``, untied and tied, whole-number and float scores, n from 1."""
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 17, 400, 2_001):
        untied = rng.random((6, n))
        tied = np.round(rng.normal(size=(6, n)), 1)
        few = rng.integers(0, 3, (6, n)).astype(float)
        ints = rng.integers(-5, 5, (6, n))
        for a in (untied, tied, few, ints, np.ones((3, n)), -untied):
            assert _same(D.average_ranks(a), stats.rankdata(a, axis=1))
            assert _same(D.average_ranks(a[0]), stats.rankdata(a[0]))
            assert _same(D.average_ranks(a[:, ::2]), stats.rankdata(a[:, ::2], axis=1))  # a strided view
    assert D.average_ranks(np.empty((2, 0))).shape == (2, 0)
