"""A world with grouped rows, for calibrating the audit's grouped resampling (``--group-col``).

This project's analysis (no paper): ``G`` groups (patients) of 3 to 10 rows each; a group's
prevalence ``expit(logit(pi) + w_g)``, ``w_g ~ N(0, 1)``; model k's score
``d_k y + sqrt(icc) u_gk + sqrt(1 - icc) e``, with a random intercept ``u_gk`` per group (correlated
``rho`` between the two models) and row noise ``e``, both standard normal, so that ``icc`` is the
intra-group correlation of the scores within a class.  The truth is each metric on a very large
sample of groups (the estimand as the number of groups grows).

* :func:`draw`: one sample as a grouped :class:`~prspace.stats.replicates.Block`;
* :func:`truth`: the metrics of the world's two models on ``n_groups`` groups (one large draw);
* :func:`one_run`: for one sample, whether each interval (grouped and row-level) covers the truth
  and whether each paired test rejects the null of equal metrics (``d_a = d_b``).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy.special import expit, logit

from prspace.core.defaults import N_BOOT_REPLICATE_RANKS
from prspace.stats.delong import delong
from prspace.stats.intervals import jackknife_interval, logit_interval, percentile
from prspace.stats.pairwise import jackknife_pairs
from prspace.stats.replicates import BOOT_METRICS, Block, bootstrap, jackknife, point_metrics

__all__ = ["World", "draw", "one_run", "truth"]


@dataclasses.dataclass(frozen=True)
class World:
    icc: float = 0.5
    pi: float = 0.3
    d: tuple[float, float] = (1.0, 1.0)
    rho: float = 0.5
    min_rows: int = 3
    max_rows: int = 10


def draw(world: World, n_groups: int, rng: np.random.Generator, *, grouped: bool = True) -> Block:
    """One sample of ``n_groups`` groups as a Block (``grouped=False``: the same rows, no groups)."""
    sizes = rng.integers(world.min_rows, world.max_rows + 1, size=n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    n = g.size
    p = expit(logit(world.pi) + rng.standard_normal(n_groups))
    y = rng.random(n) < p[g]
    u1 = rng.standard_normal(n_groups)
    u2 = world.rho * u1 + np.sqrt(1 - world.rho**2) * rng.standard_normal(n_groups)
    scores = [world.d[k] * y + np.sqrt(world.icc) * u[g] + np.sqrt(1 - world.icc) * rng.standard_normal(n)
              for k, u in enumerate((u1, u2))]
    ties = [np.unique(-s, return_inverse=True)[1].ravel() for s in scores]
    block = Block("sim", ["a", "b"], y, y.astype(np.int64), np.ones(n), ties, scores)
    if grouped:
        block.cluster = g.astype(np.int64)
        block.cluster_stratum = np.zeros(n_groups, dtype=np.int64)
    return block


def truth(world: World, rng: np.random.Generator, n_groups: int = 200_000) -> np.ndarray:
    """The two models' metrics (2, :data:`BOOT_METRICS`) on one draw of ``n_groups`` groups."""
    return point_metrics(draw(world, n_groups, rng, grouped=False))


def one_run(world: World, n_groups: int, true: np.ndarray, rng: np.random.Generator, *, n_boot: int = N_BOOT_REPLICATE_RANKS,
            alpha: float = 0.05) -> list[dict]:
    """Per metric and method, for grouped and row-level resampling of one sample: ``covers`` (model a's
    interval holds its truth) and ``rejects`` (the paired test of a against b rejects at ``alpha``)."""
    from scipy.stats import norm  # lazy: ~0.5 CPU s a process that never calls it
    block = draw(world, n_groups, rng)
    rows = dataclasses.replace(block, cluster=None, cluster_stratum=None)
    points = point_metrics(block)
    out = []
    for unit, b in (("group", block), ("row", rows)):
        reps = bootstrap(b, n_boot=n_boot, rng=rng, scheme="class")
        lo, hi = percentile(reps, 1 - alpha)
        jack_b = b if unit == "group" else dataclasses.replace(b, stratum=b.y.astype(np.int64))
        jack, strata = jackknife(jack_b, rng=rng)
        jlo, jhi = jackknife_interval(points, jack, strata, 1 - alpha)
        d = reps[:, 0] - reps[:, 1]
        dlo, dhi = np.nanquantile(d, alpha / 2, axis=0), np.nanquantile(d, 1 - alpha / 2, axis=0)
        for c, metric in enumerate(BOOT_METRICS):
            t = true[0, c]
            out.append({"unit": unit, "metric": metric, "method": "bootstrap", "covers": lo[0, c] <= t <= hi[0, c],
                        "rejects": bool(dlo[c] > 0 or dhi[c] < 0)})
            pj = jackknife_pairs(points[:, c], jack[:, :, c], strata, alpha=alpha)
            out.append({"unit": unit, "metric": metric, "method": "jackknife-t",
                        "covers": jlo[0, c] <= t <= jhi[0, c], "rejects": bool(pj.p_raw[0] < alpha)})
    est, cov = delong(block.y, np.vstack(block.scores))
    dlo, dhi = logit_interval(float(est[0]), float(cov[0, 0]), 1 - alpha)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    z = abs(est[0] - est[1]) / np.sqrt(var) if var > 0 else 0.0
    out.append({"unit": "row", "metric": "auroc", "method": "DeLong (logit)",
                "covers": dlo <= true[0, 0] <= dhi, "rejects": bool(2 * norm.sf(z) < alpha)})
    return out
