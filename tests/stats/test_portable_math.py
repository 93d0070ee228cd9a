"""prspace.stats.portable_math against numpy's own functions (within a few ulps) and identities."""

from __future__ import annotations

import math

import numpy as np
import pytest

from prspace.stats import portable_math as PM


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
