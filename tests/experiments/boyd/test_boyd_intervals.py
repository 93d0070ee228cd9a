"""Cluster-bootstrap intervals of the Boyd evidence rows and their Monte Carlo error
(prspace.experiments.boyd.boyd_intervals), against scipy's bootstrap and against the spread of the
interval's ends over independent seeds."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from prspace.core.claims import primary_level
from prspace.core.errors import InputError
from prspace.experiments.boyd.boyd_evidence import DEFAULT_RESAMPLES
from prspace.experiments.boyd.boyd_intervals import family_interval


def test_ordinary_bootstrap_matches_scipy_within_monte_carlo_error():
    v = np.random.default_rng(1).gamma(2.0, 0.1, 25)
    iv = family_interval(v, None, n_resamples=100_000, seed=0, level=0.95)
    ref = stats.bootstrap((v,), np.mean, n_resamples=100_000, method="percentile", confidence_level=0.95,
                          random_state=np.random.default_rng(7)).confidence_interval
    assert iv.estimate == pytest.approx(v.mean(), abs=1e-15)
    tol = 5 * iv.mc_error + 1e-4  # two Monte Carlo errors (ours and scipy's, about the same)
    assert iv.lo == pytest.approx(ref.low, abs=tol) and iv.hi == pytest.approx(ref.high, abs=tol)


def test_monte_carlo_error_estimates_the_spread_over_seeds():
    """mc_error (from 20 batches within one run) against the SD of the interval's ends over 30
    independent runs: they agree within the sampling error of an SD from 30 runs."""
    rng = np.random.default_rng(2)
    v, fam = rng.normal(0.4, 0.2, 12), np.repeat(np.arange(9), [2, 2, 2, 1, 1, 1, 1, 1, 1])
    runs = [family_interval(v, fam, n_resamples=4000, seed=s, level=primary_level()) for s in range(30)]
    spread = max(np.std([r.lo for r in runs], ddof=1), np.std([r.hi for r in runs], ddof=1))
    est = np.mean([r.mc_error for r in runs])
    assert 0.6 < est / spread < 1.6


def test_families_are_resampled_whole():
    # two families: a resample is all of one, all of the other, or both; the interval's ends are
    # those of the families' means
    v = np.array([0.0, 0.0, 1.0, 1.0, 1.0])
    iv = family_interval(v, np.array(["a", "a", "b", "b", "b"]), n_resamples=2000, seed=0, level=0.9)
    assert iv.lo == 0.0 and iv.hi == 1.0


@pytest.mark.parametrize(("n_tasks", "n_fam", "sd"),
                         [(10, 8, 0.23), (21, 13, 0.23), (14, 11, 0.23), (87, 58, 0.03), (61, 35, 0.02)])
def test_default_resamples_keep_the_ends_within_0_002(n_tasks, n_fam, sd):
    """Realistic inputs: the downsampling gap at 1:1 (10 to 21 tasks in 8 to 13 families, sd over tasks
    about 0.23, results/default/tables/boyd_downsampling_summary.csv) and fold-skew effects (87 tasks in
    58 families), at the primary level with the study's default resample count."""
    rng = np.random.default_rng(n_tasks)
    fam = np.r_[np.arange(n_fam), rng.integers(0, n_fam, n_tasks - n_fam)]
    v = rng.normal(0.4, sd, n_tasks)
    iv = family_interval(v, fam, n_resamples=DEFAULT_RESAMPLES, seed=0, level=primary_level())
    assert iv.mc_error <= 0.002
    assert iv.n_resamples == DEFAULT_RESAMPLES and iv.level == pytest.approx(primary_level())


def test_bad_input():
    with pytest.raises(InputError, match="level"):
        family_interval(np.ones(3), None, n_resamples=100, seed=0, level=1.0)
    with pytest.raises(InputError, match="batches"):
        family_interval(np.ones(3), None, n_resamples=10, seed=0)
    with pytest.raises(InputError, match="families"):
        family_interval(np.ones(3), np.array([1, 2]), n_resamples=100, seed=0)
    nan = family_interval(np.full(3, np.nan), None, n_resamples=100, seed=0)
    assert np.isnan(nan.estimate) and np.isnan(nan.lo)


@pytest.mark.parametrize(("n", "level"), [(8, 0.9975), (40, 0.95)])
def test_simulated_coverage_against_the_t_approximation(n, level):
    """The percentile interval of a mean is about mean +- z s sqrt((n-1)/n) / sqrt(n), whose coverage
    for normal data is P(|T_{n-1}| <= z sqrt((n-1)/n)) (scipy): below the level with few families."""
    from prspace.experiments.boyd.boyd_intervals import simulated_coverage

    z = stats.norm.ppf(0.5 + level / 2)
    want = 1 - 2 * stats.t.sf(z * np.sqrt((n - 1) / n), n - 1)
    got = simulated_coverage(n, level=level, n_sim=400, n_resamples=4000, seed=1)
    assert got == pytest.approx(want, abs=3 * np.sqrt(want * (1 - want) / 400) + 0.01)
    if n == 8:
        assert got < level  # too narrow with 8 families: the rows say so
