"""The known-truth simulation of prspace.stats.cluster_bootstrap (issue 58): the pivot an outer
sample's interval inverts, coverage and levels counted (never fitted), and the p-values read off the
counted-corrected intervals."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from scipy import stats

from prspace.stats import cluster_bootstrap as CB


def test_an_outer_sample_less_variable_than_the_study_has_its_miss_counted():
    """Planted: the truth 0, the study's SE 0.5, an outer sample with estimate 0.3 and its own SE 0.1
    (less variable than the study). Its interval is 0.3 - 0.1 q: with inner t** ~ N(0, 1) it lies
    wholly above the truth at 95%, a miss below the lower end. The pivot it inverts is
    (0.3 - 0) / 0.1 = 3; the pivot floored at the study's SE, (0.3 - 0) / max(0.1, 0.5) = 0.6, hid it."""
    e1, est0, s1, se0 = np.array([[0.3]]), np.array([[0.0]]), np.array([[0.1]]), np.array([[0.5]])
    T = CB.outer_pivot(e1, est0, s1).T
    assert T[0, 0] == pytest.approx(3.0)
    t2 = stats.norm.ppf((np.arange(1000) + 0.5) / 1000)[None, None, :]
    u = CB.truth_position(T, t2)
    assert u[0, 0] > 1 - 0.025  # beyond the lower end: counted as a miss
    miss = CB.counted_miss(u, np.array([[0.025]]), np.array([[0.025]]))
    assert miss[0, 0] == 1.0
    # the interval written out: its lower end 0.3 - 0.1 * q(0.975) = 0.104 > 0, the truth
    assert 0.3 - 0.1 * np.quantile(t2, 0.975) > 0.0
    # what the floored pivot said: no miss
    floored = ((e1 - est0) / np.fmax(s1, se0)).T
    assert CB.counted_miss(CB.truth_position(floored, t2), np.array([[0.025]]), np.array([[0.025]]))[0, 0] == 0.0


def test_counted_tails_are_order_statistics_of_the_outer_samples():
    """Uniform positions: the corrected tail is the a-quantile of u; a planted excess of misses (10% of
    outer samples beyond every inner resample) pulls the tail to the edge, and the count with the
    corrected tail is at most the target."""
    n = 4000
    u = ((np.arange(n) + 0.5) / n)[None, :]
    lo, hi = CB.counted_tails(u, np.array([0.025, 0.05]))
    np.testing.assert_allclose(lo[0], [0.025, 0.05], atol=1 / n)
    np.testing.assert_allclose(hi[0], [0.025, 0.05], atol=1 / n)
    bad = u.copy()
    bad[0, :400] = 0.0  # 10% of the truths below every inner resample
    lo, hi = CB.counted_tails(bad, np.array([0.05]))
    assert lo[0, 0] == 0.0 and hi[0, 0] == pytest.approx(0.05, abs=1 / n)
    assert CB.counted_miss(bad, lo, hi)[0, 0] <= 0.05 + 1e-12


def _skewed_share(seed=5):
    rng = np.random.default_rng(seed)
    sizes = np.array([1, 1, 1, 1, 1, 1, 2, 2, 3, 6, 10, 20])
    fam = np.repeat(np.arange(12), sizes)
    x = (rng.random(len(fam)) < np.clip(rng.beta(1, 3, 12), 0, 1)[fam]).astype(float)
    return replace(CB.ratio_stat(x, fam), bounds=(0.0, 1.0))


def _clustered_share(seed=3, F=35):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 4, F)
    fam = np.repeat(np.arange(F), sizes)
    p = np.clip(0.3 + 0.25 * rng.standard_normal(F), 0.02, 0.98)[fam]
    return replace(CB.ratio_stat((rng.random(len(fam)) < p).astype(float), fam), bounds=(0.0, 1.0))


def test_coverage_is_counted_with_its_binomial_se_and_no_fit():
    res = CB.run([_clustered_share()], B=20_000, seed=2, replicates=4, n_out=4000, n_in=400)
    cov = res.coverage(np.array([0.05]))
    # plain: the share of outer samples whose uncorrected interval covers, counted from u by hand
    u = res.u[0]
    assert cov["plain"][0] == pytest.approx(np.mean((u >= 0.025) & (u <= 0.975)))
    assert cov["plain_se"][0] == pytest.approx(np.sqrt(cov["plain"][0] * (1 - cov["plain"][0]) / len(u)))
    assert cov["n"][0] == len(u) == 4000
    # corrected, counted on outer samples held out from the correction: within 2.5 MC SE of the level
    assert abs(cov["corrected"][0] - 0.95) <= 2.5 * cov["corrected_mc_se"][0]
    assert not hasattr(CB, "calibration_fit")


