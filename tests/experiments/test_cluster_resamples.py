"""experiments.ranking.cluster_resamples: the one draw of the cluster bootstrap, shared by every caller."""

from __future__ import annotations

import numpy as np

from prspace.experiments.ranking import cluster_bootstrap_ci, cluster_resamples
from prspace.experiments.skew_explanation import cluster_bootstrap_means


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
