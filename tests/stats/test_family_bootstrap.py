"""stats.family_bootstrap: the one replicate step of the family (cluster) percentile bootstrap, bit for bit
the sums its callers made before it was shared (issue 43, Deliver 3); the draw every caller shares."""

from __future__ import annotations

import numpy as np

from prspace.experiments.ranking import cluster_bootstrap_ci as ranking_ci
from prspace.experiments.skew.skew_explanation import cluster_bootstrap_means as skew_means
from prspace.stats.family_bootstrap import (
    cluster_bootstrap_ci,
    cluster_bootstrap_means,
    cluster_resamples,
    family_replicates,
)


def _one_column(v, cid, idx):
    """The replicates as cluster_bootstrap_ci (and the noise and Boyd evidence) computed them alone."""
    ok = ~np.isnan(v)
    n_c = idx.shape[1]
    sums, counts = np.bincount(cid[ok], v[ok], n_c), np.bincount(cid[ok], minlength=n_c).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums[idx].sum(axis=1) / counts[idx].sum(axis=1)


def _columns(v, cid, idx):
    """The replicates as the skew explanation's cluster_bootstrap_means computed them, several columns at once."""
    n_c = idx.shape[1]
    ok = np.isfinite(v)
    sums, counts = np.zeros((n_c, v.shape[1])), np.zeros((n_c, v.shape[1]))
    np.add.at(sums, cid, np.where(ok, v, 0.0))
    np.add.at(counts, cid, ok.astype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums[idx].sum(axis=1) / counts[idx].sum(axis=1)


def test_replicates_are_the_callers_sums_bit_for_bit():
    rng = np.random.default_rng(43)
    for _ in range(60):
        n = int(rng.integers(3, 150))
        fam = rng.integers(0, int(rng.integers(1, n + 1)), n).astype(str)
        v = rng.random((n, int(rng.integers(2, 5))))
        v[rng.random(v.shape) < 0.15] = np.nan
        cid, idx = cluster_resamples(fam, n_boot=300, seed=int(rng.integers(1000)))
        np.testing.assert_array_equal(family_replicates(v, cid, idx), _columns(v, cid, idx))
        for j in range(v.shape[1]):
            np.testing.assert_array_equal(family_replicates(v[:, j], cid, idx), _one_column(v[:, j], cid, idx))
            np.testing.assert_array_equal(family_replicates(v[:, j : j + 1], cid, idx)[:, 0],
                                          _one_column(v[:, j], cid, idx))


def test_ci_and_means_read_one_draw():
    rng = np.random.default_rng(5)
    fam = np.array(list("abcabdeeaf"))
    v = rng.normal(size=fam.size)
    v[3] = np.nan
    est, lo, hi = cluster_bootstrap_ci(v, fam, n_boot=400, seed=9, level=0.8)
    means, boot = cluster_bootstrap_means(v, fam, n_boot=400, seed=9)
    assert boot.shape == (400, 1)
    assert est == np.nanmean(v) and means[0] == est
    np.testing.assert_array_equal([lo, hi], np.nanquantile(boot[:, 0], [0.1, 0.9]))
    assert all(np.isnan(cluster_bootstrap_ci(np.full(4, np.nan), fam[:4], n_boot=10, seed=0)))


def _data():
    rng = np.random.default_rng(11)
    fam = np.array(["b", "a", "c", "a", "d", "b", "c", "e", "e", "a"])
    return rng.normal(size=(fam.size, 3)), fam


def test_clusters_numbered_in_sorted_order_and_drawn_from_the_seed():
    _, fam = _data()
    cid, idx = cluster_resamples(fam, n_boot=50, seed=4)
    assert cid.tolist() == [1, 0, 2, 0, 3, 1, 2, 4, 4, 0]
    np.testing.assert_array_equal(idx, np.random.default_rng(4).integers(0, 5, size=(50, 5)))


def test_every_caller_sees_the_same_resamples():
    v, fam = _data()
    level, n_boot, seed = 0.9, 400, 7
    means, boot = cluster_bootstrap_means(v, fam, n_boot=n_boot, seed=seed)
    cid, idx = cluster_resamples(fam, n_boot=n_boot, seed=seed)
    counts = np.stack([np.bincount(r, minlength=idx.shape[1]) for r in idx])
    w = counts[:, cid].astype(float)  # per resample, how often each task's family was drawn
    for j in range(v.shape[1]):
        est, lo, hi = cluster_bootstrap_ci(v[:, j], fam, n_boot=n_boot, seed=seed, level=level)
        q = np.nanquantile(boot[:, j], [(1 - level) / 2, (1 + level) / 2])
        np.testing.assert_allclose([est, lo, hi], [means[j], q[0], q[1]], rtol=1e-12)  # sums in another order
        np.testing.assert_allclose(w @ v[:, j] / w.sum(axis=1), boot[:, j], rtol=1e-12, atol=1e-15)


def test_the_experiments_call_the_shared_engine():
    assert ranking_ci is cluster_bootstrap_ci and skew_means is cluster_bootstrap_means