def test_a_share_the_bootstrap_t_cannot_cover_gets_the_edge_not_a_fitted_guess():
    """12 families of very unequal size: more than 2.5% of the outer samples' truths lie beyond every
    inner resample, so no nominal tail reaches 95% by counting; the corrected interval takes the edge
    of the range on that side and its counted coverage is at least the level."""
    res = CB.run([_skewed_share()], B=20_000, seed=2, replicates=4, n_out=2000, n_in=200)
    cov = res.coverage(np.array([0.05]))
    assert cov["plain"][0] < 0.95 - 2 * cov["plain_se"][0]
    assert cov["corrected"][0] >= 0.95 - 2 * max(cov["corrected_mc_se"][0], 1 / 2000)


def test_p_values_are_the_errors_at_which_the_corrected_interval_decides():
    """p of a difference from v: the interval at a slightly larger error excludes v, at a clearly
    smaller one it does not (the Monte Carlo p-value (count + 1) / (n + 1) errs on the large side)."""
    st = _skewed_share()
    res = CB.run([st], B=40_000, seed=1, replicates=4, n_out=4000, n_in=400)
    est = float(res.estimate[0])
    for v in (est - 0.12, est - 0.2, est + 0.15):
        ps = res.decision_ps(0, v, 0.01)
        p = ps["diff"][0]
        assert len(ps["diff"][1]) == 4  # the same with each rerun left out (its MC error)
        assert 0 < p <= 1
        if p < 0.5:
            lo, hi = res.interval_at(np.array([min(1.0, p * 1.05)]))
            assert lo[0] > v or hi[0] < v
        if p > 0.02:
            lo, hi = res.interval_at(np.array([p * 0.7]))
            assert lo[0] <= v <= hi[0]


def test_outcomes_are_lakens_four():
    v, m = 0.24, 0.10
    lo = np.array([0.16, 0.25, 0.35, 0.13, 0.25, 0.10, np.nan])
    hi = np.array([0.32, 0.33, 0.50, 0.30, 0.45, 0.20, 0.3])
    assert CB.outcomes(lo, hi, v, m).tolist() == [
        CB.EQUIVALENT,      # within, contains v
        CB.BY_LESS,         # within, excludes v
        CB.BEYOND,          # wholly above v + m
        CB.INCONCLUSIVE,    # contains v, reaches past the margin
        CB.DIFFERENT,       # excludes v, reaches past the margin: different from the paper's value
        CB.DIFFERENT,       # [0.10, 0.20]: excludes v (below), reaches past v - m
        CB.INCONCLUSIVE]    # no interval
    # the same from the tests' p-values at error 0.05: (p_diff, p_equiv, p_beyond)
    assert [CB.outcome_of_ps(*p, 0.05) for p in ((0.3, 0.01, 1), (0.01, 0.02, 1), (0.01, 1, 0.02), (0.3, 0.3, 0.9),
                                                  (0.01, 0.3, 0.2), (np.nan, 0.01, 0.01))] == [
        CB.EQUIVALENT, CB.BY_LESS, CB.BEYOND, CB.INCONCLUSIVE, CB.DIFFERENT, CB.INCONCLUSIVE]


def test_each_end_is_counted_apart_with_the_next_countable_level():
    """end_counts: on positions with an atom at the tail (u on a grid of 1/1,000, 1.6% of the truths
    beyond every inner resample and 1.1% at the next step, as the default study's AUPR-AUROC correlation
    had in int8) the corrected lower end misses 1.6% and the next countable level 2.7%: no level between
    can be counted. Without the atom both ends miss their 2.5% to within the grid."""
    rng = np.random.default_rng(3)
    n = 40_000
    smooth = np.round(rng.uniform(size=n) * 1000) / 1000
    atom = smooth.copy()
    atom[:640] = 1.0  # 1.6%: beyond every inner resample (1 - u = 0)
    atom[640:1080] = 0.999  # 1.1% at the next step
    atom = rng.permutation(atom)  # in both halves (the one correcting, the one counting)
    for u, lo_expect in ((smooth, None), (atom, 0.016)):
        half = u[: n // 2], u[n // 2:]
        a_lo, a_hi = CB.counted_tails(half[0][None, :], np.array([0.025]))
        below, above, step_below, step_above = CB.end_counts(half[0], half[1], float(a_lo[0, 0]), float(a_hi[0, 0]))
        assert below <= 0.025 + 0.003 and above <= 0.025 + 0.003
        assert step_below > below and step_above > above  # one step narrower misses more, at each end
        if lo_expect is None:
            assert below == pytest.approx(0.025, abs=0.003) and above == pytest.approx(0.025, abs=0.003)
        else:
            assert below == pytest.approx(lo_expect, abs=0.003) and step_below == pytest.approx(0.027, abs=0.003)
    # the Result's coverage is the ends' sum, and names them
    st = CB.ratio_stat(rng.normal(size=60), np.arange(60) % 30, 30)
    res = CB.run([st], B=200, seed=1, replicates=2, n_out=1000)
    c = res.coverage(np.array([0.05]))
    assert c["corrected"][0] == pytest.approx(1.0 - c["miss_below"][0] - c["miss_above"][0])
    assert (c["step_below"][0] >= c["miss_below"][0]) and (c["step_above"][0] >= c["miss_above"][0])
