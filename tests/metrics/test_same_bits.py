"""prspace.metrics.same_bits: exact count products (against exact fractions, in any order) and log / atanh / tanh
(against numpy's own functions, within a few ulps, and identities)."""

from __future__ import annotations

import doctest
import hashlib
import math

import numpy as np
import pytest

from prspace.metrics import same_bits as PM
from prspace.metrics.same_bits import count_product, fixed_order_matvec


def _ulps(got: np.ndarray, ref: np.ndarray) -> float:
    return float(np.max(np.abs(got - ref) / np.spacing(np.abs(ref))))


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(20261127)


def test_log_within_4_ulps_over_the_whole_range(rng):
    x = np.r_[np.exp(rng.uniform(-700, 700, 50_000)), rng.uniform(0.5, 2.0, 50_000), 5e-324, 1.7e308]
    assert _ulps(PM.log(x), np.log(x)) <= 4
    assert np.all(np.isnan(PM.log(np.array([0.0, -1.0, np.inf, np.nan]))))
    assert PM.log(1.0) == 0.0


def test_atanh_within_4_ulps_near_0_near_1_and_at_the_branch(rng):
    r = np.r_[rng.uniform(-1, 1, 50_000), rng.uniform(-1e-12, 1e-12, 1_000), 1 - np.exp(-rng.uniform(0, 36, 1_000)),
              rng.uniform(0.12, 0.13, 5_000), -rng.uniform(0.12, 0.13, 5_000)]
    assert _ulps(PM.atanh(r), np.arctanh(r)) <= 4
    assert PM.atanh(1.0) == np.inf and PM.atanh(-1.0) == -np.inf and np.isnan(PM.atanh(1.5))
    assert math.copysign(1.0, PM.atanh(-0.0)) == -1.0


def test_tanh_within_4_ulps_and_inverts_atanh(rng):
    z = np.r_[rng.normal(0, 3, 50_000), rng.uniform(-1e-12, 1e-12, 1_000), rng.uniform(-25, 25, 5_000)]
    assert _ulps(PM.tanh(z), np.tanh(z)) <= 4
    r = rng.uniform(-0.99, 0.99, 10_000)
    np.testing.assert_allclose(PM.tanh(PM.atanh(r)), r, rtol=0, atol=4e-16)
    assert PM.tanh(np.inf) == 1.0 and PM.tanh(-np.inf) == -1.0 and np.isnan(PM.tanh(np.nan))


def test_scalars_stay_scalars():
    assert isinstance(PM.atanh(0.3), np.float64) and isinstance(PM.tanh(0.3), np.float64)
    assert PM.atanh(np.array([[0.1, 0.2]])).shape == (1, 2)


def test_count_product_is_the_exact_product_rounded_slice_by_slice():
    rng = np.random.default_rng(0)
    c = rng.multinomial(37, np.full(37, 1 / 37), size=300).astype(np.float64)
    M = rng.normal(size=(37, 50)) * np.exp(rng.normal(0, 8, size=(1, 50)))  # columns of very different scales
    from fractions import Fraction

    got = count_product(c, M)
    for b, k in [(0, 0), (17, 3), (299, 49), (120, 25)]:
        exact = sum(Fraction(int(c[b, f])) * Fraction(float(M[f, k])) for f in range(37))
        assert abs(Fraction(float(got[b, k])) - exact) <= abs(exact) * Fraction(1, 2**51)
    np.testing.assert_allclose(got, c @ M, rtol=1e-10, atol=1e-12 * np.abs(M).max())


def test_count_product_gives_the_same_bits_in_any_column_order_and_batch():
    rng = np.random.default_rng(1)
    c = rng.integers(0, 5, size=(64, 20)).astype(np.float64)
    M = rng.normal(size=(20, 30))
    full = count_product(c, M)
    perm = rng.permutation(20)  # another order of the terms: an exact sum has none
    assert np.array_equal(count_product(c[:, perm], M[perm]), full)
    assert np.array_equal(np.vstack([count_product(c[:10], M), count_product(c[10:], M)]), full)


def test_count_product_refuses_what_it_cannot_make_exact():
    with pytest.raises(ValueError, match="integer counts"):
        count_product(np.array([[0.5, 1.0]]), np.ones((2, 1)))
    with pytest.raises(ValueError, match="finite"):
        count_product(np.ones((1, 2)), np.array([[np.inf], [1.0]]))


def test_fixed_order_matvec_adds_left_to_right():
    m = np.array([[1e16, 1.0, -1e16]])
    w = np.ones(3)
    assert fixed_order_matvec(m, w)[0] == (1e16 + 1.0) - 1e16


def _digest(x: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(x, dtype=np.float64).tobytes()).hexdigest()[:32]


def _bits_inputs() -> np.ndarray:
    rng = np.random.default_rng(79)
    return np.r_[rng.uniform(-1, 1, 20000), np.exp(rng.uniform(-700, 700, 20000)), rng.uniform(-1e-12, 1e-12, 2000),
                 -1 + np.exp(-rng.uniform(0, 36, 2000)), rng.normal(0, 3, 20000),
                 0.0, -0.0, -1.0, -2.0, np.inf, -np.inf, np.nan, 5e-324, 1.7e308, 0.125, -0.125, 1.0]


def test_the_one_log_series_gives_the_bits_of_the_two_it_replaced():
    """Issue 79.4: ``log1p`` was written twice, in ``metrics._kernel._log1p`` (the areas) and inside
    ``core.same_bits.atanh``; both are now :func:`prspace.metrics.same_bits.log1p`.  The digests (sha256 of the
    float64 bytes) were recorded from the two copies on 59de1e6 for these 64,012 inputs (ranges, -1, +-0, +-inf,
    NaN, subnormal, the largest float): the same bits, NaN's included."""
    from prspace.metrics._kernel import _log1p

    x = _bits_inputs()
    with np.errstate(all="ignore"):
        got = {"log1p": _log1p(x), "atanh": PM.atanh(x), "atanh_clip": PM.atanh(np.clip(x, -1, 1)),
               "log": PM.log(np.abs(x)), "tanh": PM.tanh(x)}
    assert _log1p is PM.log1p
    assert {k: _digest(v) for k, v in got.items()} == {
        "log1p": "8c6ce67abb5ed5928b1952b387146abf", "atanh": "1cbd3a060be24bee5b35e84dbab55faa",
        "atanh_clip": "bfe0bfd588bc33f7681ac816ca579137", "log": "cedd914ac49ccf9311a3e297a363350d",
        "tanh": "78939d2f0062289f7df2c855c0078b20"}


def test_the_examples_print_what_they_say():
    result = doctest.testmod(PM)
    assert result.attempted >= 5 and result.failed == 0
