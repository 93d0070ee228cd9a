"""Subprocess half of tests/stats/test_same_bytes_any_blas.py: the resampling engines' outputs, hashed.

    python tests/_blas_probe.py

Runs, on data made here from a fixed seed, the engines behind the verdicts and the sensitivity tables (and of the
intervals of several analysis steps): the studentized cluster bootstrap (:func:`prspace.stats.cluster_bootstrap.run`: means, a
paired difference, a bounded share, a quartile; its intervals, counted coverage, MC errors and decision p-values),
its power curve, the sign-flip test (:func:`prspace.stats.sign_flip.run`, drawn sign patterns) and DeLong's
simultaneous pairs (:func:`prspace.stats.pairwise.delong_pairs`, simulated max-T). Prints one JSON line: each
output's name and the SHA-256 of its float64 bytes, and the BLAS core type and thread count threadpoolctl saw.  The
machine differences come from the environment the parent sets (``OPENBLAS_CORETYPE``, ``OPENBLAS_NUM_THREADS``,
``NPY_DISABLE_CPU_FEATURES``).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
from threadpoolctl import threadpool_info

from prspace.stats import cluster_bootstrap as CB
from prspace.stats import sign_flip


def _h(x) -> str:
    return hashlib.sha256(np.ascontiguousarray(np.asarray(x, dtype=np.float64)).tobytes()).hexdigest()


def main() -> None:
    rng = np.random.default_rng(20261126)
    n_tasks, n_fam = 140, 37
    fam = np.sort(rng.integers(0, n_fam, n_tasks))
    fam = np.unique(fam, return_inverse=True)[1].ravel()
    x = rng.normal(0.3, 0.2, n_tasks) + 0.1 * rng.normal(size=n_fam)[fam]
    y = x + rng.normal(0.02, 0.05, n_tasks)
    share = (rng.random(n_tasks) < 0.3).astype(float)
    stats = [CB.ratio_stat(x, fam), CB.combo_stat([(1.0, y), (-1.0, x)], fam), CB.quantile_stat(x, fam, 0.25)]
    bounded = CB.ratio_stat(share, fam)
    stats.append(CB.Stat(bounded.S, bounded.N, bounded.w, bounds=(0.0, 1.0)))
    out = {}
    res = CB.run(stats, B=4000, seed=[7, 1], replicates=4, n_out=800, n_in=400)
    alpha = np.full(len(stats), 0.025)
    lo, hi = res.interval(alpha)
    out.update(estimate=_h(res.estimate), se=_h(res.se), t1=_h(res.t1), u=_h(res.u), lo=_h(lo), hi=_h(hi))
    out["mc_error"] = _h(np.concatenate(res.mc_error(alpha)))
    out["coverage"] = _h(np.concatenate([np.ravel(v) for v in res.coverage(alpha).values()]))
    out["decision_ps"] = _h([np.ravel(v[1]).tolist() + [v[0]] for v in res.decision_ps(1, 0.0, 0.01).values()])
    grid, power = CB.power_curve(stats[1], 0.0, 0.01, 0.05, seed=3, reps=300)
    out["power_curve"] = _h(np.r_[grid, power])
    sf = sign_flip.run(y - x, fam, n_sims=400, reruns=3, seed=[5, 2])
    a1 = np.array([0.025])
    sf_ps = [v for item in sf.decision_ps(0, 0.0, 0.01).values() for v in (item[0], *np.ravel(item[1]))]
    out["sign_flip"] = _h(np.r_[np.concatenate(sf.interval_at(a1)), np.concatenate(sf.mc_error(a1)), sf_ps])
    info = [(i.get("internal_api"), i.get("architecture"), i.get("num_threads")) for i in threadpool_info()]
    print(json.dumps({"hashes": out, "blas": info}))


if __name__ == "__main__":
    main()
