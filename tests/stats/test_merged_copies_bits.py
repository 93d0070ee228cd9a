"""Issue 79.4: code written twice now has one home, with the bits of the copies it replaced.

``decision_ps`` (Lakens, Scheel & Isager's p-values) was written in both ``cluster_bootstrap.Result`` and
``sign_flip.Result``: both now inherit :class:`prspace.stats.counted_levels.DecisionPs`.  The rows drawn within a
cell given its count were written in ``band_draws._block_replicates`` and ``tree_draws._tree_draws``: both now call
``tree_draws._draw_in_cells``.  The digests (sha256 of the float64 bytes, in key order) were recorded from the copies
on 59de1e6 with these inputs and seeds; any other bit fails them.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np

import prspace.stats.bands as B
import prspace.stats.cluster_bootstrap as CB
import prspace.stats.sign_flip as SF
from prspace.stats.counted_levels import DecisionPs


def _digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for k in sorted(arrays):
        h.update(k.encode())
        h.update(np.ascontiguousarray(arrays[k], dtype=np.float64).tobytes())
    return h.hexdigest()[:32]


def _rows(seed: int, n: int, strata: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    yb = rng.random(n) < 0.2
    group = np.unique(-np.round(rng.random(n), 4), return_inverse=True)[1].ravel()
    return group, yb, 2 * rng.integers(0, strata, n) + yb


def test_the_two_stage_draws_give_the_bits_of_their_copies():
    grids = ({c: B.default_grid(c, 30) for c in B.CURVES},
             {c: np.unique(np.r_[0.0, np.linspace(0.03, 0.97, 41), 1.0]) for c in B.CURVES})
    curves = tuple(B.CURVES)
    block, tree = {}, {}
    for i, (seed, n, s) in enumerate([(1, 20000, 1), (2, 30000, 3), (3, 8000, 2)]):
        for j, grid in enumerate(grids):
            group, yb, stratum = _rows(seed, n, s)
            got = B._block_replicates(group, yb, stratum, grid, curves, 37, np.random.default_rng(seed + 10))
            block.update({f"block{i}{j}_{c}": got[c] for c in curves})
            got = B._tree_replicates(group, yb, stratum, grid, curves, 70, np.random.default_rng(seed + 20))
            tree.update({f"tree{i}{j}_{c}": got[c] for c in curves})
    assert (_digest(block), _digest(tree)) == ("0c747a56b56e78498ee3a9a5402c44b7", "7cc82b051b712794593e40a92067d6b9")


def test_decision_ps_has_one_home_and_the_bits_of_its_copies():
    assert CB.Result.decision_ps is SF.Result.decision_ps is DecisionPs.decision_ps
    rng = np.random.default_rng(5)
    fam = np.repeat(np.arange(12), [1, 1, 1, 1, 1, 1, 2, 2, 3, 6, 10, 20])
    x = (rng.random(len(fam)) < np.clip(rng.beta(1, 3, 12), 0, 1)[fam]).astype(float)
    cb = CB.run([replace(CB.ratio_stat(x, fam), bounds=(0.0, 1.0))], B=2000, seed=1, replicates=4, n_out=400, n_in=100)
    sf = SF.run(rng.gamma(2.0, 0.2, size=24), np.repeat(np.arange(12), 2), n_sims=400, reruns=4, seed=1)
    got = {}
    for name, res in (("cb", cb), ("sf", sf)):
        est = float(res.estimate[0])
        for i, (v, m) in enumerate([(est - 0.12, 0.01), (est, 0.05), (est + 0.15, 0.02), (0.0, 0.0)]):
            got[name] = {**got.get(name, {}), **{f"{name}{i}_{key}": np.r_[p, loo]
                                                 for key, (p, loo) in res.decision_ps(0, v, m).items()}}
    assert (_digest(got["cb"]), _digest(got["sf"])) == ("400752ef9323e76aa530f488df6287c5",
                                                        "5b539b7ac26fb1103b4a64f002d7dcb5")
